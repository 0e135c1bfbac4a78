package io.github.routingkit.testkit;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Assignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.opentest4j.AssertionFailedError;

/**
 * Fluent assertions on a {@link ConsumerPartitionAssignor}; obtain one with
 * {@link AssignmentAssertions#assertThat}. Every member subscribes to every topic given with
 * {@link #withTopic} (default: one topic {@code "topic"} with 12 partitions; members default to
 * {@code consumer-1 .. consumer-3}). Subscriptions are built the way each member's consumer builds
 * them: {@code ownedPartitions}, the generation, and the user data the assignor returns from
 * {@code subscriptionUserData} right after {@code onAssignment} with the member's previous
 * assignment (replayed member by member on the one instance under test, so the assignor's state
 * is changed by these checks).
 *
 * <p>Not thread-safe: use one instance per test.
 */
public final class AssignorAssert {
  private static final int PERMUTATIONS = 8;

  private final ConsumerPartitionAssignor assignor;
  private final Map<String, Integer> topics = new LinkedHashMap<>();
  private List<String> members = List.of("consumer-1", "consumer-2", "consumer-3");

  AssignorAssert(ConsumerPartitionAssignor assignor) {
    this.assignor = Objects.requireNonNull(assignor, "assignor");
  }

  /**
   * Adds a topic every member subscribes to (the first call replaces the default topic).
   *
   * @throws IllegalArgumentException if {@code partitions < 1}
   */
  public AssignorAssert withTopic(String topic, int partitions) {
    if (partitions < 1) {
      throw new IllegalArgumentException(
          "partitions of topic " + topic + " was " + partitions + ", must be at least 1");
    }
    topics.put(Objects.requireNonNull(topic, "topic"), partitions);
    return this;
  }

  /**
   * Sets the group's members.
   *
   * @throws IllegalArgumentException if none is given or an id repeats
   */
  public AssignorAssert withMembers(String... memberIds) {
    if (memberIds.length == 0 || new HashSet<>(List.of(memberIds)).size() != memberIds.length) {
      throw new IllegalArgumentException(
          "members were " + List.of(memberIds) + ", must be at least one, without repeats");
    }
    this.members = List.of(memberIds);
    return this;
  }

  /**
   * Asserts that one rebalance of a fresh group assigns every partition exactly once and that the
   * members' partition counts differ by at most one.
   */
  public AssignorAssert isBalanced() {
    Map<String, List<TopicPartition>> result = assign(members, Map.of(), 1);
    checkComplete(result, "a fresh group of " + members);
    int min = Integer.MAX_VALUE;
    int max = Integer.MIN_VALUE;
    String minMember = null;
    String maxMember = null;
    for (String m : members) {
      int size = result.getOrDefault(m, List.of()).size();
      if (size < min) {
        min = size;
        minMember = m;
      }
      if (size > max) {
        max = size;
        maxMember = m;
      }
    }
    if (max - min > 1) {
      fail("not balanced: " + maxMember + " got " + max + " partitions " + sorted(result.get(maxMember))
          + " but " + minMember + " got " + min + " " + sorted(result.get(minMember))
          + "; counts must differ by at most 1");
    }
    return this;
  }

  /**
   * Asserts that the assignment does not depend on the order in which members appear in the
   * group subscription (the original order, its reverse and {@value #PERMUTATIONS} seeded
   * shuffles).
   */
  public AssignorAssert isDeterministicUnderMemberOrder() {
    Map<String, Set<TopicPartition>> expected = asSets(assign(members, Map.of(), 1));
    List<List<String>> orders = new ArrayList<>();
    List<String> reversed = new ArrayList<>(members);
    Collections.reverse(reversed);
    orders.add(reversed);
    Random random = new Random(17);
    for (int i = 0; i < PERMUTATIONS; i++) {
      List<String> shuffled = new ArrayList<>(members);
      Collections.shuffle(shuffled, random);
      orders.add(shuffled);
    }
    for (List<String> order : orders) {
      Map<String, Set<TopicPartition>> got = asSets(assign(order, Map.of(), 1));
      for (String m : members) {
        Set<TopicPartition> a = expected.getOrDefault(m, Set.of());
        Set<TopicPartition> b = got.getOrDefault(m, Set.of());
        if (!a.equals(b)) {
          fail("depends on member order: with members in order " + members + " " + m + " gets "
              + sorted(a) + ", in order " + order + " it gets " + sorted(b));
        }
      }
    }
    return this;
  }

  /**
   * Asserts stickiness across a sequence of rebalances: starting from a fresh group of
   * {@code memberSets.get(0)}, each later element is the group after members joined or left; a
   * rebalance may take partitions away from members that stay only as far as balance requires
   * (members with more than their fair share give up the excess, and only as many members as the
   * remainder allows keep the larger share). Partitions of departed members move freely. Each
   * step runs rebalances until every partition is assigned, so cooperative assignors (which
   * revoke first and reassign in a follow-up rebalance) are judged on the final result.
   *
   * @throws IllegalArgumentException if fewer than two member sets are given or one is empty
   */
  public AssignorAssert isStickyAcross(List<List<String>> memberSets) {
    if (memberSets.size() < 2) {
      throw new IllegalArgumentException("memberSets had " + memberSets.size()
          + " element(s), must describe at least two generations");
    }
    int total = 0;
    for (int p : topics().values()) {
      total += p;
    }
    Map<String, List<TopicPartition>> owned = Map.of();
    int generation = 1;
    List<String> previous = null;
    for (List<String> group : memberSets) {
      if (group.isEmpty()) {
        throw new IllegalArgumentException("a member set was empty");
      }
      Map<String, List<TopicPartition>> result = owned;
      for (int round = 0; round < 3; round++) {
        result = assign(group, ownedBy(result, group), generation++);
        if (assignedCount(result) == total) {
          break;
        }
      }
      checkComplete(result, "the group " + group);
      if (previous != null) {
        checkSticky(previous, owned, group, result, total);
      }
      owned = result;
      previous = group;
    }
    return this;
  }

  private void checkSticky(List<String> before, Map<String, List<TopicPartition>> owned,
      List<String> after, Map<String, List<TopicPartition>> result, int total) {
    int n = after.size();
    int ceil = (total + n - 1) / n;
    int remainder = total % n;
    int minimum = 0;
    int atCeil = 0;
    int moved = 0;
    List<String> examples = new ArrayList<>();
    Map<TopicPartition, String> newOwner = new HashMap<>();
    for (Map.Entry<String, List<TopicPartition>> e : result.entrySet()) {
      for (TopicPartition tp : e.getValue()) {
        newOwner.put(tp, e.getKey());
      }
    }
    for (String m : after) {
      List<TopicPartition> had = owned.getOrDefault(m, List.of());
      if (!before.contains(m)) {
        continue;
      }
      minimum += Math.max(0, had.size() - ceil);
      if (had.size() >= ceil) {
        atCeil++;
      }
      for (TopicPartition tp : had) {
        if (!m.equals(newOwner.get(tp))) {
          moved++;
          if (examples.size() < 5) {
            examples.add(tp + " " + m + " -> " + newOwner.get(tp));
          }
        }
      }
    }
    if (remainder > 0) {
      minimum += Math.max(0, atCeil - remainder);
    }
    if (moved > minimum) {
      fail("not sticky: going from " + before + " to " + after + ", " + moved + " partitions were"
          + " taken from members that stayed, balance requires only " + minimum + "; for example "
          + examples);
    }
  }

  private Map<String, List<TopicPartition>> assign(List<String> order,
      Map<String, List<TopicPartition>> owned, int generation) {
    Map<String, Subscription> subscriptions = new LinkedHashMap<>();
    List<String> topicNames = new ArrayList<>(topics().keySet());
    for (String m : order) {
      // What the member's consumer would send: user data from its assignor instance after the
      // previous onAssignment (the eager StickyAssignor reads only that), and ownedPartitions
      List<TopicPartition> had = owned.getOrDefault(m, List.of());
      ByteBuffer userData;
      try {
        assignor.onAssignment(new Assignment(had),
            new ConsumerGroupMetadata("routingkit-testkit", generation - 1, m, Optional.empty()));
        userData = assignor.subscriptionUserData(new HashSet<>(topicNames));
      } catch (RuntimeException e) {
        throw new AssertionFailedError(assignor.name() + " threw in onAssignment or"
            + " subscriptionUserData for member " + m + ": " + e, e);
      }
      subscriptions.put(m, new Subscription(topicNames, userData, had, generation,
          Optional.empty()));
    }
    Map<String, Assignment> result;
    try {
      result = assignor.assign(cluster(), new GroupSubscription(subscriptions))
          .groupAssignment();
    } catch (RuntimeException e) {
      throw new AssertionFailedError(assignor.name() + " threw on members " + order
          + " owning " + owned + ": " + e, e);
    }
    Map<String, List<TopicPartition>> out = new TreeMap<>();
    for (String m : order) {
      Assignment a = result.get(m);
      out.put(m, a == null ? List.of() : List.copyOf(a.partitions()));
    }
    for (String m : result.keySet()) {
      if (!subscriptions.containsKey(m)) {
        fail("assigned partitions to " + m + ", which is not a member of " + order);
      }
    }
    return out;
  }

  private void checkComplete(Map<String, List<TopicPartition>> result, String what) {
    Map<TopicPartition, String> owner = new HashMap<>();
    for (Map.Entry<String, List<TopicPartition>> e : result.entrySet()) {
      for (TopicPartition tp : e.getValue()) {
        String other = owner.put(tp, e.getKey());
        if (other != null) {
          fail("assigned " + tp + " to both " + other + " and " + e.getKey() + " in " + what);
        }
      }
    }
    for (Map.Entry<String, Integer> t : topics().entrySet()) {
      for (int p = 0; p < t.getValue(); p++) {
        TopicPartition tp = new TopicPartition(t.getKey(), p);
        if (!owner.containsKey(tp)) {
          fail("left " + tp + " unassigned in " + what);
        }
      }
    }
    if (owner.size() != assignedCount(result)) {
      fail("assigned unknown partitions in " + what + ": " + result);
    }
  }

  private Map<String, Integer> topics() {
    return topics.isEmpty() ? Map.of("topic", 12) : topics;
  }

  private Cluster cluster() {
    Node node = new Node(0, "localhost", 9092);
    List<PartitionInfo> partitions = new ArrayList<>();
    for (Map.Entry<String, Integer> t : topics().entrySet()) {
      for (int p = 0; p < t.getValue(); p++) {
        partitions.add(new PartitionInfo(t.getKey(), p, node, new Node[] {node}, new Node[] {node}));
      }
    }
    return new Cluster("routingkit-testkit", List.of(node), partitions, Set.of(), Set.of());
  }

  private static Map<String, List<TopicPartition>> ownedBy(
      Map<String, List<TopicPartition>> result, List<String> group) {
    Map<String, List<TopicPartition>> owned = new HashMap<>();
    for (String m : group) {
      owned.put(m, result.getOrDefault(m, List.of()));
    }
    return owned;
  }

  private static int assignedCount(Map<String, List<TopicPartition>> result) {
    int count = 0;
    for (List<TopicPartition> l : result.values()) {
      count += l.size();
    }
    return count;
  }

  private static Map<String, Set<TopicPartition>> asSets(Map<String, List<TopicPartition>> r) {
    Map<String, Set<TopicPartition>> out = new HashMap<>();
    r.forEach((m, l) -> out.put(m, new HashSet<>(l)));
    return out;
  }

  private static List<String> sorted(java.util.Collection<TopicPartition> tps) {
    Set<String> s = new TreeSet<>();
    if (tps != null) {
      for (TopicPartition tp : tps) {
        s.add(tp.toString());
      }
    }
    return new ArrayList<>(s);
  }

  private void fail(String message) {
    throw new AssertionFailedError(assignor.name() + " " + message);
  }
}
