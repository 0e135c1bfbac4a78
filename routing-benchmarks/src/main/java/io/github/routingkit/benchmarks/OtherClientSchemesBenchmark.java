package io.github.routingkit.benchmarks;

import io.github.routingkit.router.HashRouter;
import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.KeyRouter;
import io.github.routingkit.KeylessPolicy;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
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
 * The schemes of clients that do not run in a JVM — librdkafka's CRC-32 and FNV-1a, Sarama's two
 * FNV-1a partitioners, pulsar-client-go's JavaStringHash — and XXH3 with its jump placement, keyed
 * as {@code byte[]} and as {@code String}. Their built-ins are C and Go, with nothing to race in
 * this JVM, so the baselines are Kafka's: the report's ratios say what choosing one of these
 * schemes costs against the Java producer's default.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class OtherClientSchemesBenchmark {
  @Param({"16", "64", "256"})
  int keyLength;

  @Param({"24"})
  int partitions;

  private KeyPool pool;
  private int next;
  private final KeyRouter crc32 = router(HashScheme.LIBRDKAFKA_CRC32);
  private final KeyRouter librdkafkaFnv1a = router(HashScheme.LIBRDKAFKA_FNV1A);
  private final KeyRouter saramaFnv1a = router(HashScheme.SARAMA_FNV1A);
  private final KeyRouter saramaFnv1aReference = router(HashScheme.SARAMA_FNV1A_REFERENCE);
  private final KeyRouter pulsarGoJavaString = router(HashScheme.PULSAR_GO_JAVA_STRING);
  private final KeyRouter xxh3Jump = router(HashScheme.XXH3_64);

  private static KeyRouter router(HashScheme scheme) {
    return HashRouter.of(scheme, KeylessPolicy.ROUND_ROBIN); // the scheme's native placement
  }

  @Setup
  public void setUp() {
    pool = new KeyPool(keyLength);
  }

  private byte[] bytes() {
    return pool.bytes[next++ & KeyPool.MASK];
  }

  private String text() {
    return pool.strings[next++ & KeyPool.MASK];
  }

  /** Baseline for byte[] keys: the built-in keyed path of kafka-clients 4.x. */
  @Benchmark
  public int kafkaBuiltIn() {
    return BuiltInPartitioner.partitionForKey(bytes(), partitions);
  }

  /** Baseline for String keys: StringSerializer's getBytes(UTF_8), then the built-in keyed path. */
  @Benchmark
  public int kafkaGetBytesMurmur2() {
    return BuiltInPartitioner.partitionForKey(text().getBytes(StandardCharsets.UTF_8), partitions);
  }

  /** librdkafka's {@code consistent} partitioners: CRC-32, the JDK's intrinsic. */
  @Benchmark
  public int librdkafkaCrc32Bytes() {
    return crc32.partition(bytes(), partitions);
  }

  @Benchmark
  public int librdkafkaCrc32String() {
    return crc32.partition(text(), partitions);
  }

  /** librdkafka's {@code fnv1a} partitioners: FNV-1a, one dependent multiply per byte. */
  @Benchmark
  public int librdkafkaFnv1aBytes() {
    return librdkafkaFnv1a.partition(bytes(), partitions);
  }

  @Benchmark
  public int librdkafkaFnv1aString() {
    return librdkafkaFnv1a.partition(text(), partitions);
  }

  /** Sarama's default hash partitioner: FNV-1a, absolute value of the remainder. */
  @Benchmark
  public int saramaFnv1aBytes() {
    return saramaFnv1a.partition(bytes(), partitions);
  }

  @Benchmark
  public int saramaFnv1aString() {
    return saramaFnv1a.partition(text(), partitions);
  }

  /** Sarama's reference hash partitioner: FNV-1a, toPositive. */
  @Benchmark
  public int saramaFnv1aReferenceBytes() {
    return saramaFnv1aReference.partition(bytes(), partitions);
  }

  @Benchmark
  public int saramaFnv1aReferenceString() {
    return saramaFnv1aReference.partition(text(), partitions);
  }

  /** pulsar-client-go's default router: the 31-polynomial over UTF-8 bytes. */
  @Benchmark
  public int pulsarGoJavaStringBytes() {
    return pulsarGoJavaString.partition(bytes(), partitions);
  }

  @Benchmark
  public int pulsarGoJavaStringString() {
    return pulsarGoJavaString.partition(text(), partitions);
  }

  /** XXH3-64 with jump placement: no client's; for new topics. */
  @Benchmark
  public int xxh3JumpBytes() {
    return xxh3Jump.partition(bytes(), partitions);
  }

  @Benchmark
  public int xxh3JumpString() {
    return xxh3Jump.partition(text(), partitions);
  }
}
