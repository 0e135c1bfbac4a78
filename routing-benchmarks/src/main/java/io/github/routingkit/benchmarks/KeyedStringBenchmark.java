package io.github.routingkit.benchmarks;

import io.github.routingkit.Routers;

import io.github.routingkit.router.HashRouter;
import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.KeyRouter;
import io.github.routingkit.KeylessPolicy;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.apache.pulsar.client.impl.JavaStringHash;
import org.apache.pulsar.client.impl.Murmur3Hash32;
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
 * Keyed routing of {@code String} keys. The clients encode the key ({@code getBytes(UTF_8)}, an
 * allocation and a copy) and hash the bytes; RoutingKit hashes the UTF-8 encoding on the fly.
 *
 * <p>The {@code *Fresh} benchmarks hash a freshly built String per call ({@code new String(char[])},
 * whose cost both arms pay, see {@link #freshStringOnly()}), because {@code String#hashCode} is
 * cached per instance and a reused String would make {@code JavaStringHash} look free.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class KeyedStringBenchmark {
  @Param({"16", "64", "256"})
  int keyLength;

  @Param({"24"})
  int partitions;

  private KeyPool pool;
  private int next;
  private final KeyRouter kafka = Routers.kafkaDefault();
  private final KeyRouter murmur3 = HashRouter.of(HashScheme.PULSAR_MURMUR3, KeylessPolicy.ROUND_ROBIN);
  private final KeyRouter javaString = Routers.pulsarDefault();

  @Setup
  public void setUp() {
    pool = new KeyPool(keyLength);
  }

  private String key() {
    return pool.strings[next++ & KeyPool.MASK];
  }

  private String freshKey() {
    return new String(pool.chars[next++ & KeyPool.MASK]);
  }

  /** Baseline: StringSerializer's getBytes(UTF_8), then the built-in keyed path. */
  @Benchmark
  public int kafkaGetBytesMurmur2() {
    return BuiltInPartitioner.partitionForKey(key().getBytes(StandardCharsets.UTF_8), partitions);
  }

  @Benchmark
  public int routingKafkaMurmur2() {
    return kafka.partition(key(), partitions);
  }

  /** Baseline: pulsar-client's Murmur3Hash32 (getBytes(UTF_8) + Murmur3_32) and signSafeMod. */
  @Benchmark
  public int pulsarMurmur3() {
    return Math.floorMod(Murmur3Hash32.getInstance().makeHash(key()), partitions);
  }

  @Benchmark
  public int routingPulsarMurmur3() {
    return murmur3.partition(key(), partitions);
  }

  /**
   * The floor for any String path that must stay bit-exact with murmur2: the same keys already
   * encoded, hashed a word at a time with nothing to encode. No String arm can beat it, so its
   * ratio to {@link #kafkaGetBytesMurmur2} bounds what a String target can ask for.
   */
  @Benchmark
  public int encodedBytesFloorMurmur2() {
    return kafka.partition(pool.bytes[next++ & KeyPool.MASK], partitions);
  }

  /** Cost of building the fresh String alone, paid by both *Fresh arms. */
  @Benchmark
  public String freshStringOnly() {
    return freshKey();
  }

  /** Baseline: pulsar-client's JavaStringHash on a String whose hashCode is not cached yet. */
  @Benchmark
  public int pulsarJavaStringFresh() {
    return Math.floorMod(JavaStringHash.getInstance().makeHash(freshKey()), partitions);
  }

  @Benchmark
  public int routingPulsarJavaStringFresh() {
    return javaString.partition(freshKey(), partitions);
  }
}
