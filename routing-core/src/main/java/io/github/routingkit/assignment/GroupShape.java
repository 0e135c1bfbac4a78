package io.github.routingkit.assignment;

import java.util.Set;

/**
 * The shape of a consumer group as {@link AssignmentPolicy} sees it, which picks the builder that
 * computes its assignment (as Kafka's {@code UniformAssignor} picks its homogeneous or
 * heterogeneous builder). Every builder gives the result the general one would; the shapes only
 * let the common groups skip work. {@link RebalanceResult#shape()} says which one a result came
 * from.
 */
public enum GroupShape {
  /**
   * Every member subscribes to the same topics, all claims are of one generation, the subscribed
   * topics weigh the same and no member has a rack (the usual KIP-848 group). Computed from the
   * members' claims: quotas, what each member keeps, the rest round-robin.
   */
  EQUAL_SUBSCRIPTIONS_WITHOUT_RACKS,

  /**
   * As {@link #EQUAL_SUBSCRIPTIONS_WITHOUT_RACKS}, but some member has a rack. Computed from the
   * members' claims too; only the partitions not kept on their owner's rack are placed
   * rack-locally and swapped.
   */
  EQUAL_SUBSCRIPTIONS_WITH_RACKS,

  /**
   * Any other group: members subscribe to different topics, claims come from several
   * generations, or the subscribed topics weigh differently. Each connected part of the
   * subscription graph is assigned on its own, by quotas where its subscriptions are equal and by
   * balanced counts where they are not.
   */
  GENERAL;

  /**
   * The shape of a group with these members and topics: reads subscriptions, generations, racks
   * and topic weights, no claims and no replica racks.
   *
   * @throws NullPointerException if an element is null
   */
  static GroupShape of(GroupMember[] members, AssignableTopic[] topics) {
    if (members.length == 0) {
      return GENERAL;
    }
    Set<String> subs = members[0].topics();
    int gen = members[0].generation();
    boolean rack = false;
    for (GroupMember m : members) {
      Set<String> s = m.topics();
      if (m.generation() != gen || (s != subs && !s.equals(subs))) {
        return GENERAL;
      }
      rack |= m.rackId() != null;
    }
    int weight = -1;
    for (AssignableTopic t : topics) {
      if (subs.contains(t.name())) {
        if (weight < 0) {
          weight = t.weight();
        } else if (t.weight() != weight) {
          return GENERAL;
        }
      }
    }
    return rack ? EQUAL_SUBSCRIPTIONS_WITH_RACKS : EQUAL_SUBSCRIPTIONS_WITHOUT_RACKS;
  }
}
