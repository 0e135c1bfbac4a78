package io.github.routingkit.benchmarks;

import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.metrics.RouterMetrics;
import io.github.routingkit.metrics.TopicMetrics;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Eight threads counting records on the partitions of one topic, each thread on its own
 * partitions (as eight producing threads spread over 24 partitions): the metrics' striped counters
 * ({@code TopicMetrics}, a row per thread, padded) against a shared {@link AtomicLongArray} (the
 * obvious per-partition counter: neighbouring partitions share cache lines) and one
 * {@link LongAdder} per partition (the JDK's striped counter). With no false sharing the striped
 * counters cost about what one thread pays alone.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@Threads(8)
@State(Scope.Benchmark)
public class MetricsContentionBenchmark {
  private static final int PARTITIONS = 24;

  private final AtomicLongArray shared = new AtomicLongArray(PARTITIONS);
  private final LongAdder[] adders = new LongAdder[PARTITIONS];
  private final AtomicInteger threads = new AtomicInteger();
  private RouterMetrics metrics;
  private TopicMetrics topic;

  /** Each benchmark thread's own partitions: 3 of the 24, next to the other threads'. */
  @State(Scope.Thread)
  public static class Worker {
    int base;
    int next;

    @Setup
    public void setUp(MetricsContentionBenchmark b) {
      base = b.threads.getAndIncrement() % 8 * 3;
    }

    int partition() {
      return base + (next++ % 3);
    }
  }

  @Setup
  public void setUp() {
    for (int p = 0; p < PARTITIONS; p++) {
      adders[p] = new LongAdder();
    }
    RoutingSpec spec = RoutingSpec.defaults();
    metrics = RouterMetrics.create("bench-contention", spec, spec, System::nanoTime);
    topic = metrics.topic("orders", PARTITIONS);
  }

  @TearDown
  public void tearDown() {
    metrics.close();
  }

  @Benchmark
  public void stripedTopicMetrics(Worker w) {
    topic.keyed(w.partition());
  }

  @Benchmark
  public void sharedAtomicLongArray(Worker w) {
    shared.incrementAndGet(w.partition());
  }

  @Benchmark
  public void longAdderPerPartition(Worker w) {
    adders[w.partition()].increment();
  }
}
