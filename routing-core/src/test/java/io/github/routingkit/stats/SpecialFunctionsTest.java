package io.github.routingkit.stats;


import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class SpecialFunctionsTest {

  @Test
  void logGammaMatchesFactorialsAndHalfIntegers() {
    assertThat(SpecialFunctions.logGamma(1)).isCloseTo(0, within(1e-13));
    assertThat(SpecialFunctions.logGamma(2)).isCloseTo(0, within(1e-13));
    assertThat(SpecialFunctions.logGamma(0.5)).isCloseTo(0.5 * Math.log(Math.PI), within(1e-13));
    double log99Factorial = 0;
    for (int i = 2; i <= 99; i++) {
      log99Factorial += Math.log(i);
    }
    assertThat(SpecialFunctions.logGamma(100)).isCloseTo(log99Factorial, within(1e-9));
    assertThat(SpecialFunctions.logGamma(1e-3)).isCloseTo(6.907178885383854, within(1e-10));
  }

  @Test
  void incompleteGammaOfIntegerOrderIsAPoissonTail() {
    // Q(k, x) = P(Poisson(x) < k) = e^-x Σ_{i<k} x^i / i!
    for (int k = 1; k <= 30; k += 7) {
      for (double x : new double[] {0.1, 1, 5, 17.5, 40}) {
        double sum = 0;
        double term = Math.exp(-x);
        for (int i = 0; i < k; i++) {
          sum += term;
          term *= x / (i + 1);
        }
        assertThat(SpecialFunctions.regularizedGammaQ(k, x)).as("Q(%s, %s)", k, x)
            .isCloseTo(sum, within(1e-12));
        assertThat(SpecialFunctions.regularizedGammaP(k, x)).isCloseTo(1 - sum, within(1e-12));
      }
    }
  }

  @Test
  void rejectsArgumentsOutsideTheDomain() {
    assertThatThrownBy(() -> SpecialFunctions.logGamma(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SpecialFunctions.regularizedGammaQ(0, 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SpecialFunctions.regularizedGammaQ(1, -1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SpecialFunctions.regularizedGammaP(Double.NaN, 1))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
