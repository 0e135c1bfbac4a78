package io.github.routingkit.pulsar;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.MessageView;
import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.metrics.RouterMetrics;
import io.github.routingkit.router.HashRouter;
import io.github.routingkit.router.canary.CanarySchedule;
import io.github.routingkit.router.canary.ScheduleFollower;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.util.Objects;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.MessageRouter;
import org.apache.pulsar.client.api.TopicMetadata;

/**
 * A Pulsar {@link MessageRouter} that routes by a {@link RoutingSpec}. Use it with
 * {@code messageRoutingMode(CustomPartition)}, or in one call with
 * {@link PulsarRouting#customPartition}.
 *
 * <p><b>Keyed messages</b> ({@code msg.hasKey()}) are routed by the text of {@code msg.getKey()},
 * exactly the value Pulsar's built-in routers hash: for a key set with {@code keyBytes(...)} that
 * is its Base64 text, not the raw bytes. With {@code routing.scheme=pulsar-java-string} or
 * {@code pulsar-murmur3} every keyed message lands where pulsar-client's {@code RoundRobinPartition}
 * mode with {@code HashingScheme.JavaStringHash} or {@code Murmur3_32Hash} puts it:
 * {@code signSafeMod(hash(key), n)}. The ordering key is not used for partitioning (as in Pulsar).
 *
 * <p><b>Key format</b>: with {@code routing.key.format} other than {@code raw}, a key set with
 * {@code keyBytes(...)} ({@code msg.hasBase64EncodedKey()}) is routed by its bytes
 * ({@code getKeyBytes()}) behind the schema-registry header, so a key serialized under any schema
 * id keeps its partition; a key set as text is routed by its text, as without the setting.
 *
 * <p><b>Keyless messages</b> follow {@code routing.keyless}.
 *
 * <p><b>A canary schedule</b> ({@code routing.canary.schedule}): keyed messages are routed at the
 * share of the step in force by this producer's clock, never an earlier step than one it already
 * used ({@link PulsarRouting#customPartition} also bounds the producer's send timeout).
 *
 * <p><b>Versions</b>: with {@code routing.version.source=header} the routing generation is named by
 * the message property {@code routing.version.header}; with the default key prefix it is part of
 * the key.
 *
 * <p>Returns a partition in {@code [0, topicMetadata.numPartitions())}. Thread-safe, no mutable
 * state on the keyed path (except hot-key detection and load-based hot-key choice, when the spec
 * enables them; see {@code HotKeyRouter}), {@link Serializable} through the spec's string form
 * (re-validated on deserialization; the keyless counter and any hot-key state start afresh).
 */
public final class RoutingMessageRouter implements MessageRouter {
  private static final long serialVersionUID = 1L;

  private final RoutingSpec spec;
  private final transient KeyRouter router;
  /**
   * The spec is Pulsar's default keyed routing alone (no layer, {@code pulsar-java-string} with
   * floor-mod): a keyed message then takes pulsar-client's own line,
   * {@link HashRouter#pulsarDefaultPartition}, without the generic message dispatch.
   */
  private final transient boolean javaStringDefault;
  /** How the router reads messages: byte keys as bytes when the spec has a key format. */
  private final transient MessageView<Message<?>> view;
  /** With {@code routing.canary.schedule}: the router of the step in force; else null. */
  private final transient ScheduleFollower follower;
  /** The producer's metrics ({@link PulsarRouting#customPartition} binds them), or null. */
  private final transient RouterMetrics metrics;
  private final transient String topic;

  /**
   * Creates a router for the spec (recording no metrics; {@link PulsarRouting#customPartition}
   * gives each producer a router that does).
   *
   * @throws NullPointerException if {@code spec} is null
   */
  public RoutingMessageRouter(RoutingSpec spec) {
    this(spec, null, null);
  }

  /** A router that records what it routes in {@code metrics} (null: none) under {@code topic}. */
  RoutingMessageRouter(RoutingSpec spec, RouterMetrics metrics, String topic) {
    this.spec = Objects.requireNonNull(spec, "spec");
    this.metrics = metrics;
    this.topic = topic;
    this.router = metrics == null ? spec.keyRouter() : metrics.router();
    this.javaStringDefault = !spec.hasLayers()
        && HashRouter.isPulsarDefault(spec.scheme(), spec.placement());
    this.view = spec.keyFormat().hasHeader() ? BYTE_KEYS : MESSAGE;
    CanarySchedule schedule = spec.canarySchedule();
    this.follower = schedule == null ? null : metrics != null ? metrics.follower()
        : new ScheduleFollower(schedule, spec.withoutCanary().keyRouter(),
            spec.canaryNext().keyRouter());
  }

  /**
   * Returns the partition of the message.
   *
   * @return a partition in {@code [0, topicMetadata.numPartitions())}
   * @throws IllegalArgumentException if the topic reports fewer than 1 partition
   */
  @Override
  public int choosePartition(Message<?> msg, TopicMetadata topicMetadata) {
    int n = topicMetadata.numPartitions();
    RouterMetrics m = metrics;
    if (javaStringDefault && msg.hasKey()) {
      String key = msg.getKey();
      if (key != null) {
        int p = HashRouter.pulsarDefaultPartition(key, n);
        if (m != null) {
          m.keyed(topic, n, key, p);
        }
        return p;
      }
    }
    KeyRouter r = follower == null ? router : follower.routerAt(System.currentTimeMillis());
    int p = r.partitionOf(msg, view, n);
    if (m != null) {
      String key = msg.hasKey() ? msg.getKey() : null;
      if (key != null) {
        m.keyed(topic, n, key, p);
      } else {
        m.keyless(topic, n, p);
      }
    }
    return p;
  }

  /**
   * How core reads a Pulsar message: the key is its text ({@code getKey()}, what Pulsar's own
   * routers hash), the value {@code getData()} (a copy, fetched only for routers that need it), a
   * header a message property. Package-private for the tests that route through the generic line.
   */
  static final MessageView<Message<?>> MESSAGE = new PulsarMessageView(false);

  /**
   * {@link #MESSAGE}, but a key set with {@code keyBytes(...)} is read as its bytes: the view of a
   * spec with a key format, whose header only a byte key can carry.
   */
  static final MessageView<Message<?>> BYTE_KEYS = new PulsarMessageView(true);

  /** The two views: text keys always as text; byte keys as text, or as bytes. */
  private static final class PulsarMessageView implements MessageView<Message<?>> {
    private final boolean byteKeysAsBytes;

    PulsarMessageView(boolean byteKeysAsBytes) {
      this.byteKeysAsBytes = byteKeysAsBytes;
    }

    @Override
    public CharSequence keyText(Message<?> message) {
      return message.hasKey() && !(byteKeysAsBytes && message.hasBase64EncodedKey())
          ? message.getKey() : null;
    }

    @Override
    public byte[] keyBytes(Message<?> message) {
      // reached only for byte keys when they are read as bytes: keyText covers every other key
      return byteKeysAsBytes && message.hasKey() ? message.getKeyBytes() : null;
    }

    @Override
    public byte[] value(Message<?> message) {
      return message.getData();
    }

    @Override
    public String header(Message<?> message, String name) {
      return message.getProperty(name);
    }
  }

  /** Returns the spec this router follows. */
  public RoutingSpec spec() {
    return spec;
  }

  /** The topic the metrics are recorded under, or null for a router without metrics. */
  String metricsTopic() {
    return topic;
  }

  /** The metrics this router records in, or null. */
  RouterMetrics metrics() {
    return metrics;
  }

  @Override
  public String toString() {
    return "RoutingMessageRouter{" + spec + '}';
  }

  private Object writeReplace() {
    return new Proxy(spec.toString(), spec);
  }

  private void readObject(ObjectInputStream in) throws InvalidObjectException {
    throw new InvalidObjectException("RoutingMessageRouter is deserialized through its proxy");
  }

  /** Serialized form: the spec (and its string form), re-validated on deserialization. */
  private static final class Proxy implements Serializable {
    private static final long serialVersionUID = 1L;
    private final String spec;
    // the spec itself (re-validated through its own serialized form): a list value holding
    // ", a.b=" cannot be told apart from the next pair in the string form
    private final RoutingSpec specValue;

    Proxy(String spec, RoutingSpec specValue) {
      this.spec = spec;
      this.specValue = specValue;
    }

    private Object readResolve() throws InvalidObjectException {
      try {
        if (specValue != null && !specValue.toString().equals(spec)) {
          throw new IllegalArgumentException("string form '" + spec + "' and spec '" + specValue
              + "' differ");
        }
        return new RoutingMessageRouter(specValue != null ? specValue : RoutingSpec.parse(spec));
      } catch (RuntimeException e) {
        InvalidObjectException ex =
            new InvalidObjectException("corrupt RoutingMessageRouter: " + e.getMessage());
        ex.initCause(e);
        throw ex;
      }
    }
  }
}
