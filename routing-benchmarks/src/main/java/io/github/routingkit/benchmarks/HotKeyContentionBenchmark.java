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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Eight threads routing one configured hot key through one router: least-loaded choice reads and
 * bumps shared per-partition load counters, round-robin bumps one shared counter, value-hash keeps
 * no state. Plain murmur2 of the same key (one partition, no state) is the baseline.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@Threads(8)
@State(Scope.Benchmark)
public class HotKeyContentionBenchmark {
  private static final int PARTITIONS = 24;
  private static final byte[] HOT = "hot-a".getBytes(StandardCharsets.UTF_8);
  private static final byte[] VALUE = "{\"order\":17}".getBytes(StandardCharsets.UTF_8);

  private final KeyRouter plain = RoutingSpec.parse("routing.scheme=kafka-murmur2").keyRouter();
  private final KeyRouter leastLoaded =
      RoutingSpec.parse("routing.hotkey.keys=hot-a, routing.hotkey.choice=least-loaded").keyRouter();
  private final KeyRouter roundRobin =
      RoutingSpec.parse("routing.hotkey.keys=hot-a, routing.hotkey.choice=round-robin").keyRouter();
  private final KeyRouter valueHash =
      RoutingSpec.parse("routing.hotkey.keys=hot-a, routing.hotkey.choice=value-hash").keyRouter();

  /** Baseline: the hot key on its single murmur2 partition. */
  @Benchmark
  public int plainMurmur2() {
    return plain.partition(HOT, VALUE, PARTITIONS);
  }

  @Benchmark
  public int hotKeyLeastLoaded() {
    return leastLoaded.partition(HOT, VALUE, PARTITIONS);
  }

  @Benchmark
  public int hotKeyRoundRobin() {
    return roundRobin.partition(HOT, VALUE, PARTITIONS);
  }

  @Benchmark
  public int hotKeyValueHash() {
    return valueHash.partition(HOT, VALUE, PARTITIONS);
  }
}
