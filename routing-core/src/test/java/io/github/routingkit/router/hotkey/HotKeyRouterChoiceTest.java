package io.github.routingkit.router.hotkey;

import io.github.routingkit.Routers;

import io.github.routingkit.KeyRouter;

import io.github.routingkit.hash.HashScheme;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The hot-key choices against a plain model of their documented rules (one thread, so the striped
 * counters are exactly this router's counts): the fast paths (Bloom pre-filter, tabulated strides,
 * incremental candidates, striped counters) must route every message exactly as the rule says.
 */
class HotKeyRouterChoiceTest {
  private static final List<String> HOT = List.of("hot-a", "hot-b", "order:17", "");

  /** A stream over hot and ordinary keys, some sharing length, first and last byte with a hot key. */
  private static byte[][] stream(int size) {
    SplittableRandom random = new SplittableRandom(7);
    byte[][] out = new byte[size][];
    for (int i = 0; i < size; i++) {
      int r = random.nextInt(10);
      String k = r < 3 ? HOT.get(random.nextInt(HOT.size()))
          : r < 5 ? "hot-" + (char) ('c' + random.nextInt(20)) // same shape as hot-a
          : "key-" + random.nextInt(5000);
      out[i] = k.getBytes(UTF_8);
    }
    return out;
  }

  @Test
  void leastLoadedPicksTheFirstLeastLoadedCandidateCountingEveryMessage() {
    KeyRouter inner = Routers.kafkaDefault();
    HotKeyRouter router = HotKeyRouter.builder(inner).hotKeys(HOT).candidates(5).build();
    Map<Integer, long[]> counts = new HashMap<>();
    int[] sizes = {24, 7, 1024, 24, 1, 2, 3, 5000};
    byte[][] keys = stream(40_000);
    for (int i = 0; i < keys.length; i++) {
      int n = sizes[(i / 1000) % sizes.length];
      long[] c = counts.computeIfAbsent(n, x -> new long[x]);
      int expected;
      if (HOT.contains(new String(keys[i], UTF_8)) && n > 1) {
        expected = -1;
        for (int p : router.candidates(keys[i], n)) {
          if (expected < 0 || c[p] < c[expected]) {
            expected = p;
          }
        }
      } else {
        expected = inner.partition(keys[i], n);
      }
      c[expected]++;
      assertThat(router.partition(keys[i], n)).as("message %d, n=%d", i, n).isEqualTo(expected);
    }
  }

  @Test
  void roundRobinCyclesOneCounterAcrossPartitionCounts() {
    HotKeyRouter router = HotKeyRouter.builder(Routers.kafkaDefault()).hotKeys(HOT)
        .choice(HotKeyRouter.Choice.ROUND_ROBIN).candidates(3).build();
    byte[][] keys = stream(20_000);
    long cycle = 0;
    for (int i = 0; i < keys.length; i++) {
      int n = i % 3 == 0 ? 24 : 100;
      int expected = router.partition(keys[i], n);
      if (HOT.contains(new String(keys[i], UTF_8))) {
        assertThat(expected).isEqualTo(router.candidates(keys[i], n)[(int) (cycle++ % 3)]);
      } else {
        assertThat(expected).isEqualTo(Routers.kafkaDefault().partition(keys[i], n));
      }
    }
  }

  /** Detected keys take their strides from a per-count table (up to 4096 partitions): same candidates. */
  @Test
  void detectedKeysUseTheirCandidatesAtEveryPartitionCount() {
    HotKeyRouter router = HotKeyRouter.builder(Routers.kafkaDefault()).detect(true)
        .threshold(0.5).window(1000).candidates(HotKeyRouter.ALL)
        .choice(HotKeyRouter.Choice.VALUE_HASH).build();
    byte[][] keys = new byte[16][];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = ("detected-" + i).getBytes(UTF_8);
    }
    SplittableRandom random = new SplittableRandom(3);
    for (byte[] key : keys) {
      for (int i = 0; i < 4000; i++) {
        router.partition(key, 24); // detection: this key now dominates the decayed window
      }
      assertThat(router.isHot(key)).isTrue();
      for (int t = 0; t < 60; t++) {
        int n = t < 20 ? 1 + t : 2 + random.nextInt(6000);
        byte[] value = ("v" + random.nextInt()).getBytes(UTF_8);
        int[] candidates = router.candidates(key, n);
        int c = Math.floorMod(HashScheme.KAFKA_MURMUR2.hash(value, 0, value.length), candidates.length);
        assertThat(router.partition(key, value, n)).as("n=%d", n).isEqualTo(candidates[c]);
      }
    }
  }
}
