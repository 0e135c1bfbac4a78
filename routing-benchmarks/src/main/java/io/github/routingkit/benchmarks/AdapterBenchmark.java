package io.github.routingkit.benchmarks;

import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.kafka.RoutingPartitioner;
import io.github.routingkit.pulsar.RoutingMessageRouter;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.pulsar.client.api.HashingScheme;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.MessageRouter;
import org.apache.pulsar.client.api.Schema;
import org.apache.pulsar.client.api.TopicMetadata;
import org.apache.pulsar.client.impl.MessageImpl;
import org.apache.pulsar.client.impl.RoundRobinPartitionMessageRouterImpl;
import org.apache.pulsar.common.api.proto.MessageMetadata;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The adapters end to end, next to what the clients do without them, in the same run: Kafka's
 * {@code Partitioner#partition} with a real {@link Cluster} (24 partitions) against the built-in
 * keyed path, and Pulsar's {@code MessageRouter#choosePartition} on real {@link MessageImpl}
 * messages against pulsar-client's {@link RoundRobinPartitionMessageRouterImpl} with each hashing
 * scheme.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class AdapterBenchmark {
  private static final String TOPIC = "orders";
  private static final int PARTITIONS = 24;

  @Param({"16", "64", "256"})
  int keyLength;

  private KeyPool pool;
  private Message<?>[] messages;
  private int next;
  private Cluster cluster;
  private final RoutingPartitioner kafkaAdapter = new RoutingPartitioner();
  private final TopicMetadata metadata = () -> PARTITIONS;
  private final MessageRouter pulsarJavaString =
      new RoundRobinPartitionMessageRouterImpl(HashingScheme.JavaStringHash, 0, false, 0);
  private final MessageRouter pulsarMurmur3 =
      new RoundRobinPartitionMessageRouterImpl(HashingScheme.Murmur3_32Hash, 0, false, 0);
  private final MessageRouter routingJavaString = new RoutingMessageRouter(
      RoutingSpec.parse(Map.of(RoutingSpec.SCHEME, "pulsar-java-string")));
  private final MessageRouter routingMurmur3 = new RoutingMessageRouter(
      RoutingSpec.parse(Map.of(RoutingSpec.SCHEME, "pulsar-murmur3")));

  @Setup
  public void setUp() {
    pool = new KeyPool(keyLength);
    kafkaAdapter.configure(Map.of());
    Node node = new Node(0, "localhost", 9092);
    List<PartitionInfo> partitions = new ArrayList<>();
    for (int p = 0; p < PARTITIONS; p++) {
      partitions.add(new PartitionInfo(TOPIC, p, node, new Node[] {node}, new Node[] {node}));
    }
    cluster = new Cluster("bench", List.of(node), partitions, Set.of(), Set.of());
    messages = new Message<?>[KeyPool.SIZE];
    for (int i = 0; i < KeyPool.SIZE; i++) {
      MessageMetadata md = new MessageMetadata()
          .setProducerName("bench").setSequenceId(i).setPublishTime(0L)
          .setPartitionKey(pool.strings[i]);
      messages[i] = MessageImpl.create(md, ByteBuffer.allocate(0), Schema.BYTES, TOPIC);
    }
  }

  /** Baseline: what the Kafka producer does for a keyed record without partitioner.class. */
  @Benchmark
  public int kafkaBuiltIn() {
    byte[] key = pool.bytes[next++ & KeyPool.MASK];
    return BuiltInPartitioner.partitionForKey(key, cluster.partitionsForTopic(TOPIC).size());
  }

  /**
   * What both Kafka paths share, without any hash: the metadata lookup and the {@code %} over a
   * value read from the key (its first byte and length, so nothing is hoisted). The built-in's
   * time minus this is what its murmur2 and glue cost.
   */
  @Benchmark
  public int kafkaLookupAndDivideOnly() {
    byte[] key = pool.bytes[next++ & KeyPool.MASK];
    return ((key[0] << 8 ^ key.length * 0x9E3779B1) & Integer.MAX_VALUE)
        % cluster.partitionsForTopic(TOPIC).size();
  }

  @Benchmark
  public int kafkaRoutingPartitioner() {
    byte[] key = pool.bytes[next++ & KeyPool.MASK];
    return kafkaAdapter.partition(TOPIC, null, key, null, null, cluster);
  }

  @Benchmark
  public int pulsarRoundRobinJavaString() {
    return pulsarJavaString.choosePartition(messages[next++ & KeyPool.MASK], metadata);
  }

  @Benchmark
  public int pulsarRoutingJavaString() {
    return routingJavaString.choosePartition(messages[next++ & KeyPool.MASK], metadata);
  }

  @Benchmark
  public int pulsarRoundRobinMurmur3() {
    return pulsarMurmur3.choosePartition(messages[next++ & KeyPool.MASK], metadata);
  }

  @Benchmark
  public int pulsarRoutingMurmur3() {
    return routingMurmur3.choosePartition(messages[next++ & KeyPool.MASK], metadata);
  }
}
