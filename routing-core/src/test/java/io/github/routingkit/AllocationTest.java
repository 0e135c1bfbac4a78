package io.github.routingkit;

import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.router.HashRouter;
import io.github.routingkit.router.hotkey.HotKeyRouter;
import io.github.routingkit.router.segment.SegmentRouter;
import io.github.routingkit.router.version.VersionedRouter;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Keyed routing of byte[] keys allocates nothing in steady state: measured with the JVM's
 * per-thread allocation counter after a warm-up (a check of the claim, not a benchmark).
 */
class AllocationTest {

  /** The JVM's per-thread allocation counter; the test is skipped where there is none. */
  private static com.sun.management.ThreadMXBean allocationCounter() {
    java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
    Assumptions.assumeTrue(bean instanceof com.sun.management.ThreadMXBean);
    com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) bean;
    Assumptions.assumeTrue(mx.isThreadAllocatedMemorySupported());
    return mx;
  }

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
        SegmentRouter.builder(Routers.consistent()).weights("order:2,payment:1,*:1")
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
            .ranges("order:0-5,v2|payment:6-8").build());
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
   * One producer writing to topics of different sizes: the segment layouts of up to
   * {@link SegmentRouter#MEMO_SIZE} partition counts stay cached, so alternating between them
   * neither allocates nor recomputes. Fails if only the last count's layout were kept.
   */
  @Test
  void alternatingPartitionCountsDoNotAllocate() {
    com.sun.management.ThreadMXBean mx = allocationCounter();
    byte[][] keys = new byte[1024][];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = ((i % 3 == 0 ? "order:" : i % 3 == 1 ? "payment:" : "x") + i).getBytes(UTF_8);
    }
    int[] counts = {12, 24, 7, 64, 100, 36, 9, 1000};
    assertThat(counts).hasSize(SegmentRouter.MEMO_SIZE);
    KeyRouter r = SegmentRouter.builder(Routers.kafkaDefault()).weights("order:2,payment:1,*:1")
        .exclusive("payment").build();
    long id = Thread.currentThread().getId();
    int sink = 0;
    for (int round = 0; round < 100; round++) {
      for (int k = 0; k < keys.length; k++) {
        sink += r.partition(keys[k], counts[k & 7]);
      }
    }
    long before = mx.getThreadAllocatedBytes(id);
    for (int round = 0; round < 50; round++) {
      for (int k = 0; k < keys.length; k++) {
        sink += r.partition(keys[k], counts[k & 7]);
      }
    }
    long allocated = mx.getThreadAllocatedBytes(id) - before;
    assertThat(sink).isNotNegative();
    // 51,200 routings over 8 counts: recomputing a layout per switch would allocate megabytes
    assertThat(allocated).as("allocated %d bytes", allocated).isLessThan(4096);
  }

  /**
   * Hot keys over two sizes that collide modulo 64 (16 and 80): each keeps its own load counters,
   * so alternating between them allocates nothing. Failed when spaces were kept by n mod 64 only.
   */
  @Test
  void hotKeySpacesOfCollidingSizesCoexist() {
    com.sun.management.ThreadMXBean mx = allocationCounter();
    byte[] hot = "order:3".getBytes(UTF_8);
    byte[] cold = "x5".getBytes(UTF_8);
    KeyRouter r = HotKeyRouter.builder(Routers.kafkaDefault()).hotKeys(List.of("order:3"))
        .build();
    int[] counts = {12, 16, 80, 144};
    long id = Thread.currentThread().getId();
    int sink = 0;
    for (int i = 0; i < 20_000; i++) {
      sink += r.partition(hot, counts[i & 3]) + r.partition(cold, counts[i & 3]);
    }
    long before = mx.getThreadAllocatedBytes(id);
    for (int i = 0; i < 50_000; i++) {
      sink += r.partition(hot, counts[i & 3]) + r.partition(cold, counts[i & 3]);
    }
    long allocated = mx.getThreadAllocatedBytes(id) - before;
    assertThat(sink).isNotNegative();
    assertThat(allocated).as("allocated %d bytes", allocated).isLessThan(4096);
  }
}
