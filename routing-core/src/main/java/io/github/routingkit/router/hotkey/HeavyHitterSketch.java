package io.github.routingkit.router.hotkey;

import java.util.Arrays;

/**
 * A Space-Saving heavy-hitter summary (Metwally, Agrawal, El Abbadi, "Efficient Computation of
 * Frequent and Top-k Elements in Data Streams", ICDT 2005) over 64-bit key fingerprints, with
 * exponential decay: the hot-key detector of {@link HotKeyRouter}.
 *
 * <p><b>Memory.</b> {@code m} counters (a power of two) of 32 bytes each (fingerprint, count, error,
 * heap slot and heap entry) plus an open-addressing index of {@code 2m} ints: {@code 40 m} bytes
 * plus about 100 bytes of array and object headers, fixed at construction and never grown. The
 * largest {@code m} whose footprint fits the configured cap is used: 1024 counters (about 41 KiB)
 * under the default 64 KiB cap. {@link #memoryBytes()} reports the exact footprint.
 *
 * <p><b>Error.</b> With {@code N} the (decayed) number of messages counted, every key's count is
 * over-estimated by at most its recorded error, which is at most {@code N / m}; a key whose true
 * (decayed) count exceeds {@code N / m} is always in the summary. A key is reported hot only if its
 * guaranteed count ({@code count - error}) is at least {@code threshold * N}, so a key whose true
 * share is below the threshold is never reported, and a key whose share exceeds
 * {@code threshold + 1/m} always is, once {@code N} has reached the warm-up of {@code 100 / threshold}
 * messages. Two different keys share a fingerprint with probability about {@code 2^-64} per pair.
 *
 * <p><b>Decay.</b> When {@code N} reaches the window, every count, error and {@code N} are halved
 * (as Caffeine's {@code FrequencySketch} does at its sample size), so the summary follows a
 * traffic mix that changes over a few windows and a key that cools down stops being hot.
 *
 * <p>Not thread-safe: {@link HotKeyRouter} guards it with a lock.
 */
final class HeavyHitterSketch {
  static final int BYTES_PER_COUNTER = 40;
  private static final int OVERHEAD = 6 * 16 + 64;
  private static final int EMPTY = -1;

  private final int capacity;
  private final long window;
  private final double threshold;
  private final long warmup;
  private final long[] fingerprint;
  private final long[] count;
  private final long[] error;
  private final int[] heap; // heap[i] = counter slot; min-heap by count
  private final int[] heapPos; // heapPos[slot] = index in heap
  private final int[] index; // open addressing: fingerprint -> slot, EMPTY if free
  private int size;
  private long total;

  HeavyHitterSketch(int capacity, long window, double threshold) {
    if (Integer.bitCount(capacity) != 1) {
      throw new IllegalArgumentException("capacity must be a power of two: " + capacity);
    }
    this.capacity = capacity;
    this.window = window;
    this.threshold = threshold;
    this.warmup = (long) Math.ceil(100 / threshold);
    this.fingerprint = new long[capacity];
    this.count = new long[capacity];
    this.error = new long[capacity];
    this.heap = new int[capacity];
    this.heapPos = new int[capacity];
    this.index = new int[capacity * 2];
    Arrays.fill(index, EMPTY);
  }

  /** Returns the largest power-of-two counter count whose footprint fits {@code maxBytes}, or 0. */
  static int capacityFor(int maxBytes) {
    int m = Integer.highestOneBit(Math.max(1, (maxBytes - OVERHEAD) / BYTES_PER_COUNTER));
    return footprint(m) <= maxBytes ? m : 0;
  }

  static int footprint(int capacity) {
    return capacity * BYTES_PER_COUNTER + OVERHEAD;
  }

  int memoryBytes() {
    return footprint(capacity);
  }

  int capacity() {
    return capacity;
  }

  long total() {
    return total;
  }

  /** Counts one occurrence of {@code fp}. */
  void offer(long fp) {
    if (++total >= window) {
      decay();
    }
    int slot = find(fp);
    if (slot >= 0) {
      count[slot]++;
      siftDown(heapPos[slot]);
      return;
    }
    if (size < capacity) {
      slot = size++;
      fingerprint[slot] = fp;
      count[slot] = 1;
      error[slot] = 0;
      heap[slot] = slot;
      heapPos[slot] = slot;
      insert(fp, slot);
      siftUp(slot);
      return;
    }
    slot = heap[0]; // the minimum: Space-Saving replaces it and inherits its count as error
    remove(fingerprint[slot]);
    fingerprint[slot] = fp;
    error[slot] = count[slot];
    count[slot]++;
    insert(fp, slot);
    siftDown(0);
  }

  /** Returns the sorted fingerprints whose guaranteed share is at least the threshold. */
  long[] hot() {
    long[] scratch = new long[maxHot()];
    return Arrays.copyOf(scratch, hotInto(scratch));
  }

  /** The most keys that can be hot at once: at most 1 / threshold keys reach the threshold. */
  int maxHot() {
    // in double: for a threshold below 2^-31, (int) ceil(1 / threshold) + 1 wraps to negative
    return (int) Math.min(capacity, Math.ceil(1 / threshold) + 1);
  }

  /**
   * Writes the fingerprints whose guaranteed share is at least the threshold into {@code out}
   * (length at least {@link #maxHot()}), sorted, and returns how many; allocation-free.
   */
  int hotInto(long[] out) {
    if (total < warmup) {
      return 0;
    }
    long min = (long) Math.ceil(threshold * total);
    int k = 0;
    for (int slot = 0; slot < size && k < out.length; slot++) {
      if (count[slot] - error[slot] >= min) {
        out[k++] = fingerprint[slot];
      }
    }
    Arrays.sort(out, 0, k);
    return k;
  }

  private void decay() {
    total >>>= 1;
    for (int slot = 0; slot < size; slot++) {
      count[slot] >>>= 1; // halving keeps the heap order
      error[slot] >>>= 1;
    }
  }

  private int mask() {
    return index.length - 1;
  }

  private static int mix(long fp) {
    return (int) (fp ^ (fp >>> 32));
  }

  private int find(long fp) {
    for (int i = mix(fp) & mask(); ; i = (i + 1) & mask()) {
      int slot = index[i];
      if (slot == EMPTY) {
        return -1;
      }
      if (fingerprint[slot] == fp) {
        return slot;
      }
    }
  }

  private void insert(long fp, int slot) {
    int i = mix(fp) & mask();
    while (index[i] != EMPTY) {
      i = (i + 1) & mask();
    }
    index[i] = slot;
  }

  /** Linear-probing deletion with backward shift (no tombstones). */
  private void remove(long fp) {
    int i = mix(fp) & mask();
    while (fingerprint[index[i]] != fp) {
      i = (i + 1) & mask();
    }
    int hole = i;
    for (int j = (hole + 1) & mask(); index[j] != EMPTY; j = (j + 1) & mask()) {
      int home = mix(fingerprint[index[j]]) & mask();
      // move j into the hole if its home is not cyclically in (hole, j]
      boolean between = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
      if (!between) {
        index[hole] = index[j];
        hole = j;
      }
    }
    index[hole] = EMPTY;
  }

  private void siftUp(int i) {
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      if (count[heap[parent]] <= count[heap[i]]) {
        return;
      }
      swap(i, parent);
      i = parent;
    }
  }

  private void siftDown(int i) {
    while (true) {
      int l = 2 * i + 1;
      if (l >= size) {
        return;
      }
      int r = l + 1;
      int c = r < size && count[heap[r]] < count[heap[l]] ? r : l;
      if (count[heap[i]] <= count[heap[c]]) {
        return;
      }
      swap(i, c);
      i = c;
    }
  }

  private void swap(int a, int b) {
    int sa = heap[a];
    int sb = heap[b];
    heap[a] = sb;
    heap[b] = sa;
    heapPos[sb] = a;
    heapPos[sa] = b;
  }

  /** Test hook: whether the heap is a min-heap by count and the index finds every counter. */
  boolean consistent() {
    for (int i = 0; i < size; i++) {
      int slot = heap[i];
      if (heapPos[slot] != i || (i > 0 && count[heap[(i - 1) >>> 1]] > count[slot])
          || find(fingerprint[slot]) != slot || error[slot] > count[slot]) {
        return false;
      }
    }
    return true;
  }

  /** The estimated count and error of {@code fp}, or null if not tracked (allocates the pair). */
  long[] estimate(long fp) {
    int slot = find(fp);
    return slot < 0 ? null : new long[] {count[slot], error[slot]};
  }
}
