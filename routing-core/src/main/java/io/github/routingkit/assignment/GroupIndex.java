package io.github.routingkit.assignment;

import java.util.Arrays;
import java.util.BitSet;
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
final class GroupIndex implements RackView {
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

  /**
   * @param members the members (the array is sorted in place into canonical order)
   * @param topics the topics (sorted in place by name)
   * @param owned extra claims by position in the arrays as given (before sorting), or null
   */
  GroupIndex(GroupMember[] members, AssignableTopic[] topics, OwnedPartitions owned) {
    mem = members;
    int[] inputPosition = canonicalOrder(mem); // [canonical index] = position as given
    tps = topics;
    int[] sortedTopic = inverse(sortInPlace(tps, BY_NAME)); // [position as given] = index by name
    int tc = tps.length;
    Map<String, Integer> topicIndex = new HashMap<>();
    offset = offsets(tps, topicIndex);
    topicWeight = new int[tc];
    for (int t = 0; t < tc; t++) {
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
    ClaimSink claims = new ClaimSink(sortedTopic, topicIndex);
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
      claims.member = i;
      claims.g2 = g2;
      claims.read(mem[i].ownedPartitions());
      if (owned != null) {
        owned.forEachOwned(inputPosition[i], claims);
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
      // Adapters pass few distinct rack-set instances (one per distinct set): look each instance
      // up by identity first, without hashing and comparing the set's strings per partition.
      Map<Set<String>, int[]> byInstance = new IdentityHashMap<>();
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
          int[] ids2 = byInstance.get(rs);
          if (ids2 == null) {
            ids2 = rackIds.get(rs);
            if (ids2 != null && byInstance.size() < 4096) {
              byInstance.put(rs, ids2); // an instance hit is not put again
            }
          }
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
   * An index over a subset of a group's partitions, numbered {@code 0..topicOf.length-1} in the
   * order of their global indexes, for {@link PartitionSelector} and {@link RackSwaps} to place
   * those partitions as they would in the full index (the partitions left out must be ones
   * neither reads: kept by their owner and not off its rack). Every member subscribes to the
   * topics in {@code subscription}; {@link #offset} is null (the topics' partitions are not laid
   * end to end here); the arrays are taken as they are, {@code target} starts at -1.
   *
   * @param mem the members in canonical order
   * @param tps the topics by name
   * @param topicOf the topic of each partition of the subset
   * @param owner the member whose claim on each partition wins, or -1
   * @param claimed the partitions someone claims
   * @param memberRack the rack id of each member, or -1 (ids as the full index numbers them)
   * @param rackCount how many racks members have
   * @param partitionRacks per partition the member racks holding a replica, ascending, or null
   * @param racksKnown the partitions whose replica racks are known
   */
  GroupIndex(GroupMember[] mem, AssignableTopic[] tps, int[] topicOf, BitSet subscription,
      int[] owner, BitSet claimed, int[] memberRack, int rackCount, int[][] partitionRacks,
      BitSet racksKnown) {
    this.mem = mem;
    this.tps = tps;
    this.offset = null;
    this.partitionCount = topicOf.length;
    this.topicOf = topicOf;
    topicWeight = new int[tps.length];
    for (int t = 0; t < tps.length; t++) {
      topicWeight[t] = tps[t].weight();
    }
    subscribed = new BitSet[mem.length];
    Arrays.fill(subscribed, subscription);
    this.owner = owner;
    this.claimed = claimed;
    target = new int[partitionCount];
    Arrays.fill(target, -1);
    this.memberRack = memberRack;
    this.rackCount = rackCount;
    this.partitionRacks = partitionRacks;
    this.racksKnown = racksKnown;
  }

  static final Comparator<AssignableTopic> BY_NAME = Comparator.comparing(AssignableTopic::name);

  /**
   * Sorts {@code mem} in place into {@link #CANONICAL} order and returns, for each canonical
   * index, the member's position as given.
   *
   * @throws IllegalArgumentException naming the first member id (in canonical order) that occurs twice
   */
  static int[] canonicalOrder(GroupMember[] mem) {
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
  static int[] offsets(AssignableTopic[] tps, Map<String, Integer> topicIndex) {
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
  static int[] inverse(int[] from) {
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
  static <T> int[] sortInPlace(T[] a, Comparator<? super T> order) {
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

  /** Hands one member's claims to {@link #claim}, those within the topic's range. */
  private final class ClaimSink extends ClaimReader {
    int member;
    int g2;

    ClaimSink(int[] sortedTopic, Map<String, Integer> topicIndex) {
      super(sortedTopic, topicIndex);
    }

    @Override
    void claims(int t, int[] ps, int from, int to) {
      int n = tps[t].partitions();
      for (int j = from; j < to; j++) {
        int p = ps[j];
        if (p >= 0 && p < n) {
          claim(member, t, p, g2);
        }
      }
    }
  }

  boolean hasRacks() {
    return partitionRacks != null;
  }

  /** Racks of members holding a replica of {@code gp}; null if none. */
  @Override
  public int[] racksOf(int gp) {
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
  @Override
  public boolean isRemote(int i, int gp) {
    return memberRack[i] >= 0 && racksKnown.get(gp) && !isLocal(i, gp);
  }
}
