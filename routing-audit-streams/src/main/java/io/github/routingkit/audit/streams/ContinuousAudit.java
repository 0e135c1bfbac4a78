package io.github.routingkit.audit.streams;

import io.github.routingkit.audit.AuditFinding;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Properties;
import java.util.function.Consumer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * The per-key ordering audit as a Kafka Streams topology: it reads the audit events that
 * {@code KafkaTopicAuditRecorder}s ship to a topic (key: the logical key, value: the
 * {@code AuditLog} line), applies the batch audit's own rules ({@code KeyStreamState}) per key
 * stream, and writes each out-of-order pair to the pairs topic ({@code AuditLog.findingLine}:
 * cause, layer, evidence and both records; key: the logical key), so the same events give the
 * same pairs and causes as {@code routing audit} on a log.
 *
 * <p>Processing, per input partition (all events of one key are in one partition):
 * <ol>
 *   <li>Events are put in observation-time order first: each waits in a buffer store until the
 *       task's stream time (the highest observation time seen) or the wall clock is
 *       {@link Builder#grace grace} past it, then they are applied in (observation time, input
 *       offset) order, the order the batch audit merges logs in. An event older than what was
 *       already applied is applied on arrival and counted as {@code late}.</li>
 *   <li>Per key stream (topic, producer, epoch, key) the state store keeps the record with the
 *       highest sequence (its audit line), whether the stream had a pair, and when it was last
 *       seen.</li>
 *   <li><b>Retention</b>: a stream not seen for {@link Builder#retention retention} of stream
 *       time is forgotten (a scan every {@link Builder#retentionScan retentionScan} of wall clock
 *       time, so a stream lives at most retention plus one scan interval after its last event)
 *       and counted as {@code expired-streams}; a pair whose earlier message arrives after that is
 *       missed. The state stays bounded by the streams active within the retention.</li>
 *   <li>Totals (records, streams, duplicates, pairs per cause, late, bad events, expired
 *       streams) are kept per task in the task's store and published as the instance's metrics
 *       (group {@value #METRIC_GROUP}, names {@code <total>-total}, tag {@code instance}), and
 *       read with {@link #totals()}.</li>
 * </ol>
 *
 * <p>Guarantees: with {@code processing.guarantee=exactly_once_v2} (what
 * {@link #streamsConfig} sets unless told otherwise) state, buffer, totals, output and input
 * offsets commit together, so a crash or restart of an instance neither loses nor repeats a pair
 * and the totals stay exact. With {@code at_least_once}, events replayed after a crash are
 * applied again: a pair may be written twice and a replayed event may be reported as a pair
 * against its own later successor. The {@link Builder#onPair} listener is called when this
 * instance finds a pair, before its transaction commits (so, rarely, twice for one pair).
 *
 * <p>One {@code ContinuousAudit} per {@code KafkaStreams} instance (its totals are the
 * instance's). Thread-safe.
 */
public final class ContinuousAudit {
  /** The metric group of the totals. */
  public static final String METRIC_GROUP = "routingkit-audit";
  /** Default events topic. */
  public static final String DEFAULT_EVENTS_TOPIC = "routingkit-audit-events";
  /** Default pairs topic. */
  public static final String DEFAULT_PAIRS_TOPIC = "routingkit-audit-pairs";
  static final String STATE_STORE = "routingkit-audit-streams";
  static final String BUFFER_STORE = "routingkit-audit-buffer";
  static final String META_STORE = "routingkit-audit-meta";

  private final String eventsTopic;
  private final String pairsTopic;
  private final Duration grace;
  private final Duration retention;
  private final Duration retentionScan;
  private final Duration releaseInterval;
  private final String instance;
  private final Consumer<AuditFinding> onPair;
  private final boolean inMemory;
  private final AuditTotals totals = new AuditTotals();

  private ContinuousAudit(Builder b) {
    this.eventsTopic = b.eventsTopic;
    this.pairsTopic = b.pairsTopic;
    this.grace = b.grace;
    this.retention = b.retention;
    this.retentionScan = b.retentionScan;
    this.releaseInterval = b.releaseInterval;
    this.instance = b.instance != null ? b.instance
        : Integer.toHexString(System.identityHashCode(this));
    this.onPair = b.onPair;
    this.inMemory = b.inMemory;
  }

  /** Returns a builder with the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Builds the topology: source {@code eventsTopic}, the audit processor with its three stores
   * ({@value #STATE_STORE}, {@value #BUFFER_STORE}, {@value #META_STORE}; RocksDB unless
   * {@link Builder#inMemoryStores}, cached, changelogged), sink {@code pairsTopic}. Give it to
   * exactly one {@code KafkaStreams}.
   *
   * @return a new topology
   */
  public Topology topology() {
    StoreBuilder<KeyValueStore<String, byte[]>> state = Stores.keyValueStoreBuilder(
        store(STATE_STORE), Serdes.String(), Serdes.ByteArray()).withCachingEnabled();
    StoreBuilder<KeyValueStore<Bytes, String>> buffer = Stores.keyValueStoreBuilder(
        store(BUFFER_STORE), Serdes.Bytes(), Serdes.String()).withCachingEnabled();
    StoreBuilder<KeyValueStore<String, Long>> meta = Stores.keyValueStoreBuilder(
        store(META_STORE), Serdes.String(), Serdes.Long()).withCachingEnabled();
    Topology t = new Topology();
    t.addSource("audit-events", Serdes.String().deserializer(), Serdes.String().deserializer(),
        eventsTopic);
    t.addProcessor("ordering-audit", () -> new OrderingAuditProcessor(this), "audit-events");
    t.addStateStore(state, "ordering-audit");
    t.addStateStore(buffer, "ordering-audit");
    t.addStateStore(meta, "ordering-audit");
    t.addSink("audit-pairs", pairsTopic, Serdes.String().serializer(),
        Serdes.String().serializer(), "ordering-audit");
    return t;
  }

  private org.apache.kafka.streams.state.KeyValueBytesStoreSupplier store(String name) {
    return inMemory ? Stores.inMemoryKeyValueStore(name) : Stores.persistentKeyValueStore(name);
  }

  /**
   * Returns Kafka Streams settings for the audit: the application id (it names the consumer
   * group, the changelog topics and the state directory), the bootstrap servers, the processing
   * guarantee, and the state directory if given. Add security settings to the result.
   *
   * @param applicationId the application id; every instance of one audit uses the same one
   * @param bootstrapServers the cluster of the events topic
   * @param exactlyOnce true for {@code exactly_once_v2} (recommended), false for
   *     {@code at_least_once} (see the class comment)
   * @param stateDir the state directory, or null for Kafka Streams' default
   * @return the settings
   * @throws NullPointerException if the application id or the servers are null
   */
  public static Properties streamsConfig(String applicationId, String bootstrapServers,
      boolean exactlyOnce, Path stateDir) {
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, Objects.requireNonNull(applicationId));
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, Objects.requireNonNull(bootstrapServers));
    p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG,
        exactlyOnce ? StreamsConfig.EXACTLY_ONCE_V2 : StreamsConfig.AT_LEAST_ONCE);
    if (stateDir != null) {
      p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    }
    return p;
  }

  /** Returns this instance's running totals (see {@link AuditTotals}). */
  public AuditTotals totals() {
    return totals;
  }

  /** Returns the events topic. */
  public String eventsTopic() {
    return eventsTopic;
  }

  /** Returns the pairs topic. */
  public String pairsTopic() {
    return pairsTopic;
  }

  Duration grace() {
    return grace;
  }

  Duration retention() {
    return retention;
  }

  Duration retentionScan() {
    return retentionScan;
  }

  Duration releaseInterval() {
    return releaseInterval;
  }

  String instance() {
    return instance;
  }

  void pairFound(AuditFinding f) {
    if (onPair != null) {
      try {
        onPair.accept(f);
      } catch (RuntimeException e) {
        // a listener never stops the audit
      }
    }
  }

  /** Builds a {@link ContinuousAudit}. Not thread-safe. */
  public static final class Builder {
    private String eventsTopic = DEFAULT_EVENTS_TOPIC;
    private String pairsTopic = DEFAULT_PAIRS_TOPIC;
    private Duration grace = Duration.ofSeconds(5);
    private Duration retention = Duration.ofDays(7);
    private Duration retentionScan = Duration.ofMinutes(10);
    private Duration releaseInterval = Duration.ofSeconds(1);
    private String instance;
    private Consumer<AuditFinding> onPair;
    private boolean inMemory;

    private Builder() {}

    /**
     * Keeps the stores in memory instead of RocksDB (still changelogged, so restored on a
     * restart; the heap then holds every key stream): for small audits and tests.
     */
    public Builder inMemoryStores(boolean inMemory) {
      this.inMemory = inMemory;
      return this;
    }

    /**
     * Sets the topic the recorders ship events to (default {@value #DEFAULT_EVENTS_TOPIC}).
     *
     * @throws IllegalArgumentException if blank
     */
    public Builder eventsTopic(String topic) {
      this.eventsTopic = topicName(topic, "events topic");
      return this;
    }

    /**
     * Sets the topic the pairs go to (default {@value #DEFAULT_PAIRS_TOPIC}).
     *
     * @throws IllegalArgumentException if blank
     */
    public Builder pairsTopic(String topic) {
      this.pairsTopic = topicName(topic, "pairs topic");
      return this;
    }

    /**
     * Sets how long an event waits for events of other consumers observed before it
     * (default 5 s): at least the recorders' delay plus the consumers' clock skew.
     *
     * @throws IllegalArgumentException if negative or over one day
     */
    public Builder grace(Duration grace) {
      this.grace = within(grace, Duration.ZERO, Duration.ofDays(1), "grace");
      return this;
    }

    /**
     * Sets how long a key stream is kept after its last event, in stream time (default 7 days).
     *
     * @throws IllegalArgumentException if under 1 s or over 3650 days
     */
    public Builder retention(Duration retention) {
      this.retention = within(retention, Duration.ofSeconds(1), Duration.ofDays(3650),
          "retention");
      return this;
    }

    /**
     * Sets how often (wall clock) the state is scanned for streams past the retention
     * (default 10 min).
     *
     * @throws IllegalArgumentException if under 1 ms or over one day
     */
    public Builder retentionScan(Duration interval) {
      this.retentionScan = within(interval, Duration.ofMillis(1), Duration.ofDays(1),
          "retention scan interval");
      return this;
    }

    /**
     * Sets how often (wall clock) buffered events older than the grace period are applied when
     * no new event arrives (default 1 s).
     *
     * @throws IllegalArgumentException if under 1 ms or over one hour
     */
    public Builder releaseInterval(Duration interval) {
      this.releaseInterval = within(interval, Duration.ofMillis(1), Duration.ofHours(1),
          "release interval");
      return this;
    }

    /**
     * Sets the {@code instance} tag of this instance's metrics (default: a hex identity), so
     * several instances in one JVM publish apart.
     *
     * @throws IllegalArgumentException if blank
     */
    public Builder instance(String name) {
      if (name == null || name.isBlank()) {
        throw new IllegalArgumentException("instance name must not be blank");
      }
      this.instance = name;
      return this;
    }

    /** Sets a listener called with each pair this instance finds (see the class comment). */
    public Builder onPair(Consumer<AuditFinding> listener) {
      this.onPair = listener;
      return this;
    }

    /** Returns the audit. */
    public ContinuousAudit build() {
      return new ContinuousAudit(this);
    }

    private static String topicName(String topic, String what) {
      if (topic == null || topic.isBlank()) {
        throw new IllegalArgumentException(what + " must not be blank");
      }
      return topic;
    }

    private static Duration within(Duration d, Duration min, Duration max, String what) {
      Objects.requireNonNull(d, what);
      if (d.compareTo(min) < 0 || d.compareTo(max) > 0) {
        throw new IllegalArgumentException(what + " must be in [" + min + ", " + max + "], was "
            + d);
      }
      return d;
    }
  }
}
