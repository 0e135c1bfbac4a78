package io.github.routingkit.assignment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The quotas of members that subscribe alike ({@code Quotas.of}) with member
 * weights: always within one of each weight-proportional share, and balanced by Kafka's criterion
 * with weights ({@code (2*q_i + 1)*w_j < (2*q_j - 1)*w_i} never holds) whenever any quotas within
 * one of the shares are. Before, the "one more" went to owners first whatever their weight (one
 * partition, weights 2 and 1: the owner of weight 1 kept it; for the owner of weight 2 of two
 * partitions see {@code AssignmentPolicyLimitsTest}); both tests fail with
 * {@code balanceByWeight} switched off (seed 8 of the property, and the named case).
 */
class WeightedQuotasTest {

  @Test
  void quotasAreBalancedByWeightWheneverTheQuotaRuleAllowsIt() {
    int checked = 0;
    int noBalancedQuota = 0;
    for (long seed = 0; seed < 20_000; seed++) {
      Random rnd = new Random(seed);
      int n = 2 + rnd.nextInt(5);
      long[] w = new long[n];
      long totalWeight = 0;
      for (int k = 0; k < n; k++) {
        w[k] = 1 + rnd.nextInt(rnd.nextBoolean() ? 3 : 9);
        totalWeight += w[k];
      }
      long load = rnd.nextInt(4 * n + 1);
      long[] owned = new long[n];
      for (int k = 0; k < n; k++) {
        owned[k] = rnd.nextInt((int) load + 1);
      }
      long[] q = Quotas.of(load, w, totalWeight, owned);
      String what = "seed " + seed + ": load " + load + ", weights " + Arrays.toString(w)
          + ", owned " + Arrays.toString(owned) + " -> " + Arrays.toString(q);
      assertThat(Arrays.stream(q).sum()).as(what).isEqualTo(load);
      for (int k = 0; k < n; k++) {
        long floor = load * w[k] / totalWeight;
        long ceil = (load * w[k] + totalWeight - 1) / totalWeight;
        assertThat(q[k]).as(what + ": member %d within one of its share", k).isBetween(floor, ceil);
      }
      if (someQuotaIsBalanced(load, w, totalWeight)) {
        assertThat(balanced(q, w)).as(what + ": balanced by weight").isTrue();
        checked++;
      } else {
        noBalancedQuota++; // Sainte-Laguë asks for more than one over a share: quota wins
      }
    }
    assertThat(checked).isGreaterThan(19_000);
    // the generator reaches that case too: 35 times (docs/kafka.md)
    assertThat(noBalancedQuota).isEqualTo(35);
  }

  @Test
  void theHeavierMemberTakesTheOnePartitionFromTheLighterOwner() {
    // one partition, weights 2 and 1, owned by the member of weight 1: 0.67 and 0.33 of it
    GroupMember heavy = GroupMember.of("a", Set.of("t")).withWeight(2);
    GroupMember light = GroupMember.of("b", Set.of("t"))
        .withOwned(List.of(new PartitionRef("t", 0)), 1).withWeight(1);
    RebalanceResult r = AssignmentPolicy.assign(List.of(heavy, light),
        List.of(AssignableTopic.of("t", 1)), RebalanceMode.EAGER);
    assertThat(r.partitionsOf("a")).containsExactly(new PartitionRef("t", 0));
    assertThat(r.partitionsOf("b")).isEmpty();
  }

  /** Kafka's criterion with weights, unit costs, every member may take from every other. */
  private static boolean balanced(long[] q, long[] w) {
    for (int i = 0; i < q.length; i++) {
      for (int j = 0; j < q.length; j++) {
        if (q[j] > 0 && (2 * q[i] + 1) * w[j] < (2 * q[j] - 1) * w[i]) {
          return false;
        }
      }
    }
    return true;
  }

  /** Whether some quotas, each the floor or the ceiling of its share and summing to the load, are balanced. */
  private static boolean someQuotaIsBalanced(long load, long[] w, long totalWeight) {
    int n = w.length;
    long[] q = new long[n];
    for (int mask = 0; mask < 1 << n; mask++) {
      long sum = 0;
      for (int k = 0; k < n; k++) {
        long floor = load * w[k] / totalWeight;
        boolean exact = load * w[k] % totalWeight == 0;
        if ((mask >> k & 1) == 1 && exact) {
          sum = -1;
          break;
        }
        q[k] = floor + (mask >> k & 1);
        sum += q[k];
      }
      if (sum == load && balanced(q, w)) {
        return true;
      }
    }
    return false;
  }
}
