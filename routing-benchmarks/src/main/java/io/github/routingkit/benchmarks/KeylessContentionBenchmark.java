package io.github.routingkit.benchmarks;

import io.github.routingkit.Routers;

import io.github.routingkit.router.HashRouter;
import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.KeyRouter;
import io.github.routingkit.KeylessPolicy;
import io.github.routingkit.kafka.RoutingPartitioner;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;

/**
 * Eight threads routing keyless messages through one router: the shared round-robin counter is the
 * only contended state. Compared with an unpadded {@code AtomicInteger} next to other hot fields
 * (the usual hand-written partitioner) and with random choice (no shared state at all). Also the
 * Kafka adapter's default keyless policy ({@code kafka-sticky}: a clock read and a compare-and-set
 * on the sticky partition's modeled batch per record) through {@code RoutingPartitioner.partition}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@Threads(8)
@State(Scope.Benchmark)
public class KeylessContentionBenchmark {
  private static final int PARTITIONS = 24;

  private final KeyRouter roundRobin = Routers.kafkaDefault();
  private final KeyRouter random = HashRouter.of(HashScheme.KAFKA_MURMUR2, KeylessPolicy.RANDOM);

  /** A typical hand-written partitioner: a shared counter and a field written on every call. */
  private final NaiveRoundRobin naive = new NaiveRoundRobin();

  static final class NaiveRoundRobin {
    final AtomicInteger counter = new AtomicInteger();
    volatile int lastPartition; // hot field sharing the cache line region

    int next(int n) {
      int p = Math.abs(counter.getAndIncrement() % n);
      lastPartition = p;
      return p;
    }
  }

  private final RoutingPartitioner kafkaSticky = new RoutingPartitioner();
  private final Cluster cluster = cluster();
  private final byte[] value = new byte[100];

  {
    kafkaSticky.configure(Map.of());
  }

  private static Cluster cluster() {
    Node node = new Node(0, "localhost", 9092);
    List<PartitionInfo> infos = new ArrayList<>();
    for (int p = 0; p < PARTITIONS; p++) {
      infos.add(new PartitionInfo("t", p, node, new Node[] {node}, new Node[0]));
    }
    return new Cluster("c", List.of(node), infos, Set.of(), Set.of());
  }

  /** RoutingPartitioner's default keyless policy, 100-byte values, as the producer calls it. */
  @Benchmark
  public int routingPartitionerKafkaSticky() {
    return kafkaSticky.partition("t", null, null, null, value, cluster);
  }

  @Benchmark
  public int routingRoundRobin() {
    return roundRobin.keylessPartition(PARTITIONS);
  }

  @Benchmark
  public int routingRandom() {
    return random.keylessPartition(PARTITIONS);
  }

  @Benchmark
  public int naiveRoundRobin() {
    return naive.next(PARTITIONS);
  }
}
