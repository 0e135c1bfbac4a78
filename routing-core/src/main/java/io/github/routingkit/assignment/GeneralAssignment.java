package io.github.routingkit.assignment;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The builder for {@link GroupShape#GENERAL}, and the reference every other builder must agree
 * with: the whole group indexed ({@link GroupIndex}), each connected part of the subscription
 * graph assigned on its own, then the rack swaps and, in cooperative mode, the hold-back of
 * partitions still claimed by someone else. Not thread-safe; one per call.
 */
final class GeneralAssignment {
  private final SortedGroup group;
  private final boolean cooperative;
  private GroupIndex g;
  /** Topics of the parts with non-equal subscriptions (cross-topic rack swaps allowed there). */
  private BitSet mixedTopic;

  GeneralAssignment(SortedGroup group, RebalanceMode mode) {
    this.group = group;
    this.cooperative = mode == RebalanceMode.COOPERATIVE;
  }

  /** One connected part: its members (canonical order) and topics (ascending). */
  private static final class Part {
    private final int[] members;
    private final int[] topics;

    private Part(int[] members, int[] topics) {
      this.members = members;
      this.topics = topics;
    }

    public int[] members() {
      return members;
    }

    public int[] topics() {
      return topics;
    }

    @Override
    public boolean equals(Object o) {
      if (this == o) {
        return true;
      }
      if (!(o instanceof Part)) {
        return false;
      }
      Part other = (Part) o;
      return Objects.equals(members, other.members)
          && Objects.equals(topics, other.topics);
    }

    @Override
    public int hashCode() {
      int h = 0;
      h = 31 * h + Objects.hashCode(members);
      h = 31 * h + Objects.hashCode(topics);
      return h;
    }

    @Override
    public String toString() {
      return "Part[members=" + members + ", topics=" + topics + "]";
    }
  }

  /**
   * Computes the assignment.
   *
   * <ol>
   *   <li>Index the group ({@link GroupIndex}): partitions as global indexes, claims resolved
   *       (the higher generation wins, equal generations cancel).</li>
   *   <li>Split members and topics into the connected parts of the subscription graph.</li>
   *   <li>Assign each part: a part where every member subscribes to every topic, all of one
   *       weight, by {@link EqualSubscriptions} (quotas, then partitions); any other part by
   *       {@link MixedSubscriptions} (counts per member and topic, balanced by moves, then
   *       partitions per topic). Both end in {@link PartitionSelector}, which keeps owned
   *       partitions, places rack-locally and re-aligns.</li>
   *   <li>{@link RackSwaps}: exchanges between two members that bring off-rack partitions onto a
   *       replica's rack at unchanged loads.</li>
   *   <li>Result: in cooperative mode a partition claimed by someone other than its target is
   *       held back (pending revocation) instead of being handed over.</li>
   * </ol>
   */
  RebalanceResult build() {
    g = new GroupIndex(group);
    mixedTopic = new BitSet(g.tps.length);
    for (Part part : connectedParts()) {
      assign(part);
    }
    RackSwaps.apply(g, mixedTopic);
    return RebalanceResult.ofTargets(GroupShape.GENERAL, group, g, null, null, cooperative);
  }

  /** The connected parts of the member-topic subscription graph that have a topic. */
  private List<Part> connectedParts() {
    int m = g.mem.length;
    int tc = g.tps.length;
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
    List<Part> parts = new ArrayList<>();
    for (Map.Entry<Integer, List<Integer>> e : partMembers.entrySet()) {
      List<Integer> ts = partTopics.get(e.getKey());
      if (ts != null) { // else: members without any existing topic
        parts.add(new Part(e.getValue().stream().mapToInt(Integer::intValue).toArray(),
            ts.stream().mapToInt(Integer::intValue).toArray()));
      }
    }
    return parts;
  }

  /**
   * One part by the builder its subscriptions call for: equal subscriptions and equal topic
   * weights by quotas; otherwise (including topics of different weights, where a quota in load
   * units cannot be met exactly) by counts and moves.
   */
  private void assign(Part part) {
    boolean equal = true;
    for (int i : part.members()) {
      equal &= g.subscribed[i].cardinality() == part.topics().length;
    }
    for (int t : part.topics()) {
      equal &= g.topicWeight[t] == g.topicWeight[part.topics()[0]];
    }
    if (equal) {
      EqualSubscriptions.assign(g, part.members(), part.topics());
    } else {
      MixedSubscriptions.assign(g, part.members(), part.topics());
      for (int t : part.topics()) {
        mixedTopic.set(t);
      }
    }
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
