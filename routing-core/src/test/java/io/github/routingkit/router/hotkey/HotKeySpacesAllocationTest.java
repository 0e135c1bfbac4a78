package io.github.routingkit.router.hotkey;

import static io.github.routingkit.testing.AllocationCounter.allocationCounter;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.Routers;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Hot-key partition spaces per count coexist without allocating (a check of the claim, not a benchmark). */
class HotKeySpacesAllocationTest {

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
