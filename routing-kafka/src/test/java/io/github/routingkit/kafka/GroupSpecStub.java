package io.github.routingkit.kafka;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiPredicate;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.coordinator.group.api.assignor.GroupSpec;
import org.apache.kafka.coordinator.group.api.assignor.MemberAssignment;
import org.apache.kafka.coordinator.group.api.assignor.MemberSubscription;
import org.apache.kafka.coordinator.group.api.assignor.SubscriptionType;

/**
 * Test support: the KIP-848 group state a {@code ConsumerGroupPartitionAssignor} is handed, as
 * plain records, for the unit tests and the scenario runner. (The JMH benchmark keeps its own copy
 * in main sources, with a precomputed assigned set.)
 */
public final class GroupSpecStub {
  private GroupSpecStub() {}

  /** A member: its rack and static instance id (either may be null), topic ids, owned partitions. */
  public record Member(String rack, String instance, Set<Uuid> topics, Map<Uuid, Set<Integer>> owned)
      implements MemberSubscription, MemberAssignment {
    @Override
    public Optional<String> rackId() {
      return Optional.ofNullable(rack);
    }

    @Override
    public Optional<String> instanceId() {
      return Optional.ofNullable(instance);
    }

    @Override
    public Set<Uuid> subscribedTopicIds() {
      return topics;
    }

    @Override
    public Map<Uuid, Set<Integer>> partitions() {
      return owned;
    }
  }

  /** The group: its members, subscription type, and which partitions may be assigned now. */
  public record Spec(Map<String, Member> members, SubscriptionType type,
      BiPredicate<Uuid, Integer> assignable) implements GroupSpec {
    @Override
    public Collection<String> memberIds() {
      return members.keySet();
    }

    @Override
    public SubscriptionType subscriptionType() {
      return type;
    }

    @Override
    public boolean isPartitionAssigned(Uuid topicId, int partitionId) {
      return members.values().stream()
          .anyMatch(m -> m.owned().getOrDefault(topicId, Set.of()).contains(partitionId));
    }

    @Override
    public boolean isPartitionAssignable(Uuid topicId, int partitionId) {
      return assignable.test(topicId, partitionId);
    }

    @Override
    public MemberSubscription memberSubscription(String memberId) {
      return members.get(memberId);
    }

    @Override
    public MemberAssignment memberAssignment(String memberId) {
      return members.get(memberId);
    }
  }
}
