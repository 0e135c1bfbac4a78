package io.github.routingkit.assignment;

import java.util.Arrays;
import java.util.BitSet;
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

  /** The index of the whole group, with every member's claims resolved. */
  GroupIndex(SortedGroup group) {
    mem = group.members;
    tps = group.topics;
    offset = group.offset;
    partitionCount = group.partitionCount;
    int tc = tps.length;
    topicWeight = new int[tc];
    topicOf = new int[partitionCount];
    for (int t = 0; t < tc; t++) {
      topicWeight[t] = tps[t].weight();
      Arrays.fill(topicOf, offset[t], offset[t + 1], t);
    }
    subscribed = subscriptions(group);
    owner = new int[partitionCount];
    Arrays.fill(owner, -1);
    claimed = new BitSet(partitionCount);
    target = new int[partitionCount];
    Arrays.fill(target, -1);
    resolveClaims(group);
    RackIds racks = new RackIds(mem);
    memberRack = racks.memberRack;
    rackCount = racks.count;
    racksKnown = new BitSet(partitionCount);
    partitionRacks = rackCount == 0 ? null : replicaRacks(racks);
  }

  /**
   * Each member's subscription as a bit set of topic indexes. Members usually share one topic set
   * instance (the adapters intern them): one BitSet per instance, read-only afterwards.
   */
  private BitSet[] subscriptions(SortedGroup group) {
    BitSet[] out = new BitSet[mem.length];
    Map<Set<String>, BitSet> bySet = new IdentityHashMap<>();
    for (int i = 0; i < mem.length; i++) {
      out[i] = bySet.computeIfAbsent(mem[i].topics(), names -> {
        BitSet b = new BitSet(tps.length);
        for (String name : names) {
          Integer t = group.topicIndex.get(name);
          if (t != null) {
            b.set(t);
          }
        }
        return b;
      });
    }
    return out;
  }

  /** Reads every member's claims into {@link #owner} and {@link #claimed} (see {@link #claim}). */
  private void resolveClaims(SortedGroup group) {
    ownerGen = new int[partitionCount];
    ClaimSink claims = new ClaimSink(group);
    for (int i = 0; i < mem.length; i++) {
      // ownerGen holds generation + 2 (clamped), so 0 means unclaimed.
      int gen = mem[i].generation();
      claims.member = i;
      claims.g2 = gen < -1 ? 1 : gen > Integer.MAX_VALUE - 2 ? Integer.MAX_VALUE : gen + 2;
      group.readClaims(i, claims);
    }
    ownerGen = null;
  }

  /**
   * Per partition the member racks holding a replica (shared arrays, one per distinct rack set),
   * or null where none does; marks in {@link #racksKnown} the partitions whose racks are known.
   */
  private int[][] replicaRacks(RackIds racks) {
    int[][] pr = new int[partitionCount][];
    for (int t = 0; t < tps.length; t++) {
      if (tps[t].replicaRacks().isEmpty()) {
        continue;
      }
      for (int p = 0; p < tps[t].partitions(); p++) {
        int[] ids = racks.idsOf(tps[t].racksOf(p));
        if (ids != null) {
          racksKnown.set(offset[t] + p);
          pr[offset[t] + p] = ids.length == 0 ? null : ids;
        }
      }
    }
    return pr;
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

    ClaimSink(SortedGroup group) {
      super(group);
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
