package io.github.routingkit;

import static io.github.routingkit.testing.AllocationCounter.allocationCounter;

import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.router.HashRouter;
import io.github.routingkit.router.KeyFormatRouter;
import io.github.routingkit.router.hotkey.HotKeyRouter;
import io.github.routingkit.router.segment.SegmentRouter;
import io.github.routingkit.router.version.VersionedRouter;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Keyed routing of byte[] keys allocates nothing in steady state, through every router (the
 * {@link KeyRouter} contract): measured with the JVM's
 * per-thread allocation counter after a warm-up (a check of the claim, not a benchmark).
 */
class KeyRouterAllocationTest {


  @Test
  void keyedByteArrayRoutingDoesNotAllocate() {
    com.sun.management.ThreadMXBean mx = allocationCounter();
    byte[][] keys = new byte[1024][];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = ((i % 3 == 0 ? "order:" : i % 3 == 1 ? "v2|payment:" : "x") + i).getBytes(UTF_8);
    }
    List<KeyRouter> routers = List.of(
        Routers.librdkafkaDefault(), Routers.saramaDefault(), Routers.consistent(),
        Routers.consistentJumpBack(),
        HashRouter.of(HashScheme.LIBRDKAFKA_FNV1A, KeylessPolicy.RANDOM),
        SegmentRouter.builder(Routers.consistent()).weight("order", 2).weight("payment", 1).sharedWeight(1)
            .exclusive("payment").build(),
        VersionedRouter.builder().generation("v1", Routers.kafkaDefault(), 12)
            .generation("v2", Routers.consistent(), 0).defaultVersion("v1").build(),
        HotKeyRouter.builder(Routers.kafkaDefault()).hotKeys(List.of("order:3"))
            .choice(HotKeyRouter.Choice.VALUE_HASH).build(),
        HotKeyRouter.builder(Routers.kafkaDefault()).detect(true).threshold(0.05).build(),
        HotKeyRouter.builder(Routers.kafkaDefault()).detect(true).threshold(0.05).sample(8)
            .build(),
        // hot keys inside segments of different sizes: per-size counters, no churn
        SegmentRouter.builder(HotKeyRouter.builder(Routers.kafkaDefault())
            .hotKeys(List.of("order:3", "x5")).build())
            .range("order", 0, 5).range("v2|payment", 6, 8).build());
    long id = Thread.currentThread().getId();
    for (KeyRouter r : routers) {
      int sink = 0;
      for (int round = 0; round < 200; round++) { // warm-up: JIT (escape analysis removes the per-call CRC32), layout memo
        for (byte[] k : keys) {
          sink += r.partition(k, 24);
          sink += r.partition(k, k, 24);
        }
      }
      // The claim is about steady state: the CRC32 scheme's per-call instance is removed by C2's
      // escape analysis, so it allocates until C2 has compiled it. Measure again until one batch
      // allocates nothing, for up to 30 s; an allocation per message never gets there.
      long deadline = System.nanoTime() + 30_000_000_000L;
      long allocated;
      do {
        long before = mx.getThreadAllocatedBytes(id);
        for (int round = 0; round < 50; round++) {
          for (byte[] k : keys) {
            sink += r.partition(k, 24);
            sink += r.partition(k, k, 24);
          }
        }
        allocated = mx.getThreadAllocatedBytes(id) - before;
      } while (allocated >= 4096 && System.nanoTime() < deadline);
      assertThat(sink).isNotNegative();
      // 102,400 routings: anything per message would be megabytes; allow the counter's own noise
      assertThat(allocated).as("%s allocated %d bytes", r, allocated).isLessThan(4096);
    }
  }

  /**
   * The schema-registry key formats skip the header in place: routing a Confluent Avro or
   * Protobuf key (and a key without a header) allocates nothing, under the Pulsar C++ client's
   * Boost schemes too.
   */
  @Test
  void keyFormatRoutingDoesNotAllocate() {
    com.sun.management.ThreadMXBean mx = allocationCounter();
    byte[][] keys = new byte[1024][];
    for (int i = 0; i < keys.length; i++) {
      byte[] text = ("customer-" + i).getBytes(UTF_8);
      int header = i % 3 == 0 ? 0 : i % 3 == 1 ? 5 : 6; // none, Avro, Protobuf index [0]
      keys[i] = new byte[header + text.length];
      if (header > 0) {
        keys[i][4] = (byte) (i % 7 + 1); // schema id 1..7
      }
      System.arraycopy(text, 0, keys[i], header, text.length);
    }
    List<KeyRouter> routers = List.of(
        KeyFormatRouter.of(KeyFormat.CONFLUENT, Routers.kafkaDefault()),
        KeyFormatRouter.of(KeyFormat.CONFLUENT_PROTOBUF, Routers.pulsarCppDefault()),
        KeyFormatRouter.of(KeyFormat.CONFLUENT_PROTOBUF,
            HashRouter.of(HashScheme.PULSAR_CPP_BOOST_PRE_1_81, KeylessPolicy.ROUND_ROBIN)),
        KeyFormatRouter.of(KeyFormat.APICURIO_LEGACY,
            HashRouter.of(HashScheme.PULSAR_CPP_BOOST_1_81, KeylessPolicy.ROUND_ROBIN)),
        io.github.routingkit.config.RoutingSpec.parse("routing.key.format=confluent,"
            + " routing.scheme=xxh3-64, routing.segment.weights=customer:1,*:1,"
            + " routing.segment.separator=-").keyRouter());
    long id = Thread.currentThread().getId();
    for (KeyRouter r : routers) {
      int sink = 0;
      for (int round = 0; round < 200; round++) { // warm-up: JIT
        for (byte[] k : keys) {
          sink += r.partition(k, 24);
        }
      }
      long before = mx.getThreadAllocatedBytes(id);
      for (int round = 0; round < 50; round++) {
        for (byte[] k : keys) {
          sink += r.partition(k, 24);
          sink += r.partition(k, 0, k.length, k, 24);
        }
      }
      long allocated = mx.getThreadAllocatedBytes(id) - before;
      assertThat(sink).isNotNegative();
      assertThat(allocated).as("%s allocated %d bytes", r, allocated).isLessThan(4096);
    }
  }
}
