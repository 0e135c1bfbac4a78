package io.github.routingkit.assignment;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/** Test helper: a generated group state and the checks the properties share. */
record GroupState(List<GroupMember> members, List<AssignableTopic> topics) {

  static final String[] RACKS = {"rack-a", "rack-b", "rack-c"};

  /** A random group with identical subscriptions, optional racks, weights and owned partitions. */
  static GroupState random(long seed, boolean weighted, boolean topicWeights, boolean racks,
      boolean owned) {
    Random r = new Random(seed);
    int topicCount = 1 + r.nextInt(4);
    List<AssignableTopic> topics = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (int t = 0; t < topicCount; t++) {
      int n = r.nextInt(60);
      List<Set<String>> replicaRacks = new ArrayList<>();
      if (racks) {
        for (int p = 0; p < n; p++) {
          Set<String> rs = new HashSet<>();
          int rf = 1 + r.nextInt(2);
          for (int j = 0; j < rf; j++) {
            rs.add(RACKS[r.nextInt(RACKS.length)]);
          }
          replicaRacks.add(rs);
        }
      }
      String name = "topic-" + t;
      names.add(name);
      topics.add(new AssignableTopic(name, n, replicaRacks, topicWeights ? 1 + r.nextInt(3) : 1));
    }
    int memberCount = 1 + r.nextInt(25);
    List<GroupMember> members = new ArrayList<>();
    for (int i = 0; i < memberCount; i++) {
      GroupMember m = GroupMember.of("member-" + Long.toHexString(r.nextLong()), names);
      if (weighted) {
        m = m.withWeight(1 + r.nextInt(5));
      }
      if (racks && r.nextInt(4) != 0) {
        m = m.withRack(RACKS[r.nextInt(RACKS.length)]);
      }
      if (r.nextBoolean()) {
        m = m.withGroupInstanceId("instance-" + i);
      }
      members.add(m);
    }
    if (owned) {
      // Disjoint random ownership of a random share of the partitions.
      Map<String, List<PartitionRef>> own = new HashMap<>();
      for (AssignableTopic t : topics) {
        for (int p = 0; p < t.partitions(); p++) {
          if (r.nextInt(4) != 0) {
            own.computeIfAbsent(members.get(r.nextInt(memberCount)).memberId(), k -> new ArrayList<>())
                .add(new PartitionRef(t.name(), p));
          }
        }
      }
      members.replaceAll(m -> m.withOwned(own.getOrDefault(m.memberId(), List.of()), 3));
    }
    return new GroupState(members, topics);
  }

  /** The members after this assignment took effect: each owns what it was given. */
  GroupState after(GroupAssignment a, int generation) {
    List<GroupMember> next = new ArrayList<>();
    for (GroupMember m : members) {
      next.add(m.withOwned(a.partitionsOf(m.memberId()), generation));
    }
    return new GroupState(next, topics);
  }

  GroupAssignment assign(RebalanceMode mode) {
    return AssignmentPolicy.assign(members, topics, mode);
  }

  long totalLoad() {
    return topics.stream().mapToLong(t -> (long) t.partitions() * t.weight()).sum();
  }

  long totalWeight() {
    return members.stream().mapToLong(GroupMember::weight).sum();
  }

  int topicWeight(String topic) {
    return topics.stream().filter(t -> t.name().equals(topic)).findFirst().orElseThrow().weight();
  }

  long load(List<PartitionRef> ps) {
    return ps.stream().mapToLong(p -> topicWeight(p.topic())).sum();
  }

  /** Partitions whose owner changed: owned before by one member, now given to another. */
  static int moved(GroupState before, GroupAssignment after) {
    Map<PartitionRef, String> now = new HashMap<>();
    after.byMember().forEach((m, ps) -> ps.forEach(p -> now.put(p, m)));
    int moved = 0;
    for (GroupMember m : before.members()) {
      for (PartitionRef p : m.ownedPartitions()) {
        if (!m.memberId().equals(now.get(p))) {
          moved++;
        }
      }
    }
    return moved;
  }

  /**
   * The fewest partitions any assignment must take from their owners when every member's count is
   * the floor or ceiling of its share (unit topic weights, disjoint ownership): computed here
   * independently of the policy.
   */
  long minimalMoves() {
    long l = totalLoad();
    long w = totalWeight();
    long sumFloor = 0;
    long excess = 0;
    int canKeepOneMore = 0;
    for (GroupMember m : members) {
      long num = l * m.weight();
      long floor = num / w;
      sumFloor += floor;
      long owned = m.ownedPartitions().size();
      excess += Math.max(0, owned - floor);
      if (num % w != 0 && owned > floor) {
        canKeepOneMore++;
      }
    }
    return excess - Math.min(l - sumFloor, canKeepOneMore);
  }
}
