package io.github.routingkit.testkit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import net.openhft.hashing.LongHashFunction;

/**
 * Counts messages per key in bounded memory. Exact up to {@code exactLimit} distinct keys (and at
 * most a quarter of the maximum heap for the keys' characters); past that it switches, once, to two
 * sketches fed from the exact counts so far: a Misra-Gries heavy-hitter summary of
 * {@code heavyHitters} counters (each reported count is at most {@code total / (heavyHitters + 1)}
 * below the true one, never above) and a HyperLogLog of 2^14 registers for the distinct count
 * (standard error about 0.8 %). Memory is then {@code O(heavyHitters)} plus 16 KiB whatever the
 * input size.
 *
 * <p>The exact table holds no object per key: the keys' characters sit in one growing
 * {@code char[]}, counts, offsets and hashes in parallel primitive arrays, found by open
 * addressing. About {@code 2 x length + 30} bytes per distinct key and nothing for the collector to
 * trace, so counting exactly is as fast as the sketches (a {@code HashMap<String, long[]>} of
 * 2,000,000 keys spent most of its time in garbage collection, and more heap made it slower).
 * Not thread-safe.
 */
final class KeyTally {
  private static final int HLL_BITS = 14;
  private static final LongHashFunction HASH = LongHashFunction.xx3();
  /** Characters of exact keys, at most: a quarter of the heap (2 bytes a char). */
  private static final long ARENA_LIMIT =
      Math.min(Integer.MAX_VALUE - 64, Runtime.getRuntime().maxMemory() / 8);

  private final int exactLimit;
  private final int heavyHitters;
  private ExactTable exact = new ExactTable();
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
    long h = HASH.hashChars(key);
    if (exact != null) {
      if (exact.add(key, h, count, exactLimit)) {
        return;
      }
      switchToSketches();
    }
    offerHll(h);
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
      return exact.size;
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
      for (int i = 0; i < exact.size; i++) {
        double c = exact.counts[i];
        s += c * c;
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
    if (k <= 0) {
      return List.of();
    }
    if (exact != null) {
      return exact.top(k);
    }
    List<Map.Entry<String, Long>> all = new ArrayList<>();
    for (Map.Entry<String, long[]> e : summary.entrySet()) {
      all.add(Map.entry(e.getKey(), e.getValue()[0]));
    }
    all.sort(Comparator.comparing((Map.Entry<String, Long> e) -> e.getValue()).reversed()
        .thenComparing(Map.Entry::getKey));
    return all.subList(0, Math.min(k, all.size()));
  }

  /** Every exact count, as a new map; only while {@link #isExact()}. */
  Map<String, Long> exactCounts() {
    if (exact == null) {
      throw new IllegalStateException("the tally switched to sketches past " + exactLimit + " keys");
    }
    Map<String, Long> m = new HashMap<>();
    for (int i = 0; i < exact.size; i++) {
      m.put(exact.key(i), exact.counts[i]);
    }
    return m;
  }

  private void switchToSketches() {
    registers = new byte[1 << HLL_BITS];
    summary = new HashMap<>();
    ExactTable t = exact;
    exact = null;
    for (int i = 0; i < t.size; i++) {
      offerHll(t.hashes[i]);
      offerSummary(t.key(i), t.counts[i]);
    }
  }

  private void offerHll(long h) {
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

  /** Exact counts without an object per key: open addressing over parallel primitive arrays. */
  private static final class ExactTable {
    char[] chars = new char[1 << 12];
    int used;
    int[] starts = new int[256];
    int[] lengths = new int[256];
    long[] counts = new long[256];
    long[] hashes = new long[256];
    int size;
    int[] slots = new int[512]; // entry index + 1, 0 = free; at most half full

    /** Adds {@code count} to {@code key}; false (nothing changed) if it is new and the table full. */
    boolean add(String key, long h, long count, int limit) {
      int mask = slots.length - 1;
      int len = key.length();
      for (int s = (int) h & mask; ; s = (s + 1) & mask) {
        int e = slots[s] - 1;
        if (e < 0) {
          if (size >= limit || used + (long) len > ARENA_LIMIT) {
            return false;
          }
          insert(s, key, h, count);
          return true;
        }
        if (hashes[e] == h && lengths[e] == len && sameChars(e, key)) {
          counts[e] += count;
          return true;
        }
      }
    }

    private boolean sameChars(int e, String key) {
      int at = starts[e];
      for (int i = 0; i < key.length(); i++) {
        if (chars[at + i] != key.charAt(i)) {
          return false;
        }
      }
      return true;
    }

    private void insert(int slot, String key, long h, long count) {
      int len = key.length();
      if (used + len > chars.length) {
        long grown = Math.max(used + (long) len, Math.min(ARENA_LIMIT, (long) chars.length * 2));
        chars = Arrays.copyOf(chars, (int) grown);
      }
      key.getChars(0, len, chars, used);
      if (size == counts.length) {
        int n = size * 2;
        starts = Arrays.copyOf(starts, n);
        lengths = Arrays.copyOf(lengths, n);
        counts = Arrays.copyOf(counts, n);
        hashes = Arrays.copyOf(hashes, n);
      }
      starts[size] = used;
      lengths[size] = len;
      counts[size] = count;
      hashes[size] = h;
      used += len;
      slots[slot] = ++size;
      if (size * 2 > slots.length) {
        rehash(slots.length * 2);
      }
    }

    private void rehash(int n) {
      int[] fresh = new int[n];
      int mask = n - 1;
      for (int e = 0; e < size; e++) {
        int s = (int) hashes[e] & mask;
        while (fresh[s] != 0) {
          s = (s + 1) & mask;
        }
        fresh[s] = e + 1;
      }
      slots = fresh;
    }

    String key(int e) {
      return new String(chars, starts[e], lengths[e]);
    }

    /** Whether entry a ranks below entry b: fewer messages, or as many and a greater key. */
    private boolean worse(int a, int b) {
      if (counts[a] != counts[b]) {
        return counts[a] < counts[b];
      }
      return compareKeys(a, b) > 0;
    }

    private int compareKeys(int a, int b) {
      int la = lengths[a];
      int lb = lengths[b];
      int sa = starts[a];
      int sb = starts[b];
      for (int i = 0, n = Math.min(la, lb); i < n; i++) {
        char x = chars[sa + i];
        char y = chars[sb + i];
        if (x != y) {
          return x - y; // String.compareTo's order (UTF-16 units)
        }
      }
      return la - lb;
    }

    /** The k best entries in O(size log k), with no per-key allocation. */
    List<Map.Entry<String, Long>> top(int k) {
      int[] heap = new int[Math.min(k, size)]; // a min-heap by rank: heap[0] is the worst kept
      int n = 0;
      for (int e = 0; e < size; e++) {
        if (n < heap.length) {
          heap[n] = e;
          for (int i = n++; i > 0 && worse(heap[i], heap[(i - 1) / 2]); i = (i - 1) / 2) {
            int p = (i - 1) / 2;
            int t = heap[i];
            heap[i] = heap[p];
            heap[p] = t;
          }
        } else if (n > 0 && worse(heap[0], e)) {
          heap[0] = e;
          for (int i = 0; ; ) {
            int l = 2 * i + 1;
            int r = l + 1;
            int m = i;
            if (l < n && worse(heap[l], heap[m])) {
              m = l;
            }
            if (r < n && worse(heap[r], heap[m])) {
              m = r;
            }
            if (m == i) {
              break;
            }
            int t = heap[i];
            heap[i] = heap[m];
            heap[m] = t;
            i = m;
          }
        }
      }
      Integer[] order = new Integer[n];
      for (int i = 0; i < n; i++) {
        order[i] = heap[i];
      }
      Arrays.sort(order, (a, b) -> worse(a, b) ? 1 : worse(b, a) ? -1 : 0);
      List<Map.Entry<String, Long>> out = new ArrayList<>(n);
      for (int e : order) {
        out.add(Map.entry(key(e), counts[e]));
      }
      return out;
    }
  }
}
