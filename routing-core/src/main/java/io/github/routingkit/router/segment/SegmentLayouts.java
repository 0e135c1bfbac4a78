package io.github.routingkit.router.segment;

import io.github.routingkit.RoutingConfigException;
import io.github.routingkit.internal.Partitions;

/**
 * The partitions of each segment and of the shared range, per partition count: computed from a
 * {@link SegmentDefinition} the first time a count is seen and kept for the
 * {@value SegmentRouter#MEMO_SIZE} counts used most recently (copy on write: readers never lock, and
 * racing writers publish equal layouts). Thread-safe.
 */
final class SegmentLayouts {
  private static final String RANGES = SegmentDefinition.RANGES;
  private static final String WEIGHTS = SegmentDefinition.WEIGHTS;
  private static final String EXCLUSIVE = SegmentDefinition.EXCLUSIVE;

  private final SegmentDefinition definition;
  /** Layouts by recency, most recent first; replaced as a whole (copy on write), never mutated. */
  private volatile Layout[] memo = new Layout[0];

  SegmentLayouts(SegmentDefinition definition) {
    this.definition = definition;
  }

  /** The partitions of each segment and of the shared range for one partition count. */
  static final class Layout {
    final int numPartitions;
    final int[][] segment;
    final int[] shared;

    Layout(int numPartitions, int[][] segment, int[] shared) {
      this.numPartitions = numPartitions;
      this.segment = segment;
      this.shared = shared;
    }
  }

  Layout layoutFor(int numPartitions) {
    Layout[] cached = memo;
    for (Layout l : cached) {
      if (l.numPartitions == numPartitions) {
        return l;
      }
    }
    Layout l = computeLayout(Partitions.checkTableCount(numPartitions, "SegmentRouter"));
    // Racing threads may each publish; the loser's layout is equal, so losing it costs nothing.
    Layout[] next = new Layout[Math.min(cached.length + 1, SegmentRouter.MEMO_SIZE)];
    next[0] = l;
    System.arraycopy(cached, 0, next, 1, next.length - 1);
    memo = next;
    return l;
  }

  private Layout computeLayout(int n) {
    SegmentDefinition d = definition;
    int k = d.names.length;
    int[][] seg = new int[k][];
    boolean[] reserved = new boolean[n];
    if (d.ranges != null) {
      for (int i = 0; i < k; i++) {
        if (d.to[i] >= n) {
          throw new RoutingConfigException(RANGES, d.ranges, "segment '" + d.names[i] + "' range "
              + d.from[i] + "-" + d.to[i] + " exceeds the topic's " + n + " partitions [0, " + (n - 1)
              + "]");
        }
        seg[i] = rangeArray(d.from[i], d.to[i]);
      }
    } else {
      double total = d.sharedWeight;
      for (double w : d.weight) {
        total += w;
      }
      int entries = k + (d.sharedWeight > 0 ? 1 : 0);
      int[] count = new int[entries];
      double[] rest = new double[entries];
      int assigned = 0;
      for (int i = 0; i < entries; i++) {
        // share first: n * 1e308 would overflow d.to Infinity (an int count of 2^31-1)
        double exact = n * ((i < k ? d.weight[i] : d.sharedWeight) / total);
        count[i] = (int) Math.floor(exact);
        rest[i] = exact - count[i];
        assigned += count[i];
      }
      for (int left = n - assigned; left > 0; left--) {
        int best = 0;
        for (int i = 1; i < entries; i++) {
          if (rest[i] > rest[best]) {
            best = i;
          }
        }
        count[best]++;
        rest[best] = -1;
      }
      int next = 0;
      for (int i = 0; i < k; i++) {
        if (count[i] == 0) {
          throw new RoutingConfigException(WEIGHTS, d.weights, "segment '" + d.names[i]
              + "' gets 0 of the topic's " + n + " partitions (its share is "
              + String.format(java.util.Locale.ROOT, "%.2f", n * (d.weight[i] / total))
              + "); use more partitions or fewer segments");
        }
        seg[i] = rangeArray(next, next + count[i] - 1);
        next += count[i];
      }
    }
    for (int i = 0; i < k; i++) {
      if (d.isExclusive[i]) {
        for (int p : seg[i]) {
          reserved[p] = true;
        }
      }
    }
    int sharedCount = 0;
    for (boolean r : reserved) {
      sharedCount += r ? 0 : 1;
    }
    if (sharedCount == 0) {
      throw new RoutingConfigException(d.ranges != null ? RANGES : EXCLUSIVE,
          d.ranges != null ? d.ranges : d.exclusive, "the d.exclusive segments " + d.exclusiveNames()
              + " cover all " + n + " partitions, so the shared range for unknown tenants is empty");
    }
    int[] shared = new int[sharedCount];
    for (int p = 0, j = 0; p < n; p++) {
      if (!reserved[p]) {
        shared[j++] = p;
      }
    }
    return new Layout(n, seg, shared);
  }

  private static int[] rangeArray(int a, int b) {
    int[] r = new int[b - a + 1];
    for (int i = 0; i < r.length; i++) {
      r[i] = a + i;
    }
    return r;
  }
}
