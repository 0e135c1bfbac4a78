package io.github.routingkit.stats;


import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class ChiSquaredTest {

  @Test
  void criticalValuesForTwentyThreeDegreesOfFreedom() {
    // FACTS.md: chi-square with 23 df, critical 35.2 (p=.05), 49.7 (p=.001); tables: 35.172, 49.728
    assertThat(ChiSquared.pValue(35.172, 23)).isCloseTo(0.05, within(2e-5));
    assertThat(ChiSquared.pValue(49.728, 23)).isCloseTo(0.001, within(2e-6));
    assertThat(ChiSquared.pValue(0, 23)).isEqualTo(1.0);
  }

  @Test
  void twoDegreesOfFreedomIsAnExponentialTail() {
    for (double x : new double[] {0.01, 1, 3.3, 10, 60}) {
      assertThat(ChiSquared.pValue(x, 2)).isCloseTo(Math.exp(-x / 2), within(1e-14));
    }
  }

  @Test
  void statisticOfCounts() {
    assertThat(ChiSquared.statistic(new long[] {10, 10, 10})).isZero();
    // expected 10: (0 + 100 + 100) / 10
    assertThat(ChiSquared.statistic(new long[] {10, 20, 0})).isCloseTo(20, within(1e-12));
    assertThat(ChiSquared.statistic(new long[] {0, 0})).isZero();
  }

  @Test
  void rejectsBadArguments() {
    assertThatThrownBy(() -> ChiSquared.pValue(1, 0)).hasMessageContaining("degreesOfFreedom was 0");
    assertThatThrownBy(() -> ChiSquared.pValue(-1, 3)).hasMessageContaining("statistic was -1");
    assertThatThrownBy(() -> ChiSquared.statistic(new long[0])).hasMessageContaining("empty");
    assertThatThrownBy(() -> ChiSquared.statistic(new long[] {1, -1}))
        .hasMessageContaining("count was -1");
  }
}
