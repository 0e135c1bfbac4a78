package io.github.routingkit.assignment;

import java.util.Collection;
import java.util.List;

/**
 * The consumer-group assignment policy behind RoutingKit's Kafka assignors: a pure function from
 * the group state (members, their subscriptions, weights, racks and owned partitions; topics, their
 * partition counts, replica racks and weights) to the partitions each member reads.
 *
 * <h2>Guarantees, for any subscription pattern</h2>
 * <ul>
 *   <li><b>Valid:</b> every partition of a subscribed topic goes to exactly one member that
 *       subscribes to its topic (or, in cooperative mode, is held back, see below).</li>
 *   <li><b>Deterministic:</b> the result depends only on the group state, not on the order of
 *       {@code members} or {@code topics}, nor on hash-map or JVM iteration order. Members are put in
 *       a canonical order: by {@code groupInstanceId} (static members first), then by
 *       {@code memberId}.</li>
 *   <li><b>Balanced by Kafka's criterion, weights respected:</b> a partition of topic {@code t}
 *       counts as load {@code c = t.weight()}. With equal member weights this is Kafka's rule: no
 *       member {@code i} could take a partition it subscribes to from a member {@code j} holding
 *       more than {@code c} above it ({@code L_j - L_i <= c}; for topics of weight 1, nobody holds
 *       two more than a member that could take one of its partitions). With unequal member weights,
 *       no member could take such a partition and still be below the giver per weight:
 *       {@code (L_i + c) * w_j >= (L_j - c) * w_i}. Where all members subscribe to the same topics,
 *       each member's load is moreover its quota {@code floor(L*w_i/W)} or one more
 *       (largest-remainder apportionment) when all their topics weigh the same, and those
 *       quotas meet the stronger pairwise rule {@code (2*L_i + c) * w_j >= (2*L_j - c) * w_i}
 *       (Sainte-Laguë / Webster) whenever any quotas within one of the shares do.</li>
 *   <li><b>Per-topic spread:</b> with equal subscriptions, a fresh assignment gives each member
 *       within one of its share of each topic when racks do not pull partitions elsewhere; a
 *       member giving partitions up gives up those of the topics it holds most above its
 *       share.</li>
 *   <li><b>Sticky:</b> members keep their owned partitions; a partition changes owner only when
 *       balance needs it or for rack re-alignment (next item). With equal subscriptions the number
 *       of moves is the minimum any assignment with these quotas needs. With non-equal
 *       subscriptions balance takes unowned partitions first, also through chains of members
 *       (one member's unowned partition of one topic goes on, another's of a second topic comes
 *       in), and among equally balanced outcomes prefers the one that moves fewer owned
 *       partitions; this is a search with a budget, not a proof of the minimum. When two members claim one
 *       partition, the claim with the higher {@code generation} wins; two claims of the same
 *       generation cancel out (the partition goes where balance wants it, as in Kafka).</li>
 *   <li><b>Rack-aware without breaking balance:</b> free partitions go first to a member with room
 *       on a rack holding a replica (most constrained first); an owned partition off its owner's
 *       rack moves to a rack-local member with room (re-alignment; the owner's load is made up
 *       elsewhere, so balance is unchanged); last, two members exchange partitions when that brings an
 *       off-rack one onto its member's rack and the other stays on one (same loads; across topics
 *       only with non-equal subscriptions and when Kafka's criterion still holds; a partition on its
 *       owner's rack is never moved for it). Quotas are never exceeded for locality.</li>
 *   <li><b>Static membership:</b> a static member that rejoins under a new {@code memberId} with
 *       the same {@code groupInstanceId} keeps its place in the canonical order; since the others
 *       keep their partitions, the partitions it left behind are the ones free for it.</li>
 *   <li><b>Cooperative safety:</b> in {@link RebalanceMode#COOPERATIVE}, a partition that any member
 *       claims is given only to the winning claimant; if the policy wants it elsewhere, it is given
 *       to nobody in this rebalance and listed in {@link RebalanceResult#pendingRevocation()}.
 *       The next rebalance (which Kafka triggers after a revocation) hands it over, since by then
 *       nobody claims it. With equal subscriptions, topics of equal weight and no racks that
 *       follow-up computes the same targets, so one follow-up ends it. With racks or non-equal
 *       subscriptions the follow-up plans from the new ownership (rack re-alignment and the
 *       chain searches see other owners) and may revoke again: most changes still take one
 *       follow-up, some two or three (fuzzed realistic joins, leaves and subscription changes:
 *       about 1 % with racks on the quota path, 1&ndash;9 % with non-equal subscriptions; never more
 *       than 10 rounds in any fuzzed case). Every round is cooperative-safe.</li>
 * </ul>
 *
 * <p>Cost for {@code P} partitions, {@code M} members, {@code S} (member, subscribed topic) pairs:
 * equal subscriptions {@code O(P log P + M^2)} time; otherwise {@code O(P log M + S * B)} where
 * {@code B} is the number of balancing moves (small after the fill step), plus {@code O(S)} for
 * the chain searches of non-equal subscriptions (a fixed budget) and at most
 * {@code 64*S + 2^20} arc visits for their move-minimising step; memory {@code O(P + S + M)}
 * beyond the inputs, plus {@code O(K*M)} for {@code K} racks whose members' needs are too far
 * apart for bucket queues (see {@code PartitionSelector}). A group in which every member subscribes to the same
 * topics, no member has a rack, all claims are of one generation and the subscribed topics weigh
 * the same (the usual KIP-848 group) is computed from the claims instead, with the same result:
 * {@code O(C + M log M + P/64 + T + R)} time for {@code C} claims, {@code T} topics and {@code R}
 * partitions handed out, and memory {@code O(C + M + P/64)}. Partitions of topics nobody
 * subscribes to, owned partitions of unknown topics or beyond the partition count, and owned
 * partitions of topics the member no longer subscribes to are not assigned to anyone on their
 * account (the latter still count as owned for cooperative safety). A group in which every
 * member subscribes to the same topics, some member has a rack, all claims are of one generation
 * and the subscribed topics weigh the same is computed from the claims too, with the same result:
 * the owned partitions a member keeps on its rack (or rack-neutral) are kept without being
 * indexed, and only the other {@code R} partitions are placed and swapped, in
 * {@code O(C + M log M + P/64 + R log R)} time plus the placement and swaps of {@code R}
 * partitions, memory {@code O(C + M + P/64 + R)}.
 *
 * <p>Thread-safe (stateless).
 */
public final class AssignmentPolicy {
  private AssignmentPolicy() {}

  /**
   * Computes the assignment: the group's {@link GroupShape} picks the builder.
   *
   * <ol>
   *   <li>Shape: every member subscribing to the same topics, of one weight, with claims of one
   *       generation is {@link GroupShape#EQUAL_SUBSCRIPTIONS_WITHOUT_RACKS} or, if some member has
   *       a rack, {@link GroupShape#EQUAL_SUBSCRIPTIONS_WITH_RACKS}; any other group is
   *       {@link GroupShape#GENERAL}.</li>
   *   <li>Sort the group: members into canonical order, topics by name, partitions numbered
   *       globally ({@code SortedGroup}).</li>
   *   <li>Build: {@code EqualSubscriptionsWithoutRacks}, {@code EqualSubscriptionsWithRacks} (both
   *       from the members' claims, with the result the general builder gives for their shape) or
   *       {@code GeneralAssignment} (each connected part of the subscription graph by quotas or by
   *       balanced counts, then rack swaps, then the cooperative hold-back).</li>
   * </ol>
   *
   * @param members the group members, each {@code memberId} at most once
   * @param topics the topics known to the group, each name at most once
   * @param mode how partitions are handed over
   * @return the assignment of every member (see the class comment for its guarantees)
   * @throws NullPointerException if an argument or an element is null
   * @throws IllegalArgumentException if a member id or a topic name occurs twice
   */
  public static RebalanceResult assign(
      Collection<GroupMember> members, Collection<AssignableTopic> topics, RebalanceMode mode) {
    if (mode == null) {
      throw new NullPointerException("mode");
    }
    return assign(members.toArray(new GroupMember[0]), topics.toArray(new AssignableTopic[0]),
        null, mode, true);
  }

  /**
   * Computes the assignment as {@link #assign(Collection, Collection, RebalanceMode)} does, with
   * the claims of each member given by {@code owned} (partition numbers per topic position) in
   * addition to its {@link GroupMember#ownedPartitions()}: the same result as if those partitions
   * were listed in {@code ownedPartitions}, without a {@link PartitionRef} per owned partition.
   * Claimed partition numbers outside the topic's range, and topic positions outside
   * {@code topics}, are ignored.
   *
   * @param members the group members, each {@code memberId} at most once; positions in this list
   *     are the member numbers {@code owned} is asked about
   * @param topics the topics known to the group, each name at most once; positions in this list
   *     are the topic numbers {@code owned} reports
   * @param owned what each member owns, called once per member during this call
   * @param mode how partitions are handed over
   * @return the assignment of every member (see the class comment for its guarantees)
   * @throws NullPointerException if an argument or an element is null
   * @throws IllegalArgumentException if a member id or a topic name occurs twice
   */
  public static RebalanceResult assign(List<GroupMember> members, List<AssignableTopic> topics,
      OwnedPartitions owned, RebalanceMode mode) {
    if (mode == null) {
      throw new NullPointerException("mode");
    }
    if (owned == null) {
      throw new NullPointerException("owned");
    }
    return assign(members.toArray(new GroupMember[0]), topics.toArray(new AssignableTopic[0]),
        owned, mode, true);
  }

  /**
   * The assignment of {@code members} and {@code topics} (sorted in place), with extra claims
   * {@code owned} (or null); {@code shortcut} lets a group of equal subscriptions go to its own
   * builder, which gives the same result (tests compare them with the general builder by passing
   * false).
   */
  static RebalanceResult assign(GroupMember[] members, AssignableTopic[] topics,
      OwnedPartitions owned, RebalanceMode mode, boolean shortcut) {
    GroupShape shape = shortcut ? GroupShape.of(members, topics) : GroupShape.GENERAL;
    SortedGroup group = new SortedGroup(members, topics, owned);
    switch (shape) {
      case EQUAL_SUBSCRIPTIONS_WITHOUT_RACKS:
        return new EqualSubscriptionsWithoutRacks(group, mode).build();
      case EQUAL_SUBSCRIPTIONS_WITH_RACKS:
        return new EqualSubscriptionsWithRacks(group, mode).build();
      case GENERAL:
        return new GeneralAssignment(group, mode).build();
      default:
        throw new AssertionError(shape);
    }
  }
}
