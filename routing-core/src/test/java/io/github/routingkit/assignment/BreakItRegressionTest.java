package io.github.routingkit.assignment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Minimal reproductions of what BreakItAssignmentFuzzTest found (they fail on 7c382b0). */
class BreakItRegressionTest {

  /**
   * AssignmentPolicy documents, for any subscription pattern: no member i could take a partition
   * from j such that their loads per weight get closer, (2*L_i + c) * w_j >= (2*L_j - c) * w_i.
   * Member b (weight 2) owns both partitions; a (weight 1) owns none. a = 0/1, b = 2/2 per
   * weight; after moving one: 1/1 and 1/2, closer. (2*0+1)*2 = 2 < (2*2-1)*1 = 3. A fresh
   * assignment of the same group gives 1 and 1.
   */
  @Test
  void weightedStickyKeepBreaksTheDocumentedCriterion() {
    List<GroupMember> ms = List.of(
        new GroupMember("a", null, null, 1, Set.of("t"), List.of(), 1),
        new GroupMember("b", null, null, 2, Set.of("t"),
            List.of(new PartitionRef("t", 0), new PartitionRef("t", 1)), 1));
    RebalanceResult r = AssignmentPolicy.assign(ms, List.of(AssignableTopic.of("t", 2)),
        RebalanceMode.EAGER);
    assertThat(r.countOf("a")).as(r.toString()).isEqualTo(1);
  }

  /**
   * Cooperative follow-up: the class comment says the next rebalance hands a pending partition
   * over "because by then nobody claims it and the same targets are computed". Here the second
   * rebalance (nothing changed but the revocations) revokes t4-0 from m445, which the first one
   * had left with it: a third rebalance, and a move the eager targets do not make.
   */
  @Test
  void cooperativeFollowUpComputesOtherTargets() {
    List<AssignableTopic> ts = List.of(AssignableTopic.of("t4", 4), AssignableTopic.of("t5", 6).withWeight(3));
    List<GroupMember> ms = List.of(
        new GroupMember("member-ded15136301cf8fb", null, null, 383227, Set.of("t4", "t5"), List.of(), 1),
        new GroupMember("m445", null, null, 438434, Set.of("t4", "t5"), List.of(), 1),
        new GroupMember("member-2a961e631c786d9f", null, null, 1, Set.of("t5"),
            List.of(new PartitionRef("t5", 3)), 1),
        new GroupMember("member-800ee9bc807a0431", null, null, 1, Set.of("t5"),
            List.of(new PartitionRef("t4", 3), new PartitionRef("t5", 5), new PartitionRef("t4", 2)), 1));
    RebalanceResult eager = AssignmentPolicy.assign(ms, ts, RebalanceMode.EAGER);
    RebalanceResult first = AssignmentPolicy.assign(ms, ts, RebalanceMode.COOPERATIVE);
    assertThat(first.pendingRevocation()).isNotEmpty();
    List<GroupMember> next = new ArrayList<>();
    for (GroupMember m : ms) {
      next.add(m.withOwned(first.partitionsOf(m.memberId()), 2));
    }
    RebalanceResult second = AssignmentPolicy.assign(next, ts, RebalanceMode.COOPERATIVE);
    assertThat(second.pendingRevocation()).as(second.toString()).isEmpty();
    assertThat(second).isEqualTo(eager);
  }

  /**
   * A clean cooperative group (disjoint ownership from an earlier eager assignment, equal
   * weights, no racks, two topics, mixed subscriptions) that one member joins: the follow-ups
   * until nothing is pending should be one (class comment of AssignmentPolicy); it takes more.
   * State: BreakItAssignmentFuzzTest.realisticChange(210).
   */
  @Test
  void cleanCooperativeJoinNeedsOneFollowUp() {
    BreakItAssignmentFuzzTest.Hostile h =
        (BreakItAssignmentFuzzTest.Hostile) BreakItAssignmentFuzzTest.realisticChange(210)[0];
    RebalanceResult first = AssignmentPolicy.assign(h.members(), h.topics(), RebalanceMode.COOPERATIVE);
    assertThat((int) BreakItAssignmentFuzzTest.followUps(h, first)[0]).isLessThanOrEqualTo(1);
  }
}
