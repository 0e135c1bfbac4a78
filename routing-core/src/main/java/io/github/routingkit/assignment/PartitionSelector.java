package io.github.routingkit.assignment;

import java.util.Arrays;
import java.util.BitSet;

/**
 * Picks the concrete partitions of one bucket (a set of partitions, and members each needing a
 * given load of them) once the builders have fixed how much load each member gets. Shared by both
 * builders: {@link EqualSubscriptions} calls it once per group of members with identical
 * subscriptions (need = quota), {@link MixedSubscriptions} once per topic (need = that member's
 * count of the topic, cost 1).
 *
 * <ol>
 *   <li>Each member keeps its owned partitions that are not off its rack, in its keep order, while
 *       it has need left.</li>
 *   <li>Free partitions whose replicas are on some member's rack go to a rack-local member with
 *       need left beyond what its own off-rack partitions reserve (the partitions with the fewest
 *       such racks first).</li>
 *   <li>Owned partitions off their owner's rack, and free ones step 2 could not place, go to a
 *       rack-local member with spare need, else with reserved need (rack re-alignment: the owner's need is
 *       then met elsewhere, so balance is unchanged); the owned ones left go back to their owner
 *       if it has need left.</li>
 *   <li>The rest go to the members with the most need left, round-robin in canonical order.</li>
 * </ol>
 * The load each member ends with equals its need whenever all costs are equal; the need sum must
 * equal the bucket's load then. Not thread-safe; one per call.
 *
 * <p>Steps 2 and 3 ask, per rack, for the member with the most spare need (and the most need),
 * ties by canonical order: each rack with members keeps two {@link MaxKeyQueue}s (the one by
 * need only from step 3 on, and only if step 3 has partitions to place). Bucket queues
 * (one bit set of the rack's members per need value up to the rack's largest need) while all of
 * them together fit in {@code 2 * (P + M) + 1024} longs for {@code P} partitions of the bucket
 * and {@code M} members; binary heaps over all {@code M} members of the bucket, {@code 2M} ints
 * each, for the racks beyond (large or far-apart needs, e.g. member weights), so {@code O(K*M)}
 * ints for {@code K} such racks (at most {@code M^2}, when every member has a rack of its own).
 * Both give the same answers, so which one a rack gets changes no result. Beyond that the
 * memory is {@code O(P + M)}.
 */
final class PartitionSelector {
  private final GroupIndex g;
  private final int[] members; // global member index by local k, canonical order
  private final long[] need;
  private final boolean unitCost; // the cost of every partition of the bucket is `cost(any)`
  private final int[] costByTopic;
  /** Need less what the member's own off-rack partitions reserve (racks only). */
  private long[] spare;
  private MaxKeyQueue[] bySpare;
  /** Built only when step 3 has partitions to place (step 2 asks only by spare need). */
  private MaxKeyQueue[] byNeed;
  private int[][] rackMembers; // per rack its local members (ascending k), or null
  private long[] rackMaxNeed;
  private long[] rackBudget; // per rack the budget its by-need queue was given
  private int[] slot;
  /** Owned partitions of the bucket off their owner's rack, in keep order (step 1). */
  private int[] remote;
  private int remoteCount;
  private BitSet remoteSet;
  /** Local index of each member of the group index, or -1 (racks only). */
  private int[] localOf;

  /**
   * @param costByTopic the cost of a partition of topic {@code t}, or null for cost 1 everywhere
   */
  PartitionSelector(GroupIndex g, int[] members, long[] need, int[] costByTopic, boolean unitCost) {
    this.g = g;
    this.members = members;
    this.need = need;
    this.costByTopic = costByTopic;
    this.unitCost = unitCost;
  }

  private long cost(int gp) {
    return costByTopic == null ? 1 : costByTopic[g.topicOf[gp]];
  }

  /**
   * Assigns every partition of {@code parts} (in ascending order) by writing {@code g.target}:
   * the four steps of the class comment.
   *
   * @param keepOrder per local member, its owned partitions of this bucket, most wanted first
   */
  void select(int[] parts, int[][] keepOrder) {
    keepOwnedNotOffRack(keepOrder);
    if (g.hasRacks()) {
      reserveNeedForOffRack();
      rackQueues(parts.length);
      long[] unplaced = placeFreeRackLocally(parts);
      realignOffRack(unplaced);
    }
    handOutTheRest(parts);
  }

  /** Step 1: members keep their owned partitions on their rack or rack-neutral; notes the others. */
  private void keepOwnedNotOffRack(int[][] keepOrder) {
    int n = members.length;
    remote = new int[16];
    for (int k = 0; k < n; k++) {
      int i = members[k];
      for (int gp : keepOrder[k]) {
        if (g.isRemote(i, gp)) {
          if (remoteCount == remote.length) {
            remote = Arrays.copyOf(remote, remoteCount * 2);
          }
          remote[remoteCount++] = gp;
        } else if (need[k] > 0) {
          // Keeping may overshoot the need by less than one partition's cost (topic weights):
          // that is what step 4 does too, so a result assigned again stays as it is.
          need[k] -= cost(gp);
          g.target[gp] = i;
        }
      }
    }
  }

  /**
   * A member's own off-rack partitions reserve its need: a free partition takes reserved need
   * only where no rack-local member has spare need, so it does not push them out (that would move
   * them for nothing, and the follow-up rebalance would move them again).
   */
  private void reserveNeedForOffRack() {
    int n = members.length;
    localOf = new int[g.mem.length];
    Arrays.fill(localOf, -1);
    for (int k = 0; k < n; k++) {
      localOf[members[k]] = k;
    }
    spare = new long[n];
    remoteSet = new BitSet();
    for (int j = 0; j < remoteCount; j++) {
      spare[localOf[g.owner[remote[j]]]] -= cost(remote[j]);
      remoteSet.set(remote[j]);
    }
    for (int k = 0; k < n; k++) {
      spare[k] += need[k];
    }
  }

  /**
   * Step 2: free partitions to rack-local members with spare need, most constrained first.
   * Returns the constraint keys of those it could not place, in constraint order.
   */
  private long[] placeFreeRackLocally(int[] parts) {
    long[] order = new long[parts.length];
    int c = 0;
    for (int gp : parts) {
      if (g.target[gp] < 0 && !remoteSet.get(gp)) {
        long o = constraintKey(gp);
        if (o >= 0) {
          order[c++] = o;
        }
      }
    }
    sortConstraintKeys(order, c);
    int unplaced = 0;
    for (int j = 0; j < c; j++) {
      int gp = (int) order[j];
      int k = bestLocal(bySpare, spare, gp);
      if (k >= 0) {
        give(k, gp);
      } else {
        order[unplaced++] = order[j];
      }
    }
    return Arrays.copyOf(order, unplaced);
  }

  /**
   * Step 3, rack re-alignment: the owned partitions off their owner's rack, and the free ones
   * step 2 could not place ({@code unplaced}), go to a rack-local member with spare need, else
   * with reserved need (so two members holding each other's rack's partitions swap them). Need
   * only falls here, so one pass in constraint order is final; then the owned ones go back to
   * their owner if it has need left.
   */
  private void realignOffRack(long[] unplaced) {
    long[] pool = Arrays.copyOf(unplaced, unplaced.length + remoteCount);
    int pc = unplaced.length;
    for (int j = 0; j < remoteCount; j++) {
      long o = constraintKey(remote[j]);
      pool[pc++] = o >= 0 ? o : ((1023L - cost(remote[j])) << 32) | remote[j];
    }
    Arrays.sort(pool, 0, pc);
    if (pc > 0) {
      needQueues();
    }
    for (int j = 0; j < pc; j++) {
      int gp = (int) pool[j];
      int k = bestLocal(bySpare, spare, gp);
      if (k < 0) {
        k = bestLocal(byNeed, need, gp);
      }
      if (k >= 0) {
        give(k, gp);
        if (remoteSet.get(gp)) {
          int o = localOf[g.owner[gp]];
          spare[o] += cost(gp); // its reservation is free now
          update(o);
        }
      }
    }
    for (int j = 0; j < remoteCount; j++) {
      int gp = remote[j];
      int k = localOf[g.owner[gp]];
      if (g.target[gp] < 0 && k >= 0 && need[k] > 0) {
        give(k, gp);
      }
    }
  }

  /** Step 4: the rest to the members with the most need left, round-robin in canonical order. */
  private void handOutTheRest(int[] parts) {
    int free = 0;
    int[] rest = new int[parts.length];
    for (int gp : parts) {
      if (g.target[gp] < 0) {
        rest[free++] = gp;
      }
    }
    if (free == 0) {
      return;
    }
    if (unitCost) {
      free = roundRobin(rest, free);
    }
    if (free > 0) {
      byMostNeed(rest, free);
    }
  }

  /**
   * Sorts {@code keys[0..c)} (constraint keys of partitions taken in ascending order). With one
   * cost for every partition the keys differ only in the rack count (high bits) and the partition
   * (low bits, ascending as given), so a stable counting sort by rack count gives the sorted
   * order in {@code O(c + racks)}; otherwise a plain sort.
   */
  private void sortConstraintKeys(long[] keys, int c) {
    if (costByTopic != null || c < 64) {
      Arrays.sort(keys, 0, c);
      return;
    }
    int racks = g.rackCount;
    int[] start = new int[racks + 2];
    for (int j = 0; j < c; j++) {
      start[(int) (keys[j] >>> 42) + 1]++;
    }
    for (int r = 1; r < start.length; r++) {
      start[r] += start[r - 1];
    }
    long[] sorted = new long[c];
    for (int j = 0; j < c; j++) {
      sorted[start[(int) (keys[j] >>> 42)]++] = keys[j];
    }
    System.arraycopy(sorted, 0, keys, 0, c);
  }

  /** Sort key: partitions on fewer member racks first, heavier first; -1 if on no member's rack. */
  private long constraintKey(int gp) {
    int[] rs = g.racksOf(gp);
    if (rs == null) {
      return -1;
    }
    int withMembers = 0;
    for (int r : rs) {
      withMembers += bySpare[r] != null ? 1 : 0;
    }
    return withMembers == 0 ? -1 : ((long) withMembers << 42) | ((1023L - cost(gp)) << 32) | gp;
  }

  /**
   * Fills {@code bySpare}: per rack with members, a queue of its members by spare need, and
   * notes the bound and budget of the queue by need that {@link #needQueues} builds later (step 2
   * asks only by spare need, so step 2 keeps one queue per rack up to date, not two, and a call
   * whose step 3 has nothing to place builds none by need). Neither key rises above the member's
   * need now (need only falls from here on, spare stays need less a reservation), which bounds
   * the bucket queues; together they may take {@code 2 * (parts + members) + 1024} longs, racks
   * beyond that get heaps.
   */
  private void rackQueues(int parts) {
    int n = members.length;
    int racks = g.rackCount;
    int[] size = new int[racks];
    long[] maxNeed = new long[racks];
    for (int k = 0; k < n; k++) {
      int r = g.memberRack[members[k]];
      if (r >= 0) {
        maxNeed[r] = size[r]++ == 0 ? need[k] : Math.max(maxNeed[r], need[k]);
      }
    }
    int[][] byRack = new int[racks][];
    for (int r = 0; r < racks; r++) {
      byRack[r] = size[r] == 0 ? null : new int[size[r]];
      size[r] = 0;
    }
    for (int k = 0; k < n; k++) {
      int r = g.memberRack[members[k]];
      if (r >= 0) {
        byRack[r][size[r]++] = k;
      }
    }
    bySpare = new MaxKeyQueue[racks];
    rackMembers = byRack;
    rackMaxNeed = maxNeed;
    rackBudget = new long[racks];
    slot = new int[n];
    long budget = 2L * (parts + n) + 1024;
    for (int r = 0; r < racks; r++) {
      if (byRack[r] != null) {
        bySpare[r] = MaxKeyQueue.of(spare, byRack[r], slot, maxNeed[r], budget / 2);
        rackBudget[r] = budget / 2;
        if (bySpare[r] instanceof MaxKeyQueue.Buckets) {
          budget -= 2 * MaxKeyQueue.Buckets.cost(byRack[r].length, maxNeed[r]);
        }
      }
    }
  }

  /**
   * Fills {@code byNeed}: per rack with members, a queue of its members by need as need is now,
   * with the bound and budget {@link #rackQueues} noted (so each rack gets the kind of queue it
   * would have got there; either kind answers from the keys as they are, so building it later
   * changes no answer).
   */
  private void needQueues() {
    byNeed = new MaxKeyQueue[rackMembers.length];
    for (int r = 0; r < rackMembers.length; r++) {
      if (rackMembers[r] != null) {
        byNeed[r] = MaxKeyQueue.of(need, rackMembers[r], slot, rackMaxNeed[r], rackBudget[r]);
      }
    }
  }

  /** The rack-local member with the most {@code key} that has at least {@code gp}'s cost, or -1. */
  private int bestLocal(MaxKeyQueue[] byRack, long[] key, int gp) {
    int[] rs = g.racksOf(gp);
    if (rs == null) {
      return -1;
    }
    long c = cost(gp);
    int best = -1;
    for (int r : rs) {
      MaxKeyQueue q = byRack[r];
      if (q == null) {
        continue;
      }
      // Every cost is at least 1, so the members a queue hides (key below 1) could not take gp.
      int top = q.top();
      if (top >= 0 && key[top] >= c
          && (best < 0 || key[top] > key[best] || (key[top] == key[best] && top < best))) {
        best = top;
      }
    }
    return best;
  }

  private void give(int k, int gp) {
    need[k] -= cost(gp);
    g.target[gp] = members[k];
    if (spare != null) {
      spare[k] -= cost(gp);
      update(k);
    }
  }

  private void update(int k) {
    int r = g.memberRack[members[k]];
    if (r >= 0 && bySpare[r] != null) {
      bySpare[r].update(k);
      if (byNeed != null) {
        byNeed[r].update(k);
      }
    }
  }

  /**
   * Equal costs: round by round, every member with need left takes one partition, in canonical
   * order (so each topic's consecutive partitions spread over the members). Returns how many of
   * {@code rest} are left (only if the needs fall short).
   */
  private int roundRobin(int[] rest, int free) {
    int n = members.length;
    long c = cost(rest[0]);
    long[] units = new long[n];
    int[] eligible = new int[n];
    int size = 0;
    for (int k = 0; k < n; k++) {
      units[k] = Math.max(0, need[k] / c);
      if (units[k] > 0) {
        eligible[size++] = k;
      }
    }
    int done = 0;
    while (size > 0 && done < free) {
      int kept = 0;
      for (int e = 0; e < size && done < free; e++) {
        int k = eligible[e];
        int gp = rest[done++];
        g.target[gp] = members[k];
        need[k] -= c;
        if (--units[k] > 0) {
          eligible[kept++] = k;
        }
      }
      if (done >= free) {
        break;
      }
      size = kept;
    }
    if (done < free) {
      System.arraycopy(rest, done, rest, 0, free - done);
    }
    return free - done;
  }

  /** Unequal costs: heaviest first, each to the member with the most need left (ties: earlier). */
  private void byMostNeed(int[] rest, int free) {
    int n = members.length;
    if (n == 0) {
      return;
    }
    long[] keys = new long[free];
    for (int j = 0; j < free; j++) {
      keys[j] = ((1023L - cost(rest[j])) << 32) | rest[j];
    }
    Arrays.sort(keys);
    IntHeap h = new IntHeap(n,
        (a, b) -> need[a] != need[b] ? Long.compare(need[b], need[a]) : Integer.compare(a, b));
    for (int k = 0; k < n; k++) {
      h.add(k);
    }
    for (long key : keys) {
      int gp = (int) key;
      int k = h.peek();
      need[k] -= cost(gp);
      g.target[gp] = members[k];
      h.update(k);
    }
  }
}
