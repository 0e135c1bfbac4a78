package io.github.routingkit.assignment;

import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The whole {@link AssignmentPolicy} call for a group in which every member subscribes to the same
 * topics, some member has a rack, all claims are of one generation and the subscribed topics weigh
 * the same. It computes exactly what the general path gives there ({@code GroupIndex}, one part,
 * {@link EqualSubscriptions}, {@link PartitionSelector}, {@link RackSwaps}) from the members'
 * claims, without arrays of one entry per partition of the group:
 *
 * <ol>
 *   <li>Claims, quotas and each member's keep order as {@link EqualSubscriptions} computes them
 *       (the replica racks read only for the claimed partitions).</li>
 *   <li>The selector's first step, keeping each member's owned partitions that are not off its
 *       rack while it has need left, done here: those partitions are final, since no later step
 *       reads a partition its owner keeps on its rack or rack-neutral (the selector places only
 *       partitions without a target and the owned ones off their owner's rack; {@link RackSwaps}
 *       neither moves a partition on its owner's rack nor one whose replica racks no member has,
 *       nor a partition of a member without a rack).</li>
 *   <li>The rest &mdash; the owned partitions off their owner's rack, the partitions members give
 *       up and the free ones &mdash; go into a {@code GroupIndex} of their own, numbered in their
 *       global order, on which {@link PartitionSelector} and {@link RackSwaps} run as they are.
 *       Every order and tie-break of theirs is by that number or by member, so they decide as
 *       on the whole group.</li>
 * </ol>
 *
 * <p>Cost, for {@code C} claims, {@code M} members, {@code P} partitions and {@code R} partitions
 * not kept in step 2: {@code O(C + M log M + P/64 + R log R)} time plus what the selector and
 * the rack swaps take for {@code R} partitions, memory {@code O(C + M + P/64 + R)} beyond the
 * inputs. Not thread-safe; one call at a time per array.
 */
final class EqualSubscriptionsWithRacks {
  private static final int[] NONE = {};

  private EqualSubscriptionsWithRacks() {}

  /**
   * Whether the group has the shape this class handles: at least one member, some member with a
   * rack, every member of one generation and with the same topic set, and one weight over the
   * known topics they subscribe to. Reads no claims and no replica racks.
   *
   * @throws NullPointerException if an element is null
   */
  static boolean applies(GroupMember[] members, AssignableTopic[] topics) {
    return EqualSubscriptionsWithoutRacks.racks(members, topics)
        == EqualSubscriptionsWithoutRacks.SOME_RACK;
  }

  /**
   * Assigns a group for which {@link #applies} holds; the arrays are sorted in place (members
   * into canonical order, topics by name).
   *
   * @param owned extra claims by position in the arrays as given, or null
   * @throws IllegalArgumentException if a member id or a topic name occurs twice
   */
  static RebalanceResult assign(GroupMember[] mem, AssignableTopic[] tps, OwnedPartitions owned,
      RebalanceMode mode) {
    int[] inputPosition = GroupIndex.canonicalOrder(mem);
    int[] sortedTopic = GroupIndex.inverse(GroupIndex.sortInPlace(tps, GroupIndex.BY_NAME));
    Map<String, Integer> topicIndex = new HashMap<>();
    int[] offset = GroupIndex.offsets(tps, topicIndex);
    int n = mem.length;
    int tc = tps.length;
    Set<String> subs = mem[0].topics();
    boolean[] subscribed = new boolean[tc];
    BitSet subscription = new BitSet(tc);
    long totalLoad = 0;
    for (int t = 0; t < tc; t++) {
      subscribed[t] = subs.contains(tps[t].name());
      if (subscribed[t]) {
        subscription.set(t);
        totalLoad += tps[t].partitions();
      }
    }
    long[] seen = new long[(offset[tc] + 63) >>> 6];
    int[][] won = new int[n][];
    long[] contested = EqualSubscriptionsWithoutRacks.readWon(mem, tps, offset, subscribed,
        sortedTopic, topicIndex, inputPosition, owned, seen, won);

    // Racks numbered as GroupIndex numbers them: by first member in canonical order.
    Map<String, Integer> rackIds = new HashMap<>();
    int[] memberRack = new int[n];
    for (int i = 0; i < n; i++) {
      String r = mem[i].rackId();
      memberRack[i] = r == null ? -1 : rackIds.computeIfAbsent(r, k -> rackIds.size());
    }
    Racks racks = new Racks(tps, offset, rackIds, memberRack);

    // Quotas and rack demand, as EqualSubscriptions computes them.
    long[] weights = new long[n];
    long totalWeight = 0;
    long[] ownedLoad = new long[n];
    for (int i = 0; i < n; i++) {
      weights[i] = mem[i].weight();
      totalWeight += weights[i];
      ownedLoad[i] = won[i].length;
    }
    long[] quota = EqualSubscriptions.quotas(totalLoad, weights, totalWeight, ownedLoad);
    long[] rackDemand = new long[rackIds.size()];
    for (int i = 0; i < n; i++) {
      if (memberRack[i] >= 0 && ownedLoad[i] < quota[i]) {
        rackDemand[memberRack[i]] += quota[i] - ownedLoad[i];
      }
    }

    // The selector's first step: keep what is not off the owner's rack while need lasts. The
    // kept partitions as bits: the claimed ones less the contested, less those not kept.
    long[] kept = seen.clone();
    if (contested != null) {
      for (int w = 0; w < kept.length; w++) {
        kept[w] &= ~contested[w];
      }
    }
    int[][] keep = new int[n][];
    int[][] remote = new int[n][]; // per member its off-rack partitions, in its keep order
    int[][] released = new int[n][]; // per member the others it does not keep
    long[] need = new long[n];
    long keptTotal = 0;
    for (int i = 0; i < n; i++) {
      int[] order = won[i];
      if (ownedLoad[i] > quota[i]) {
        order = EqualSubscriptions.keepOrder(racks, i, won[i], ownedLoad[i] - quota[i],
            rackDemand, offset, weights[i], totalWeight);
      }
      need[i] = quota[i];
      int[] rem = memberRack[i] < 0 ? NONE : racks.remoteOf(i, won[i]);
      if (rem.length == 0 && order.length <= quota[i]) {
        keep[i] = order; // all kept (won ascending)
        remote[i] = NONE;
        released[i] = NONE;
        need[i] -= order.length;
      } else {
        keepStep(i, order, rem, racks, need, keep, remote, released);
        for (int gp : remote[i]) {
          kept[gp >>> 6] &= ~(1L << gp);
        }
        for (int gp : released[i]) {
          kept[gp >>> 6] &= ~(1L << gp);
        }
      }
      keptTotal += keep[i].length;
    }

    // The rest in an index of its own, in global order.
    int w = (int) (totalLoad - keptTotal);
    int[] gpOf = new int[w];
    int[] topicOf = new int[w];
    int[][] partitionRacks = new int[w][];
    BitSet racksKnown = new BitSet(w);
    BitSet claimed = new BitSet(w);
    int c = 0;
    for (int t = 0; t < tc; t++) {
      if (!subscribed[t]) {
        continue;
      }
      int end = offset[t + 1];
      List<Set<String>> rr = tps[t].replicaRacks();
      for (int gp = EqualSubscriptionsWithoutRacks.nextClear(kept, offset[t], end); gp < end;
          gp = EqualSubscriptionsWithoutRacks.nextClear(kept, gp + 1, end)) {
        gpOf[c] = gp;
        topicOf[c] = t;
        int[] ids = rr.isEmpty() ? null : racks.ids(rr.get(gp - offset[t]));
        if (ids != null) {
          racksKnown.set(c);
          partitionRacks[c] = ids.length == 0 ? null : ids;
        }
        if ((seen[gp >>> 6] & (1L << gp)) != 0) {
          claimed.set(c);
        }
        c++;
      }
    }
    if (c != w) {
      throw new IllegalStateException("internal: " + c + " partitions to place, expected " + w);
    }
    int[] ownerOf = new int[w];
    Arrays.fill(ownerOf, -1);
    int[][] keepOrder = new int[n][];
    for (int i = 0; i < n; i++) {
      for (int gp : released[i]) {
        ownerOf[Arrays.binarySearch(gpOf, gp)] = i;
      }
      keepOrder[i] = new int[remote[i].length];
      for (int j = 0; j < remote[i].length; j++) {
        int at = Arrays.binarySearch(gpOf, remote[i][j]);
        ownerOf[at] = i;
        keepOrder[i][j] = at;
      }
    }
    GroupIndex rest = new GroupIndex(mem, tps, topicOf, subscription, ownerOf, claimed, memberRack,
        rackIds.size(), partitionRacks, racksKnown);
    int[] members = new int[n];
    for (int i = 0; i < n; i++) {
      members[i] = i;
    }
    int[] parts = new int[w];
    for (int j = 0; j < w; j++) {
      parts[j] = j;
    }
    new PartitionSelector(rest, members, need, null, true).select(parts, keepOrder);
    RackSwaps.apply(rest, new BitSet());
    return output(mem, tps, offset, keep, rest, gpOf, mode);
  }

  /**
   * The selector's first step for member {@code i}: walks its keep {@code order}; an off-rack
   * partition (those of {@code rem}, ascending) goes to {@code remote[i]} in that order, the
   * others are kept while {@code need[i]} lasts and go to {@code released[i]} after.
   */
  private static void keepStep(int i, int[] order, int[] rem, Racks racks, long[] need,
      int[][] keep, int[][] remote, int[][] released) {
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

  /** The result: the kept partitions and the rest's targets, pending ones held back. */
  private static RebalanceResult output(GroupMember[] mem, AssignableTopic[] tps, int[] offset,
      int[][] keep, GroupIndex rest, int[] gpOf, RebalanceMode mode) {
    int n = mem.length;
    boolean cooperative = mode == RebalanceMode.COOPERATIVE;
    int[] givenCount = new int[n];
    int[] keptCount = new int[n];
    int pendingCount = 0;
    for (int i = 0; i < n; i++) {
      keptCount[i] = keep[i].length;
    }
    for (int c = 0; c < gpOf.length; c++) {
      int to = rest.target[c];
      if (to < 0) {
        continue;
      }
      if (cooperative && rest.owner[c] != to && rest.claimed.get(c)) {
        rest.target[c] = -2;
        pendingCount++;
      } else {
        givenCount[to]++;
        if (rest.owner[c] == to) {
          keptCount[to]++;
        }
      }
    }
    int[][] given = new int[n][];
    for (int i = 0; i < n; i++) {
      given[i] = givenCount[i] == 0 ? NONE : new int[givenCount[i]];
    }
    int[] pending = pendingCount == 0 ? NONE : new int[pendingCount];
    Arrays.fill(givenCount, 0);
    int pc = 0;
    for (int c = 0; c < gpOf.length; c++) {
      int to = rest.target[c];
      if (to >= 0) {
        given[to][givenCount[to]++] = gpOf[c];
      } else if (to == -2) {
        pending[pc++] = gpOf[c];
      }
    }
    int[][] lists = new int[n][];
    for (int i = 0; i < n; i++) {
      lists[i] = givenCount[i] == 0 ? keep[i]
          : keep[i].length == 0 ? given[i]
          : EqualSubscriptionsWithoutRacks.merge(keep[i], given[i], givenCount[i]);
    }
    return AssignmentPolicy.result(mem, tps, offset, lists, pending, keptCount);
  }

  /**
   * The replica racks of partitions by global index, as member-rack ids ({@code GroupIndex}'s
   * numbering), read from the topics when asked; each distinct rack set is translated once.
   */
  private static final class Racks implements RackView {
    /** Rack set known, but none of its racks is a member's. */
    private static final int[] NO_MEMBER_RACK = {};
    private static final int RECENT = 8;

    private final AssignableTopic[] tps;
    private final int[] offset;
    private final Map<String, Integer> rackIds;
    private final int[] memberRack;
    private final Map<Set<String>, int[]> byInstance = new IdentityHashMap<>();
    private final Map<Set<String>, int[]> byValue = new HashMap<>();
    @SuppressWarnings("unchecked")
    private final Set<String>[] recent = (Set<String>[]) new Set<?>[RECENT];
    private final int[][] recentIds = new int[RECENT][];
    private int next;

    Racks(AssignableTopic[] tps, int[] offset, Map<String, Integer> rackIds, int[] memberRack) {
      this.tps = tps;
      this.offset = offset;
      this.rackIds = rackIds;
      this.memberRack = memberRack;
    }

    /** Member racks of a replica rack set: null if the set is empty (unknown), else ascending. */
    int[] ids(Set<String> rs) {
      for (int j = 0; j < RECENT; j++) {
        if (recent[j] == rs) {
          return recentIds[j];
        }
      }
      int[] ids;
      if (rs.isEmpty()) {
        ids = null;
      } else {
        ids = byInstance.get(rs);
        if (ids == null) {
          ids = byValue.get(rs);
          if (ids == null) {
            int[] buf = new int[rs.size()];
            int c = 0;
            for (String r : rs) {
              Integer id = rackIds.get(r);
              if (id != null) {
                buf[c++] = id;
              }
            }
            ids = c == 0 ? NO_MEMBER_RACK : Arrays.copyOf(buf, c);
            Arrays.sort(ids);
            byValue.put(rs, ids);
          }
          if (byInstance.size() < 4096) {
            byInstance.put(rs, ids);
          }
        }
      }
      recent[next] = rs;
      recentIds[next] = ids;
      next = (next + 1) % RECENT;
      return ids;
    }

    private int[] idsAt(int gp) {
      int t = Arrays.binarySearch(offset, gp);
      t = t >= 0 ? t : -t - 2;
      while (offset[t + 1] == gp) {
        t++; // skip topics without partitions
      }
      List<Set<String>> rr = tps[t].replicaRacks();
      return rr.isEmpty() ? null : ids(rr.get(gp - offset[t]));
    }

    private static boolean remote(int rack, int[] ids) {
      if (rack < 0 || ids == null) {
        return false;
      }
      for (int x : ids) {
        if (x == rack) {
          return false;
        }
      }
      return true;
    }

    @Override
    public boolean isRemote(int i, int gp) {
      return remote(memberRack[i], idsAt(gp));
    }

    @Override
    public int[] racksOf(int gp) {
      int[] ids = idsAt(gp);
      return ids == null || ids.length == 0 ? null : ids;
    }

    /** The partitions of {@code won} (ascending) off member {@code i}'s rack, ascending. */
    int[] remoteOf(int i, int[] won) {
      int rack = memberRack[i];
      int[] out = null;
      int c = 0;
      int t = 0;
      int j = 0;
      while (j < won.length) {
        while (won[j] >= offset[t + 1]) {
          t++;
        }
        int base = offset[t];
        int end = offset[t + 1];
        List<Set<String>> rr = tps[t].replicaRacks();
        if (rr.isEmpty()) {
          while (j < won.length && won[j] < end) {
            j++; // racks unknown: on nobody's rack, off nobody's
          }
          continue;
        }
        for (int gp; j < won.length && (gp = won[j]) < end; j++) {
          if (remote(rack, ids(rr.get(gp - base)))) {
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
