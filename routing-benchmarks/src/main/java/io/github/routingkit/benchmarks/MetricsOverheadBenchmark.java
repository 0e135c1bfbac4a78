package io.github.routingkit.benchmarks;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.kafka.RoutingPartitioner;
import io.github.routingkit.metrics.RouterMetrics;
import io.github.routingkit.metrics.TopicMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What metrics cost per routed record: the same router with {@code routing.metrics.enabled=false}
 * and with metrics on (the default), in the same run, 16-byte keys over 24 partitions. The Kafka
 * adapter end to end ({@code Partitioner#partition} with a real {@link Cluster}; metrics published
 * through JMX), and the core router alone with the metrics' record call after it, with and
 * without the sampled hot-key tracker ({@code routing.metrics.hotkey.sample=64}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class MetricsOverheadBenchmark {
  private static final String TOPIC = "orders";
  private static final int PARTITIONS = 24;

  private final KeyPool pool = new KeyPool(16);
  private int next;
  private Cluster cluster;
  private final RoutingPartitioner kafkaOff = new RoutingPartitioner();
  private final RoutingPartitioner kafkaOn = new RoutingPartitioner();
  private KeyRouter coreOff;
  private RouterMetrics metrics;
  private KeyRouter coreOn;
  private TopicMetrics topic;
  private RouterMetrics sampled;
  private KeyRouter coreSampled;
  private TopicMetrics sampledTopic;

  @Setup
  public void setUp() {
    kafkaOff.configure(Map.of("routing.metrics.enabled", "false", "client.id", "bench-off"));
    kafkaOn.configure(Map.of("client.id", "bench-on"));
    Node node = new Node(0, "localhost", 9092);
    List<PartitionInfo> partitions = new ArrayList<>();
    for (int p = 0; p < PARTITIONS; p++) {
      partitions.add(new PartitionInfo(TOPIC, p, node, new Node[] {node}, new Node[] {node}));
    }
    cluster = new Cluster("bench", List.of(node), partitions, Set.of(), Set.of());
    RoutingSpec spec = RoutingSpec.defaults();
    coreOff = spec.keyRouter();
    metrics = RouterMetrics.create("bench-core", spec, spec, System::nanoTime);
    coreOn = metrics.router();
    topic = metrics.topic(TOPIC, PARTITIONS);
    RoutingSpec withTracker = RoutingSpec.parse("routing.metrics.hotkey.sample=64");
    sampled = RouterMetrics.create("bench-sampled", withTracker, withTracker, System::nanoTime);
    coreSampled = sampled.router();
    sampledTopic = sampled.topic(TOPIC, PARTITIONS);
  }

  @TearDown
  public void tearDown() {
    kafkaOff.close();
    kafkaOn.close();
    metrics.close();
    sampled.close();
  }

  /** Baseline: the Kafka adapter with metrics switched off. */
  @Benchmark
  public int kafkaMetricsOff() {
    return kafkaOff.partition(TOPIC, null, pool.bytes[next++ & KeyPool.MASK], null, null, cluster);
  }

  /** The Kafka adapter as configured by default: every record counted per topic and partition. */
  @Benchmark
  public int kafkaMetricsOn() {
    return kafkaOn.partition(TOPIC, null, pool.bytes[next++ & KeyPool.MASK], null, null, cluster);
  }

  /** Baseline: the core router alone. */
  @Benchmark
  public int coreMetricsOff() {
    return coreOff.partition(pool.bytes[next++ & KeyPool.MASK], PARTITIONS);
  }

  /** The core router and the record call of a known topic. */
  @Benchmark
  public int coreMetricsOn() {
    byte[] key = pool.bytes[next++ & KeyPool.MASK];
    int p = coreOn.partition(key, PARTITIONS);
    metrics.keyed(topic, key, p);
    return p;
  }

  /** As {@link #coreMetricsOn()}, with the sampled hot-key tracker (one record in 64). */
  @Benchmark
  public int coreMetricsOnSampledHotKeys() {
    byte[] key = pool.bytes[next++ & KeyPool.MASK];
    int p = coreSampled.partition(key, PARTITIONS);
    sampled.keyed(sampledTopic, key, p);
    return p;
  }
}
