package io.github.routingkit.assignment;

import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Set;

/**
 * The builder for {@link GroupShape#EQUAL_SUBSCRIPTIONS_WITH_RACKS}: every member subscribes to
 * the same topics, some member has a rack, all claims are of one generation and the subscribed
 * topics weigh the same. It computes exactly what the general path gives there
 * ({@link GroupIndex}, one part, {@link EqualSubscriptions}, {@link PartitionSelector},
 * {@link RackSwaps}) from the members' claims, without arrays of one entry per partition of the
 * group: the owned partitions a member keeps on its rack (or rack-neutral) are final, since no
 * later step reads a partition its owner keeps on its rack or rack-neutral (the selector places
 * only partitions without a target and the owned ones off their owner's rack; {@link RackSwaps}
 * neither moves a partition on its owner's rack nor one whose replica racks no member has, nor a
 * partition of a member without a rack). Only the rest is indexed and placed.
 *
 * <p>Cost, for {@code C} claims, {@code M} members, {@code P} partitions and {@code R} partitions
 * not kept on their owner's rack: {@code O(C + M log M + P/64 + R log R)} time plus what the
 * selector and the rack swaps take for {@code R} partitions, memory {@code O(C + M + P/64 + R)}
 * beyond the inputs. Not thread-safe; one per call.
 */
final class EqualSubscriptionsWithRacks extends EqualSubscriptionsFromClaims {
  private ClaimedRacks racks;
  /** Per member the partitions it keeps (on its rack or rack-neutral), ascending. */
  private int[][] keep;
  /** Per member its owned partitions off its rack, in its keep order. */
  private int[][] remote;
  /** Per member the other owned partitions it does not keep. */
  private int[][] released;
  /** Per member how much of its quota is left after {@link #keep}. */
  private long[] need;
  private long keptTotal;
  /** The partitions not kept, placed by the selector: their global index by rest index. */
  private int[] gpOf;
  private GroupIndex rest;

  EqualSubscriptionsWithRacks(SortedGroup group, RebalanceMode mode) {
    super(group, mode, GroupShape.EQUAL_SUBSCRIPTIONS_WITH_RACKS);
  }

  /**
   * Computes the assignment.
   *
   * <ol>
   *   <li>Read every member's claims ({@link EqualSubscriptionClaims}); number the racks as
   *       {@link GroupIndex} does ({@link RackIds}), reading replica racks only for the claimed
   *       partitions.</li>
   *   <li>Quotas ({@link Quotas}) and each member's keep order ({@link KeepOrder}).</li>
   *   <li>Keep on rack: the selector's first step, each member keeping its owned partitions that
   *       are not off its rack while it has need left.</li>
   *   <li>Index the rest: the owned partitions off their owner's rack, the partitions members
   *       give up and the free ones go into a {@link GroupIndex} of their own, numbered in their
   *       global order (every order and tie-break of the selector and the swaps is by that
   *       number or by member, so they decide as on the whole group).</li>
   *   <li>Place the rest: {@link PartitionSelector} and {@link RackSwaps} on that index.</li>
   *   <li>Hold back, in cooperative mode, the claimed partitions going to someone else.</li>
   * </ol>
   */
  @Override
  RebalanceResult build() {
    readClaims();
    racks = new ClaimedRacks(group, new RackIds(mem));
    setQuotas();
    keepOnRackPartitions();
    indexTheRest();
    placeTheRest();
    return RebalanceResult.ofTargets(GroupShape.EQUAL_SUBSCRIPTIONS_WITH_RACKS, group, rest, gpOf,
        keep, cooperative);
  }

  private void keepOnRackPartitions() {
    int n = mem.length;
    long[] rackDemand = new long[racks.ids.count];
    for (int i = 0; i < n; i++) {
      int r = racks.ids.memberRack[i];
      if (r >= 0 && ownedLoad[i] < quota[i]) {
        rackDemand[r] += quota[i] - ownedLoad[i];
      }
    }
    keep = new int[n][];
    remote = new int[n][];
    released = new int[n][];
    need = new long[n];
    for (int i = 0; i < n; i++) {
      int[] won = claims.won[i];
      int[] order = won;
      if (ownedLoad[i] > quota[i]) {
        order = KeepOrder.of(racks, i, won, ownedLoad[i] - quota[i], rackDemand, offset,
            weights[i], totalWeight);
      }
      need[i] = quota[i];
      int[] rem = racks.ids.memberRack[i] < 0 ? NONE : racks.remoteOf(i, won);
      if (rem.length == 0 && order.length <= quota[i]) {
        keep[i] = order; // all kept (won ascending)
        remote[i] = NONE;
        released[i] = NONE;
        need[i] -= order.length;
      } else {
        keepWhileNeedLasts(i, order, rem);
        for (int gp : remote[i]) {
          claims.release(gp);
        }
        for (int gp : released[i]) {
          claims.release(gp);
        }
      }
      keptTotal += keep[i].length;
    }
  }

  /**
   * Walks member {@code i}'s keep {@code order}: an off-rack partition (those of {@code rem},
   * ascending) goes to {@code remote[i]} in that order, the others are kept while {@code need[i]}
   * lasts and go to {@code released[i]} after.
   */
  private void keepWhileNeedLasts(int i, int[] order, int[] rem) {
    int[] k = new int[order.length];
    int[] r = new int[rem.length];
    int[] x = new int[order.length];
    int kc = 0;
    int rc = 0;
    int xc = 0;
    boolean ascending = true;
    for (int gp : order) {
      if (rem.length > 0 && Arrays.binarySearch(rem, gp) >= 0) {
        r[rc++] = gp;
      } else if (need[i] > 0) {
        need[i]--;
        ascending &= kc == 0 || k[kc - 1] < gp;
        k[kc++] = gp;
      } else {
        x[xc++] = gp;
      }
    }
    keep[i] = Arrays.copyOf(k, kc);
    if (!ascending) {
      Arrays.sort(keep[i]); // the output lists partitions ascending
    }
    remote[i] = r;
    released[i] = Arrays.copyOf(x, xc);
  }

  /** The partitions nobody keeps, in an index of their own, in global order. */
  private void indexTheRest() {
    int w = (int) (totalLoad - keptTotal);
    gpOf = new int[w];
    int[] topicOf = new int[w];
    int[][] partitionRacks = new int[w][];
    BitSet racksKnown = new BitSet(w);
    BitSet claimed = new BitSet(w);
    int t = -1;
    for (int c = 0; c < w; c++) {
      int gp = nextNotKept();
      while (gp >= offset[t + 1]) {
        t++;
      }
      gpOf[c] = gp;
      topicOf[c] = t;
      List<Set<String>> rr = group.topics[t].replicaRacks();
      int[] ids = rr.isEmpty() ? null : racks.ids.idsOf(rr.get(gp - offset[t]));
      if (ids != null) {
        racksKnown.set(c);
        partitionRacks[c] = ids.length == 0 ? null : ids;
      }
      if (claims.isClaimed(gp)) {
        claimed.set(c);
      }
    }
    int[] ownerOf = new int[w];
    Arrays.fill(ownerOf, -1);
    for (int i = 0; i < mem.length; i++) {
      for (int gp : released[i]) {
        ownerOf[Arrays.binarySearch(gpOf, gp)] = i;
      }
      int[] order = remote[i];
      for (int j = 0; j < order.length; j++) {
        int at = Arrays.binarySearch(gpOf, order[j]);
        ownerOf[at] = i;
        order[j] = at; // from here on, the keep order of the rest's index
      }
    }
    BitSet subscription = new BitSet(group.topics.length);
    for (int s = 0; s < subscribed.length; s++) {
      subscription.set(s, subscribed[s]);
    }
    rest = new GroupIndex(mem, group.topics, topicOf, subscription, ownerOf, claimed,
        racks.ids.memberRack, racks.ids.count, partitionRacks, racksKnown);
  }

  private void placeTheRest() {
    int n = mem.length;
    int[] members = new int[n];
    for (int i = 0; i < n; i++) {
      members[i] = i;
    }
    int[] parts = new int[gpOf.length];
    for (int j = 0; j < parts.length; j++) {
      parts[j] = j;
    }
    new PartitionSelector(rest, members, need, null, true).select(parts, remote);
    RackSwaps.apply(rest, new BitSet());
  }

  /**
   * The replica racks of partitions by global index, as {@link RackIds}, read from the topics
   * when asked (only the claimed partitions' are, for the keep order and the off-rack test).
   */
  private static final class ClaimedRacks implements RackView {
    final RackIds ids;
    private final AssignableTopic[] tps;
    private final int[] offset;

    ClaimedRacks(SortedGroup group, RackIds ids) {
      this.ids = ids;
      this.tps = group.topics;
      this.offset = group.offset;
    }

    private int[] idsAt(int gp) {
      int t = Arrays.binarySearch(offset, gp);
      t = t >= 0 ? t : -t - 2;
      while (offset[t + 1] == gp) {
        t++; // skip topics without partitions
      }
      List<Set<String>> rr = tps[t].replicaRacks();
      return rr.isEmpty() ? null : ids.idsOf(rr.get(gp - offset[t]));
    }

    private static boolean remote(int rack, int[] rackIds) {
      if (rack < 0 || rackIds == null) {
        return false;
      }
      for (int x : rackIds) {
        if (x == rack) {
          return false;
        }
      }
      return true;
    }

    @Override
    public boolean isRemote(int i, int gp) {
      return remote(ids.memberRack[i], idsAt(gp));
    }

    @Override
    public int[] racksOf(int gp) {
      int[] r = idsAt(gp);
      return r == null || r.length == 0 ? null : r;
    }

    /** The partitions of {@code won} (ascending) off member {@code i}'s rack, ascending. */
    int[] remoteOf(int i, int[] won) {
      int rack = ids.memberRack[i];
      int[] out = null;
      int c = 0;
      int t = 0;
      int j = 0;
      while (j < won.length) {
        while (won[j] >= offset[t + 1]) {
          t++;
        }
        int end = offset[t + 1];
        List<Set<String>> rr = tps[t].replicaRacks();
        if (rr.isEmpty()) {
          while (j < won.length && won[j] < end) {
            j++; // racks unknown: on nobody's rack, off nobody's
          }
          continue;
        }
        for (int gp; j < won.length && (gp = won[j]) < end; j++) {
          if (remote(rack, ids.idsOf(rr.get(gp - offset[t])))) {
            if (out == null) {
              out = new int[won.length - j];
            }
            out[c++] = gp;
          }
        }
      }
      return out == null ? NONE : Arrays.copyOf(out, c);
    }
  }
}
