package io.github.routingkit.router.hotkey;


import io.github.routingkit.property.Gen;
import io.github.routingkit.property.Property;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The documented Space-Saving guarantees of {@link HeavyHitterSketch}, checked against exact
 * counts on random skewed streams (no decay: the window is longer than the stream). They hold for
 * any choice among equal minima, so they pin what the detector promises, not its tie-breaking.
 */
class HeavyHitterSketchBoundsTest {

  /** A stream with a few heavy keys, a middle class and a long tail that keeps evicting. */
  private static long[] stream(long seed, int length, int heavy) {
    SplittableRandom random = new SplittableRandom(seed);
    long[] out = new long[length];
    for (int i = 0; i < length; i++) {
      int r = random.nextInt(100);
      long k = r < 40 ? random.nextInt(heavy) : r < 60 ? 1_000 + random.nextInt(200)
          : random.nextLong();
      out[i] = k * 0x9E3779B97F4A7C15L;
    }
    return out;
  }

  @Test
  void countsErrorsAndMembershipStayWithinTheSpaceSavingBounds() {
    Property.check(60, Gen.longs(), Gen.ints(1, 12), Gen.ints(4, 7), (seed, heavy, log2m) -> {
      int m = 1 << log2m;
      HeavyHitterSketch sketch = new HeavyHitterSketch(m, Long.MAX_VALUE, 0.05);
      Map<Long, Long> exact = new HashMap<>();
      long[] s = stream(seed, 20_000, heavy);
      for (int i = 0; i < s.length; i++) {
        sketch.offer(s[i]);
        exact.merge(s[i], 1L, Long::sum);
        if (i % 1_000 == 999 || i < 200) {
          long n = i + 1;
          assertThat(sketch.consistent()).as("runs after %d messages", n).isTrue();
          long sum = 0;
          for (Map.Entry<Long, Long> e : exact.entrySet()) {
            long[] est = sketch.estimate(e.getKey());
            long truth = e.getValue();
            if (est == null) {
              // every key whose count exceeds N / m is monitored
              assertThat(truth * m).as("unmonitored key count").isLessThanOrEqualTo(n);
              continue;
            }
            sum += est[0];
            assertThat(est[0]).as("overestimate").isGreaterThanOrEqualTo(truth);
            assertThat(est[0] - est[1]).as("guaranteed count").isLessThanOrEqualTo(truth);
            assertThat(est[1] * m).as("error <= N / m").isLessThanOrEqualTo(n);
          }
          assertThat(sum).as("counts add up to N").isEqualTo(n);
        }
      }
    });
  }

  /** Hot = guaranteed share >= threshold: never a key below it, always a key above threshold + 1/m. */
  @Test
  void hotKeysAreExactlyThoseTheBoundsAllow() {
    Property.check(60, Gen.longs(), Gen.ints(1, 12), (seed, heavy) -> {
      int m = 64;
      double threshold = 0.02;
      HeavyHitterSketch sketch = new HeavyHitterSketch(m, Long.MAX_VALUE, threshold);
      Map<Long, Long> exact = new HashMap<>();
      long[] s = stream(seed, 30_000, heavy);
      for (int i = 0; i < s.length; i++) {
        sketch.offer(s[i]);
        exact.merge(s[i], 1L, Long::sum);
      }
      long n = s.length;
      long[] hot = sketch.hot();
      for (Map.Entry<Long, Long> e : exact.entrySet()) {
        double share = (double) e.getValue() / n;
        boolean reported = java.util.Arrays.binarySearch(hot, e.getKey()) >= 0;
        if (share < threshold) {
          assertThat(reported).as("share %s below the threshold", share).isFalse();
        }
        if (share > threshold + 1.0 / m) {
          assertThat(reported).as("share %s above threshold + 1/m", share).isTrue();
        }
      }
    });
  }

  /** Decay halves counts, errors and N: the heap and the index stay consistent. */
  @Test
  void decayKeepsTheSummaryConsistent() {
    Property.check(30, Gen.longs(), seed -> {
      HeavyHitterSketch sketch = new HeavyHitterSketch(32, 3_000, 0.05);
      long[] s = stream(seed, 40_000, 5);
      for (int i = 0; i < s.length; i++) {
        sketch.offer(s[i]);
        if (i % 97 == 0) {
          assertThat(sketch.consistent()).as("after %d messages", i + 1).isTrue();
          assertThat(sketch.total()).isLessThan(3_000);
        }
      }
    });
  }
}
