package io.github.routingkit.benchmarks;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.config.RoutingSpec;
import java.util.concurrent.TimeUnit;
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
 * Consistent placements against modulo routing at 24 and 1,024 partitions (32-byte keys): jump
 * costs about {@code ln n + 1} dependent steps where modulo is one division; JumpBackHash
 * ({@code jump-back}) costs {@code O(1)} expected steps whatever the partition count.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class PlacementBenchmark {
  @Param({"24", "1024"})
  int partitions;

  private final KeyPool pool = new KeyPool(32);
  private int next;
  private final KeyRouter modulo = RoutingSpec.parse("routing.scheme=kafka-murmur2").keyRouter();
  private final KeyRouter murmur2Jump =
      RoutingSpec.parse("routing.scheme=kafka-murmur2, routing.placement=jump").keyRouter();
  private final KeyRouter xxh3Jump = RoutingSpec.parse("routing.scheme=xxh3-64").keyRouter();
  private final KeyRouter murmur2JumpBack =
      RoutingSpec.parse("routing.scheme=kafka-murmur2, routing.placement=jump-back").keyRouter();
  private final KeyRouter xxh3JumpBack =
      RoutingSpec.parse("routing.scheme=xxh3-64, routing.placement=jump-back").keyRouter();

  @Setup
  public void setUp() {
    modulo.partition(pool.bytes[0], partitions);
  }

  private byte[] key() {
    return pool.bytes[next++ & KeyPool.MASK];
  }

  /** Baseline: murmur2 with Kafka's modulo placement. */
  @Benchmark
  public int moduloMurmur2() {
    return modulo.partition(key(), partitions);
  }

  @Benchmark
  public int jumpMurmur2() {
    return murmur2Jump.partition(key(), partitions);
  }

  @Benchmark
  public int jumpXxh3() {
    return xxh3Jump.partition(key(), partitions);
  }

  @Benchmark
  public int jumpBackMurmur2() {
    return murmur2JumpBack.partition(key(), partitions);
  }

  @Benchmark
  public int jumpBackXxh3() {
    return xxh3JumpBack.partition(key(), partitions);
  }
}
