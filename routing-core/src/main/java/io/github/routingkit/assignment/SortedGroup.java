package io.github.routingkit.assignment;

import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The group of one {@link AssignmentPolicy} call in the order every builder works in: members in
 * canonical order, topics by name, and each partition as one global index {@code gp} (the topics'
 * partitions laid end to end, {@link #offset}). It also remembers where each member and topic
 * stood as given, which is what {@link OwnedPartitions} claims refer to. The first step of every
 * builder; not thread-safe, one per call.
 */
final class SortedGroup {
  /** Canonical member order: static members by instance id, then everyone by member id. */
  static final Comparator<GroupMember> CANONICAL =
      Comparator.comparing(GroupMember::groupInstanceId, Comparator.nullsLast(Comparator.naturalOrder()))
          .thenComparing(GroupMember::memberId);

  static final Comparator<AssignableTopic> BY_NAME = Comparator.comparing(AssignableTopic::name);

  /** The members in canonical order. */
  final GroupMember[] members;
  /** The topics by name. */
  final AssignableTopic[] topics;
  /** Global index of each topic's partition 0; {@code offset[topics.length]} is the partition count. */
  final int[] offset;
  final int partitionCount;
  /** Topic name to its index by name. */
  final Map<String, Integer> topicIndex = new HashMap<>();
  /** For each canonical member index, the member's position as given. */
  private final int[] inputPosition;
  /** For each topic position as given, the topic's index by name. */
  final int[] sortedTopic;
  private final OwnedPartitions owned;

  /**
   * Sorts {@code members} (into canonical order) and {@code topics} (by name) in place.
   *
   * @param owned extra claims by position in the arrays as given, or null
   * @throws IllegalArgumentException naming the first member id (in canonical order) or, if none,
   *     the first topic name (by name) that occurs twice
   * @throws ArithmeticException if the partition count overflows an int
   */
  SortedGroup(GroupMember[] members, AssignableTopic[] topics, OwnedPartitions owned) {
    this.members = members;
    this.inputPosition = canonicalOrder(members);
    this.topics = topics;
    this.sortedTopic = inverse(sortInPlace(topics, BY_NAME));
    this.offset = offsets(topics, topicIndex);
    this.partitionCount = offset[topics.length];
    this.owned = owned;
  }

  /**
   * Reads what member {@code i} (canonical index) claims, from its {@code ownedPartitions} and then
   * from the extra claims, into {@code reader}.
   */
  void readClaims(int i, ClaimReader reader) {
    reader.read(members[i].ownedPartitions());
    if (owned != null) {
      owned.forEachOwned(inputPosition[i], reader);
    }
  }

  /** Which topics (by index) are in {@code names}. */
  boolean[] subscribedTopics(Set<String> names) {
    boolean[] subscribed = new boolean[topics.length];
    for (int t = 0; t < topics.length; t++) {
      subscribed[t] = names.contains(topics[t].name());
    }
    return subscribed;
  }

  /** The number of partitions of the topics {@code subscribed} marks. */
  long partitionsOf(boolean[] subscribed) {
    long n = 0;
    for (int t = 0; t < topics.length; t++) {
      if (subscribed[t]) {
        n += topics[t].partitions();
      }
    }
    return n;
  }

  /**
   * Sorts {@code mem} in place into {@link #CANONICAL} order and returns, for each canonical
   * index, the member's position as given.
   *
   * @throws IllegalArgumentException naming the first member id (in canonical order) that occurs twice
   */
  private static int[] canonicalOrder(GroupMember[] mem) {
    boolean anyInstance = false;
    for (GroupMember g : mem) {
      anyInstance |= g.groupInstanceId() != null;
    }
    // Without static members the canonical order is the member-id order: one String comparison
    // per step instead of the chained comparator (the same order).
    int[] inputPosition = anyInstance ? sortInPlace(mem, CANONICAL)
        : sortInPlace(mem, (a, b) -> a.memberId().compareTo(b.memberId()));
    Set<String> ids = new HashSet<>((int) (mem.length / 0.75f) + 1);
    for (GroupMember g : mem) {
      if (!ids.add(g.memberId())) {
        throw new IllegalArgumentException("member id " + g.memberId() + " occurs twice");
      }
    }
    return inputPosition;
  }

  /**
   * The global index of each topic's partition 0 for {@code tps} (sorted by name), with
   * {@code offset[tps.length]} the partition count; fills {@code topicIndex} (name to index).
   *
   * @throws IllegalArgumentException naming the first topic name that occurs twice
   * @throws ArithmeticException if the partition count overflows an int
   */
  private static int[] offsets(AssignableTopic[] tps, Map<String, Integer> topicIndex) {
    int[] offset = new int[tps.length + 1];
    for (int t = 0; t < tps.length; t++) {
      if (topicIndex.put(tps[t].name(), t) != null) {
        throw new IllegalArgumentException("topic " + tps[t].name() + " occurs twice");
      }
      offset[t + 1] = Math.addExact(offset[t], tps[t].partitions());
    }
    return offset;
  }

  /** {@code out[from[j]] = j}. */
  private static int[] inverse(int[] from) {
    int[] out = new int[from.length];
    for (int j = 0; j < from.length; j++) {
      out[from[j]] = j;
    }
    return out;
  }

  /**
   * Sorts {@code a} in place by {@code order} (stable, as {@link Arrays#sort(Object[], Comparator)})
   * and returns, for each sorted position, the position its element had in {@code a} as given.
   */
  private static <T> int[] sortInPlace(T[] a, Comparator<? super T> order) {
    Integer[] from = new Integer[a.length];
    for (int i = 0; i < from.length; i++) {
      from[i] = i;
    }
    T[] given = a.clone();
    Arrays.sort(from, (x, y) -> order.compare(given[x], given[y]));
    int[] at = new int[a.length];
    for (int i = 0; i < at.length; i++) {
      at[i] = from[i];
      a[i] = given[from[i]];
    }
    return at;
  }
}
