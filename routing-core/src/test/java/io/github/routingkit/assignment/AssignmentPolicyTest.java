package io.github.routingkit.assignment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AssignmentPolicyTest {

  @Test
  void higherGenerationWinsAConflictingClaim() {
    PartitionRef p0 = new PartitionRef("t", 0);
    PartitionRef p1 = new PartitionRef("t", 1);
    GroupMember a = GroupMember.of("a", Set.of("t")).withOwned(List.of(p0), 4);
    GroupMember b = GroupMember.of("b", Set.of("t")).withOwned(List.of(p0, p1), 5);
    RebalanceResult g = AssignmentPolicy.assign(List.of(a, b), List.of(AssignableTopic.of("t", 2)),
        RebalanceMode.COOPERATIVE);
    // b wins p0 (generation 5) but may keep only one partition: it keeps p0 (partition order),
    // p1 must go to a, and b still owns it, so it waits for the revocation.
    assertThat(g.partitionsOf("b")).containsExactly(p0);
    assertThat(g.partitionsOf("a")).isEmpty();
    assertThat(g.pendingRevocation()).containsExactly(p1);
    RebalanceResult eager = AssignmentPolicy.assign(List.of(a, b), List.of(AssignableTopic.of("t", 2)),
        RebalanceMode.EAGER);
    assertThat(eager.partitionsOf("a")).containsExactly(p1);
  }

  @Test
  void partitionsOwnedForAnUnsubscribedTopicWaitForRevocationInCooperativeMode() {
    PartitionRef x0 = new PartitionRef("x", 0);
    GroupMember a = GroupMember.of("a", Set.of("t")).withOwned(List.of(x0), 1);
    GroupMember b = GroupMember.of("b", Set.of("x"));
    List<AssignableTopic> topics = List.of(AssignableTopic.of("t", 1), AssignableTopic.of("x", 1));
    assertThat(AssignmentPolicy.assign(List.of(a, b), topics, RebalanceMode.COOPERATIVE)
        .pendingRevocation()).containsExactly(x0);
    assertThat(AssignmentPolicy.assign(List.of(a, b), topics, RebalanceMode.EAGER)
        .partitionsOf("b")).containsExactly(x0);
  }

  @Test
  void unknownTopicsAndOutOfRangeClaimsAreIgnored() {
    GroupMember a = GroupMember.of("a", Set.of("t", "gone"))
        .withOwned(List.of(new PartitionRef("gone", 0), new PartitionRef("t", 9)), 1);
    RebalanceResult g = AssignmentPolicy.assign(List.of(a), List.of(AssignableTopic.of("t", 2)),
        RebalanceMode.COOPERATIVE);
    assertThat(g.partitionsOf("a")).containsExactly(new PartitionRef("t", 0), new PartitionRef("t", 1));
  }

  @Test
  void disjointSubscriptionsAreBalancedSeparately() {
    GroupMember a = GroupMember.of("a", Set.of("t"));
    GroupMember b = GroupMember.of("b", Set.of("t"));
    GroupMember c = GroupMember.of("c", Set.of("u"));
    RebalanceResult g = AssignmentPolicy.assign(List.of(a, b, c),
        List.of(AssignableTopic.of("t", 4), AssignableTopic.of("u", 3)), RebalanceMode.EAGER);
    assertThat(g.partitionsOf("a")).hasSize(2);
    assertThat(g.partitionsOf("b")).hasSize(2);
    assertThat(g.partitionsOf("c")).hasSize(3);
  }

  @Test
  void overlappingSubscriptionsAreBalancedAcrossTheSharedTopic() {
    GroupMember a = GroupMember.of("a", Set.of("t"));
    GroupMember b = GroupMember.of("b", Set.of("t", "u"));
    RebalanceResult g = AssignmentPolicy.assign(List.of(a, b),
        List.of(AssignableTopic.of("t", 4), AssignableTopic.of("u", 2)), RebalanceMode.EAGER);
    assertThat(g.partitionsOf("a")).hasSize(3).allMatch(p -> p.topic().equals("t"));
    assertThat(g.partitionsOf("b")).hasSize(3);
  }

  /** Kafka's double-claim case: two claims of one generation cancel, so only the contested partition moves. */
  @Test
  void sameGenerationDoubleClaimMovesOnlyTheContestedPartition() {
    PartitionRef t0 = new PartitionRef("t", 0);
    PartitionRef t1 = new PartitionRef("t", 1);
    PartitionRef t2 = new PartitionRef("t", 2);
    GroupMember c1 = GroupMember.of("c1", Set.of("t")).withOwned(List.of(t0, t1), 5);
    GroupMember c2 = GroupMember.of("c2", Set.of("t")).withOwned(List.of(t0, t2), 5);
    GroupMember c3 = GroupMember.of("c3", Set.of("t"));
    List<AssignableTopic> topics = List.of(AssignableTopic.of("t", 3));
    RebalanceResult eager = AssignmentPolicy.assign(List.of(c1, c2, c3), topics, RebalanceMode.EAGER);
    assertThat(eager.partitionsOf("c1")).containsExactly(t1);
    assertThat(eager.partitionsOf("c2")).containsExactly(t2);
    assertThat(eager.partitionsOf("c3")).containsExactly(t0);
    RebalanceResult coop = AssignmentPolicy.assign(List.of(c1, c2, c3), topics, RebalanceMode.COOPERATIVE);
    assertThat(coop.pendingRevocation()).containsExactly(t0);
  }

  /** Kafka's F2 case: non-equal subscriptions end balanced 2/3/2/2 by Kafka's criterion. */
  @Test
  void nonEqualSubscriptionsBalanced() {
    List<AssignableTopic> topics = List.of(AssignableTopic.of("t0", 1), AssignableTopic.of("t1", 3),
        AssignableTopic.of("t2", 2), AssignableTopic.of("t3", 3));
    List<GroupMember> members = List.of(GroupMember.of("c0", Set.of("t0", "t1", "t2", "t3")),
        GroupMember.of("c1", Set.of("t1", "t3")), GroupMember.of("c2", Set.of("t2")),
        GroupMember.of("c3", Set.of("t1")));
    RebalanceResult a = AssignmentPolicy.assign(members, topics, RebalanceMode.EAGER);
    assertThat(a.countOf("c0")).isEqualTo(2);
    assertThat(a.countOf("c1")).isEqualTo(3);
    assertThat(a.countOf("c2")).isEqualTo(2);
    assertThat(a.countOf("c3")).isEqualTo(2);
  }

  /** Kafka's F4 case: owned partitions off their owner's rack swap to the rack that holds them. */
  @Test
  void ownedPartitionsOffTheirRackAreReAligned() {
    List<java.util.Set<String>> racks = new java.util.ArrayList<>();
    for (int p = 0; p < 4; p++) {
      racks.add(Set.of(p % 2 == 0 ? "r0" : "r1"));
    }
    AssignableTopic t = new AssignableTopic("t", 4, racks, 1);
    // a (r0) owns the r1 partitions, b (r1) the r0 ones.
    GroupMember a = GroupMember.of("a", Set.of("t")).withRack("r0")
        .withOwned(List.of(new PartitionRef("t", 1), new PartitionRef("t", 3)), 2);
    GroupMember b = GroupMember.of("b", Set.of("t")).withRack("r1")
        .withOwned(List.of(new PartitionRef("t", 0), new PartitionRef("t", 2)), 2);
    RebalanceResult r = AssignmentPolicy.assign(List.of(a, b), List.of(t), RebalanceMode.EAGER);
    assertThat(r.partitionsOf("a")).containsExactly(new PartitionRef("t", 0), new PartitionRef("t", 2));
    assertThat(r.partitionsOf("b")).containsExactly(new PartitionRef("t", 1), new PartitionRef("t", 3));
  }

  /**
   * Non-equal subscriptions with racks: the counts step gives {@code a} (rack r0) the only
   * partition of {@code x}, whose replica is on r1; swapping it with {@code b}'s {@code y-0} (on
   * both racks) puts every partition on its member's rack at the same loads.
   */
  @Test
  void mixedSubscriptionsSwapPartitionsOntoTheirRacks() {
    AssignableTopic x = new AssignableTopic("x", 1, List.of(Set.of("r1")), 1);
    AssignableTopic y = new AssignableTopic("y", 3,
        List.of(Set.of("r0", "r1"), Set.of("r0"), Set.of("r0")), 1);
    GroupMember a = GroupMember.of("a", Set.of("x", "y")).withRack("r0");
    GroupMember b = GroupMember.of("b", Set.of("x", "y")).withRack("r1");
    GroupMember c = GroupMember.of("c", Set.of("y"));
    RebalanceResult r = AssignmentPolicy.assign(List.of(a, b, c), List.of(x, y), RebalanceMode.EAGER);
    assertThat(r.partitionsOf("b")).containsExactly(new PartitionRef("x", 0));
    assertThat(r.partitionsOf("a")).containsExactly(new PartitionRef("y", 0), new PartitionRef("y", 1));
    assertThat(r.partitionsOf("c")).containsExactly(new PartitionRef("y", 2));
  }

  @Test
  void emptyGroupAndEmptyTopics() {
    assertThat(AssignmentPolicy.assign(List.of(), List.of(AssignableTopic.of("t", 3)),
        RebalanceMode.EAGER).byMember()).isEmpty();
    assertThat(AssignmentPolicy.assign(List.of(GroupMember.of("a", Set.of("t"))),
        List.of(AssignableTopic.of("t", 0)), RebalanceMode.EAGER).partitionsOf("a")).isEmpty();
  }

  @Test
  void duplicateMemberIdsAreRejected() {
    assertThatThrownBy(() -> AssignmentPolicy.assign(
        List.of(GroupMember.of("a", Set.of("t")), GroupMember.of("a", Set.of("t"))),
        List.of(AssignableTopic.of("t", 1)), RebalanceMode.EAGER))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a occurs twice");
  }

  @Test
  void badWeightsAreRejected() {
    assertThatThrownBy(() -> GroupMember.of("a", Set.of()).withWeight(0))
        .hasMessageContaining("weight must be in [1, 1000000], was 0");
    assertThatThrownBy(() -> AssignableTopic.of("t", 1).withWeight(1001))
        .hasMessageContaining("weight must be in [1, 1000], was 1001");
  }
}
