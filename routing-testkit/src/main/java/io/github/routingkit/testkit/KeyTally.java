package io.github.routingkit.testkit;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import net.openhft.hashing.LongHashFunction;

/**
 * Counts messages per key in bounded memory. Exact (a hash map) up to {@code exactLimit} distinct
 * keys; past that it switches, once, to two sketches fed from the exact counts so far: a
 * Misra-Gries heavy-hitter summary of {@code heavyHitters} counters (each reported count is at most
 * {@code total / (heavyHitters + 1)} below the true one, never above) and a HyperLogLog of 2^14
 * registers for the distinct count (standard error about 0.8 %). Memory is then
 * {@code O(heavyHitters)} plus 16 KiB whatever the input size. Not thread-safe.
 */
final class KeyTally {
  private static final int HLL_BITS = 14;
  private static final LongHashFunction HASH = LongHashFunction.xx3();

  private final int exactLimit;
  private final int heavyHitters;
  private Map<String, long[]> exact = new HashMap<>();
  private Map<String, long[]> summary;
  private byte[] registers;
  private long total;

  KeyTally(int exactLimit, int heavyHitters) {
    if (exactLimit < 1 || heavyHitters < 1) {
      throw new IllegalArgumentException("exactLimit was " + exactLimit + " and heavyHitters was "
          + heavyHitters + ", both must be at least 1");
    }
    this.exactLimit = exactLimit;
    this.heavyHitters = heavyHitters;
  }

  void add(String key, long count) {
    if (count < 1) {
      throw new IllegalArgumentException("count was " + count + ", must be at least 1");
    }
    total += count;
    if (exact != null) {
      long[] c = exact.get(key);
      if (c != null) {
        c[0] += count;
        return;
      }
      if (exact.size() < exactLimit) {
        exact.put(key, new long[] {count});
        return;
      }
      switchToSketches();
    }
    offerHll(key);
    offerSummary(key, count);
  }

  boolean isExact() {
    return exact != null;
  }

  long total() {
    return total;
  }

  /** Distinct keys: exact, or the HyperLogLog estimate (at least the summary's size). */
  long distinct() {
    if (exact != null) {
      return exact.size();
    }
    return Math.max(summary.size(), Math.round(hllEstimate()));
  }

  /**
   * Σ count²: exact, or a lower bound: the heavy hitters' squares plus the rest spread evenly over
   * the remaining distinct keys.
   */
  double sumOfSquares() {
    if (exact != null) {
      double s = 0;
      for (long[] c : exact.values()) {
        s += (double) c[0] * c[0];
      }
      return s;
    }
    double s = 0;
    long covered = 0;
    for (long[] c : summary.values()) {
      s += (double) c[0] * c[0];
      covered += c[0];
    }
    long rest = total - covered;
    long restKeys = Math.max(1, distinct() - summary.size());
    return s + (double) rest * rest / restKeys;
  }

  /** Up to {@code k} keys with the largest counts, largest first, ties by key. */
  List<Map.Entry<String, Long>> top(int k) {
    Map<String, long[]> source = exact != null ? exact : summary;
    List<Map.Entry<String, Long>> all = new ArrayList<>();
    for (Map.Entry<String, long[]> e : source.entrySet()) {
      all.add(Map.entry(e.getKey(), e.getValue()[0]));
    }
    all.sort(Comparator.comparing((Map.Entry<String, Long> e) -> e.getValue()).reversed()
        .thenComparing(Map.Entry::getKey));
    return all.subList(0, Math.min(k, all.size()));
  }

  /** Every exact count; only while {@link #isExact()}. */
  Map<String, long[]> exactCounts() {
    if (exact == null) {
      throw new IllegalStateException("the tally switched to sketches past " + exactLimit + " keys");
    }
    return exact;
  }

  private void switchToSketches() {
    registers = new byte[1 << HLL_BITS];
    summary = new HashMap<>();
    for (Map.Entry<String, long[]> e : exact.entrySet()) {
      offerHll(e.getKey());
      offerSummary(e.getKey(), e.getValue()[0]);
    }
    exact = null;
  }

  private void offerHll(String key) {
    long h = HASH.hashChars(key);
    int index = (int) (h >>> (64 - HLL_BITS));
    long rest = h << HLL_BITS | (1L << (HLL_BITS - 1));
    byte rank = (byte) (Long.numberOfLeadingZeros(rest) + 1);
    if (rank > registers[index]) {
      registers[index] = rank;
    }
  }

  private double hllEstimate() {
    int m = registers.length;
    double sum = 0;
    int zeros = 0;
    for (byte r : registers) {
      sum += Math.scalb(1.0, -r);
      if (r == 0) {
        zeros++;
      }
    }
    double alpha = 0.7213 / (1 + 1.079 / m);
    double raw = alpha * m * m / sum;
    if (raw <= 2.5 * m && zeros > 0) {
      return m * Math.log((double) m / zeros); // linear counting for small cardinalities
    }
    return raw;
  }

  /** Misra-Gries with weights: decrement every counter by what the newcomer cannot get a slot for. */
  private void offerSummary(String key, long count) {
    long[] c = summary.get(key);
    if (c != null) {
      c[0] += count;
      return;
    }
    long remaining = count;
    while (remaining > 0) {
      if (summary.size() < heavyHitters) {
        summary.put(key, new long[] {remaining});
        return;
      }
      long min = Long.MAX_VALUE;
      for (long[] v : summary.values()) {
        min = Math.min(min, v[0]);
      }
      long decrement = Math.min(min, remaining);
      for (Iterator<long[]> it = summary.values().iterator(); it.hasNext(); ) {
        long[] v = it.next();
        v[0] -= decrement;
        if (v[0] == 0) {
          it.remove();
        }
      }
      remaining -= decrement;
    }
  }
}
