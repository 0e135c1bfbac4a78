package io.github.routingkit.pulsar;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * How a key sample spreads over the consumers of a {@code Key_Shared} subscription, as predicted by
 * {@link KeySharedPredictor#shareOf}: the "one consumer is always behind" diagnosis. Counts are of
 * sample entries (a key listed twice counts twice, as two messages would).
 *
 * <p>Immutable and thread-safe.
 */
public final class KeyShare {
  private final List<String> consumers;
  private final long[] counts;
  private final long unassigned;

  KeyShare(List<String> consumers, long[] counts, long unassigned) {
    this.consumers = List.copyOf(consumers);
    this.counts = counts.clone();
    this.unassigned = unassigned;
  }

  /** Returns the consumers in join order; {@link #count(int)} indexes this list. */
  public List<String> consumers() {
    return consumers;
  }

  /**
   * Returns the number of sample keys the consumer at {@code index} receives.
   *
   * @throws IndexOutOfBoundsException if {@code index} is not in {@code [0, consumers().size())}
   */
  public long count(int index) {
    Objects.checkIndex(index, counts.length);
    return counts[index];
  }

  /** Returns a copy of the per-consumer counts, aligned with {@link #consumers()}. */
  public long[] counts() {
    return counts.clone();
  }

  /** Returns the number of sample keys no consumer receives (sticky gaps, or no consumers). */
  public long unassigned() {
    return unassigned;
  }

  /** Returns the sample size: assigned plus unassigned keys. */
  public long total() {
    return Arrays.stream(counts).sum() + unassigned;
  }

  /** Returns the largest per-consumer count, 0 without consumers. */
  public long max() {
    return Arrays.stream(counts).max().orElse(0);
  }

  /** Returns the smallest per-consumer count, 0 without consumers. */
  public long min() {
    return Arrays.stream(counts).min().orElse(0);
  }

  /** Returns the mean count over the consumers (assigned keys / consumers), 0 without consumers. */
  public double mean() {
    return counts.length == 0 ? 0 : (double) Arrays.stream(counts).sum() / counts.length;
  }

  /**
   * Returns max / mean: 1.0 is perfectly even; 1.5 means the busiest consumer gets 50 % more keys
   * than the average. {@code NaN} when no key is assigned.
   */
  public double maxOverMean() {
    double mean = mean();
    return mean == 0 ? Double.NaN : max() / mean;
  }

  /** Returns the fraction of the sample (in [0, 1]) that the consumer at {@code index} receives. */
  public double fraction(int index) {
    long total = total();
    return total == 0 ? 0 : (double) count(index) / total;
  }

  /** Returns a small text table: one line per consumer, then the unassigned keys and max/mean. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    int width = consumers.stream().mapToInt(String::length).max().orElse(8);
    for (int i = 0; i < counts.length; i++) {
      sb.append(String.format(Locale.ROOT, "%-" + width + "s %9d  %6.2f %%%n",
          consumers.get(i), counts[i], 100 * fraction(i)));
    }
    sb.append(String.format(Locale.ROOT, "%-" + width + "s %9d  %6.2f %%%n", "(nobody)", unassigned,
        total() == 0 ? 0 : 100.0 * unassigned / total()));
    sb.append(String.format(Locale.ROOT, "max/mean %.4f", maxOverMean()));
    return sb.toString();
  }

  /**
   * Counts how {@code keys} spread over {@code consumers}: {@code owner} gives a key's consumer
   * index, or a negative value for a key no consumer receives.
   */
  static <K> KeyShare count(List<String> consumers, Iterable<? extends K> keys,
      java.util.function.ToIntFunction<K> owner) {
    long[] counts = new long[consumers.size()];
    long nobody = 0;
    for (K key : keys) {
      int i = owner.applyAsInt(key);
      if (i < 0) {
        nobody++;
      } else {
        counts[i]++;
      }
    }
    return new KeyShare(consumers, counts, nobody);
  }
}
