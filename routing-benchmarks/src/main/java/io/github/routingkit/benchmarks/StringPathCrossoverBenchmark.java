package io.github.routingkit.benchmarks;

import io.github.routingkit.hash.HashScheme;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
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
 * Where the murmur schemes' two String paths cross (the hash package's {@code Utf8.ENCODE_ABOVE}, 36 chars): hashing the chars
 * in one pass with no allocation ({@code *CharLoop}) against encoding with {@code getBytes(UTF_8)}
 * and hashing words ({@code *Encode}), next to the clients' own String paths. In this package to
 * reach the package-private char loops; not part of the report (run-benchmarks.sh includes only
 * {@code io.github.routingkit.benchmarks}); run it with
 * {@code java -jar routing-benchmarks/target/benchmarks.jar StringPathCrossoverBenchmark}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 600, timeUnit = TimeUnit.MILLISECONDS)
@Fork(2)
@State(Scope.Thread)
public class StringPathCrossoverBenchmark {
  private static final int PARTITIONS = 24;

  @Param({"16", "24", "36", "64", "128"})
  int keyLength;

  private KeyPool pool;
  private int next;

  @Setup
  public void setUp() {
    pool = new KeyPool(keyLength);
  }

  private String key() {
    return pool.strings[next++ & KeyPool.MASK];
  }

  /** kafka-clients: StringSerializer's getBytes(UTF_8), then the built-in keyed path. */
  @Benchmark
  public int kafkaGetBytesMurmur2() {
    return BuiltInPartitioner.partitionForKey(key().getBytes(StandardCharsets.UTF_8), PARTITIONS);
  }

  @Benchmark
  public int murmur2CharLoop() {
    return (CharLoopCopies.murmur2Ascii(key()) & 0x7fffffff) % PARTITIONS;
  }

  @Benchmark
  public int murmur2Encode() {
    byte[] b = key().getBytes(StandardCharsets.UTF_8);
    return (HashScheme.KAFKA_MURMUR2.hash(b, 0, b.length) & 0x7fffffff) % PARTITIONS;
  }

  /** pulsar-client: Murmur3Hash32 (getBytes(UTF_8), then Murmur3_32) and signSafeMod. */
  @Benchmark
  public int pulsarMurmur3() {
    return Math.floorMod(Murmur3Hash32.getInstance().makeHash(key()), PARTITIONS);
  }

  @Benchmark
  public int murmur3CharLoop() {
    return Math.floorMod(CharLoopCopies.murmur3Ascii(key()) & 0x7fffffff, PARTITIONS);
  }

  @Benchmark
  public int murmur3Encode() {
    byte[] b = key().getBytes(StandardCharsets.UTF_8);
    return Math.floorMod(HashScheme.PULSAR_MURMUR3.hash(b, 0, b.length), PARTITIONS);
  }
}
