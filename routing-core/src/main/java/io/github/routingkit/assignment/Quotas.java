package io.github.routingkit.assignment;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * How many partitions each member of a group of equal subscriptions (topics of one weight) gets:
 * largest-remainder apportionment of the load by member weight, the extra partitions first to the
 * members that own more than their floor (fewest moves), and with unequal weights then moved where
 * Kafka's criterion with weights wants them. Shared by {@link EqualSubscriptions} and the two
 * equal-subscription builders, so all three give the same quotas. Stateless.
 */
final class Quotas {
  private Quotas() {}

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
  static long[] of(long totalLoad, long[] weights, long totalWeight, long[] ownedLoad) {
    int n = weights.length;
    long[] quota = new long[n];
    long[] rem = new long[n];
    long sumFloor = 0;
    for (int k = 0; k < n; k++) {
      long num = Math.multiplyExact(totalLoad, weights[k]);
      quota[k] = num / totalWeight;
      rem[k] = num % totalWeight;
      sumFloor += quota[k];
    }
    long extra = totalLoad - sumFloor;
    if (extra == 0) {
      return quota;
    }
    int[] order = extraOrder(quota, rem, ownedLoad);
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
   * The members with a remainder in the order they get one more than their floor: owning more
   * than its floor first, then the larger remainder, then the lower index.
   */
  private static int[] extraOrder(long[] floor, long[] rem, long[] ownedLoad) {
    int n = floor.length;
    int candidates = 0;
    long firstRem = 0;
    boolean oneRemainder = true;
    for (int k = 0; k < n; k++) {
      if (rem[k] > 0) {
        if (candidates++ == 0) {
          firstRem = rem[k];
        }
        oneRemainder &= rem[k] == firstRem;
      }
    }
    int[] order = new int[candidates];
    if (oneRemainder) {
      // All remainders equal (equal weights): the order is "owns more than its floor" first,
      // then by index, without a sort.
      int c = 0;
      for (int pass = 0; pass < 2; pass++) {
        for (int k = 0; k < n; k++) {
          if (rem[k] > 0 && (ownedLoad[k] > floor[k]) == (pass == 0)) {
            order[c++] = k;
          }
        }
      }
      return order;
    }
    List<Integer> list = new ArrayList<>(candidates);
    for (int k = 0; k < n; k++) {
      if (rem[k] > 0) {
        list.add(k);
      }
    }
    list.sort(Comparator.<Integer>comparingInt(k -> ownedLoad[k] > floor[k] ? 0 : 1)
        .thenComparingLong(k -> -rem[k])
        .thenComparingInt(k -> k));
    for (int j = 0; j < candidates; j++) {
      order[j] = list.get(j);
    }
    return order;
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

}
