package io.github.routingkit.benchmarks;

import io.github.routingkit.Routers;

import io.github.routingkit.router.HashRouter;
import io.github.routingkit.hash.HashScheme;
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
  private final KeyRouter kafka = Routers.kafkaDefault();
  private final KeyRouter murmur3 = HashRouter.of(HashScheme.PULSAR_MURMUR3, KeylessPolicy.ROUND_ROBIN);
  private final KeyRouter javaString = Routers.pulsarDefault();

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
}
