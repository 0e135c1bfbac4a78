package io.github.routingkit.assignment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which {@link GroupShape} a group has, and that the result reports the builder that ran. */
class GroupShapeTest {
  private static final List<AssignableTopic> TOPICS =
      List.of(AssignableTopic.of("a", 4), AssignableTopic.of("b", 4));

  private static GroupShape shapeOf(List<GroupMember> members, List<AssignableTopic> topics) {
    return AssignmentPolicy.assign(members, topics, RebalanceMode.EAGER).shape();
  }

  @Test
  void equalSubscriptionsWithoutRacks() {
    List<GroupMember> ms = List.of(GroupMember.of("m1", Set.of("a", "b")),
        GroupMember.of("m2", Set.of("a", "b")));
    assertThat(shapeOf(ms, TOPICS)).isEqualTo(GroupShape.EQUAL_SUBSCRIPTIONS_WITHOUT_RACKS);
  }

  @Test
  void equalSubscriptionsWithARack() {
    List<GroupMember> ms = List.of(GroupMember.of("m1", Set.of("a", "b")).withRack("r1"),
        GroupMember.of("m2", Set.of("a", "b")));
    assertThat(shapeOf(ms, TOPICS)).isEqualTo(GroupShape.EQUAL_SUBSCRIPTIONS_WITH_RACKS);
  }

  @Test
  void generalForDifferentSubscriptionsGenerationsOrTopicWeights() {
    GroupMember m1 = GroupMember.of("m1", Set.of("a", "b"));
    assertThat(shapeOf(List.of(m1, GroupMember.of("m2", Set.of("a"))), TOPICS))
        .isEqualTo(GroupShape.GENERAL);
    assertThat(shapeOf(List.of(m1.withOwned(List.of(new PartitionRef("a", 0)), 3),
        GroupMember.of("m2", Set.of("a", "b")).withOwned(List.of(new PartitionRef("a", 1)), 2)),
        TOPICS)).isEqualTo(GroupShape.GENERAL);
    assertThat(shapeOf(List.of(m1, GroupMember.of("m2", Set.of("a", "b"))),
        List.of(AssignableTopic.of("a", 4), new AssignableTopic("b", 4, List.of(), 2))))
        .isEqualTo(GroupShape.GENERAL);
    assertThat(shapeOf(List.of(), TOPICS)).isEqualTo(GroupShape.GENERAL);
  }
}
