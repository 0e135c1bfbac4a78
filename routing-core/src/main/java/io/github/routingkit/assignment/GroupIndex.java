package io.github.routingkit.assignment;

import java.util.Arrays;
import java.util.BitSet;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The group state of one {@link AssignmentPolicy#assign} call as flat arrays: members in
 * canonical order, topics by name, each partition as one global index {@code gp} (the topics'
 * partitions laid end to end), the winning claim on each partition, racks as small ints, and the
 * target owner the builders fill in. Not thread-safe; one per call.
 */
final class GroupIndex {
  /** Canonical member order: static members by instance id, then everyone by member id. */
  static final Comparator<GroupMember> CANONICAL =
      Comparator.comparing(GroupMember::groupInstanceId, Comparator.nullsLast(Comparator.naturalOrder()))
          .thenComparing(GroupMember::memberId);

  final GroupMember[] mem;
  final AssignableTopic[] tps;
  /** Global index of each topic's partition 0; {@code offset[tps.length]} is the partition count. */
  final int[] offset;
  final int partitionCount;
  final int[] topicOf;
  final int[] topicWeight;
  final BitSet[] subscribed;
  /** The member whose claim on the partition wins, or -1. */
  final int[] owner;
  /** Someone claims the partition (even a claim that lost, or one for a topic no longer subscribed). */
  final BitSet claimed;
  /** The member the partition goes to, or -1; filled in by the builders. */
  final int[] target;
  /** Rack of each member as a small int, or -1. */
  final int[] memberRack;
  final int rackCount;
  /** Per partition the racks (of members) holding a replica; null when no member has a rack. */
  final int[][] partitionRacks;
  /** Partitions whose replica racks are known (non-empty). */
  final BitSet racksKnown;

  /** Generation + 2 (clamped) of the winning claim on each partition; 0 = unclaimed. Constructor only. */
  private int[] ownerGen;

  GroupIndex(Collection<GroupMember> members, Collection<AssignableTopic> topics) {
    this(members.toArray(new GroupMember[0]), topics.toArray(new AssignableTopic[0]), null);
  }

  /**
   * @param members the members (the array is sorted in place into canonical order)
   * @param topics the topics (sorted in place by name)
   * @param owned extra claims by position in the arrays as given (before sorting), or null
   */
  GroupIndex(GroupMember[] members, AssignableTopic[] topics, OwnedPartitions owned) {
    mem = members;
    int[] inputPosition = sortInPlace(mem, CANONICAL); // [canonical index] = position as given
    Set<String> ids = new HashSet<>();
    for (GroupMember g : mem) {
      if (!ids.add(g.memberId())) {
        throw new IllegalArgumentException("member id " + g.memberId() + " occurs twice");
      }
    }
    tps = topics;
    int[] topicFrom = sortInPlace(tps, Comparator.comparing(AssignableTopic::name));
    int[] sortedTopic = new int[topicFrom.length]; // [position as given] = index by name
    for (int t = 0; t < topicFrom.length; t++) {
      sortedTopic[topicFrom[t]] = t;
    }
    int tc = tps.length;
    Map<String, Integer> topicIndex = new HashMap<>();
    offset = new int[tc + 1];
    topicWeight = new int[tc];
    for (int t = 0; t < tc; t++) {
      if (topicIndex.put(tps[t].name(), t) != null) {
        throw new IllegalArgumentException("topic " + tps[t].name() + " occurs twice");
      }
      offset[t + 1] = Math.addExact(offset[t], tps[t].partitions());
      topicWeight[t] = tps[t].weight();
    }
    partitionCount = offset[tc];
    topicOf = new int[partitionCount];
    for (int t = 0; t < tc; t++) {
      Arrays.fill(topicOf, offset[t], offset[t + 1], t);
    }
    int m = mem.length;
    subscribed = new BitSet[m];
    owner = new int[partitionCount];
    Arrays.fill(owner, -1);
    ownerGen = new int[partitionCount];
    claimed = new BitSet(partitionCount);
    target = new int[partitionCount];
    Arrays.fill(target, -1);
    // Members usually share one topic set instance (the adapters intern them): one BitSet each,
    // read-only after this constructor.
    Map<Set<String>, BitSet> bySet = new IdentityHashMap<>();
    for (int i = 0; i < m; i++) {
      subscribed[i] = bySet.computeIfAbsent(mem[i].topics(), names -> {
        BitSet b = new BitSet(tc);
        for (String name : names) {
          Integer t = topicIndex.get(name);
          if (t != null) {
            b.set(t);
          }
        }
        return b;
      });
      // ownerGen holds generation + 2 (clamped), so 0 means unclaimed.
      int gen = mem[i].generation();
      int g2 = gen < -1 ? 1 : gen > Integer.MAX_VALUE - 2 ? Integer.MAX_VALUE : gen + 2;
      String lastTopic = null;
      int t = -1;
      for (PartitionRef ref : mem[i].ownedPartitions()) {
        if (!ref.topic().equals(lastTopic)) {
          lastTopic = ref.topic();
          Integer ti = topicIndex.get(lastTopic);
          t = ti == null ? -1 : ti;
        }
        if (t >= 0 && ref.partition() < tps[t].partitions()) {
          claim(i, t, ref.partition(), g2);
        }
      }
      if (owned != null) {
        int member = i;
        owned.forEachOwned(inputPosition[i], (topic, ps, count) -> {
          if (topic < 0 || topic >= sortedTopic.length) {
            return;
          }
          int st = sortedTopic[topic];
          int n = tps[st].partitions();
          for (int j = 0; j < count; j++) {
            int p = ps[j];
            if (p >= 0 && p < n) {
              claim(member, st, p, g2);
            }
          }
        });
      }
    }
    ownerGen = null;

    Map<String, Integer> racks = new HashMap<>();
    memberRack = new int[m];
    for (int i = 0; i < m; i++) {
      String r = mem[i].rackId();
      memberRack[i] = r == null ? -1 : racks.computeIfAbsent(r, k -> racks.size());
    }
    rackCount = racks.size();
    racksKnown = new BitSet(partitionCount);
    int[][] pr = null;
    if (rackCount > 0) {
      pr = new int[partitionCount][];
      int[] buf = new int[rackCount];
      Map<Set<String>, int[]> rackIds = new HashMap<>();
      for (int t = 0; t < tc; t++) {
        if (tps[t].replicaRacks().isEmpty()) {
          continue;
        }
        for (int p = 0; p < tps[t].partitions(); p++) {
          Set<String> rs = tps[t].racksOf(p);
          if (rs.isEmpty()) {
            continue;
          }
          racksKnown.set(offset[t] + p);
          // Few distinct rack sets: translate each once (the int[] is read-only, so partitions
          // may share it). An empty array stands for "none".
          int[] ids2 = rackIds.get(rs);
          if (ids2 == null) {
            int c = 0;
            for (String r : rs) {
              Integer id = racks.get(r);
              if (id != null) {
                buf[c++] = id;
              }
            }
            ids2 = Arrays.copyOf(buf, c);
            Arrays.sort(ids2);
            rackIds.put(rs, ids2);
          }
          if (ids2.length > 0) {
            pr[offset[t] + p] = ids2;
          }
        }
      }
    }
    partitionRacks = pr;
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

  /** Member {@code i} (claims of generation + 2 = {@code g2}) claims partition {@code p} of topic {@code t}. */
  private void claim(int i, int t, int p, int g2) {
    int gp = offset[t] + p;
    claimed.set(gp);
    if (!subscribed[i].get(t)) {
      return;
    }
    int o = owner[gp];
    if (o == i) {
      return;
    }
    // The higher generation wins. Two claims of the same generation (a member that missed a
    // rebalance) cancel out, as in Kafka's sticky assignors: nobody keeps the partition on its
    // account, and it goes wherever balance wants it with no further move (Kafka's F3 case).
    if (g2 > ownerGen[gp]) {
      owner[gp] = i;
      ownerGen[gp] = g2;
    } else if (g2 == ownerGen[gp]) {
      owner[gp] = -1; // tied; ownerGen stays, so a later, higher claim still wins
    }
  }

  boolean hasRacks() {
    return partitionRacks != null;
  }

  /** Racks of members holding a replica of {@code gp}; null if none. */
  int[] racksOf(int gp) {
    return partitionRacks == null ? null : partitionRacks[gp];
  }

  boolean isLocal(int i, int gp) {
    int r = memberRack[i];
    if (r < 0 || partitionRacks == null) {
      return false;
    }
    int[] rs = partitionRacks[gp];
    if (rs == null) {
      return false;
    }
    for (int x : rs) {
      if (x == r) {
        return true;
      }
    }
    return false;
  }

  /** Member {@code i} has a rack and {@code gp} has known racks, none of them that one. */
  boolean isRemote(int i, int gp) {
    return memberRack[i] >= 0 && racksKnown.get(gp) && !isLocal(i, gp);
  }
}
