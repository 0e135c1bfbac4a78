package io.github.routingkit.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.stats.SkewVerdict;
import org.junit.jupiter.api.Test;

/** The sliding window on a manual clock: what it covers, its max/mean and verdict. */
class SkewWindowTest {
  private static final long SECOND = 1_000_000_000L;

  @Test
  void theWindowForgetsWhatIsOlderThanItAndAQuarter() {
    PartitionCounters c = new PartitionCounters(4);
    SkewWindow w = new SkewWindow(c, 60 * SECOND);
    // minute 0: partition 0 alone
    for (int i = 0; i < 1000; i++) {
      c.keyed(0);
    }
    assertThat(w.at(0, 4).counts).containsExactly(1000, 0, 0, 0);
    // every 15 s, 100 records on each partition; the window then drops the first minute
    for (int step = 1; step <= 8; step++) {
      for (int p = 0; p < 4; p++) {
        for (int i = 0; i < 100; i++) {
          c.keyed(p);
        }
      }
      w.at(step * 15 * SECOND, 4);
    }
    SkewWindow.View v = w.at(120 * SECOND + 1, 4);
    assertThat(v.spanNanos).isBetween(60 * SECOND, 75 * SECOND + 1);
    assertThat(v.counts[0]).isEqualTo(v.counts[1]); // the burst on partition 0 is out
    assertThat(v.maxOverMean).isEqualTo(1.0);
  }

  @Test
  void readsWithinASecondShareOneView() {
    PartitionCounters c = new PartitionCounters(2);
    SkewWindow w = new SkewWindow(c, 60 * SECOND);
    c.keyed(0);
    SkewWindow.View first = w.at(5 * SECOND, 2);
    c.keyed(1);
    assertThat(w.at(5 * SECOND + SECOND / 2, 2)).isSameAs(first);
    assertThat(w.at(6 * SECOND + 1, 2).counts).containsExactly(1, 1);
  }

  @Test
  void theVerdictUsesTheTestKitsRule() {
    PartitionCounters c = new PartitionCounters(10);
    SkewWindow w = new SkewWindow(c, 60 * SECOND);
    for (int p = 0; p < 10; p++) {
      for (int i = 0; i < 10_000; i++) {
        c.keyed(p);
      }
    }
    assertThat(w.at(0, 10).verdict(0, 10)).isEqualTo(SkewVerdict.WITHIN_PERFECT_HASH_BOUND);
    for (int i = 0; i < 10_000; i++) {
      c.keyed(3); // partition 3 at twice the mean-ish: max/mean = 20000 / 11000 = 1.82
    }
    SkewWindow.View v = w.at(2 * SECOND, 10);
    assertThat(v.maxOverMean).isCloseTo(20_000 / 11_000.0, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(v.verdict(0, 10)).isEqualTo(SkewVerdict.FIX_KEY_DESIGN);
    for (int p = 0; p < 10; p++) {
      for (int i = 0; i < p * 300; i++) {
        c.keyed(p);
      }
    }
    assertThat(w.at(4 * SECOND, 10).maxOverMean).isGreaterThan(1.5);
  }

  @Test
  void anEmptyWindowIsWithinTheBound() {
    SkewWindow w = new SkewWindow(new PartitionCounters(3), 60 * SECOND);
    SkewWindow.View v = w.at(0, 3);
    assertThat(v.records).isZero();
    assertThat(v.maxOverMean).isEqualTo(1.0);
    assertThat(v.verdict(0.5, 3)).isEqualTo(SkewVerdict.WITHIN_PERFECT_HASH_BOUND);
  }
}
