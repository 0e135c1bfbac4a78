package io.github.routingkit.router.segment;

import static io.github.routingkit.testing.AllocationCounter.allocationCounter;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.Routers;
import org.junit.jupiter.api.Test;

/** Switching between memoized partition counts allocates nothing (a check of the claim, not a benchmark). */
class SegmentLayoutsAllocationTest {

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
}
