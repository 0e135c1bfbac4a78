package io.github.routingkit.assignment;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One member of a consumer group as the assignment policy sees it (no Kafka type).
 *
 * @param memberId the member id, unique in the group, not null
 * @param groupInstanceId the static-membership id ({@code group.instance.id}), or null for a
 *     dynamic member; a member that rejoins with the same id is ordered the same way and so gets its
 *     partitions back
 * @param rackId the member's rack ({@code client.rack}), or null
 * @param weight the member's relative capacity, in {@code [1, }{@value #MAX_WEIGHT}{@code ]}
 * @param topics the topics the member subscribes to
 * @param ownedPartitions the partitions the member says it owns now (may be empty)
 * @param generation the group generation in which the member got {@code ownedPartitions}, or
 *     {@code -1} if unknown; when two members claim one partition the higher generation wins
 */
public record GroupMember(
    String memberId,
    String groupInstanceId,
    String rackId,
    int weight,
    Set<String> topics,
    List<PartitionRef> ownedPartitions,
    int generation) {
  /** The largest member weight. */
  public static final int MAX_WEIGHT = 1_000_000;
  /** The generation of a member that does not know its generation. */
  public static final int UNKNOWN_GENERATION = -1;

  /**
   * Creates the value; collections are copied.
   *
   * @throws NullPointerException if {@code memberId}, {@code topics} or {@code ownedPartitions}
   *     (or an element) is null
   * @throws IllegalArgumentException if the weight is outside {@code [1, 1000000]}
   */
  public GroupMember {
    Objects.requireNonNull(memberId, "memberId");
    if (weight < 1 || weight > MAX_WEIGHT) {
      throw new IllegalArgumentException(
          "member " + memberId + ": weight must be in [1, " + MAX_WEIGHT + "], was " + weight);
    }
    topics = Set.copyOf(topics);
    ownedPartitions = List.copyOf(ownedPartitions);
  }

  /** A dynamic member without rack, of weight 1, that owns nothing. */
  public static GroupMember of(String memberId, Set<String> topics) {
    return new GroupMember(memberId, null, null, 1, topics, List.of(), UNKNOWN_GENERATION);
  }

  /** Returns this member with another weight. */
  public GroupMember withWeight(int w) {
    return new GroupMember(memberId, groupInstanceId, rackId, w, topics, ownedPartitions, generation);
  }

  /** Returns this member with another rack. */
  public GroupMember withRack(String rack) {
    return new GroupMember(memberId, groupInstanceId, rack, weight, topics, ownedPartitions, generation);
  }

  /** Returns this member with another static-membership id. */
  public GroupMember withGroupInstanceId(String id) {
    return new GroupMember(memberId, id, rackId, weight, topics, ownedPartitions, generation);
  }

  /** Returns this member owning {@code owned} since generation {@code gen}. */
  public GroupMember withOwned(List<PartitionRef> owned, int gen) {
    return new GroupMember(memberId, groupInstanceId, rackId, weight, topics, owned, gen);
  }
}
