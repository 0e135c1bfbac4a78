package io.github.routingkit.benchmarks;

import io.github.routingkit.Routers;

import io.github.routingkit.router.HashRouter;
import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.KeyRouter;
import io.github.routingkit.KeylessPolicy;
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

/**
 * Eight threads routing keyless messages through one router: the shared round-robin counter is the
 * only contended state. Compared with an unpadded {@code AtomicInteger} next to other hot fields
 * (the usual hand-written partitioner) and with random choice (no shared state at all).
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
