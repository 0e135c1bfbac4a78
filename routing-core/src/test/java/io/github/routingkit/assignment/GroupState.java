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
    return random(seed, weighted, topicWeights, racks, owned, false);
  }

  /** As above; with {@code mixed}, each member subscribes to a random non-empty subset of the topics. */
  static GroupState random(long seed, boolean weighted, boolean topicWeights, boolean racks,
      boolean owned, boolean mixed) {
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
      Set<String> subs = names;
      if (mixed) {
        List<String> all = new ArrayList<>(new java.util.TreeSet<>(names));
        Set<String> pick = new HashSet<>();
        for (String n : all) {
          if (r.nextInt(3) != 0) {
            pick.add(n);
          }
        }
        if (pick.isEmpty()) {
          pick.add(all.get(r.nextInt(all.size())));
        }
        subs = pick;
      }
      GroupMember m = GroupMember.of("member-" + Long.toHexString(r.nextLong()), subs);
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
  GroupState after(RebalanceResult a, int generation) {
    List<GroupMember> next = new ArrayList<>();
    for (GroupMember m : members) {
      next.add(m.withOwned(a.partitionsOf(m.memberId()), generation));
    }
    return new GroupState(next, topics);
  }

  RebalanceResult assign(RebalanceMode mode) {
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
  static int moved(GroupState before, RebalanceResult after) {
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
    // Quotas floor(L*w/W) or one more; the "one more" goes to the candidates (a remainder) of
    // smallest (2*floor + 1) / w, the quotas Kafka's criterion with weights asks for (they
    // minimise sum(q^2 / w)); among candidates tied at the boundary, owners of more than their
    // floor first. Each owner of more than its quota moves the rest.
    long l = totalLoad();
    long w = totalWeight();
    int n = members.size();
    long[] floor = new long[n];
    long[] owned = new long[n];
    long sumFloor = 0;
    long excess = 0;
    List<Integer> candidates = new ArrayList<>();
    for (int k = 0; k < n; k++) {
      GroupMember m = members.get(k);
      long num = l * m.weight();
      floor[k] = num / w;
      sumFloor += floor[k];
      owned[k] = m.ownedPartitions().size();
      excess += Math.max(0, owned[k] - floor[k]);
      if (num % w != 0) {
        candidates.add(k);
      }
    }
    int extra = (int) (l - sumFloor);
    if (extra == 0) {
      return excess;
    }
    java.util.Comparator<Integer> byV = (a, b) -> Long.compare(
        (2 * floor[a] + 1) * members.get(b).weight(), (2 * floor[b] + 1) * members.get(a).weight());
    candidates.sort(byV.thenComparing(k -> owned[k] > floor[k] ? 0 : 1));
    long saved = 0;
    for (int j = 0; j < extra; j++) {
      int k = candidates.get(j);
      saved += owned[k] > floor[k] ? 1 : 0;
    }
    return excess - saved;
  }

  /** Every partition of a subscribed topic exactly once, and only to a subscriber of its topic. */
  void assertValid(RebalanceResult a) {
    Map<String, Integer> seen = new HashMap<>();
    Set<String> subscribedTopics = new HashSet<>();
    members.forEach(m -> subscribedTopics.addAll(m.topics()));
    for (GroupMember m : members) {
      for (PartitionRef p : a.partitionsOf(m.memberId())) {
        if (!m.topics().contains(p.topic())) {
          throw new AssertionError(p + " given to " + m.memberId() + ", not a subscriber");
        }
        if (seen.merge(p.toString(), 1, Integer::sum) > 1) {
          throw new AssertionError(p + " given twice");
        }
      }
    }
    long expected = topics.stream().filter(t -> subscribedTopics.contains(t.name()))
        .mapToLong(AssignableTopic::partitions).sum();
    if (seen.size() + a.pendingRevocation().size() != expected) {
      throw new AssertionError(seen.size() + " partitions assigned, " + expected + " expected");
    }
  }

  /**
   * Kafka's balance criterion: no member i could take a partition of a topic it subscribes to
   * (load c) from a member j holding at least two more, {@code L_j - L_i > c}. With different
   * member weights: no such move would leave i still below j per weight,
   * {@code (L_i + c) / w_i < (L_j - c) / w_j}.
   */
  void assertBalanced(RebalanceResult a) {
    Map<String, Long> load = new HashMap<>();
    for (GroupMember m : members) {
      load.put(m.memberId(), load(a.partitionsOf(m.memberId())));
    }
    for (GroupMember j : members) {
      for (PartitionRef p : a.partitionsOf(j.memberId())) {
        long c = topicWeight(p.topic());
        for (GroupMember i : members) {
          long li = load.get(i.memberId());
          long lj = load.get(j.memberId());
          boolean canTake = i.weight() == j.weight() ? lj - li > c
              : (li + c) * j.weight() < (lj - c) * i.weight();
          if (i != j && i.topics().contains(p.topic()) && canTake) {
            throw new AssertionError(i.memberId() + " (load " + li + ", weight " + i.weight()
                + ") could take " + p + " from " + j.memberId() + " (load " + lj + ", weight "
                + j.weight() + "): " + this);
          }
        }
      }
    }
  }

  /** Owned partitions that were off their owner's rack and are now on their new owner's rack. */
  long realigned(RebalanceResult a) {
    Map<PartitionRef, GroupMember> now = new HashMap<>();
    for (GroupMember m : members) {
      a.partitionsOf(m.memberId()).forEach(p -> now.put(p, m));
    }
    long n = 0;
    for (GroupMember m : members) {
      for (PartitionRef p : m.ownedPartitions()) {
        GroupMember to = now.get(p);
        if (to != null && to != m && racks(p).size() > 0 && m.rackId() != null
            && !racks(p).contains(m.rackId()) && to.rackId() != null && racks(p).contains(to.rackId())) {
          n++;
        }
      }
    }
    return n;
  }

  Set<String> racks(PartitionRef p) {
    return topics.stream().filter(t -> t.name().equals(p.topic())).findFirst().orElseThrow()
        .racksOf(p.partition());
  }

  /** Owned partitions that were off their owner's rack and changed owner. */
  long movedOffRack(RebalanceResult a) {
    long n = 0;
    for (GroupMember m : members) {
      Set<PartitionRef> now = new HashSet<>(a.partitionsOf(m.memberId()));
      for (PartitionRef p : m.ownedPartitions()) {
        if (!now.contains(p) && m.rackId() != null && !racks(p).isEmpty()
            && !racks(p).contains(m.rackId())) {
          n++;
        }
      }
    }
    return n;
  }
}
