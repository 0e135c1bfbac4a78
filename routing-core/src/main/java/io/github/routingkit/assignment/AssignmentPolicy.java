package io.github.routingkit.assignment;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

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
   * Computes the assignment.
   *
   * <ol>
   *   <li>Index the group ({@code GroupIndex}): members in canonical order, topics by name,
   *       partitions as global indexes; resolve claims (higher generation wins, equal generations
   *       cancel).</li>
   *   <li>Split members and topics into the connected parts of the subscription graph; each part is
   *       assigned on its own.</li>
   *   <li>A part where every member subscribes to every topic, all of one weight, goes to
   *       {@code EqualSubscriptions} (quotas, then partitions); any other part to
   *       {@code MixedSubscriptions} (counts per member and topic, balanced by moves; without
   *       racks {@code MoveMinimizer} then picks balanced counts that keep the most owned
   *       partitions it finds; then partitions per topic). Both end in
   *       {@code PartitionSelector}, which keeps owned partitions, places rack-locally and
   *       re-aligns.</li>
   *   <li>{@code RackSwaps}: exchanges between two members that bring off-rack partitions onto a
   *       replica's rack at unchanged loads.</li>
   *   <li>Cooperative mode: a partition claimed by someone other than its target is held back
   *       (pending revocation) instead of being handed over.</li>
   * </ol>
   *
   * Steps 1-5 for a group of equal subscriptions without racks (see the cost paragraph of the
   * class comment) are computed by {@code EqualSubscriptionsWithoutRacks} from the members' claims,
   * with the same result; with racks, by {@code EqualSubscriptionsWithRacks}, which indexes only
   * the partitions steps 3 and 4 may place or move.
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
   * {@code owned} (or null); {@code shortcut} lets a group of equal subscriptions go to
   * {@link EqualSubscriptionsWithoutRacks} or {@link EqualSubscriptionsWithRacks}, which give the
   * same result (tests compare them with the general path by passing false).
   */
  static RebalanceResult assign(GroupMember[] members, AssignableTopic[] topics,
      OwnedPartitions owned, RebalanceMode mode, boolean shortcut) {
    int shape = shortcut ? EqualSubscriptionsWithoutRacks.racks(members, topics)
        : EqualSubscriptionsWithoutRacks.OTHER_SHAPE;
    if (shape == EqualSubscriptionsWithoutRacks.NO_RACK) {
      return EqualSubscriptionsWithoutRacks.assign(members, topics, owned, mode);
    }
    if (shape == EqualSubscriptionsWithoutRacks.SOME_RACK) {
      return EqualSubscriptionsWithRacks.assign(members, topics, owned, mode);
    }
    return assign(new GroupIndex(members, topics, owned), mode);
  }

  private static RebalanceResult assign(GroupIndex g, RebalanceMode mode) {
    // 1. Index and claims: done by the caller.
    int m = g.mem.length;
    int tc = g.tps.length;

    // 2. Connected parts of the member-topic subscription graph.
    int[] parent = new int[m + tc];
    for (int i = 0; i < parent.length; i++) {
      parent[i] = i;
    }
    // Members with one shared subscription BitSet (the usual case) join the first of them: the
    // same parts, one pass over each distinct subscription instead of one per member.
    Map<BitSet, Integer> firstWith = new IdentityHashMap<>();
    for (int i = 0; i < m; i++) {
      Integer first = firstWith.putIfAbsent(g.subscribed[i], i);
      if (first != null) {
        union(parent, i, first);
        continue;
      }
      for (int t = g.subscribed[i].nextSetBit(0); t >= 0; t = g.subscribed[i].nextSetBit(t + 1)) {
        union(parent, i, m + t);
      }
    }
    Map<Integer, List<Integer>> partMembers = new HashMap<>();
    Map<Integer, List<Integer>> partTopics = new HashMap<>();
    for (int i = 0; i < m; i++) {
      partMembers.computeIfAbsent(find(parent, i), k -> new ArrayList<>()).add(i);
    }
    for (int t = 0; t < tc; t++) {
      partTopics.computeIfAbsent(find(parent, m + t), k -> new ArrayList<>()).add(t);
    }

    // 3. Each part by the builder its subscriptions call for.
    BitSet mixedTopic = new BitSet(tc);
    for (Map.Entry<Integer, List<Integer>> e : partMembers.entrySet()) {
      List<Integer> ts = partTopics.get(e.getKey());
      if (ts == null) {
        continue; // members without any existing topic
      }
      int[] cm = e.getValue().stream().mapToInt(Integer::intValue).toArray(); // ascending = canonical
      int[] ct = ts.stream().mapToInt(Integer::intValue).toArray(); // ascending = by name
      // Equal subscriptions and equal topic weights: quotas. Otherwise (including topics of
      // different weights, where a quota in load units cannot be met exactly): counts and moves.
      boolean equal = true;
      for (int i : cm) {
        equal &= g.subscribed[i].cardinality() == ct.length;
      }
      for (int t : ct) {
        equal &= g.topicWeight[t] == g.topicWeight[ct[0]];
      }
      if (equal) {
        EqualSubscriptions.assign(g, cm, ct);
      } else {
        MixedSubscriptions.assign(g, cm, ct);
        for (int t : ct) {
          mixedTopic.set(t);
        }
      }
    }
    RackSwaps.apply(g, mixedTopic);

    // 4. Output, holding back transfers of still-claimed partitions in cooperative mode.
    int[] counts = new int[m];
    int[] kept = new int[m];
    int pendingCount = 0;
    boolean cooperative = mode == RebalanceMode.COOPERATIVE;
    for (int gp = 0; gp < g.partitionCount; gp++) {
      int to = g.target[gp];
      if (to < 0) {
        continue;
      }
      if (cooperative && g.owner[gp] != to && g.claimed.get(gp)) {
        g.target[gp] = -2;
        pendingCount++;
      } else {
        counts[to]++;
        if (g.owner[gp] == to) {
          kept[to]++;
        }
      }
    }
    int[][] lists = new int[m][];
    for (int i = 0; i < m; i++) {
      lists[i] = new int[counts[i]];
    }
    int[] pending = new int[pendingCount];
    Arrays.fill(counts, 0);
    int pc = 0;
    for (int gp = 0; gp < g.partitionCount; gp++) {
      int to = g.target[gp];
      if (to >= 0) {
        lists[to][counts[to]++] = gp;
      } else if (to == -2) {
        pending[pc++] = gp;
      }
    }
    return result(g.mem, g.tps, g.offset, lists, pending, kept);
  }

  /**
   * The result with members in member-id order, from per-member lists in canonical order
   * ({@code mem}), topics sorted by name with their global offsets.
   */
  static RebalanceResult result(GroupMember[] mem, AssignableTopic[] tps, int[] offset,
      int[][] lists, int[] pending, int[] kept) {
    int m = mem.length;
    String[] ids = new String[m];
    int[][] sorted = lists;
    int[] keptById = kept;
    boolean idOrder = true; // without static members the canonical order is the id order
    for (int i = 0; i < m; i++) {
      ids[i] = mem[i].memberId();
      if (idOrder && i > 0 && ids[i - 1].compareTo(ids[i]) >= 0) {
        idOrder = false;
      }
    }
    if (!idOrder) {
      Integer[] byId = new Integer[m];
      for (int i = 0; i < m; i++) {
        byId[i] = i;
      }
      Arrays.sort(byId, (a, b) -> mem[a].memberId().compareTo(mem[b].memberId()));
      sorted = new int[m][];
      keptById = new int[m];
      for (int j = 0; j < m; j++) {
        ids[j] = mem[byId[j]].memberId();
        sorted[j] = lists[byId[j]];
        keptById[j] = kept[byId[j]];
      }
    }
    String[] names = new String[tps.length];
    for (int t = 0; t < tps.length; t++) {
      names[t] = tps[t].name();
    }
    return new RebalanceResult(ids, names, offset, sorted, pending, keptById);
  }

  private static int find(int[] parent, int x) {
    while (parent[x] != x) {
      parent[x] = parent[parent[x]];
      x = parent[x];
    }
    return x;
  }

  private static void union(int[] parent, int a, int b) {
    int ra = find(parent, a);
    int rb = find(parent, b);
    if (ra != rb) {
      parent[Math.max(ra, rb)] = Math.min(ra, rb);
    }
  }
}
