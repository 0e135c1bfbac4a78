package io.github.routingkit.assignment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Small cases HostileGroupStateFuzzTest found at the edge of what AssignmentPolicy's class comment
 * promises; these pin what holds.
 */
class AssignmentPolicyLimitsTest {

  /**
   * Member b (weight 2) owns both partitions of t, a (weight 1) owns none: quotas floor(2*2/3) = 1
   * or one more for b, 0 or one more for a. Keeping both with b would meet the weaker rule (no
   * member could take a partition and still be below the giver per weight: (0 + 1) * 2 >= (2 - 1)
   * * 1) but not Kafka's criterion with weights ((2*0 + 1) * 2 = 2 < (2*2 - 1) * 1 = 3: moving one
   * brings their loads per weight closer), which is what the policy keeps everywhere else; so
   * one moves, as in a fresh group. Before {@code Quotas.balanceByWeight} b kept both.
   */
  @Test
  void weightedStickyKeepGivesWayToTheWeightedCriterion() {
    List<GroupMember> ms = List.of(
        new GroupMember("a", null, null, 1, Set.of("t"), List.of(), 1),
        new GroupMember("b", null, null, 2, Set.of("t"),
            List.of(new PartitionRef("t", 0), new PartitionRef("t", 1)), 1));
    RebalanceResult r = AssignmentPolicy.assign(ms, List.of(AssignableTopic.of("t", 2)),
        RebalanceMode.EAGER);
    assertThat(r.countOf("a")).as(r.toString()).isEqualTo(1);
    assertThat(r.countOf("b")).isEqualTo(1);
    assertThat(r.partitionsOf("b")).hasSize(1).isSubsetOf(ms.get(1).ownedPartitions());
    List<GroupMember> fresh = List.of(ms.get(0), ms.get(1).withOwned(List.of(), 1));
    RebalanceResult f = AssignmentPolicy.assign(fresh, List.of(AssignableTopic.of("t", 2)),
        RebalanceMode.EAGER);
    assertThat(f.countOf("a")).isEqualTo(1);
    assertThat(f.countOf("b")).isEqualTo(1);
  }

  /**
   * Non-equal subscriptions and topic weights: the first follow-up (nothing changed but the
   * revocations) computes other targets and revokes t4-0 from m445, which the first rebalance had
   * left with it, so a second follow-up is needed. Every round stays safe (no pending partition
   * is given out) and it converges.
   */
  @Test
  void nonEqualCooperativeFollowUpCanTakeTwoRounds() {
    List<AssignableTopic> ts = List.of(AssignableTopic.of("t4", 4), AssignableTopic.of("t5", 6).withWeight(3));
    List<GroupMember> ms = List.of(
        new GroupMember("member-ded15136301cf8fb", null, null, 383227, Set.of("t4", "t5"), List.of(), 1),
        new GroupMember("m445", null, null, 438434, Set.of("t4", "t5"), List.of(), 1),
        new GroupMember("member-2a961e631c786d9f", null, null, 1, Set.of("t5"),
            List.of(new PartitionRef("t5", 3)), 1),
        new GroupMember("member-800ee9bc807a0431", null, null, 1, Set.of("t5"),
            List.of(new PartitionRef("t4", 3), new PartitionRef("t5", 5), new PartitionRef("t4", 2)), 1));
    List<GroupMember> cur = ms;
    int followUps = 0;
    RebalanceResult r = AssignmentPolicy.assign(cur, ts, RebalanceMode.COOPERATIVE);
    while (!r.pendingRevocation().isEmpty()) {
      assertThat(followUps).as("converges").isLessThan(10);
      List<GroupMember> next = new ArrayList<>();
      for (GroupMember m : cur) {
        for (PartitionRef p : r.partitionsOf(m.memberId())) {
          assertThat(r.pendingRevocation()).doesNotContain(p);
        }
        next.add(m.withOwned(r.partitionsOf(m.memberId()), m.generation() + 1));
      }
      cur = next;
      r = AssignmentPolicy.assign(cur, ts, RebalanceMode.COOPERATIVE);
      followUps++;
    }
    assertThat(followUps).isEqualTo(2);
  }
}
