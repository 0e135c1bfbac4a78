package io.github.routingkit;

import java.util.Arrays;

/**
 * A Space-Saving heavy-hitter summary (Metwally, Agrawal, El Abbadi, "Efficient Computation of
 * Frequent and Top-k Elements in Data Streams", ICDT 2005) over 64-bit key fingerprints, with
 * exponential decay: the hot-key detector of {@link HotKeyRouter}.
 *
 * <p><b>Structure and cost.</b> The counters are kept in Metwally et al.'s Stream-Summary order:
 * an array of slots sorted by non-increasing count, cut into runs of equal count (the paper's
 * buckets). Counting a monitored key swaps it with the first slot of its run and moves it to the
 * run above, so {@link #offer} costs O(1): one probe sequence in the index and a few array writes,
 * with no heap re-sort. The replaced counter is the last slot of the array, a minimum (which of
 * several equal minima is replaced does not affect the error bounds below).
 *
 * <p><b>Memory.</b> {@code m} counters (a power of two) of 52 bytes each (fingerprint, count and
 * error, 8 bytes each; order, position and run, 4 bytes each; a run's first and last position,
 * 4 bytes each; an open-addressing index of {@code 2m} ints): {@code 52 m} bytes plus 208 bytes of
 * array and object headers, fixed at construction and never grown. The largest {@code m} whose
 * footprint fits the configured cap is used: 1024 counters (53,456 bytes) under the default 64 KiB
 * cap. {@link #memoryBytes()} reports the exact footprint.
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
 * (as Caffeine's {@code FrequencySketch} does at its sample size) and the runs are rebuilt in one
 * pass (O(m), at most once per {@code window / 2} messages), so the summary follows a traffic mix that changes over a few windows and a key that cools down stops being hot.
 *
 * <p>Not thread-safe: {@link HotKeyRouter} guards it with a lock.
 */
final class HeavyHitterSketch {
  static final int BYTES_PER_COUNTER = 52;
  private static final int OVERHEAD = 9 * 16 + 64;
  private static final int EMPTY = -1;

  private final int capacity;
  private final long window;
  private final double threshold;
  private final long warmup;
  private final long[] fingerprint;
  private final long[] count;
  private final long[] error;
  private final int[] order; // order[position] = slot, counts non-increasing by position
  private final int[] position; // position[slot] = index in order
  private final int[] run; // run[slot] = the run (bucket of equal counts) holding the slot
  private final int[] runFirst; // first position of a run; for a free run, the next free run
  private final int[] runLast; // last position of a run
  private final int[] index; // open addressing: fingerprint -> slot, EMPTY if free
  private int freeRun;
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
    this.order = new int[capacity];
    this.position = new int[capacity];
    this.run = new int[capacity];
    this.runFirst = new int[capacity];
    this.runLast = new int[capacity];
    this.index = new int[capacity * 2];
    Arrays.fill(index, EMPTY);
    freeAllRuns();
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

  /** Counts one occurrence of {@code fp}: O(1) (one hash probe sequence and a few array writes). */
  void offer(long fp) {
    if (++total >= window) {
      decay();
    }
    int slot = find(fp);
    if (slot < 0) {
      if (size < capacity) {
        slot = size++; // appended with count 0 at the last position, then counted
        fingerprint[slot] = fp;
        count[slot] = 0;
        error[slot] = 0;
        order[slot] = slot;
        position[slot] = slot;
        if (slot > 0 && count[order[slot - 1]] == 0) {
          int r = run[order[slot - 1]];
          runLast[r] = slot;
          run[slot] = r;
        } else {
          run[slot] = newRun(slot);
        }
      } else {
        slot = order[size - 1]; // a minimum: Space-Saving replaces it, its count becomes the error
        remove(fingerprint[slot]);
        fingerprint[slot] = fp;
        error[slot] = count[slot];
      }
      insert(fp, slot);
    }
    increment(slot);
  }

  /**
   * Adds one to a slot's count: the slot swaps with the first slot of its run (equal counts), so
   * the order stays non-increasing, leaves that run and joins the run before it if that run now
   * has the same count (Metwally et al.'s Stream-Summary, with runs of an array instead of
   * linked buckets).
   */
  private void increment(int slot) {
    int r = run[slot];
    int first = runFirst[r];
    long c = ++count[slot];
    int i = position[slot];
    if (i != first) {
      int other = order[first];
      order[i] = other;
      position[other] = i;
      order[first] = slot;
      position[slot] = first;
    }
    boolean joins = first > 0 && count[order[first - 1]] == c;
    if (first == runLast[r]) { // alone in its run: the run keeps it unless it joins the next one up
      if (joins) {
        runLast[run[order[first - 1]]] = first;
        run[slot] = run[order[first - 1]];
        freeRun(r);
      }
      return;
    }
    runFirst[r] = first + 1;
    if (joins) {
      int up = run[order[first - 1]];
      runLast[up] = first;
      run[slot] = up;
    } else {
      run[slot] = newRun(first);
    }
  }

  private int newRun(int at) {
    int r = freeRun;
    freeRun = runFirst[r];
    runFirst[r] = at;
    runLast[r] = at;
    return r;
  }

  private void freeRun(int r) {
    runFirst[r] = freeRun;
    freeRun = r;
  }

  private void freeAllRuns() {
    for (int r = 0; r < capacity; r++) {
      runFirst[r] = r + 1 < capacity ? r + 1 : EMPTY;
    }
    freeRun = 0;
  }

  /** Returns the sorted fingerprints whose guaranteed share is at least the threshold. */
  long[] hot() {
    long[] scratch = new long[maxHot()];
    return Arrays.copyOf(scratch, hotInto(scratch));
  }

  /** The most keys that can be hot at once: at most 1 / threshold keys reach the threshold. */
  int maxHot() {
    return Math.min(capacity, (int) Math.ceil(1 / threshold) + 1);
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
      count[slot] >>>= 1; // halving keeps the order non-increasing; runs may merge
      error[slot] >>>= 1;
    }
    freeAllRuns();
    int r = EMPTY;
    for (int i = 0; i < size; i++) {
      int slot = order[i];
      if (i > 0 && count[slot] == count[order[i - 1]]) {
        runLast[r] = i;
      } else {
        r = newRun(i);
      }
      run[slot] = r;
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

  private int indexOf(long fp) {
    int i = mix(fp) & mask();
    while (fingerprint[index[i]] != fp) {
      i = (i + 1) & mask();
    }
    return i;
  }

  /** Linear-probing deletion with backward shift (no tombstones). */
  private void remove(long fp) {
    int hole = indexOf(fp);
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

  /** Test hook: whether the order is non-increasing and the runs are exactly its equal-count runs. */
  boolean consistent() {
    for (int i = 0; i < size; i++) {
      int slot = order[i];
      int r = run[slot];
      if (position[slot] != i || runFirst[r] > i || runLast[r] < i
          || count[order[runFirst[r]]] != count[slot] || count[order[runLast[r]]] != count[slot]
          || (i > 0 && count[order[i - 1]] < count[slot])
          || (i > 0 && count[order[i - 1]] == count[slot] && run[order[i - 1]] != r)
          || index[indexOf(fingerprint[slot])] != slot || error[slot] > count[slot]) {
        return false;
      }
    }
    return true;
  }

  /** Test hook: the estimated count and error of {@code fp}, or null if not tracked. */
  long[] estimate(long fp) {
    int slot = find(fp);
    return slot < 0 ? null : new long[] {count[slot], error[slot]};
  }
}
