package io.github.routingkit.router.hotkey;


import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Detection results are part of the routing behaviour: the sketch must evict exactly the counters
 * it always evicted (ties on the minimum are broken by the heap layout). The digest below was
 * computed with the original swap-based heap; any change to eviction order changes it.
 */
class HeavyHitterSketchGoldenTest {

  static long digest() {
    HeavyHitterSketch sketch = new HeavyHitterSketch(64, 5_000, 0.02);
    SplittableRandom random = new SplittableRandom(11);
    long digest = 17;
    for (int i = 1; i <= 300_000; i++) {
      // skewed: a few heavy keys, a long tail that keeps evicting
      int r = random.nextInt(100);
      long fp = r < 30 ? random.nextInt(8) : r < 60 ? 100 + random.nextInt(60) : random.nextLong();
      sketch.offer(fp * 0x9E3779B97F4A7C15L);
      if (i % 997 == 0) {
        for (long hot : sketch.hot()) {
          digest = digest * 31 + hot;
        }
        for (long k = 0; k < 160; k++) {
          long[] e = sketch.estimate((k < 8 ? k : 92 + k) * 0x9E3779B97F4A7C15L);
          digest = digest * 31 + (e == null ? -1 : e[0] * 1_000_003 + e[1]);
        }
      }
    }
    return digest * 31 + sketch.total();
  }

  @Test
  void evictionOrderIsUnchanged() {
    assertThat(digest()).isEqualTo(GOLDEN);
  }

  private static final long GOLDEN = 6591532690835768539L;
}
