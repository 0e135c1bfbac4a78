package io.github.routingkit.benchmarks;

import io.github.routingkit.HashRouter;
import io.github.routingkit.HashScheme;
import io.github.routingkit.KeyRouter;
import io.github.routingkit.KeylessPolicy;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.apache.kafka.common.utils.Utils;
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
 * Keyed routing of {@code byte[]} keys (what a Kafka producer's partitioner receives) against
 * kafka-clients' own keyed path, {@code BuiltInPartitioner.partitionForKey} =
 * {@code toPositive(Utils.murmur2(key)) % n}, in the same run.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class KeyedBytesBenchmark {
  @Param({"16", "64", "256"})
  int keyLength;

  @Param({"24"})
  int partitions;

  private KeyPool pool;
  private int next;
  private final KeyRouter kafka = HashRouter.kafkaDefault();
  private final KeyRouter murmur3 = HashRouter.of(HashScheme.PULSAR_MURMUR3, KeylessPolicy.ROUND_ROBIN);
  private final KeyRouter javaString = HashRouter.pulsarDefault();

  // The other clients' schemes. Their clients are C and Go, with no Java built-in to race in this
  // JVM; the ratio to Kafka's built-in in the report says what choosing one of them costs.
  private final KeyRouter librdkafkaCrc32 =
      HashRouter.of(HashScheme.LIBRDKAFKA_CRC32, KeylessPolicy.ROUND_ROBIN);
  private final KeyRouter librdkafkaFnv1a =
      HashRouter.of(HashScheme.LIBRDKAFKA_FNV1A, KeylessPolicy.ROUND_ROBIN);
  private final KeyRouter saramaFnv1a =
      HashRouter.of(HashScheme.SARAMA_FNV1A, KeylessPolicy.ROUND_ROBIN);
  private final KeyRouter saramaFnv1aReference =
      HashRouter.of(HashScheme.SARAMA_FNV1A_REFERENCE, KeylessPolicy.ROUND_ROBIN);
  private final KeyRouter pulsarGoJavaString =
      HashRouter.of(HashScheme.PULSAR_GO_JAVA_STRING, KeylessPolicy.ROUND_ROBIN);
  private final KeyRouter xxh3Jump =
      HashRouter.of(HashScheme.XXH3_64, KeylessPolicy.ROUND_ROBIN);

  @Setup
  public void setUp() {
    pool = new KeyPool(keyLength);
  }

  private byte[] key() {
    return pool.bytes[next++ & KeyPool.MASK];
  }

  /** Baseline: the built-in keyed path of kafka-clients 4.x. */
  @Benchmark
  public int kafkaBuiltIn() {
    return BuiltInPartitioner.partitionForKey(key(), partitions);
  }

  /** Baseline spelled out: {@code Utils.toPositive(Utils.murmur2(key)) % n}. */
  @Benchmark
  public int kafkaUtilsMurmur2() {
    return Utils.toPositive(Utils.murmur2(key())) % partitions;
  }

  @Benchmark
  public int routingKafkaMurmur2() {
    return kafka.partition(key(), partitions);
  }

  @Benchmark
  public int routingPulsarMurmur3() {
    return murmur3.partition(key(), partitions);
  }

  /** JavaStringHash of a byte key: UTF-8 decoded on the fly, no String built. */
  @Benchmark
  public int routingPulsarJavaString() {
    return javaString.partition(key(), partitions);
  }

  /** librdkafka's {@code consistent} partitioners (CRC-32; the JDK's intrinsic). */
  @Benchmark
  public int routingLibrdkafkaCrc32() {
    return librdkafkaCrc32.partition(key(), partitions);
  }

  /** librdkafka's {@code fnv1a} partitioners (FNV-1a: one dependent multiply per byte). */
  @Benchmark
  public int routingLibrdkafkaFnv1a() {
    return librdkafkaFnv1a.partition(key(), partitions);
  }

  /** Sarama's default hash partitioner (FNV-1a, abs of the remainder). */
  @Benchmark
  public int routingSaramaFnv1a() {
    return saramaFnv1a.partition(key(), partitions);
  }

  /** Sarama's reference hash partitioner (FNV-1a, toPositive). */
  @Benchmark
  public int routingSaramaFnv1aReference() {
    return saramaFnv1aReference.partition(key(), partitions);
  }

  /** pulsar-client-go's default router (31-polynomial over UTF-8 bytes). */
  @Benchmark
  public int routingPulsarGoJavaString() {
    return pulsarGoJavaString.partition(key(), partitions);
  }

  /** XXH3-64 with its native jump placement (no client's; for new topics). */
  @Benchmark
  public int routingXxh3Jump() {
    return xxh3Jump.partition(key(), partitions);
  }
}
