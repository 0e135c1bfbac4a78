package io.github.routingkit.stats;

import java.util.Arrays;

/**
 * How evenly messages are spread over partitions: the per-partition counts and the numbers derived
 * from them (max/mean, coefficient of variation, Pearson's &chi;&sup2; and its p-value).
 *
 * <p>Immutable (the counts are copied in and out) and thread-safe.
 */
public final class LoadStatistics {
  private final long[] counts;
  private final long total;
  private final long max;
  private final long min;
  private final int hottestPartition;
  private final double coefficientOfVariation;
  private final double chiSquare;
  private final double pValue;

  private LoadStatistics(long[] counts) {
    this.counts = counts;
    long sum = 0;
    long hi = Long.MIN_VALUE;
    long lo = Long.MAX_VALUE;
    int hot = 0;
    for (int i = 0; i < counts.length; i++) {
      long c = counts[i];
      if (c < 0) {
        throw new IllegalArgumentException(
            "count of partition " + i + " was " + c + ", must be >= 0");
      }
      sum += c;
      if (c > hi) {
        hi = c;
        hot = i;
      }
      lo = Math.min(lo, c);
    }
    this.total = sum;
    this.max = hi;
    this.min = lo;
    this.hottestPartition = hot;
    double mean = (double) sum / counts.length;
    double squares = 0;
    for (long c : counts) {
      squares += (c - mean) * (c - mean);
    }
    this.coefficientOfVariation = sum == 0 ? 0 : Math.sqrt(squares / counts.length) / mean;
    this.chiSquare = ChiSquared.statistic(counts);
    this.pValue = counts.length == 1 ? 1 : ChiSquared.pValue(chiSquare, counts.length - 1);
  }

  /**
   * Computes the statistics of per-partition message counts; {@code counts[p]} is the number of
   * messages on partition {@code p}.
   *
   * @param counts at least one partition, no negative count (copied)
   * @throws IllegalArgumentException if {@code counts} is empty or holds a negative count
   * @throws NullPointerException if {@code counts} is null
   */
  public static LoadStatistics of(long[] counts) {
    if (counts.length == 0) {
      throw new IllegalArgumentException("counts was empty, must hold at least one partition");
    }
    return new LoadStatistics(counts.clone());
  }

  /** Returns the number of partitions, at least 1. */
  public int partitions() {
    return counts.length;
  }

  /** Returns a copy of the per-partition counts, indexed by partition. */
  public long[] counts() {
    return counts.clone();
  }

  /** Returns the count of one partition. @throws IndexOutOfBoundsException outside [0, n) */
  public long count(int partition) {
    return counts[partition];
  }

  /** Returns the number of messages over all partitions. */
  public long total() {
    return total;
  }

  /** Returns the mean count per partition, {@code total / partitions}. */
  public double mean() {
    return (double) total / counts.length;
  }

  /** Returns the largest count. */
  public long max() {
    return max;
  }

  /** Returns the smallest count. */
  public long min() {
    return min;
  }

  /** Returns the lowest-numbered partition holding {@link #max()} messages, in [0, n). */
  public int hottestPartition() {
    return hottestPartition;
  }

  /**
   * Returns {@code max / mean}: 1.0 for a perfect spread, {@code n} when one partition takes all;
   * 1.0 when there are no messages. The hottest partition must absorb this multiple of the average
   * load, so it is the number capacity plans divide by.
   */
  public double maxOverMean() {
    return total == 0 ? 1 : max / mean();
  }

  /** Returns the coefficient of variation (population standard deviation / mean), 0 if empty. */
  public double coefficientOfVariation() {
    return coefficientOfVariation;
  }

  /** Returns Pearson's &chi;&sup2; statistic against a uniform spread ({@link ChiSquared}). */
  public double chiSquare() {
    return chiSquare;
  }

  /** Returns the degrees of freedom of {@link #chiSquare()}: {@code partitions - 1}. */
  public int degreesOfFreedom() {
    return counts.length - 1;
  }

  /**
   * Returns the p-value of {@link #chiSquare()}: the probability that a uniform spread deviates at
   * least this much by chance, in [0, 1]; 1 for a single partition.
   */
  public double pValue() {
    return pValue;
  }

  @Override
  public String toString() {
    return "LoadStatistics{partitions=" + counts.length + ", total=" + total
        + ", maxOverMean=" + maxOverMean() + ", cv=" + coefficientOfVariation
        + ", chiSquare=" + chiSquare + ", pValue=" + pValue + '}';
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LoadStatistics && Arrays.equals(((LoadStatistics) o).counts, counts);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(counts);
  }
}
