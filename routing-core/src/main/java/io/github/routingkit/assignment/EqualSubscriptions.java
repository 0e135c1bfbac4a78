package io.github.routingkit.assignment;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The builder for a group of members that all subscribe to the same topics, all of one weight
 * (Kafka's "constrained" case): quotas in partitions by largest-remainder apportionment, then
 * {@link PartitionSelector} over all the group's partitions at once.
 */
final class EqualSubscriptions {
  private EqualSubscriptions() {}

  /**
   * Assigns the partitions of topics {@code ct} (ascending) to members {@code cm} (canonical
   * order), each of which subscribes to all of them.
   *
   * <ol>
   *   <li>Quotas: the {@code L} partitions are shared by member weight, {@code floor(L*w/W)}
   *       or one more; the extra ones go first to members that own more than their floor (fewest
   *       moves), then to the largest remainders, and with unequal weights are then moved where
   *       Kafka's criterion with weights wants them ({@link #quotas}).</li>
   *   <li>Keep order: a member over its quota gives up first partitions a member of a replica rack
   *       has room for, then partitions of the topics it holds most above its per-topic share
   *       ({@code P_t*w/W}; per-topic spread), and keeps the others.</li>
   *   <li>{@link PartitionSelector} with need = quota.</li>
   * </ol>
   */
  static void assign(GroupIndex g, int[] cm, int[] ct) {
    int n = cm.length;
    int[] local = new int[g.mem.length];
    long totalWeight = 0;
    for (int k = 0; k < n; k++) {
      local[cm[k]] = k;
      totalWeight += g.mem[cm[k]].weight();
    }
    long totalLoad = 0;
    long[] ownedLoad = new long[n];
    int[] ownedCount = new int[n];
    int partCount = 0;
    for (int t : ct) {
      partCount += g.offset[t + 1] - g.offset[t];
      for (int gp = g.offset[t]; gp < g.offset[t + 1]; gp++) {
        totalLoad++;
        int o = g.owner[gp];
        if (o >= 0) {
          int k = local[o];
          ownedLoad[k]++;
          ownedCount[k]++;
        }
      }
    }

    // 1. Quotas.
    long[] weights = new long[n];
    for (int k = 0; k < n; k++) {
      weights[k] = g.mem[cm[k]].weight();
    }
    long[] quota = quotas(totalLoad, weights, totalWeight, ownedLoad);

    // 2. Keep orders.
    int[][] won = new int[n][];
    for (int k = 0; k < n; k++) {
      won[k] = new int[ownedCount[k]];
    }
    int[] fill = new int[n];
    int[] parts = new int[partCount];
    int pc = 0;
    for (int t : ct) {
      for (int gp = g.offset[t]; gp < g.offset[t + 1]; gp++) {
        parts[pc++] = gp;
        int o = g.owner[gp];
        if (o >= 0) {
          int k = local[o];
          won[k][fill[k]++] = gp;
        }
      }
    }
    long[] rackDemand = new long[g.rackCount];
    for (int k = 0; k < n; k++) {
      int r = g.memberRack[cm[k]];
      if (r >= 0 && ownedLoad[k] < quota[k]) {
        rackDemand[r] += quota[k] - ownedLoad[k];
      }
    }
    for (int k = 0; k < n; k++) {
      if (ownedLoad[k] > quota[k]) {
        won[k] = keepOrder(g, cm[k], won[k], ownedLoad[k] - quota[k], rackDemand, totalWeight);
      }
    }

    // 3. Partitions.
    new PartitionSelector(g, cm, quota.clone(), null, true).select(parts, won);
  }

  /**
   * Quotas by largest-remainder apportionment of {@code totalLoad} over members of the given
   * weights ({@code totalWeight} their sum): {@code floor(L*w/W)} each, and one more for the
   * {@code L - sum(floor)} members first among those with a remainder, ordered by: owning more
   * than its floor ({@code ownedLoad}) first, then the larger remainder, then the lower index;
   * with unequal weights then moved between members by {@code balanceByWeight}.
   *
   * @return quotas summing to {@code totalLoad}, each {@code floor(L*w/W)} or, with a remainder,
   *     one more
   */
  static long[] quotas(long totalLoad, long[] weights, long totalWeight, long[] ownedLoad) {
    int n = weights.length;
    long[] quota = new long[n];
    long[] rem = new long[n];
    long sumFloor = 0;
    int candidates = 0;
    long firstRem = 0;
    boolean oneRemainder = true;
    for (int k = 0; k < n; k++) {
      long num = Math.multiplyExact(totalLoad, weights[k]);
      quota[k] = num / totalWeight;
      rem[k] = num % totalWeight;
      sumFloor += quota[k];
      if (rem[k] > 0) {
        if (candidates++ == 0) {
          firstRem = rem[k];
        }
        oneRemainder &= rem[k] == firstRem;
      }
    }
    long extra = totalLoad - sumFloor;
    if (extra == 0) {
      return quota;
    }
    int[] order = new int[candidates];
    if (oneRemainder) {
      // All remainders equal (equal weights): the order is "owns more than its floor" first,
      // then by index, without a sort.
      int c = 0;
      for (int pass = 0; pass < 2; pass++) {
        for (int k = 0; k < n; k++) {
          if (rem[k] > 0 && (ownedLoad[k] > quota[k]) == (pass == 0)) {
            order[c++] = k;
          }
        }
      }
    } else {
      List<Integer> list = new ArrayList<>(candidates);
      for (int k = 0; k < n; k++) {
        if (rem[k] > 0) {
          list.add(k);
        }
      }
      list.sort(Comparator.<Integer>comparingInt(k -> ownedLoad[k] > quota[k] ? 0 : 1)
          .thenComparingLong(k -> -rem[k])
          .thenComparingInt(k -> k));
      for (int j = 0; j < candidates; j++) {
        order[j] = list.get(j);
      }
    }
    for (int j = 0; j < extra; j++) {
      quota[order[j]]++;
    }
    for (int k = 1; k < n; k++) {
      if (weights[k] != weights[0]) {
        balanceByWeight(quota, weights, order, (int) extra, ownedLoad);
        break;
      }
    }
    return quota;
  }

  /**
   * With unequal weights, moves "one more" from members that got it to members with a remainder
   * that did not, while Kafka's criterion with weights says the load should move: member {@code i}
   * at its floor could take one partition from member {@code j} at floor + 1 when
   * {@code (2*q_i + 1)*w_j < (2*q_j - 1)*w_i}. Each such move lowers {@code sum(q^2 / w)}, and
   * every member changes at most once (the others' terms stay), so pairing the members that
   * could take, smallest {@code (2q+1)/w} first, with those that could give, largest
   * {@code (2q-1)/w} first, while the pair violates the criterion gives the quotas that are both
   * within one of each share and balanced by the criterion whenever some quotas are (the
   * criterion is the Sainte-Laguë / Webster condition, which can ask for more than one over a
   * share: then the quota rule wins). Stickiness (owners first) is kept wherever the criterion is
   * indifferent.
   *
   * @param order the candidates with a remainder, the first {@code extra} of which got one more
   */
  private static void balanceByWeight(long[] quota, long[] weights, int[] order, int extra,
      long[] ownedLoad) {
    int takers = order.length - extra;
    if (takers == 0) {
      return;
    }
    Integer[] give = new Integer[extra];
    Integer[] take = new Integer[takers];
    for (int j = 0; j < extra; j++) {
      give[j] = order[j];
    }
    for (int j = 0; j < takers; j++) {
      take[j] = order[extra + j];
    }
    // (2q - 1) / w descending: a before b when (2q_a - 1) w_b > (2q_b - 1) w_a; among equals
    // first those that do not own the extra partition (giving it up moves nothing), then by index.
    Arrays.sort(give, (a, b) -> {
      int c = Long.compare(Math.multiplyExact(2 * quota[b] - 1, weights[a]),
          Math.multiplyExact(2 * quota[a] - 1, weights[b]));
      if (c == 0) {
        c = Boolean.compare(ownedLoad[a] >= quota[a], ownedLoad[b] >= quota[b]);
      }
      return c != 0 ? c : Integer.compare(a, b);
    });
    // (2q + 1) / w ascending; among equals first those that own more than their floor.
    Arrays.sort(take, (a, b) -> {
      int c = Long.compare(Math.multiplyExact(2 * quota[a] + 1, weights[b]),
          Math.multiplyExact(2 * quota[b] + 1, weights[a]));
      if (c == 0) {
        c = Boolean.compare(ownedLoad[b] > quota[b], ownedLoad[a] > quota[a]);
      }
      return c != 0 ? c : Integer.compare(a, b);
    });
    for (int j = 0; j < Math.min(give.length, take.length); j++) {
      int gj = give[j];
      int ti = take[j];
      if (Math.multiplyExact(2 * quota[ti] + 1, weights[gj])
          >= Math.multiplyExact(2 * quota[gj] - 1, weights[ti])) {
        break;
      }
      quota[gj]--;
      quota[ti]++;
    }
  }

  /**
   * The order in which member {@code i} keeps its owned partitions {@code won} (ascending) when it
   * owns {@code excess} more load than its quota: releases first the partitions off its rack (the
   * selector moves them when a rack-local member has room), then those a rack with spare quota
   * holds (the move gains locality), then one at a time from the topic it holds most above its
   * share; keeps the others, then the released ones in reverse.
   */
  static int[] keepOrder(GroupIndex g, int i, int[] won, long excess, long[] rackDemand,
      long totalWeight) {
    return keepOrder(g.hasRacks() ? g : null, i, won, excess, rackDemand, g.offset,
        g.mem[i].weight(), totalWeight);
  }

  /**
   * {@link #keepOrder(GroupIndex, int, int[], long, long[], long)} with the racks read from
   * {@code racks} (null when no member has a rack).
   *
   * @param offset the global index of each topic's partition 0 (see {@code GroupIndex.offset})
   * @param weight member {@code i}'s weight
   */
  static int[] keepOrder(RackView racks, int i, int[] won, long excess, long[] rackDemand,
      int[] offset, long weight, long totalWeight) {
    boolean[] released = new boolean[won.length];
    int[] release = new int[won.length];
    int r = 0;
    long releasedLoad = 0;
    if (racks != null) {
      for (int j = 0; j < won.length && releasedLoad < excess; j++) {
        if (racks.isRemote(i, won[j])) {
          released[j] = true;
          release[r++] = won[j];
          releasedLoad++;
        }
      }
      for (int j = 0; j < won.length && releasedLoad < excess; j++) {
        int gp = won[j];
        if (released[j]) {
          continue;
        }
        long w = 1;
        int[] rs = racks.racksOf(gp);
        if (rs == null) {
          continue;
        }
        int best = -1;
        for (int x : rs) {
          if (rackDemand[x] >= w && (best < 0 || x < best)) {
            best = x;
          }
        }
        if (best >= 0) {
          rackDemand[best] -= w;
          released[j] = true;
          release[r++] = gp;
          releasedLoad += w;
        }
      }
    }
    if (releasedLoad < excess) {
      r = releaseBySpread(won, released, release, r, releasedLoad, excess, offset, weight,
          totalWeight);
    }
    return keepFirst(won, released, release, r);
  }

  /**
   * {@link #keepOrder} for a group without racks: the partitions of the topics held most above
   * the member's share go last.
   *
   * @param offset the global index of each topic's partition 0 (see {@code GroupIndex.offset})
   * @param weight the member's weight
   */
  static int[] keepOrderWithoutRacks(int[] won, long excess, int[] offset, long weight,
      long totalWeight) {
    boolean[] released = new boolean[won.length];
    int[] release = new int[won.length];
    int r = releaseBySpread(won, released, release, 0, 0, excess, offset, weight, totalWeight);
    return keepFirst(won, released, release, r);
  }

  /**
   * Per-topic spread: releases one partition at a time from the end of the topic whose count is
   * furthest above its share {@code P_t * w_i / W} (scaled by W to stay in integers) until
   * {@code excess} load is released; returns the new number of entries in {@code release}.
   */
  private static int releaseBySpread(int[] won, boolean[] released, int[] release, int r,
      long releasedLoad, long excess, int[] offset, long wi, long totalWeight) {
    List<int[]> segs = new ArrayList<>(); // {topic, start, end (exclusive), count, cursor}
    int j = 0;
    int t = 0;
    while (j < won.length) {
      while (won[j] >= offset[t + 1]) {
        t++;
      }
      int start = j;
      int count = 0;
      while (j < won.length && won[j] < offset[t + 1]) {
        count += released[j] ? 0 : 1;
        j++;
      }
      segs.add(new int[] {t, start, j, count, j - 1});
    }
    PriorityQueue<int[]> pq = new PriorityQueue<>((a, b) -> {
      long sa = a[3] * totalWeight - (long) (offset[a[0] + 1] - offset[a[0]]) * wi;
      long sb = b[3] * totalWeight - (long) (offset[b[0] + 1] - offset[b[0]]) * wi;
      return sa != sb ? Long.compare(sb, sa) : Integer.compare(b[0], a[0]);
    });
    for (int[] s : segs) {
      if (s[3] > 0) {
        pq.add(s);
      }
    }
    while (releasedLoad < excess && !pq.isEmpty()) {
      int[] s = pq.poll();
      while (released[s[4]]) {
        s[4]--;
      }
      int at = s[4]--;
      released[at] = true;
      release[r++] = won[at];
      releasedLoad++;
      s[3]--;
      if (s[3] > 0) {
        pq.add(s);
      }
    }
    return r;
  }

  /** The kept partitions of {@code won} in order, then the released ones in reverse. */
  private static int[] keepFirst(int[] won, boolean[] released, int[] release, int r) {
    int[] keep = new int[won.length];
    int c = 0;
    for (int j = 0; j < won.length; j++) {
      if (!released[j]) {
        keep[c++] = won[j];
      }
    }
    while (r > 0) {
      keep[c++] = release[--r];
    }
    return keep;
  }
}
