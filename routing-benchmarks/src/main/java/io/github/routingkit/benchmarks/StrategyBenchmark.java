package io.github.routingkit.benchmarks;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.config.RoutingSpec;
import java.nio.charset.StandardCharsets;
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
 * The composed strategies on keys that are <em>not</em> hot (the common case they must not slow
 * down), against plain murmur2 routing of the same keys. Keys look like {@code tenantN:entity}
 * (24 partitions).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class StrategyBenchmark {
  private static final int PARTITIONS = 24;

  private final byte[][] keys = new byte[KeyPool.SIZE][];
  private int next;
  private final KeyRouter plain = RoutingSpec.parse("routing.scheme=kafka-murmur2").keyRouter();
  private final KeyRouter segments = RoutingSpec.parse(
      "routing.segment.weights=tenant0:3,tenant1:2,tenant2:1,*:2, routing.segment.exclusive=tenant0")
      .keyRouter();
  private final KeyRouter configuredHotKeys =
      RoutingSpec.parse("routing.hotkey.keys=hot-a,hot-b,hot-c").keyRouter();
  private final KeyRouter detectingHotKeys =
      RoutingSpec.parse("routing.hotkey.detect=true").keyRouter();
  private final KeyRouter detectingSample8 =
      RoutingSpec.parse("routing.hotkey.detect=true, routing.hotkey.sample=8").keyRouter();
  private final KeyRouter detectingSample16 =
      RoutingSpec.parse("routing.hotkey.detect=true, routing.hotkey.sample=16").keyRouter();
  private final KeyRouter versioned = RoutingSpec.parse(
      "routing.version.generations=v1:kafka-murmur2,v2:xxh3-64:jump, routing.version.default=v1")
      .keyRouter();

  public StrategyBenchmark() {
    KeyPool pool = new KeyPool(24);
    for (int i = 0; i < KeyPool.SIZE; i++) {
      keys[i] = ("tenant" + (i % 7) + ":" + pool.strings[i]).getBytes(StandardCharsets.UTF_8);
    }
  }

  private byte[] key() {
    return keys[next++ & KeyPool.MASK];
  }

  /** Baseline: plain murmur2 routing. */
  @Benchmark
  public int plainMurmur2() {
    return plain.partition(key(), PARTITIONS);
  }

  @Benchmark
  public int segmentRouter() {
    return segments.partition(key(), PARTITIONS);
  }

  @Benchmark
  public int hotKeyRouterConfigured() {
    return configuredHotKeys.partition(key(), PARTITIONS);
  }

  /** With online detection every message also updates the heavy-hitter sketch. */
  @Benchmark
  public int hotKeyRouterDetecting() {
    return detectingHotKeys.partition(key(), PARTITIONS);
  }

  /**
   * Detection counting one message in 8 ({@code routing.hotkey.sample=8}); the other messages
   * only check the hot-set filter.
   */
  @Benchmark
  public int hotKeyRouterDetectingSample8() {
    return detectingSample8.partition(key(), PARTITIONS);
  }

  /** Detection counting one message in 16 ({@code routing.hotkey.sample=16}). */
  @Benchmark
  public int hotKeyRouterDetectingSample16() {
    return detectingSample16.partition(key(), PARTITIONS);
  }

  @Benchmark
  public int versionedRouter() {
    return versioned.partition(key(), PARTITIONS);
  }
}
