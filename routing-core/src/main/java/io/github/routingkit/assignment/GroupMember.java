package io.github.routingkit.assignment;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One member of a consumer group as the assignment policy sees it (no Kafka type).
 */
public final class GroupMember {
  private final String memberId;
  private final String groupInstanceId;
  private final String rackId;
  private final int weight;
  private final Set<String> topics;
  private final List<PartitionRef> ownedPartitions;
  private final int generation;

  /** The largest member weight. */
  public static final int MAX_WEIGHT = 1_000_000;
  /** The generation of a member that does not know its generation. */
  public static final int UNKNOWN_GENERATION = -1;

  /**
   * Creates the value; collections are copied.
   *
   * @param memberId the member id, unique in the group, not null
   * @param groupInstanceId the static-membership id ({@code group.instance.id}), or null for a
   *     dynamic member; a member that rejoins with the same id is ordered the same way and so gets
   *     its partitions back
   * @param rackId the member's rack ({@code client.rack}), or null
   * @param weight the member's relative capacity, in {@code [1, }{@value #MAX_WEIGHT}{@code ]}
   * @param topics the topics the member subscribes to
   * @param ownedPartitions the partitions the member says it owns now (may be empty)
   * @param generation the group generation in which the member got {@code ownedPartitions}, or
   *     {@code -1} if unknown; when two members claim one partition the higher generation wins
   * @throws NullPointerException if {@code memberId}, {@code topics} or {@code ownedPartitions}
   *     (or an element) is null
   * @throws IllegalArgumentException if the weight is outside {@code [1, 1000000]}
   */
  public GroupMember(
      String memberId,
      String groupInstanceId,
      String rackId,
      int weight,
      Set<String> topics,
      List<PartitionRef> ownedPartitions,
      int generation) {
    Objects.requireNonNull(memberId, "memberId");
    if (weight < 1 || weight > MAX_WEIGHT) {
      throw new IllegalArgumentException(
          "member " + memberId + ": weight must be in [1, " + MAX_WEIGHT + "], was " + weight);
    }
    topics = Set.copyOf(topics);
    ownedPartitions = List.copyOf(ownedPartitions);
    this.memberId = memberId;
    this.groupInstanceId = groupInstanceId;
    this.rackId = rackId;
    this.weight = weight;
    this.topics = topics;
    this.ownedPartitions = ownedPartitions;
    this.generation = generation;
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

  /** Returns the member id, unique in the group, not null. */
  public String memberId() {
    return memberId;
  }

  /**
   * Returns the static-membership id ({@code group.instance.id}), or null for a dynamic member;
   * a member that rejoins with the same id is ordered the same way and so gets its partitions
   * back.
   */
  public String groupInstanceId() {
    return groupInstanceId;
  }

  /** Returns the member's rack ({@code client.rack}), or null. */
  public String rackId() {
    return rackId;
  }

  /** Returns the member's relative capacity, in {@code [1, }{@value #MAX_WEIGHT}{@code ]}. */
  public int weight() {
    return weight;
  }

  /** Returns the topics the member subscribes to. */
  public Set<String> topics() {
    return topics;
  }

  /** Returns the partitions the member says it owns now (may be empty). */
  public List<PartitionRef> ownedPartitions() {
    return ownedPartitions;
  }

  /**
   * Returns the group generation in which the member got {@code ownedPartitions}, or {@code -1}
   * if unknown; when two members claim one partition the higher generation wins.
   */
  public int generation() {
    return generation;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof GroupMember)) {
      return false;
    }
    GroupMember other = (GroupMember) o;
    return Objects.equals(memberId, other.memberId)
        && Objects.equals(groupInstanceId, other.groupInstanceId)
        && Objects.equals(rackId, other.rackId)
        && weight == other.weight
        && Objects.equals(topics, other.topics)
        && Objects.equals(ownedPartitions, other.ownedPartitions)
        && generation == other.generation;
  }

  @Override
  public int hashCode() {
    int h = 0;
    h = 31 * h + Objects.hashCode(memberId);
    h = 31 * h + Objects.hashCode(groupInstanceId);
    h = 31 * h + Objects.hashCode(rackId);
    h = 31 * h + Integer.hashCode(weight);
    h = 31 * h + Objects.hashCode(topics);
    h = 31 * h + Objects.hashCode(ownedPartitions);
    h = 31 * h + Integer.hashCode(generation);
    return h;
  }

  @Override
  public String toString() {
    return "GroupMember[memberId=" + memberId + ", groupInstanceId=" + groupInstanceId
        + ", rackId=" + rackId + ", weight=" + weight + ", topics=" + topics + ", ownedPartitions="
        + ownedPartitions + ", generation=" + generation + "]";
  }
}
