package io.github.routingkit.assignment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.LongConsumer;
import org.junit.jupiter.api.Test;

/**
 * Properties of {@link AssignmentPolicy} over seeded random groups (JUnit, no property framework):
 * each check runs over a fixed range of seeds, and a failure names the seed and the group.
 */
class AssignmentPolicyProperties {

  /** Runs {@code check} for seeds {@code 0..tries-1}; a failure reports its seed. */
  static void forSeeds(int tries, LongConsumer check) {
    for (long seed = 0; seed < tries; seed++) {
      try {
        check.accept(seed);
      } catch (AssertionError e) {
        throw new AssertionError("seed " + seed + ": " + e.getMessage(), e);
      }
    }
  }

  @Test
  void sameAssignmentForAnyMemberAndTopicOrder() {
    forSeeds(300, seed -> {
      Random r = new Random(seed);
      GroupState g = GroupState.random(seed, true, r.nextBoolean(), true, true, r.nextBoolean());
      RebalanceMode mode = r.nextBoolean() ? RebalanceMode.COOPERATIVE : RebalanceMode.EAGER;
      List<GroupMember> members = new ArrayList<>(g.members());
      List<AssignableTopic> topics = new ArrayList<>(g.topics());
      Collections.shuffle(members, r);
      Collections.shuffle(topics, r);
      assertThat(AssignmentPolicy.assign(members, topics, mode)).isEqualTo(g.assign(mode));
    });
  }

  @Test
  void everyPartitionExactlyOnceAndBalancedAtEqualWeights() {
    forSeeds(300, seed -> {
      GroupState g = GroupState.random(seed, false, false, seed % 2 == 0, seed % 3 != 0);
      RebalanceResult a = g.assign(RebalanceMode.EAGER);
      List<PartitionRef> all = a.byMember().values().stream().flatMap(List::stream).toList();
      assertThat(all).doesNotHaveDuplicates().hasSize((int) g.totalLoad());
      assertThat(a.pendingRevocation()).isEmpty();
      int max = a.byMember().values().stream().mapToInt(List::size).max().orElse(0);
      int min = a.byMember().values().stream().mapToInt(List::size).min().orElse(0);
      assertThat(max - min).isLessThanOrEqualTo(1);
    });
  }

  /** Any subscription pattern: valid, and balanced by Kafka's criterion (weighted form). */
  @Test
  void mixedSubscriptionsValidAndBalancedByKafkasCriterion() {
    forSeeds(600, seed -> {
      Random r = new Random(seed);
      GroupState g = GroupState.random(seed, r.nextBoolean(), r.nextInt(4) == 0, r.nextBoolean(),
          r.nextBoolean(), true);
      RebalanceResult a = g.assign(RebalanceMode.EAGER);
      g.assertValid(a);
      g.assertBalanced(a);
    });
  }

  @Test
  void eachMemberWithinOneOfItsWeightedShare() {
    forSeeds(300, seed -> {
      GroupState g = GroupState.random(seed, true, false, true, seed % 2 == 0);
      RebalanceResult a = g.assign(RebalanceMode.EAGER);
      for (GroupMember m : g.members()) {
        double share = (double) g.totalLoad() * m.weight() / g.totalWeight();
        assertThat((double) a.partitionsOf(m.memberId()).size()).isCloseTo(share,
            org.assertj.core.data.Offset.offset(0.999_999));
      }
    });
  }

  @Test
  void topicWeightedLoadWithinTheLargestTopicWeightOfTheShare() {
    forSeeds(200, seed -> {
      GroupState g = GroupState.random(seed, true, true, false, true);
      RebalanceResult a = g.assign(RebalanceMode.EAGER);
      int maxTopicWeight = g.topics().stream().mapToInt(AssignableTopic::weight).max().orElse(1);
      for (GroupMember m : g.members()) {
        double share = (double) g.totalLoad() * m.weight() / g.totalWeight();
        assertThat(Math.abs(g.load(a.partitionsOf(m.memberId())) - share)).isLessThan(maxTopicWeight);
      }
    });
  }

  @Test
  void movesOnlyTheMinimumNeededForBalance() {
    forSeeds(300, seed -> {
      GroupState g = GroupState.random(seed, seed % 2 == 0, false, false, true);
      RebalanceResult a = g.assign(RebalanceMode.EAGER);
      assertThat((long) GroupState.moved(g, a)).isEqualTo(g.minimalMoves());
    });
  }

  /**
   * With racks, every move beyond the minimum takes a partition off the rack of its old owner
   * (re-alignment, or room its owner gave to a partition of its own rack), and the result has no
   * fewer rack-local partitions than keeping every owned partition would have.
   */
  @Test
  void movesBeyondTheMinimumOnlyTakeOffRackPartitions() {
    forSeeds(300, seed -> {
      GroupState g = GroupState.random(seed, seed % 2 == 0, false, true, true);
      RebalanceResult a = g.assign(RebalanceMode.EAGER);
      long moved = GroupState.moved(g, a);
      assertThat(moved).isGreaterThanOrEqualTo(g.minimalMoves());
      assertThat(moved - g.minimalMoves()).isLessThanOrEqualTo(g.movedOffRack(a));
    });
  }

  /** Members join and leave one at a time; every step moves only the minimum. */
  @Test
  void stickyAcrossSequencesOfRebalances() {
    forSeeds(100, seed -> {
      Random r = new Random(seed);
      GroupState g = GroupState.random(seed, r.nextBoolean(), false, false, false);
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
        RebalanceResult a = before.assign(RebalanceMode.EAGER);
        assertThat((long) GroupState.moved(before, a)).as("step %s", step)
            .isEqualTo(before.minimalMoves());
        g = before.after(a, step);
      }
    });
  }

  /** Assigning the group its own result changes nothing, for any subscription pattern and racks. */
  @Test
  void theResultIsAFixpoint() {
    forSeeds(400, seed -> {
      Random r = new Random(seed);
      GroupState g = GroupState.random(seed, r.nextBoolean(), r.nextInt(4) == 0, r.nextBoolean(),
          r.nextBoolean(), r.nextBoolean());
      RebalanceResult a = g.assign(RebalanceMode.EAGER);
      GroupState next = g.after(a, 7);
      RebalanceResult again = next.assign(RebalanceMode.COOPERATIVE);
      assertThat(again.pendingRevocation()).isEmpty();
      assertThat(again.byMember()).isEqualTo(a.byMember());
    });
  }

  /**
   * Cooperative mode never gives a partition to a member while another member still claims it, and
   * reaches the balanced assignment in the follow-up rebalance, where it stays.
   */
  @Test
  void cooperativeNeverTransfersAnOwnedPartitionAndConverges() {
    forSeeds(300, seed -> {
      Random r = new Random(seed ^ 0x5DEECE66DL);
      GroupState g = GroupState.random(seed, true, false, seed % 3 != 0, true, r.nextBoolean());
      // Conflicting claims: one member also claims others' partitions, at a random generation.
      List<GroupMember> members = new ArrayList<>(g.members());
      GroupMember extra = members.get(r.nextInt(members.size()));
      List<PartitionRef> stolen = new ArrayList<>(extra.ownedPartitions());
      for (GroupMember m : members) {
        if (r.nextInt(3) == 0 && !m.ownedPartitions().isEmpty()) {
          stolen.add(m.ownedPartitions().get(0));
        }
      }
      members.replaceAll(m -> m == extra ? m.withOwned(stolen, r.nextInt(5)) : m);
      GroupState state = new GroupState(members, g.topics());
      // Without racks the follow-up rebalance ends it; with racks a re-alignment that the
      // first round's hand-overs make possible may take one more.
      boolean racks = state.members().stream().anyMatch(m -> m.rackId() != null);
      int settled = racks ? 3 : 2;
      for (int round = 1; round <= settled + 1; round++) {
        RebalanceResult a = state.assign(RebalanceMode.COOPERATIVE);
        assertCooperativeSafe(state, a);
        if (round >= settled) {
          assertThat(a.pendingRevocation()).as("round %s", round).isEmpty();
          assertThat(a).isEqualTo(state.assign(RebalanceMode.EAGER));
        }
        state = state.after(a, 10 + round);
      }
    });
  }

  /** Kafka's own rule (ConsumerCoordinator): no partition is both revoked from one member and added to another. */
  static void assertCooperativeSafe(GroupState before, RebalanceResult a) {
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
    forSeeds(200, seed -> {
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
      RebalanceResult a = AssignmentPolicy.assign(members, g.topics(),
          seed % 2 == 0 ? RebalanceMode.COOPERATIVE : RebalanceMode.EAGER);
      assertThat(a.partitionsOf("restarted-" + old.memberId())).isEqualTo(old.ownedPartitions());
    });
  }

  /** Fresh, equal subscriptions, no racks, equal weights: each member within one of P_t/M of each topic. */
  @Test
  void freshAssignmentsSpreadEachTopic() {
    forSeeds(300, seed -> {
      GroupState g = GroupState.random(seed, false, false, false, false);
      RebalanceResult a = g.assign(RebalanceMode.EAGER);
      int members = g.members().size();
      for (AssignableTopic t : g.topics()) {
        for (GroupMember m : g.members()) {
          long count = a.partitionsOf(m.memberId()).stream().filter(p -> p.topic().equals(t.name())).count();
          assertThat((double) count).as("%s of %s", m.memberId(), t.name())
              .isCloseTo((double) t.partitions() / members, org.assertj.core.data.Offset.offset(0.999_999));
        }
      }
    });
  }

  /**
   * With members spread evenly over racks and every rack hosting an equal share of partitions (one
   * replica each), a fresh assignment is both perfectly balanced and entirely rack-local.
   */
  @Test
  void rackLocalWhenBalanceAllows() {
    forSeeds(200, seed -> {
      Random r = new Random(seed);
      int racks = 1 + r.nextInt(3);
      int perRack = 1 + r.nextInt(5);
      int perMember = r.nextInt(6);
      int partitions = racks * perRack * perMember;
      List<Set<String>> replicaRacks = new ArrayList<>();
      for (int p = 0; p < partitions; p++) {
        replicaRacks.add(Set.of(GroupState.RACKS[(p * 7 + (int) (seed & 3)) % racks]));
      }
      AssignableTopic t = new AssignableTopic("t", partitions, replicaRacks, 1);
      List<GroupMember> members = new ArrayList<>();
      for (int i = 0; i < racks * perRack; i++) {
        members.add(GroupMember.of("m" + r.nextInt(1_000_000) + "-" + i, Set.of("t"))
            .withRack(GroupState.RACKS[i % racks]));
      }
      RebalanceResult a = AssignmentPolicy.assign(members, List.of(t), RebalanceMode.EAGER);
      for (GroupMember m : members) {
        List<PartitionRef> ps = a.partitionsOf(m.memberId());
        assertThat(ps).hasSize(perMember);
        assertThat(ps).allSatisfy(p -> assertThat(replicaRacks.get(p.partition())).contains(m.rackId()));
      }
    });
  }
}
