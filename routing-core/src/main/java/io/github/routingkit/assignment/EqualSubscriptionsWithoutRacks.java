package io.github.routingkit.assignment;

import java.util.Arrays;

/**
 * The builder for {@link GroupShape#EQUAL_SUBSCRIPTIONS_WITHOUT_RACKS}: every member subscribes to
 * the same topics, no member has a rack, all claims are of one generation and the subscribed
 * topics weigh the same. It computes exactly what the general path gives there
 * ({@link GroupIndex}, one part, {@link EqualSubscriptions}, {@link PartitionSelector} without its
 * rack steps, no {@link RackSwaps}) from each member's claims, with per-member lists and bit sets
 * over the partitions instead of arrays of one int per partition (owner, generation, topic,
 * target), so a rebalance in which few partitions move touches little beyond the claims
 * themselves.
 *
 * <p>Cost, for {@code C} claims, {@code M} members, {@code P} partitions, {@code T} topics and
 * {@code R} partitions handed out: {@code O(C + M log M + P/64 + T + R)} time when each reported
 * topic's claims come ascending (as the adapters' own sets do), {@code O(C log C)} otherwise;
 * memory {@code O(C + M + P/64)} beyond the inputs. Not thread-safe; one per call.
 */
final class EqualSubscriptionsWithoutRacks extends EqualSubscriptionsFromClaims {
  /** Per member the partitions it keeps, ascending. */
  private int[][] keep;
  /** Per member how many partitions it still needs. */
  private long[] need;
  private long keptTotal;
  private int[][] given;
  private int[] givenCount;
  private int[] pending = NONE;
  private int pendingCount;

  EqualSubscriptionsWithoutRacks(SortedGroup group, RebalanceMode mode) {
    super(group, mode, GroupShape.EQUAL_SUBSCRIPTIONS_WITHOUT_RACKS);
  }

  /**
   * Computes the assignment.
   *
   * <ol>
   *   <li>Read every member's claims ({@link EqualSubscriptionClaims}).</li>
   *   <li>Quotas ({@link Quotas}).</li>
   *   <li>Keep: each member keeps all it owns up to its quota; a member above it keeps the first
   *       of its partitions in its keep order ({@link KeepOrder}: the partitions of the topics it
   *       holds most above its share go first).</li>
   *   <li>Hand out the rest: the partitions nobody keeps, ascending, round-robin over the members
   *       with need left in canonical order (as {@link PartitionSelector}'s last step); in
   *       cooperative mode a claimed partition is held back instead.</li>
   * </ol>
   */
  @Override
  RebalanceResult build() {
    readClaims();
    setQuotas();
    keepUpToQuotas();
    handOutTheRestRoundRobin();
    return result();
  }

  private void keepUpToQuotas() {
    int n = mem.length;
    keep = new int[n][];
    need = new long[n];
    for (int i = 0; i < n; i++) {
      int[] won = claims.won[i];
      if (ownedLoad[i] > quota[i]) {
        int[] order = KeepOrder.withoutRacks(won, ownedLoad[i] - quota[i], offset, weights[i],
            totalWeight);
        int q = (int) quota[i];
        for (int j = q; j < order.length; j++) {
          claims.release(order[j]);
        }
        keep[i] = Arrays.copyOf(order, q); // the kept ones come first, ascending
      } else {
        keep[i] = won;
        need[i] = quota[i] - ownedLoad[i];
      }
      keptTotal += keep[i].length;
    }
  }

  private void handOutTheRestRoundRobin() {
    int n = mem.length;
    int free = (int) (totalLoad - keptTotal);
    given = new int[n][];
    givenCount = new int[n];
    int[] eligible = new int[n];
    int size = 0;
    for (int i = 0; i < n; i++) {
      if (need[i] > 0) {
        given[i] = new int[(int) need[i]];
        eligible[size++] = i;
      }
    }
    int done = 0;
    while (size > 0 && done < free) {
      int stay = 0;
      for (int e = 0; e < size && done < free; e++) {
        int i = eligible[e];
        int gp = nextNotKept();
        done++;
        if (cooperative && claims.isClaimed(gp)) {
          holdBack(gp);
        } else {
          given[i][givenCount[i]++] = gp;
        }
        if (--need[i] > 0) {
          eligible[stay++] = i;
        }
      }
      size = stay;
    }
    if (done < free) {
      // Cannot happen: the quotas add up to the load and each member keeps at most its quota.
      throw new IllegalStateException("internal: " + (free - done) + " partitions left over");
    }
  }

  private void holdBack(int gp) {
    if (pendingCount == pending.length) {
      pending = Arrays.copyOf(pending, Math.max(16, pendingCount * 2));
    }
    pending[pendingCount++] = gp;
  }

  private RebalanceResult result() {
    int n = mem.length;
    int[] keptCount = new int[n];
    for (int i = 0; i < n; i++) {
      keptCount[i] = keep[i].length;
    }
    return result(keep, given, givenCount, Arrays.copyOf(pending, pendingCount), keptCount);
  }
}
