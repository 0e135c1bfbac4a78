package io.github.routingkit.assignment;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The order in which a member of a group of equal subscriptions keeps its owned partitions when it
 * owns more than its quota: the ones it gives up go last. It gives up first the partitions off its
 * rack, then those a rack with spare quota holds (the move gains locality), then the others; within
 * each of the last two steps one at a time from the topic it holds most above its share
 * ({@code P_t * w / W}; per-topic spread, also where every rack holds a replica of every
 * partition and the racks constrain nothing). Shared by
 * {@link EqualSubscriptions} and the two equal-subscription builders. Stateless.
 */
final class KeepOrder {
  private KeepOrder() {}

  /**
   * The order in which member {@code i} keeps its owned partitions {@code won} (ascending) when it
   * owns {@code excess} more load than its quota: releases first the partitions off its rack (the
   * selector moves them when a rack-local member has room), then those a rack with spare quota
   * holds (the move gains locality), then the others, within each of the last two one at a time
   * from the topic it holds most above its share; keeps the others, then the released ones in
   * reverse.
   */
  static int[] of(GroupIndex g, int i, int[] won, long excess, long[] rackDemand,
      long totalWeight) {
    return of(g.hasRacks() ? g : null, i, won, excess, rackDemand, g.offset,
        g.mem[i].weight(), totalWeight);
  }

  /**
   * {@link #of(GroupIndex, int, int[], long, long[], long)} with the racks read from
   * {@code racks} (null when no member has a rack).
   *
   * @param offset the global index of each topic's partition 0 (see {@code GroupIndex.offset})
   * @param weight member {@code i}'s weight
   */
  static int[] of(RackView racks, int i, int[] won, long excess, long[] rackDemand,
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
      // Two greedy passes over the partitions a rack with spare demand holds: in per-topic spread
      // order, and in partition order. The spread order wins unless the partition order releases
      // more partitions onto demanding racks (more locality gained).
      long[] spreadDemand = rackDemand.clone();
      boolean[] spreadReleased = released.clone();
      int[] spreadRelease = release.clone();
      int bySpread = releaseBySpread(won, spreadReleased, spreadRelease, r, releasedLoad, excess,
          offset, weight, totalWeight, racks, spreadDemand);
      long[] orderDemand = rackDemand.clone();
      boolean[] orderReleased = released.clone();
      int[] orderRelease = release.clone();
      int inOrder = releaseInPartitionOrder(won, orderReleased, orderRelease, r, releasedLoad,
          excess, racks, orderDemand);
      boolean spread = bySpread >= inOrder;
      System.arraycopy(spread ? spreadDemand : orderDemand, 0, rackDemand, 0, rackDemand.length);
      System.arraycopy(spread ? spreadReleased : orderReleased, 0, released, 0, released.length);
      System.arraycopy(spread ? spreadRelease : orderRelease, 0, release, 0, release.length);
      releasedLoad += (spread ? bySpread : inOrder) - r;
      r = spread ? bySpread : inOrder;
    }
    if (releasedLoad < excess) {
      r = releaseBySpread(won, released, release, r, releasedLoad, excess, offset, weight,
          totalWeight, null, null);
    }
    return keepFirst(won, released, release, r);
  }

  /**
   * {@link #of} for a group without racks: the partitions of the topics held most above
   * the member's share go last.
   *
   * @param offset the global index of each topic's partition 0 (see {@code GroupIndex.offset})
   * @param weight the member's weight
   */
  static int[] withoutRacks(int[] won, long excess, int[] offset, long weight,
      long totalWeight) {
    boolean[] released = new boolean[won.length];
    int[] release = new int[won.length];
    int r = releaseBySpread(won, released, release, 0, 0, excess, offset, weight, totalWeight,
        null, null);
    return keepFirst(won, released, release, r);
  }

  /**
   * Per-topic spread: releases one partition at a time from the end of the topic whose count is
   * furthest above its share {@code P_t * w_i / W} (scaled by W to stay in integers) until
   * {@code excess} load is released; returns the new number of entries in {@code release}. With
   * {@code racks}, only partitions a rack with spare demand holds are released (each takes one
   * unit of the lowest such rack's demand), so the spread order also decides which topics a rack
   * that constrains nothing receives.
   */
  private static int releaseBySpread(int[] won, boolean[] released, int[] release, int r,
      long releasedLoad, long excess, int[] offset, long wi, long totalWeight, RackView racks,
      long[] rackDemand) {
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
      int rack = -1;
      while (s[4] >= s[1]) {
        if (!released[s[4]]) {
          rack = racks == null ? 0 : demandingRack(racks.racksOf(won[s[4]]), rackDemand);
          if (rack >= 0) {
            break;
          }
        }
        s[4]--; // a rack's demand only falls: a partition passed over stays passed over
      }
      if (rack < 0) {
        continue; // no partition of this topic left that a rack with demand holds
      }
      if (racks != null) {
        rackDemand[rack]--;
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

  /**
   * Releases, in partition order, the partitions a rack with spare demand holds (each takes one
   * unit of the lowest such rack's demand) until {@code excess} load is released; returns the new
   * number of entries in {@code release}.
   */
  private static int releaseInPartitionOrder(int[] won, boolean[] released, int[] release, int r,
      long releasedLoad, long excess, RackView racks, long[] rackDemand) {
    for (int j = 0; j < won.length && releasedLoad < excess; j++) {
      if (released[j]) {
        continue;
      }
      int rack = demandingRack(racks.racksOf(won[j]), rackDemand);
      if (rack >= 0) {
        rackDemand[rack]--;
        released[j] = true;
        release[r++] = won[j];
        releasedLoad++;
      }
    }
    return r;
  }

  /** The lowest rack of {@code rs} with demand left, or -1 (also for null). */
  private static int demandingRack(int[] rs, long[] rackDemand) {
    int best = -1;
    if (rs != null) {
      for (int x : rs) {
        if (rackDemand[x] >= 1 && (best < 0 || x < best)) {
          best = x;
        }
      }
    }
    return best;
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
