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
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * String keys through the routers that cannot hash text on the fly (CRC-32 and XXH3 come from
 * libraries that take bytes; the segment router reads a tenant prefix): they encode UTF-8 into a
 * per-thread buffer, so {@code -prof gc} must show 0 B/op. Baseline: murmur2 hashed on the fly.
 * Keys look like {@code tenantN:entity} (30 characters, 24 partitions).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class TextKeyStrategyBenchmark {
  private static final int PARTITIONS = 24;

  private final String[] keys = new String[KeyPool.SIZE];
  private int next;
  private final KeyRouter murmur2 = RoutingSpec.parse("routing.scheme=kafka-murmur2").keyRouter();
  private final KeyRouter crc32 = RoutingSpec.parse("routing.scheme=librdkafka-crc32").keyRouter();
  private final KeyRouter xxh3 = RoutingSpec.parse("routing.scheme=xxh3-64").keyRouter();
  private final KeyRouter segments = RoutingSpec.parse(
      "routing.segment.weights=tenant0:3,tenant1:2,tenant2:1,*:2, routing.segment.exclusive=tenant0")
      .keyRouter();

  public TextKeyStrategyBenchmark() {
    KeyPool pool = new KeyPool(24);
    for (int i = 0; i < KeyPool.SIZE; i++) {
      keys[i] = "tenant" + (i % 7) + ":" + pool.strings[i];
    }
  }

  private String key() {
    return keys[next++ & KeyPool.MASK];
  }

  /** Baseline: murmur2 of the UTF-8 bytes computed on the fly. */
  @Benchmark
  public int murmur2Text() {
    return murmur2.partition(key(), PARTITIONS);
  }

  @Benchmark
  public int crc32Text() {
    return crc32.partition(key(), PARTITIONS);
  }

  @Benchmark
  public int xxh3JumpText() {
    return xxh3.partition(key(), PARTITIONS);
  }

  @Benchmark
  public int segmentRouterText() {
    return segments.partition(key(), PARTITIONS);
  }
}
