package io.github.routingkit.stats;


import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PerfectHashBoundTest {

  @Test
  void matchesTheReferenceNumbersForTwentyFourPartitions() {
    // FACTS.md "Limits to measure against": 1e6 keys -> 1.0095 (p99 1.016); 1e5 keys -> 1.030
    assertThat(PerfectHashBound.expectedMaxOverMean(1e6, 24)).isCloseTo(1.0095, within(0.0003));
    assertThat(PerfectHashBound.maxOverMeanQuantile(1e6, 24, 0.99)).isCloseTo(1.016, within(0.0006));
    assertThat(PerfectHashBound.expectedMaxOverMean(1e5, 24)).isCloseTo(1.030, within(0.001));
  }

  @Test
  void agreesWithMultinomialSimulationOnSmallSamples() {
    // exact simulation with a fixed seed: K uniform keys into n partitions, many trials
    SplittableRandom random = new SplittableRandom(42);
    int[][] cases = {{1000, 24}, {100, 12}, {20, 4}, {5000, 3}};
    for (int[] c : cases) {
      int keys = c[0];
      int n = c[1];
      int trials = 4000;
      double[] ratios = new double[trials];
      double sum = 0;
      for (int t = 0; t < trials; t++) {
        int[] counts = new int[n];
        for (int k = 0; k < keys; k++) {
          counts[random.nextInt(n)]++;
        }
        ratios[t] = Arrays.stream(counts).max().getAsInt() / ((double) keys / n);
        sum += ratios[t];
      }
      Arrays.sort(ratios);
      double simulatedMean = sum / trials;
      double simulatedP90 = ratios[(int) (trials * 0.9)];
      assertThat(PerfectHashBound.expectedMaxOverMean(keys, n)).as("E[max/mean] %s keys, %s", keys, n)
          .isCloseTo(simulatedMean, within(simulatedMean * 0.02));
      // the Poisson model lets the total vary, so its quantiles err on the high (conservative)
      // side: by about one key on tiny samples and up to ~40 % of the deviation at 3 partitions
      assertThat(PerfectHashBound.maxOverMeanQuantile(keys, n, 0.9)).as("p90 %s keys, %s", keys, n)
          .isBetween(simulatedP90 * 0.99, 1 + (simulatedP90 - 1) * 1.4 + 1.01 * n / keys);
    }
  }

  @Test
  void shrinksTowardsOneAsTheSampleGrows() {
    double previous = Double.MAX_VALUE;
    for (double keys : new double[] {10, 1e3, 1e5, 1e7, 1e9}) {
      double bound = PerfectHashBound.expectedMaxOverMean(keys, 24);
      assertThat(bound).isLessThan(previous).isGreaterThan(1.0).isLessThanOrEqualTo(24);
      previous = bound;
    }
    assertThat(PerfectHashBound.expectedMaxOverMean(1e12, 24)).isCloseTo(1.0, within(1e-5));
    assertThat(PerfectHashBound.expectedMaxOverMean(123, 1)).isEqualTo(1.0);
    assertThat(PerfectHashBound.expectedMaxOverMean(0.5, 1000)).isLessThanOrEqualTo(1000);
  }

  @Test
  void effectiveKeysAndHotKeyFloor() {
    // 4 keys of equal weight -> 4; one key with all weight -> 1
    assertThat(PerfectHashBound.effectiveKeys(4, 4)).isEqualTo(4);
    assertThat(PerfectHashBound.effectiveKeys(100, 100 * 100)).isEqualTo(1);
    assertThat(PerfectHashBound.hotKeyFloor(0.10, 24)).isCloseTo(2.4, within(1e-12));
    assertThat(PerfectHashBound.hotKeyFloor(0.01, 24)).isEqualTo(1.0);
  }

  @Test
  void rejectsBadArguments() {
    assertThatThrownBy(() -> PerfectHashBound.expectedMaxOverMean(0, 24))
        .hasMessageContaining("keys was 0.0");
    assertThatThrownBy(() -> PerfectHashBound.expectedMaxOverMean(10, 0))
        .hasMessageContaining("numPartitions was 0");
    assertThatThrownBy(() -> PerfectHashBound.maxOverMeanQuantile(10, 2, 1))
        .hasMessageContaining("quantile was 1.0");
    assertThatThrownBy(() -> PerfectHashBound.hotKeyFloor(1.5, 2))
        .hasMessageContaining("hottestShare was 1.5");
    assertThatThrownBy(() -> PerfectHashBound.effectiveKeys(0, 1))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
