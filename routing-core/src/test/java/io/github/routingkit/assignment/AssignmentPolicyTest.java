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
  void overlappingSubscriptionsUseTheGreedyFallback() {
    GroupMember a = GroupMember.of("a", Set.of("t"));
    GroupMember b = GroupMember.of("b", Set.of("t", "u"));
    RebalanceResult g = AssignmentPolicy.assign(List.of(a, b),
        List.of(AssignableTopic.of("t", 4), AssignableTopic.of("u", 2)), RebalanceMode.EAGER);
    assertThat(g.partitionsOf("a")).hasSize(3).allMatch(p -> p.topic().equals("t"));
    assertThat(g.partitionsOf("b")).hasSize(3);
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
