package io.github.routingkit.kafka.streams;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.RoutingConfigException;
import io.github.routingkit.config.RoutingProperty;
import io.github.routingkit.config.RoutingSpec;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.processor.StreamPartitioner;

/**
 * A Kafka Streams {@link StreamPartitioner} that puts every key on the partition
 * {@link io.github.routingkit.kafka.RoutingPartitioner} gives it under the same {@link RoutingSpec},
 * so a Streams application can write, repartition and query a topic that producers route with
 * RoutingKit. Use one instance (or equal ones) everywhere the key's partition matters:
 * <pre>{@code
 * RoutingStreamPartitioner<String, Long> p = RoutingStreamPartitioner.of(spec, new StringSerializer());
 * stream.to("totals", Produced.with(Serdes.String(), Serdes.Long()).withStreamPartitioner(p));
 * stream.repartition(Repartitioned.<String, Long>streamPartitioner(p).withNumberOfPartitions(12));
 * streams.queryMetadataForKey("store", key, p.forKeys());
 * }</pre>
 * Without it, Streams writes repartition and output topics with its default partitioner
 * ({@code toPositive(murmur2(keyBytes)) % n}), so records of a key produced through a
 * non-default spec meet the key's state on another partition, co-partitioned joins miss, and
 * interactive queries go to an instance that does not hold the key.
 *
 * <p><b>Keys.</b> The key is serialized with the given serializer
 * ({@code serialize(topic, key)}, as Streams' own partitioner does) and routed with
 * {@code spec.keyRouter().partition(keyBytes, n)}: the same partition as {@code RoutingPartitioner}
 * with a producer whose key serializer writes the same bytes. A {@code null} key (or a serializer
 * returning {@code null}) follows {@code routing.keyless} over all {@code n} partitions.
 *
 * <p><b>Both interface generations.</b> Implements {@link #partitions(String, Object, Object,
 * int)} (KIP-837, kafka-streams 3.4 and later; the only abstract method from 4.0) and
 * {@link #partition(String, Object, Object, int)}, abstract up to 3.9 and removed in 4.0; both
 * give the same single partition (this class never multicasts).
 *
 * <p><b>Specs it refuses.</b> Stateful Streams operations keep a key's state on exactly one
 * partition, so the adapter rejects a spec with a hot-key layer ({@code routing.hotkey.*}: it
 * spreads one key over several partitions, which would split the key's aggregate and miss joins)
 * and {@code routing.version.source=header} (a {@code StreamPartitioner} sees no headers),
 * wherever they appear in the composed spec: also in a canary's new spec
 * ({@code routing.canary.next.hotkey.*}, {@code routing.canary.next.version.source=header}). The
 * refusal names the property as written.
 *
 * <p>Thread-safe (Streams may call it from every stream thread) if the serializer is; immutable
 * apart from the keyless policy's state.
 *
 * @param <K> the key type
 * @param <V> the value type (unused: no accepted spec reads the value)
 */
public final class RoutingStreamPartitioner<K, V> implements StreamPartitioner<K, V> {
  private final RoutingSpec spec;
  private final KeyRouter router;
  private final Serializer<? super K> keySerializer;

  private RoutingStreamPartitioner(RoutingSpec spec, Serializer<? super K> keySerializer) {
    this.spec = Objects.requireNonNull(spec, "spec");
    this.keySerializer = Objects.requireNonNull(keySerializer, "keySerializer");
    Map<String, String> hotKeys = spec.layerProperties(RoutingProperty.Layer.HOTKEY);
    if (!hotKeys.isEmpty()) {
      String property = hotKeys.keySet().iterator().next();
      throw new RoutingConfigException(property, hotKeys.get(property), "cannot be used"
          + " with Kafka Streams: a hot-key layer spreads one key over several partitions, and"
          + " Streams keeps a key's state (aggregates, join windows, stores) on one partition;"
          + " drop the hot-key properties " + hotKeys.keySet() + " from the spec given to the"
          + " StreamPartitioner");
    }
    String header = spec.versionFromHeaderProperty();
    if (header != null) {
      throw new RoutingConfigException(header, "header", "cannot be used with"
          + " Kafka Streams: a StreamPartitioner receives no record headers; use key-prefix");
    }
    this.router = spec.keyRouter();
  }

  /**
   * Returns a partitioner for {@code spec} that serializes keys with {@code keySerializer} (the
   * serializer of the key serde of the topic it writes; an already-configured instance).
   *
   * @throws io.github.routingkit.RoutingConfigException (an {@link IllegalArgumentException})
   *     naming the property, if the spec has a hot-key layer or takes versions from a header
   * @throws NullPointerException if an argument is null
   */
  public static <K, V> RoutingStreamPartitioner<K, V> of(
      RoutingSpec spec, Serializer<? super K> keySerializer) {
    return new RoutingStreamPartitioner<>(spec, keySerializer);
  }

  /**
   * Returns a partitioner for the {@code routing.*} entries of {@code configs} (for example the
   * producer properties whose {@code partitioner.class} is {@code RoutingPartitioner}); other
   * entries are ignored.
   *
   * @throws ConfigException naming the property, the value and the rule, for an unknown
   *     {@code routing.*} key, a bad value or a spec the class comment says it refuses
   * @throws NullPointerException if an argument is null
   */
  public static <K, V> RoutingStreamPartitioner<K, V> fromConfigs(
      Map<String, ?> configs, Serializer<? super K> keySerializer) {
    try {
      return new RoutingStreamPartitioner<>(RoutingSpec.parse(configs), keySerializer);
    } catch (RoutingConfigException e) {
      throw new ConfigException(e.property(), e.value(), e.rule());
    }
  }

  /**
   * Returns the one partition of the record, as a singleton set.
   *
   * @param numPartitions the topic's partition count, at least 1
   * @return {@code Optional.of(Set.of(p))} with {@code p} in {@code [0, numPartitions)}; never empty
   *     (an empty result would hand the record to the producer's partitioner)
   * @throws IllegalArgumentException if {@code numPartitions < 1}
   */
  @Override
  public Optional<Set<Integer>> partitions(String topic, K key, V value, int numPartitions) {
    return Optional.of(Set.of(partitionOf(topic, key, numPartitions)));
  }

  /**
   * Returns the partition of the record: the pre-KIP-837 method, abstract in kafka-streams up to
   * 3.9 and gone in 4.0 (on 4.x it is an ordinary method). Equal to the single element of
   * {@link #partitions(String, Object, Object, int)}.
   *
   * @return a partition in {@code [0, numPartitions)}, never null
   * @throws IllegalArgumentException if {@code numPartitions < 1}
   */
  public Integer partition(String topic, K key, V value, int numPartitions) {
    return partitionOf(topic, key, numPartitions);
  }

  /**
   * Returns this partitioner typed for any value, for
   * {@code KafkaStreams.queryMetadataForKey(store, key, partitioner)}, whose partitioner parameter
   * is {@code StreamPartitioner<? super K, ?>}; it is this same instance.
   */
  @SuppressWarnings("unchecked")
  public <W> RoutingStreamPartitioner<K, W> forKeys() {
    return (RoutingStreamPartitioner<K, W>) this;
  }

  /** Returns the spec this partitioner routes by. */
  public RoutingSpec spec() {
    return spec;
  }

  private int partitionOf(String topic, K key, int numPartitions) {
    if (numPartitions < 1) {
      throw new IllegalArgumentException("numPartitions was " + numPartitions + " for topic "
          + topic + ", must be at least 1");
    }
    byte[] keyBytes = key == null ? null : keySerializer.serialize(topic, key);
    return keyBytes == null ? router.keylessPartition(numPartitions)
        : router.partition(keyBytes, numPartitions);
  }

  @Override
  public String toString() {
    return "RoutingStreamPartitioner[" + spec + "]";
  }
}
