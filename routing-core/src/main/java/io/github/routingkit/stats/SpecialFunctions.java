package io.github.routingkit.stats;

/**
 * The log-gamma function and the regularized incomplete gamma functions, enough for &chi;&sup2;
 * p-values and Poisson tails. Package-private; pure and thread-safe.
 *
 * <p>Methods: Stirling's series for {@code ln Γ} (shifted up to {@code x >= 15}, five terms, truncation error
 * below 1e-15 there); the incomplete gamma function by its power series for
 * {@code x < a + 1} and by Lentz's continued fraction otherwise (the classic split, see
 * Press et al., <i>Numerical Recipes</i>, 3rd ed., &sect;6.2), relative error about 1e-14.
 */
final class SpecialFunctions {
  private static final double HALF_LOG_TWO_PI = 0.5 * Math.log(2 * Math.PI);
  private static final double EPSILON = 1e-15;
  private static final double TINY = 1e-300;
  private static final int MAX_ITERATIONS = 100_000_000;

  private SpecialFunctions() {}

  /**
   * Returns {@code ln Γ(x)} for {@code x > 0}.
   *
   * @throws IllegalArgumentException if {@code x <= 0} or is NaN
   */
  static double logGamma(double x) {
    if (!(x > 0)) {
      throw new IllegalArgumentException("logGamma argument was " + x + ", must be > 0");
    }
    double shift = 0;
    while (x < 15) {
      shift += Math.log(x);
      x += 1;
    }
    double inv = 1 / x;
    double inv2 = inv * inv;
    double series = inv * (1.0 / 12 - inv2 * (1.0 / 360 - inv2 * (1.0 / 1260 - inv2 * (1.0 / 1680
        - inv2 / 1188))));
    return (x - 0.5) * Math.log(x) - x + HALF_LOG_TWO_PI + series - shift;
  }

  /**
   * Returns the regularized upper incomplete gamma function {@code Q(a, x) = Γ(a, x) / Γ(a)}, in
   * [0, 1].
   *
   * @throws IllegalArgumentException if {@code a <= 0} or {@code x < 0} (or either is NaN)
   */
  static double regularizedGammaQ(double a, double x) {
    check(a, x);
    if (x == 0) {
      return 1;
    }
    if (x < a + 1) {
      return 1 - lowerSeries(a, x);
    }
    return upperContinuedFraction(a, x);
  }

  /**
   * Returns the regularized lower incomplete gamma function {@code P(a, x) = 1 - Q(a, x)}, in
   * [0, 1].
   *
   * @throws IllegalArgumentException if {@code a <= 0} or {@code x < 0} (or either is NaN)
   */
  static double regularizedGammaP(double a, double x) {
    check(a, x);
    if (x == 0) {
      return 0;
    }
    if (x < a + 1) {
      return lowerSeries(a, x);
    }
    return 1 - upperContinuedFraction(a, x);
  }

  private static void check(double a, double x) {
    if (!(a > 0) || !(x >= 0)) {
      throw new IllegalArgumentException(
          "incomplete gamma arguments were a=" + a + ", x=" + x + ", must be a > 0 and x >= 0");
    }
  }

  /** P(a, x) by the series e^-x x^a / Γ(a+1) Σ x^n / ((a+1)...(a+n)); converges for x < a+1. */
  private static double lowerSeries(double a, double x) {
    double term = 1 / a;
    double sum = term;
    for (int n = 1; n < MAX_ITERATIONS; n++) {
      term *= x / (a + n);
      sum += term;
      if (Math.abs(term) < Math.abs(sum) * EPSILON) {
        break;
      }
    }
    return Math.min(1, sum * Math.exp(-x + a * Math.log(x) - logGamma(a)));
  }

  /** Q(a, x) by the continued fraction of Γ(a, x), evaluated with the modified Lentz method. */
  private static double upperContinuedFraction(double a, double x) {
    double b = x + 1 - a;
    double c = 1 / TINY;
    double d = 1 / b;
    double h = d;
    for (int i = 1; i < MAX_ITERATIONS; i++) {
      double an = -i * (i - a);
      b += 2;
      d = an * d + b;
      if (Math.abs(d) < TINY) {
        d = TINY;
      }
      c = b + an / c;
      if (Math.abs(c) < TINY) {
        c = TINY;
      }
      d = 1 / d;
      double delta = d * c;
      h *= delta;
      if (Math.abs(delta - 1) < EPSILON) {
        break;
      }
    }
    return Math.max(0, Math.min(1, Math.exp(-x + a * Math.log(x) - logGamma(a)) * h));
  }
}
