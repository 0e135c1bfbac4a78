package io.github.routingkit.kafka;

import io.github.routingkit.AvailablePartitions;
import io.github.routingkit.KeyRouter;
import io.github.routingkit.RoutingConfigException;
import io.github.routingkit.config.RoutingSpec;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.Partitioner;
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
 * <p><b>Keyless records</b> ({@code keyBytes == null}) follow {@code routing.keyless} over the
 * topic's <em>available</em> partitions (those with a leader) when there are any, else over all
 * partitions, like the former {@code RoundRobinPartitioner}; how the policy avoids partitions without
 * a leader is the router's ({@link KeyRouter#keylessPartition(int, AvailablePartitions)}: segment
 * and version layers keep keyless records in their shared range). (An empty key is a key: it is
 * hashed.)
 *
 * <p>Returns a partition in {@code [0, n)}. Thread-safe: the producer may call it from any thread.
 */
public final class RoutingPartitioner implements Partitioner {
  private volatile KeyRouter router = RoutingSpec.defaults().keyRouter();
  private volatile RoutingSpec spec = RoutingSpec.defaults();

  /**
   * Reads the {@code routing.*} entries of the producer configs.
   *
   * @throws ConfigException naming the property, the value and the rule, for an unknown
   *     {@code routing.*} key or a bad value, or {@code routing.version.source=header} (a
   *     {@code Partitioner} sees no headers)
   */
  @Override
  public void configure(Map<String, ?> configs) {
    try {
      RoutingSpec parsed = RoutingSpec.parse(configs);
      if (parsed.readsVersionFromHeader()) {
        throw new RoutingConfigException(RoutingSpec.VERSION_SOURCE, "header", "cannot be used with"
            + " Kafka: a Partitioner receives no record headers, so every record would silently"
            + " take the default generation; use key-prefix");
      }
      this.router = parsed.keyRouter();
      this.spec = parsed;
    } catch (RoutingConfigException e) {
      throw new ConfigException(e.property(), e.value(), e.rule());
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
      // the value matters only to value-hash hot keys; every other router ignores it
      return router.partition(keyBytes, valueBytes, n);
    }
    return router.keylessPartition(n, new Available(cluster.availablePartitionsForTopic(topic)));
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

  @Override
  public void close() {}
}
