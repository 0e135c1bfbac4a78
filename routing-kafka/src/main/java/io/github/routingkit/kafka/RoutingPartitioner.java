package io.github.routingkit.kafka;

import io.github.routingkit.AvailablePartitions;
import io.github.routingkit.KeyRouter;
import io.github.routingkit.KeylessPolicy;
import io.github.routingkit.RoutingConfigException;
import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.metrics.RouterMetrics;
import io.github.routingkit.router.canary.CanarySchedule;
import io.github.routingkit.router.canary.ScheduleFollower;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.Partitioner;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.config.ConfigException;

/**
 * A Kafka {@link Partitioner} that routes by a {@link RoutingSpec} read from the producer's
 * {@code routing.*} properties. Set {@code partitioner.class} to this class.
 *
 * <p><b>Keyed records</b> go to {@code spec.keyRouter().partition(keyBytes, valueBytes, n)} (the
 * value matters only to {@code routing.hotkey.choice=value-hash}) where {@code n} is
 * the topic's partition count ({@code cluster.partitionsForTopic(topic).size()}, all partitions,
 * available or not, as the built-in keyed path counts them). With the default spec
 * ({@code routing.scheme=kafka-murmur2}) every keyed record lands exactly where kafka-clients 4.x
 * puts it without a custom partitioner: {@code toPositive(murmur2(keyBytes)) % n}. Note that with
 * {@code partitioner.class} set, kafka-clients applies neither adaptive partitioning nor
 * {@code partitioner.ignore.keys}.
 *
 * <p><b>Keyless records</b> ({@code keyBytes == null}) by default batch as with kafka-clients'
 * built-in partitioner ({@value #KAFKA_STICKY}): one sticky partition per topic until at least
 * {@code batch.size} bytes (read from the producer configs, default 16384) went to it, then, at the
 * next batch boundary, another drawn uniformly at random among the available partitions. Batch
 * boundaries come from {@link #onNewBatch} on kafka-clients 3.x, and on 4.x from a model of the
 * producer's batches (record sizes, {@code batch.size}, {@code linger.ms}); see
 * {@link BatchStickyKeyless} for how closely that follows upstream. Hot keys and a canary keep
 * this policy (keyless records never reach the hot-key layer; a canary's follow the old spec).
 * Set {@code routing.keyless} to {@code round-robin},
 * {@code sticky} or {@code random} for routing-core's policies, which run over the
 * topic's <em>available</em> partitions (those with a leader) when there are any, else over all
 * partitions, like the former {@code RoundRobinPartitioner}. With segment or version layers (the
 * layers that constrain keyless partitions) the placement is the router's
 * ({@link KeyRouter#keylessPartition(int, AvailablePartitions)}: keyless records stay in the
 * segments' shared range, or the default generation's partitions), under {@code round-robin} when
 * {@code routing.keyless} is {@value #KAFKA_STICKY} or unset.
 * (An empty key is a key: it is hashed.)
 *
 * <p><b>A canary schedule</b> ({@code routing.canary.schedule}): keyed records are routed at the
 * share of the step in force by this producer's clock (never an earlier step than one it already
 * used), so every instance switches at the same instant whenever it started; the producer's
 * {@code delivery.timeout.ms} must not exceed {@code routing.canary.delivery-timeout}.
 *
 * <p>Returns a partition in {@code [0, n)}. Thread-safe: the producer may call it from any thread.
 */
public final class RoutingPartitioner implements Partitioner {
  /**
   * The {@code routing.keyless} value of the built-in-like batching policy, this adapter's default
   * ({@link KeylessPolicy#KAFKA_STICKY} in a spec; a core router outside this adapter runs it as
   * {@code sticky}).
   */
  public static final String KAFKA_STICKY = "kafka-sticky";

  private volatile KeyRouter router = RoutingSpec.defaults().keyRouter();
  /** With {@code routing.canary.schedule}: the router of the step in force; else null. */
  private volatile ScheduleFollower follower;
  private volatile RoutingSpec spec = RoutingSpec.defaults();
  /** The default keyless policy, or null: routing.keyless names a core policy, or segment/version layers. */
  private volatile BatchStickyKeyless batchSticky =
      new BatchStickyKeyless(BatchStickyKeyless.DEFAULT_BATCH_SIZE, lingerMs(null));
  /** What routing.metrics.* publishes (through metric.reporters), or null when off or unconfigured. */
  private volatile RouterMetrics metrics;
  private volatile KafkaMetricsPublisher publisher;

  /**
   * Reads the {@code routing.*} entries of the producer configs, and {@code batch.size} and
   * {@code linger.ms} for the default keyless policy (when absent, the defaults of the
   * kafka-clients version in use: {@code linger.ms} is 5 since 4.0, 0 before).
   *
   * @throws ConfigException naming the property, the value and the rule, for an unknown
   *     {@code routing.*} key or a bad value, or {@code routing.version.source=header} (a
   *     {@code Partitioner} sees no headers; also in a canary's new spec, named as written:
   *     {@code routing.canary.next.version.source}), or a {@code delivery.timeout.ms} above a
   *     schedule's {@code routing.canary.delivery-timeout}
   */
  @Override
  public void configure(Map<String, ?> configs) {
    try {
      RoutingSpec parsed = RoutingSpec.parse(configs);
      String header = parsed.versionFromHeaderProperty();
      if (header != null) {
        throw new RoutingConfigException(header, "header", "cannot be used with"
            + " Kafka: a Partitioner receives no record headers, so every record would silently"
            + " take the default generation; use key-prefix");
      }
      boolean kafkaSticky = configs.get(RoutingSpec.KEYLESS) == null
          || parsed.keyless() == KeylessPolicy.KAFKA_STICKY;
      // with segment or version layers, kafka-sticky keyless records keep the layer's placement
      // under round-robin (core would run kafka-sticky as sticky)
      RoutingSpec routed = kafkaSticky ? parsed.withKeyless(KeylessPolicy.ROUND_ROBIN) : parsed;
      CanarySchedule schedule = parsed.canarySchedule();
      if (schedule != null) {
        checkDeliveryTimeout(configs.get(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG), schedule);
      }
      // layers that constrain keyless partitions keep their own placement (shared range)
      BatchStickyKeyless sticky = kafkaSticky && !constrainsKeyless(parsed)
          ? new BatchStickyKeyless(batchSize(configs.get(ProducerConfig.BATCH_SIZE_CONFIG)),
              lingerMs(configs.get(ProducerConfig.LINGER_MS_CONFIG)))
          : null;
      close();
      KafkaMetricsPublisher published =
          KafkaMetricsPublisher.partitioner(configs, routed, parsed, sticky);
      this.router = published == null ? routed.keyRouter() : published.router().router();
      // the metrics' follower counts what the new router routes and publishes the step
      this.follower = schedule == null ? null : published != null ? published.router().follower()
          : new ScheduleFollower(schedule, routed.withoutCanary().keyRouter(),
              routed.canaryNext().keyRouter());
      this.spec = parsed;
      this.batchSticky = sticky;
      this.metrics = published == null ? null : published.router();
      this.publisher = published;
    } catch (RoutingConfigException e) {
      // no value to show (a required key not given, or given as null): our own message, not
      // Kafka's "Invalid value null for configuration ..."
      throw e.value() == null ? new ConfigException(withAssignorKeys(e.getMessage()))
          : new ConfigException(e.property(), e.value(), withAssignorKeys(e.rule()));
    }
  }

  /**
   * Returns the partition of the record.
   *
   * @return a partition in {@code [0, n)} for the topic's partition count {@code n}
   * @throws IllegalStateException if the cluster metadata knows no partition of {@code topic}
   */
  @Override
  public int partition(
      String topic, Object key, byte[] keyBytes, Object value, byte[] valueBytes, Cluster cluster) {
    List<PartitionInfo> all = cluster.partitionsForTopic(topic);
    int n = all.size();
    if (n == 0) {
      throw new IllegalStateException("no partition metadata for topic " + topic);
    }
    if (keyBytes != null) {
      return keyedPartition(topic, keyBytes, valueBytes, n);
    }
    List<PartitionInfo> available = cluster.availablePartitionsForTopic(topic);
    BatchStickyKeyless sticky = batchSticky;
    int p = sticky != null
        ? sticky.partition(topic, valueBytes == null ? -1 : valueBytes.length, available, n)
        : router.keylessPartition(n, new Available(available));
    RouterMetrics m = metrics;
    if (m != null) {
      m.keyless(topic, n, p);
    }
    return p;
  }

  /**
   * The keyed path, also {@link RoutingProducer}'s: the partition of {@code keyBytes} in
   * {@code [0, n)}, counted by the metrics. The value matters only to value-hash hot keys; every
   * other router ignores it.
   */
  int keyedPartition(String topic, byte[] keyBytes, byte[] valueBytes, int n) {
    ScheduleFollower f = follower;
    KeyRouter keyed = f == null ? router : f.routerAt(System.currentTimeMillis());
    int p = keyed.partition(keyBytes, valueBytes, n);
    RouterMetrics m = metrics;
    if (m != null) {
      m.keyed(topic, n, keyBytes, p);
    }
    return p;
  }

  /** Whether {@link #keyedPartition} reads the value ({@code routing.hotkey.choice=value-hash}). */
  boolean keyedNeedsValue() {
    return router.needsValue();
  }

  /**
   * A schedule's markers go out once every record routed before a step was acknowledged or
   * failed: the producer's {@code delivery.timeout.ms} must not exceed the schedule's bound.
   */
  private static void checkDeliveryTimeout(Object value, CanarySchedule schedule) {
    long ms;
    if (value instanceof Number) {
      ms = ((Number) value).longValue();
    } else if (value != null) {
      try {
        ms = Long.parseLong(value.toString().trim());
      } catch (NumberFormatException e) {
        return; // KafkaProducer rejects it before any record is sent
      }
    } else {
      Object byDefault = ProducerConfig.configDef().defaultValues()
          .get(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG);
      ms = byDefault instanceof Number ? ((Number) byDefault).longValue() : 120_000;
    }
    if (ms > schedule.deliveryTimeoutMillis()) {
      throw new ConfigException(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, value == null
          ? ms + " (the default)" : value, "must be at most " + RoutingSpec.CANARY_DELIVERY_TIMEOUT
          + " (" + schedule.deliveryTimeoutMillis() + " ms): a step's switch markers go out that"
          + " long after the step, so every record routed before it must be acknowledged or"
          + " failed by then; lower delivery.timeout.ms or raise the bound");
    }
  }

  /**
   * Whether the spec sets a layer that constrains where keyless records may go: segments (keyless
   * records stay in the shared range) or versions (they follow the default generation's partition
   * count). Hot keys never see a keyless record, and a canary's keyless records follow the old
   * spec, so neither turns kafka-sticky off (the new spec's routing.canary.next.* layers don't).
   */
  private static boolean constrainsKeyless(RoutingSpec spec) {
    return spec.hasSegments() || spec.hasVersions();
  }

  /** The producer's batch.size as KafkaProducer reads it (an int), else the default. */
  private static int batchSize(Object value) {
    if (value instanceof Number) {
      return ((Number) value).intValue();
    }
    if (value != null) {
      try {
        return Integer.parseInt(value.toString().trim());
      } catch (NumberFormatException e) {
        // KafkaProducer rejects it before any record is sent
      }
    }
    return BatchStickyKeyless.DEFAULT_BATCH_SIZE;
  }

  /**
   * The producer's {@code linger.ms} as KafkaProducer reads it, else the default of the kafka-clients
   * version in use (5 since 4.0, 0 before).
   */
  private static long lingerMs(Object value) {
    if (value instanceof Number) {
      return ((Number) value).longValue();
    }
    if (value != null) {
      try {
        return Long.parseLong(value.toString().trim());
      } catch (NumberFormatException e) {
        // KafkaProducer rejects it before any record is sent
      }
    }
    Object byDefault = ProducerConfig.configDef().defaultValues().get(ProducerConfig.LINGER_MS_CONFIG);
    return byDefault instanceof Number ? ((Number) byDefault).longValue() : 0;
  }

  /**
   * Called by kafka-clients 3.x when the producer opens a new batch for {@code prevPartition}
   * ({@code Partitioner.onNewBatch}, deprecated in 3.3 and removed in 4.0, which never calls it).
   * The default keyless policy takes it as the batch boundary at which it may change the topic's
   * sticky partition, as the built-in partitioner does; other policies ignore it.
   *
   * @param topic the topic
   * @param cluster the cluster metadata
   * @param prevPartition the partition the record had been given
   */
  public void onNewBatch(String topic, Cluster cluster, int prevPartition) {
    BatchStickyKeyless sticky = batchSticky;
    if (sticky != null) {
      List<PartitionInfo> all = cluster.partitionsForTopic(topic);
      sticky.onNewBatch(topic, prevPartition, cluster.availablePartitionsForTopic(topic), all.size());
    }
  }

  /**
   * Returns the {@code linger.ms} the default keyless policy models batches with, or -1 when
   * {@code routing.keyless} selects one of routing-core's policies or the spec has segment or
   * version layers.
   */
  public long keylessLingerMs() {
    BatchStickyKeyless sticky = batchSticky;
    return sticky == null ? -1 : sticky.lingerMs();
  }

  /**
   * Returns the {@code batch.size} the default keyless policy switches partitions at, or -1 when
   * {@code routing.keyless} selects one of routing-core's policies or the spec has segment or
   * version layers.
   */
  public int keylessBatchSize() {
    BatchStickyKeyless sticky = batchSticky;
    return sticky == null ? -1 : sticky.batchSize();
  }

  /** The topic's partitions with a leader, as core's keyless policy reads them. */
  private static final class Available implements AvailablePartitions {
    private final List<PartitionInfo> partitions;

    Available(List<PartitionInfo> partitions) {
      this.partitions = partitions;
    }

    @Override
    public int count() {
      return partitions.size();
    }

    @Override
    public int get(int index) {
      return partitions.get(index).partition();
    }
  }

  /** Returns the spec in force (the defaults until {@link #configure} is called). */
  public RoutingSpec spec() {
    return spec;
  }

  /** Unregisters the metrics (from every metric reporter). */
  @Override
  public void close() {
    KafkaMetricsPublisher p = publisher;
    publisher = null;
    metrics = null;
    if (p != null) {
      p.close();
    }
  }

  /**
   * The spec's list of known properties, followed by the routing.assignor.* keys: a producer
   * config may hold them (one client file for both sides), and this partitioner accepts and
   * ignores them, so a full list must name them too.
   */
  static String withAssignorKeys(String rule) {
    String list = ", known routing properties are [";
    int at = rule.indexOf(list);
    int end = at < 0 ? -1 : rule.indexOf(']', at);
    if (end < 0) {
      return rule;
    }
    return rule.substring(0, end + 1) + ", and the consumer assignors' keys, accepted and ignored"
        + " here: " + RoutingAssignorConfig.KNOWN + rule.substring(end + 1);
  }
}
