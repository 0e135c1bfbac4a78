package io.github.routingkit.assignment;

/**
 * A set of small ints (local member positions) whose top is the element with the largest key,
 * ties broken by the smallest element, among the elements whose key is at least {@code 1}
 * (elements with a key of {@code 0} or below are held but never the top). The keys live in the
 * caller's array {@code key[element]}; after changing an element's key the caller calls
 * {@link #update}.
 *
 * <p>{@link PartitionSelector} keeps one per rack and key (spare need, need): it only asks whether
 * the rack has a member with at least one partition's cost left ({@code cost >= 1}) and which one
 * has the most, so hiding the members with nothing left changes no answer.
 *
 * <p>Two implementations with the same answers: {@link Buckets} (a bucket queue, amortized
 * {@code O(1)} per update when keys move by small steps) where its memory stays within a budget,
 * else {@link Heap} (a binary heap, {@code O(log n)} per update). Not thread-safe.
 */
interface MaxKeyQueue {
  /** Adds {@code e} (its key is read now); no effect if it is in the set already. */
  void add(int e);

  /** Removes {@code e}; no effect if it is not in the set. */
  void remove(int e);

  /** Restores the order after {@code key[e]} changed; no effect if {@code e} is not in the set. */
  void update(int e);

  /**
   * The element of the set with the largest key, ties by the smallest element, among those
   * with {@code key >= 1}; -1 if there is none.
   */
  int top();

  /**
   * A queue over {@code elements} (ascending, distinct, in {@code [0, key.length)}), initially
   * holding all of them, where no key will ever exceed {@code maxKey}: a {@link Buckets} if its
   * memory, {@link Buckets#cost}, is at most {@code budget}, else a {@link Heap}.
   *
   * @param slot scratch shared by queues over disjoint element sets, length {@code key.length}
   */
  static MaxKeyQueue of(long[] key, int[] elements, int[] slot, long maxKey, long budget) {
    if (Buckets.cost(elements.length, maxKey) <= budget) {
      return new Buckets(key, elements, slot, maxKey);
    }
    Heap q = new Heap(key, key.length);
    for (int e : elements) {
      q.add(e);
    }
    return q;
  }

  /**
   * A bucket queue: one bit set of the elements per key value in {@code [1, maxKey]} (bit {@code s}
   * for the element at position {@code s} of the ascending {@code elements}, so the first set bit
   * is the smallest element), a count and a first-non-empty-word hint per bucket, a pointer at
   * or above the largest non-empty bucket, and the last answer of {@link #top} until the set
   * changes (a placement asks each of a partition's racks, and changes one).
   *
   * <p>Cost: {@link #add}, {@link #remove} and {@link #update} are {@code O(1)}. {@link #top} is
   * {@code O(1)} while its last answer holds, else it walks the pointer down past empty buckets and
   * the top bucket's hint past empty words: the pointer only rises to a placed key, so its walks
   * total {@code O(maxKey)} plus the sum of the raises; a hint only falls to the word of a placed
   * bit, so its walks total at most {@code ceil(n / 64)} per such placement (in
   * {@link PartitionSelector} members leave the top bucket and enter the next one in ascending
   * order, and the hints mostly move forward). Memory: {@link #cost} longs
   * ({@code maxKey * (ceil(n / 64) + 1)} for {@code n} elements: bit sets, counts, hints) plus
   * {@code n} ints, all at construction; the {@code slot} array is the caller's. A key above
   * {@code maxKey} is a caller bug and throws {@link IllegalStateException}. Not thread-safe.
   */
  final class Buckets implements MaxKeyQueue {
    private static final int ABSENT = -2;
    private static final int BELOW = -1;

    private final long[] key;
    private final int[] slot; // element -> position in elements
    private final int[] elements;
    private final int[] bucketOf; // position -> bucket (key - 1), BELOW (key < 1) or ABSENT
    private final int words;
    private final long[] bits; // bucket b's words at [b * words, (b + 1) * words)
    private final int[] count;
    private final int[] firstWord; // no set bit of bucket b before word firstWord[b]
    private final long maxKey;
    private int max = -1; // no bucket above max is non-empty
    private int top = -1; // the answer of top() while valid
    private boolean valid = true;

    /**
     * The memory of a bucket queue over {@code n} elements with keys up to {@code maxKey}, in
     * longs (bit sets, counts and hints), or {@link Long#MAX_VALUE} if it could not be indexed.
     */
    static long cost(int n, long maxKey) {
      long range = Math.max(0, maxKey);
      long words = (n + 63L) >>> 6;
      long c = range * (words + 1);
      return range > Integer.MAX_VALUE || range * words > Integer.MAX_VALUE ? Long.MAX_VALUE : c;
    }

    /** A queue holding all of {@code elements}, keyed as {@code key} is now. */
    Buckets(long[] key, int[] elements, int[] slot, long maxKey) {
      this.key = key;
      this.slot = slot;
      this.elements = elements;
      this.maxKey = Math.max(0, maxKey);
      int range = (int) this.maxKey;
      this.words = (elements.length + 63) >>> 6;
      this.bits = new long[range * words];
      this.count = new int[range];
      this.firstWord = new int[range];
      java.util.Arrays.fill(firstWord, words);
      this.bucketOf = new int[elements.length];
      for (int s = 0; s < elements.length; s++) {
        slot[elements[s]] = s;
        place(s, key[elements[s]]);
      }
    }

    @Override
    public void add(int e) {
      int s = slot[e];
      if (bucketOf[s] == ABSENT) {
        place(s, key[e]);
      }
    }

    @Override
    public void remove(int e) {
      int s = slot[e];
      if (bucketOf[s] != ABSENT) {
        unplace(s);
        bucketOf[s] = ABSENT;
      }
    }

    @Override
    public void update(int e) {
      int s = slot[e];
      int b = bucketOf[s];
      if (b == ABSENT) {
        return;
      }
      long k = key[e];
      if (k - 1 == b || (k < 1 && b == BELOW)) {
        return;
      }
      unplace(s);
      place(s, k);
    }

    private void place(int s, long k) {
      if (k < 1) {
        bucketOf[s] = BELOW;
        return;
      }
      if (k > maxKey) {
        throw new IllegalStateException("key " + k + " above the queue's bound " + maxKey);
      }
      int b = (int) (k - 1);
      bucketOf[s] = b;
      valid = false;
      int w = s >>> 6;
      bits[b * words + w] |= 1L << s;
      count[b]++;
      if (w < firstWord[b]) {
        firstWord[b] = w;
      }
      if (b > max) {
        max = b;
      }
    }

    private void unplace(int s) {
      int b = bucketOf[s];
      if (b >= 0) {
        bits[b * words + (s >>> 6)] &= ~(1L << s);
        count[b]--;
        valid = false;
      }
    }

    @Override
    public int top() {
      if (valid) {
        return top;
      }
      int b = max;
      while (b >= 0 && count[b] == 0) {
        b--;
      }
      max = b;
      valid = true;
      if (b < 0) {
        return top = -1;
      }
      int base = b * words;
      int w = firstWord[b];
      while (bits[base + w] == 0) {
        w++;
      }
      firstWord[b] = w;
      return top = elements[(w << 6) + Long.numberOfTrailingZeros(bits[base + w])];
    }
  }

  /**
   * The same answers from an {@link IntHeap} over elements in {@code [0, capacity)}:
   * {@code O(log n)} per update, memory {@code 2 * capacity} ints. Not thread-safe.
   */
  final class Heap implements MaxKeyQueue {
    private final long[] key;
    private final IntHeap heap;

    /** An empty queue for elements in {@code [0, capacity)}. */
    Heap(long[] key, int capacity) {
      this.key = key;
      this.heap = new IntHeap(capacity,
          (a, b) -> key[a] != key[b] ? Long.compare(key[b], key[a]) : Integer.compare(a, b));
    }

    @Override
    public void add(int e) {
      if (!heap.contains(e)) {
        heap.add(e);
      }
    }

    @Override
    public void remove(int e) {
      heap.remove(e);
    }

    @Override
    public void update(int e) {
      heap.update(e);
    }

    @Override
    public int top() {
      if (heap.isEmpty()) {
        return -1;
      }
      int e = heap.peek();
      return key[e] >= 1 ? e : -1;
    }
  }
}
