package io.github.routingkit.assignment;

import io.github.routingkit.property.Gen;
import io.github.routingkit.property.Property;
import io.github.routingkit.property.RoutingGen;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

class AssignmentPolicyProperties {

  @Test
  void sameAssignmentForAnyMemberAndTopicOrder() {
    Property.check(300, Gen.longs(), Gen.longs(), Gen.booleans(), (seed, shuffleSeed, cooperative) -> {
      GroupState g = GroupState.random(seed, true, true, true, true);
      RebalanceMode mode = cooperative ? RebalanceMode.COOPERATIVE : RebalanceMode.EAGER;
      List<GroupMember> members = new ArrayList<>(g.members());
      List<AssignableTopic> topics = new ArrayList<>(g.topics());
      Collections.shuffle(members, new Random(shuffleSeed));
      Collections.shuffle(topics, new Random(shuffleSeed + 1));
      assertThat(AssignmentPolicy.assign(members, topics, mode)).isEqualTo(g.assign(mode));
    });
  }

  @Test
  void everyPartitionExactlyOnceAndBalancedAtEqualWeights() {
    Property.check(300, Gen.longs(), Gen.booleans(), Gen.booleans(), (seed, racks, owned) -> {
      GroupState g = GroupState.random(seed, false, false, racks, owned);
      GroupAssignment a = g.assign(RebalanceMode.EAGER);
      List<PartitionRef> all = a.byMember().values().stream().flatMap(List::stream).toList();
      assertThat(all).doesNotHaveDuplicates().hasSize((int) g.totalLoad());
      assertThat(a.pendingRevocation()).isEmpty();
      int max = a.byMember().values().stream().mapToInt(List::size).max().orElse(0);
      int min = a.byMember().values().stream().mapToInt(List::size).min().orElse(0);
      assertThat(max - min).isLessThanOrEqualTo(1);
    });
  }

  @Test
  void eachMemberWithinOneOfItsWeightedShare() {
    Property.check(300, Gen.longs(), Gen.booleans(), (seed, owned) -> {
      GroupState g = GroupState.random(seed, true, false, true, owned);
      GroupAssignment a = g.assign(RebalanceMode.EAGER);
      for (GroupMember m : g.members()) {
        double share = (double) g.totalLoad() * m.weight() / g.totalWeight();
        assertThat((double) a.partitionsOf(m.memberId()).size()).isCloseTo(share,
            org.assertj.core.data.Offset.offset(0.999_999));
      }
    });
  }

  @Test
  void topicWeightedLoadWithinTheLargestTopicWeightOfTheShare() {
    Property.check(200, Gen.longs(), seed -> {
      GroupState g = GroupState.random(seed, true, true, false, true);
      GroupAssignment a = g.assign(RebalanceMode.EAGER);
      int maxTopicWeight = g.topics().stream().mapToInt(AssignableTopic::weight).max().orElse(1);
      for (GroupMember m : g.members()) {
        double share = (double) g.totalLoad() * m.weight() / g.totalWeight();
        assertThat(Math.abs(g.load(a.partitionsOf(m.memberId())) - share)).isLessThan(maxTopicWeight);
      }
    });
  }

  @Test
  void movesOnlyTheMinimumNeededForBalance() {
    Property.check(300, Gen.longs(), Gen.booleans(), (seed, weighted) -> {
      GroupState g = GroupState.random(seed, weighted, false, true, true);
      GroupAssignment a = g.assign(RebalanceMode.EAGER);
      assertThat((long) GroupState.moved(g, a)).isEqualTo(g.minimalMoves());
    });
  }

  /** Members join and leave one at a time; every step moves only the minimum. */
  @Test
  void stickyAcrossSequencesOfRebalances() {
    Property.check(100, Gen.longs(), seed -> {
      Random r = new Random(seed);
      GroupState g = GroupState.random(seed, r.nextBoolean(), false, true, false);
      g = g.after(g.assign(RebalanceMode.EAGER), 1);
      Set<String> names = new HashSet<>();
      g.topics().forEach(t -> names.add(t.name()));
      for (int step = 2; step < 12; step++) {
        List<GroupMember> members = new ArrayList<>(g.members());
        if (members.size() > 1 && r.nextBoolean()) {
          members.remove(r.nextInt(members.size()));
        } else {
          members.add(GroupMember.of("joiner-" + step, names).withWeight(1 + r.nextInt(3)));
        }
        GroupState before = new GroupState(members, g.topics());
        GroupAssignment a = before.assign(RebalanceMode.EAGER);
        assertThat((long) GroupState.moved(before, a)).isEqualTo(before.minimalMoves());
        g = before.after(a, step);
      }
    });
  }

  /**
   * Cooperative mode never gives a partition to a member while another member still claims it, and
   * reaches the balanced assignment in the follow-up rebalance, where it stays.
   */
  @Test
  void cooperativeNeverTransfersAnOwnedPartitionAndConverges() {
    Property.check(300, Gen.longs(), seed -> {
      GroupState g = GroupState.random(seed, true, false, true, true);
      // Add some conflicting claims: a second member also claims partitions, some at an older generation.
      Random r = new Random(seed ^ 0x5DEECE66DL);
      List<GroupMember> members = new ArrayList<>(g.members());
      GroupMember extra = members.get(r.nextInt(members.size()));
      List<PartitionRef> stolen = new ArrayList<>(extra.ownedPartitions());
      for (GroupMember m : members) {
        if (r.nextInt(3) == 0 && !m.ownedPartitions().isEmpty()) {
          stolen.add(m.ownedPartitions().get(0));
        }
      }
      members.replaceAll(m -> m == extra ? m.withOwned(stolen, r.nextInt(5)) : m);
      g = new GroupState(members, g.topics());

      GroupState state = g;
      for (int round = 1; round <= 3; round++) {
        GroupAssignment a = state.assign(RebalanceMode.COOPERATIVE);
        assertCooperativeSafe(state, a);
        if (round >= 2) {
          assertThat(a.pendingRevocation()).as("round %s", round).isEmpty();
          assertThat(a).isEqualTo(state.assign(RebalanceMode.EAGER));
        }
        state = state.after(a, 10 + round);
      }
    });
  }

  /** Kafka's own rule (ConsumerCoordinator): no partition is both revoked from one member and added to another. */
  static void assertCooperativeSafe(GroupState before, GroupAssignment a) {
    Set<PartitionRef> revoked = new HashSet<>();
    Set<PartitionRef> added = new HashSet<>();
    for (GroupMember m : before.members()) {
      List<PartitionRef> now = a.partitionsOf(m.memberId());
      for (PartitionRef p : m.ownedPartitions()) {
        if (!now.contains(p)) {
          revoked.add(p);
        }
      }
      for (PartitionRef p : now) {
        if (!m.ownedPartitions().contains(p)) {
          added.add(p);
        }
      }
    }
    added.retainAll(revoked);
    assertThat(added).as("partitions handed to a new owner while still owned").isEmpty();
    Map<PartitionRef, String> claimedBy = new HashMap<>();
    for (GroupMember m : before.members()) {
      m.ownedPartitions().forEach(p -> claimedBy.put(p, m.memberId()));
    }
    for (Map.Entry<String, List<PartitionRef>> e : a.byMember().entrySet()) {
      for (PartitionRef p : e.getValue()) {
        if (claimedBy.containsKey(p)) {
          GroupMember m = before.members().stream()
              .filter(x -> x.memberId().equals(e.getKey())).findFirst().orElseThrow();
          assertThat(m.ownedPartitions()).as("%s given to %s, claimed by others", p, e.getKey())
              .contains(p);
        }
      }
    }
  }

  /** A static member that restarts (new member id, nothing owned) gets exactly its partitions back. */
  @Test
  void staticMemberGetsItsPartitionsBack() {
    Property.check(200, Gen.longs(), Gen.booleans(), (seed, cooperative) -> {
      GroupState g = GroupState.random(seed, true, false, true, false);
      g = g.after(g.assign(RebalanceMode.EAGER), 1);
      List<GroupMember> statics = g.members().stream().filter(m -> m.groupInstanceId() != null).toList();
      if (statics.isEmpty()) {
        return;
      }
      GroupMember old = statics.get(new Random(seed).nextInt(statics.size()));
      List<GroupMember> members = new ArrayList<>(g.members());
      members.replaceAll(m -> m == old
          ? new GroupMember("restarted-" + old.memberId(), old.groupInstanceId(), old.rackId(),
              old.weight(), old.topics(), List.of(), GroupMember.UNKNOWN_GENERATION)
          : m);
      GroupAssignment a = AssignmentPolicy.assign(members, g.topics(),
          cooperative ? RebalanceMode.COOPERATIVE : RebalanceMode.EAGER);
      assertThat(a.partitionsOf("restarted-" + old.memberId())).isEqualTo(old.ownedPartitions());
    });
  }

  /**
   * With members spread evenly over racks and every rack hosting an equal share of partitions (one
   * replica each), a fresh assignment is both perfectly balanced and entirely rack-local.
   */
  @Test
  void rackLocalWhenBalanceAllows() {
    Property.check(200, Gen.longs(), seed -> {
      Random r = new Random(seed);
      int racks = 1 + r.nextInt(3);
      int perRack = 1 + r.nextInt(5);
      int perMember = r.nextInt(6);
      int partitions = racks * perRack * perMember;
      List<Set<String>> replicaRacks = new ArrayList<>();
      for (int p = 0; p < partitions; p++) {
        replicaRacks.add(Set.of(GroupState.RACKS[(p * 7 + (int) (seed & 3)) % racks]));
      }
      // Partition p's rack cycles with period `racks` (7 is coprime to 1..3), so racks are equal.
      AssignableTopic t = new AssignableTopic("t", partitions, replicaRacks, 1);
      List<GroupMember> members = new ArrayList<>();
      for (int i = 0; i < racks * perRack; i++) {
        members.add(GroupMember.of("m" + r.nextInt(1_000_000) + "-" + i, Set.of("t"))
            .withRack(GroupState.RACKS[i % racks]));
      }
      GroupAssignment a = AssignmentPolicy.assign(members, List.of(t), RebalanceMode.EAGER);
      for (GroupMember m : members) {
        List<PartitionRef> ps = a.partitionsOf(m.memberId());
        assertThat(ps).hasSize(perMember);
        assertThat(ps).allSatisfy(p -> assertThat(replicaRacks.get(p.partition())).contains(m.rackId()));
      }
    });
  }
}
