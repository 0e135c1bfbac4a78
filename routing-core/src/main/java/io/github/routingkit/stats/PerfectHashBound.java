package io.github.routingkit.stats;

/**
 * What a perfect hash reaches: the max/mean of partition loads when {@code K} equally weighted
 * keys are thrown independently and uniformly at random into {@code n} partitions. Even a perfect
 * hash is not perfectly even on a finite sample, so an observed max/mean is only evidence of skew
 * when it exceeds this bound; the smaller the sample, the larger the bound (24 partitions: 1e6 keys
 * &rarr; 1.0095, 1e5 keys &rarr; 1.030, 1,000 keys &rarr; about 1.31).
 *
 * <p><b>Method.</b> The partition loads of {@code K} uniform keys are multinomial; they are
 * modelled by {@code n} independent Poisson variables with mean {@code λ = K / n}
 * (Poissonization). The deviations of the maximum agree with the multinomial ones to first order:
 * both are {@code sqrt(λ)} times the maximum of {@code n} standard normals for large {@code λ},
 * because the multinomial deviations are {@code sqrt(λ)(Z_i - Z̄)} and subtracting {@code Z̄} does
 * not change the expected maximum. Unlike a normal approximation the Poisson model stays right for
 * small, discrete samples. With {@code F} the Poisson CDF, {@code P(max <= x) = F(x)^n}; the
 * expectation is {@code Σ_x (1 - F(x)^n)}, summed exactly over the {@code O(sqrt(λ))} values where
 * the terms are neither 0 nor 1; a quantile is the smallest {@code x} with {@code F(x)^n >= q}. The
 * results are divided by {@code λ}. Checked against multinomial simulation in the tests: the
 * expectation within 2 %; quantiles are conservative (too high, never too low), because the
 * Poisson total varies while the real one is fixed: negligibly at 24 partitions (p99 1.0164 vs
 * 1.016 for 1e6 keys), by up to ~40 % of the deviation at 3 partitions, by about one key on tiny
 * samples. For a verdict that must not flag chance as skew, high is the safe side.
 *
 * <p><b>Weighted keys.</b> When keys carry different message counts {@code w_i}, pass the
 * effective number of keys {@link #effectiveKeys(double, double) (Σw)² / Σw²} (Kish's effective
 * sample size): the number of equally weighted keys whose random placement has the same load
 * variance. A single key with most of the traffic is better described by {@link #hotKeyFloor}.
 *
 * <p>Pure functions; thread-safe. Cost {@code O(sqrt(K / n))} time, {@code O(1)} memory.
 */
public final class PerfectHashBound {
  /** Standard deviations below the mean where the Poisson CDF is taken to be 0 (below 1e-30). */
  private static final double LOW_SIGMAS = 13;

  private PerfectHashBound() {}

  /**
   * Returns the expected max/mean of a perfect hash of {@code keys} equally weighted keys into
   * {@code numPartitions} partitions; at least 1.0 (exactly 1.0 for one partition), at most
   * {@code numPartitions}.
   *
   * @param keys the number of distinct keys (may be fractional, see {@link #effectiveKeys}), > 0
   * @param numPartitions at least 1
   * @throws IllegalArgumentException if {@code keys} is not positive and finite, or
   *     {@code numPartitions < 1}
   */
  public static double expectedMaxOverMean(double keys, int numPartitions) {
    check(keys, numPartitions);
    if (numPartitions == 1) {
      return 1;
    }
    double lambda = keys / numPartitions;
    double x = lowStart(lambda);
    double sum = x; // terms for 0 .. start-1 are 1 (F^n is negligible there)
    double pmf = Math.exp(x * Math.log(lambda) - lambda - SpecialFunctions.logGamma(x + 1));
    double cdf = 0;
    while (true) {
      cdf += pmf;
      double term = -Math.expm1(numPartitions * Math.log(Math.min(1, cdf)));
      sum += term;
      // past the mode the terms fall off fast; stop once they are negligible or once the pmf no
      // longer changes the rounded CDF (the remaining terms are then below n times the pmf)
      if (x > lambda && (term < 1e-16 || pmf < cdf * 1e-17)) {
        break;
      }
      x += 1;
      pmf *= lambda / x;
    }
    return Math.min(numPartitions, Math.max(1, sum / lambda));
  }

  /**
   * Returns the {@code quantile} of the max/mean of a perfect hash of {@code keys} keys into
   * {@code numPartitions} partitions: a perfect hash stays at or below it with probability
   * {@code quantile} (24 partitions, 1e6 keys, 0.99 &rarr; about 1.016). At least 1.0.
   *
   * @param quantile in (0, 1)
   * @throws IllegalArgumentException if {@code keys} is not positive and finite,
   *     {@code numPartitions < 1} or {@code quantile} is outside (0, 1)
   */
  public static double maxOverMeanQuantile(double keys, int numPartitions, double quantile) {
    check(keys, numPartitions);
    if (!(quantile > 0 && quantile < 1)) {
      throw new IllegalArgumentException("quantile was " + quantile + ", must be in (0, 1)");
    }
    if (numPartitions == 1) {
      return 1;
    }
    double lambda = keys / numPartitions;
    double x = lowStart(lambda);
    double pmf = Math.exp(x * Math.log(lambda) - lambda - SpecialFunctions.logGamma(x + 1));
    double cdf = 0;
    double target = Math.log(quantile) / numPartitions; // F(x)^n >= q  <=>  ln F >= ln q / n
    while (true) {
      cdf += pmf;
      if (Math.log(cdf) >= target || (x > lambda && pmf < cdf * 1e-17)) {
        break;
      }
      x += 1;
      pmf *= lambda / x;
    }
    return Math.min(numPartitions, Math.max(1, x / lambda));
  }

  /**
   * Returns Kish's effective number of keys {@code (Σw)² / Σw²} of keys with message counts
   * {@code w_i}, given {@code Σw} and {@code Σw²}: the number of equally weighted keys whose
   * random placement has the same load variance; equals the key count when all weights are equal,
   * and is at least 1.
   *
   * @throws IllegalArgumentException if {@code sumOfWeights} is not positive or
   *     {@code sumOfSquaredWeights} is not positive and finite
   */
  public static double effectiveKeys(double sumOfWeights, double sumOfSquaredWeights) {
    if (!(sumOfWeights > 0) || !(sumOfSquaredWeights > 0) || Double.isInfinite(sumOfSquaredWeights)) {
      throw new IllegalArgumentException("sums were " + sumOfWeights + " and "
          + sumOfSquaredWeights + ", must be positive and finite");
    }
    return Math.max(1, sumOfWeights * sumOfWeights / sumOfSquaredWeights);
  }

  /**
   * Returns the max/mean that no router keeping each key on one partition can beat when the
   * hottest key carries {@code hottestShare} of the messages: {@code max(1, n · p₁)}.
   *
   * @param hottestShare the hottest key's share of all messages, in [0, 1]
   * @throws IllegalArgumentException if {@code hottestShare} is outside [0, 1] or
   *     {@code numPartitions < 1}
   */
  public static double hotKeyFloor(double hottestShare, int numPartitions) {
    if (!(hottestShare >= 0 && hottestShare <= 1)) {
      throw new IllegalArgumentException("hottestShare was " + hottestShare + ", must be in [0, 1]");
    }
    if (numPartitions < 1) {
      throw new IllegalArgumentException(
          "numPartitions was " + numPartitions + ", must be at least 1");
    }
    return Math.max(1, numPartitions * hottestShare);
  }

  private static double lowStart(double lambda) {
    return Math.max(0, Math.floor(lambda - LOW_SIGMAS * Math.sqrt(lambda) - LOW_SIGMAS));
  }

  private static void check(double keys, int numPartitions) {
    if (!(keys > 0) || Double.isInfinite(keys)) {
      throw new IllegalArgumentException("keys was " + keys + ", must be positive and finite");
    }
    if (numPartitions < 1) {
      throw new IllegalArgumentException(
          "numPartitions was " + numPartitions + ", must be at least 1");
    }
  }
}
