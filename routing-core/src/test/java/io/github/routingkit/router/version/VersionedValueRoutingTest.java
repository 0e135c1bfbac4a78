package io.github.routingkit.router.version;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.Routers;
import io.github.routingkit.router.hotkey.HotKeyRouter;
import io.github.routingkit.router.segment.SegmentRouter;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * A version prefix stripped before a value-reading generation (value-hash hot keys, also inside
 * segments): routed as the generation routes the copied rest of the key, and without the copy.
 */
class VersionedValueRoutingTest {
  private static final List<String> HOT = List.of("order:1", "order:2", "x7");

  private final KeyRouter hot = HotKeyRouter.builder(Routers.kafkaDefault()).hotKeys(HOT)
      .choice(HotKeyRouter.Choice.VALUE_HASH).candidates(4).build();
  private final KeyRouter segmentedHot = SegmentRouter.builder(HotKeyRouter
          .builder(Routers.consistent()).hotKeys(HOT).choice(HotKeyRouter.Choice.VALUE_HASH)
          .build())
      .ranges("order:0-9").build();
  private final VersionedRouter router = VersionedRouter.builder()
      .generation("v1", hot, 12).generation("v2", segmentedHot, 0).defaultVersion("v1").build();

  private static byte[][] keys() {
    byte[][] keys = new byte[600][];
    for (int i = 0; i < keys.length; i++) {
      String rest = i % 4 == 0 ? HOT.get(i % 3) : (i % 2 == 0 ? "order:" : "x") + i;
      keys[i] = ((i % 3 == 0 ? "v2|" : i % 3 == 1 ? "v1|" : "") + rest).getBytes(UTF_8);
    }
    return keys;
  }

  @Test
  void taggedKeysRouteLikeTheirRestWithTheValue() {
    int spread = 0;
    for (byte[] key : keys()) {
      for (int v = 0; v < 8; v++) {
        byte[] value = ("value-" + v).getBytes(UTF_8);
        String k = new String(key, UTF_8);
        int expected;
        if (k.startsWith("v2|")) {
          expected = segmentedHot.partition(Arrays.copyOfRange(key, 3, key.length), value, 24);
        } else if (k.startsWith("v1|")) {
          expected = hot.partition(Arrays.copyOfRange(key, 3, key.length), value, 12);
        } else {
          expected = hot.partition(key, value, 12);
        }
        int p = router.partition(key, value, 24);
        assertThat(p).as(k).isEqualTo(expected);
        spread += p != router.partition(key, null, 24) ? 1 : 0;
      }
    }
    assertThat(spread).as("hot keys spread by value").isPositive();
  }

  @Test
  void taggedKeysWithValuesDoNotAllocate() {
    java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
    Assumptions.assumeTrue(bean instanceof com.sun.management.ThreadMXBean);
    com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) bean;
    Assumptions.assumeTrue(mx.isThreadAllocatedMemorySupported());
    byte[][] keys = keys();
    int sink = 0;
    for (int round = 0; round < 300; round++) {
      for (byte[] k : keys) {
        sink += router.partition(k, k, 24);
      }
    }
    long id = Thread.currentThread().getId();
    long before = mx.getThreadAllocatedBytes(id);
    for (int round = 0; round < 100; round++) {
      for (byte[] k : keys) {
        sink += router.partition(k, k, 24);
      }
    }
    long allocated = mx.getThreadAllocatedBytes(id) - before;
    assertThat(sink).isNotNegative();
    assertThat(allocated).as("allocated %d bytes for 60,000 routings", allocated).isLessThan(4096);
  }
}
