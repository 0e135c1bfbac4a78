package io.github.routingkit.assignment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class AssignmentPolicyTest {

  @Test
  void higherGenerationWinsAConflictingClaim() {
    PartitionRef p0 = new PartitionRef("t", 0);
    PartitionRef p1 = new PartitionRef("t", 1);
    GroupMember a = GroupMember.of("a", Set.of("t")).withOwned(List.of(p0), 4);
    GroupMember b = GroupMember.of("b", Set.of("t")).withOwned(List.of(p0, p1), 5);
    RebalanceResult g = AssignmentPolicy.assign(List.of(a, b), List.of(AssignableTopic.of("t", 2)),
        RebalanceMode.COOPERATIVE);
    // b wins p0 (generation 5) but may keep only one partition: it keeps p0 (partition order),
    // p1 must go to a, and b still owns it, so it waits for the revocation.
    assertThat(g.partitionsOf("b")).containsExactly(p0);
    assertThat(g.partitionsOf("a")).isEmpty();
    assertThat(g.pendingRevocation()).containsExactly(p1);
    RebalanceResult eager = AssignmentPolicy.assign(List.of(a, b), List.of(AssignableTopic.of("t", 2)),
        RebalanceMode.EAGER);
    assertThat(eager.partitionsOf("a")).containsExactly(p1);
  }

  @Test
  void partitionsOwnedForAnUnsubscribedTopicWaitForRevocationInCooperativeMode() {
    PartitionRef x0 = new PartitionRef("x", 0);
    GroupMember a = GroupMember.of("a", Set.of("t")).withOwned(List.of(x0), 1);
    GroupMember b = GroupMember.of("b", Set.of("x"));
    List<AssignableTopic> topics = List.of(AssignableTopic.of("t", 1), AssignableTopic.of("x", 1));
    assertThat(AssignmentPolicy.assign(List.of(a, b), topics, RebalanceMode.COOPERATIVE)
        .pendingRevocation()).containsExactly(x0);
    assertThat(AssignmentPolicy.assign(List.of(a, b), topics, RebalanceMode.EAGER)
        .partitionsOf("b")).containsExactly(x0);
  }

  @Test
  void unknownTopicsAndOutOfRangeClaimsAreIgnored() {
    GroupMember a = GroupMember.of("a", Set.of("t", "gone"))
        .withOwned(List.of(new PartitionRef("gone", 0), new PartitionRef("t", 9)), 1);
    RebalanceResult g = AssignmentPolicy.assign(List.of(a), List.of(AssignableTopic.of("t", 2)),
        RebalanceMode.COOPERATIVE);
    assertThat(g.partitionsOf("a")).containsExactly(new PartitionRef("t", 0), new PartitionRef("t", 1));
  }

  @Test
  void disjointSubscriptionsAreBalancedSeparately() {
    GroupMember a = GroupMember.of("a", Set.of("t"));
    GroupMember b = GroupMember.of("b", Set.of("t"));
    GroupMember c = GroupMember.of("c", Set.of("u"));
    RebalanceResult g = AssignmentPolicy.assign(List.of(a, b, c),
        List.of(AssignableTopic.of("t", 4), AssignableTopic.of("u", 3)), RebalanceMode.EAGER);
    assertThat(g.partitionsOf("a")).hasSize(2);
    assertThat(g.partitionsOf("b")).hasSize(2);
    assertThat(g.partitionsOf("c")).hasSize(3);
  }

  @Test
  void overlappingSubscriptionsAreBalancedAcrossTheSharedTopic() {
    GroupMember a = GroupMember.of("a", Set.of("t"));
    GroupMember b = GroupMember.of("b", Set.of("t", "u"));
    RebalanceResult g = AssignmentPolicy.assign(List.of(a, b),
        List.of(AssignableTopic.of("t", 4), AssignableTopic.of("u", 2)), RebalanceMode.EAGER);
    assertThat(g.partitionsOf("a")).hasSize(3).allMatch(p -> p.topic().equals("t"));
    assertThat(g.partitionsOf("b")).hasSize(3);
  }

  /** Kafka's double-claim case: two claims of one generation cancel, so only the contested partition moves. */
  @Test
  void sameGenerationDoubleClaimMovesOnlyTheContestedPartition() {
    PartitionRef t0 = new PartitionRef("t", 0);
    PartitionRef t1 = new PartitionRef("t", 1);
    PartitionRef t2 = new PartitionRef("t", 2);
    GroupMember c1 = GroupMember.of("c1", Set.of("t")).withOwned(List.of(t0, t1), 5);
    GroupMember c2 = GroupMember.of("c2", Set.of("t")).withOwned(List.of(t0, t2), 5);
    GroupMember c3 = GroupMember.of("c3", Set.of("t"));
    List<AssignableTopic> topics = List.of(AssignableTopic.of("t", 3));
    RebalanceResult eager = AssignmentPolicy.assign(List.of(c1, c2, c3), topics, RebalanceMode.EAGER);
    assertThat(eager.partitionsOf("c1")).containsExactly(t1);
    assertThat(eager.partitionsOf("c2")).containsExactly(t2);
    assertThat(eager.partitionsOf("c3")).containsExactly(t0);
    RebalanceResult coop = AssignmentPolicy.assign(List.of(c1, c2, c3), topics, RebalanceMode.COOPERATIVE);
    assertThat(coop.pendingRevocation()).containsExactly(t0);
  }

  /** Kafka's F2 case: non-equal subscriptions end balanced 2/3/2/2 by Kafka's criterion. */
  @Test
  void nonEqualSubscriptionsBalanced() {
    List<AssignableTopic> topics = List.of(AssignableTopic.of("t0", 1), AssignableTopic.of("t1", 3),
        AssignableTopic.of("t2", 2), AssignableTopic.of("t3", 3));
    List<GroupMember> members = List.of(GroupMember.of("c0", Set.of("t0", "t1", "t2", "t3")),
        GroupMember.of("c1", Set.of("t1", "t3")), GroupMember.of("c2", Set.of("t2")),
        GroupMember.of("c3", Set.of("t1")));
    RebalanceResult a = AssignmentPolicy.assign(members, topics, RebalanceMode.EAGER);
    assertThat(a.countOf("c0")).isEqualTo(2);
    assertThat(a.countOf("c1")).isEqualTo(3);
    assertThat(a.countOf("c2")).isEqualTo(2);
    assertThat(a.countOf("c3")).isEqualTo(2);
  }

  /** Kafka's F4 case: owned partitions off their owner's rack swap to the rack that holds them. */
  @Test
  void ownedPartitionsOffTheirRackAreReAligned() {
    List<java.util.Set<String>> racks = new java.util.ArrayList<>();
    for (int p = 0; p < 4; p++) {
      racks.add(Set.of(p % 2 == 0 ? "r0" : "r1"));
    }
    AssignableTopic t = new AssignableTopic("t", 4, racks, 1);
    // a (r0) owns the r1 partitions, b (r1) the r0 ones.
    GroupMember a = GroupMember.of("a", Set.of("t")).withRack("r0")
        .withOwned(List.of(new PartitionRef("t", 1), new PartitionRef("t", 3)), 2);
    GroupMember b = GroupMember.of("b", Set.of("t")).withRack("r1")
        .withOwned(List.of(new PartitionRef("t", 0), new PartitionRef("t", 2)), 2);
    RebalanceResult r = AssignmentPolicy.assign(List.of(a, b), List.of(t), RebalanceMode.EAGER);
    assertThat(r.partitionsOf("a")).containsExactly(new PartitionRef("t", 0), new PartitionRef("t", 2));
    assertThat(r.partitionsOf("b")).containsExactly(new PartitionRef("t", 1), new PartitionRef("t", 3));
  }

  /**
   * Non-equal subscriptions with racks: the counts step gives {@code a} (rack r0) the only
   * partition of {@code x}, whose replica is on r1; swapping it with {@code b}'s {@code y-0} (on
   * both racks) puts every partition on its member's rack at the same loads.
   */
  @Test
  void mixedSubscriptionsSwapPartitionsOntoTheirRacks() {
    AssignableTopic x = new AssignableTopic("x", 1, List.of(Set.of("r1")), 1);
    AssignableTopic y = new AssignableTopic("y", 3,
        List.of(Set.of("r0", "r1"), Set.of("r0"), Set.of("r0")), 1);
    GroupMember a = GroupMember.of("a", Set.of("x", "y")).withRack("r0");
    GroupMember b = GroupMember.of("b", Set.of("x", "y")).withRack("r1");
    GroupMember c = GroupMember.of("c", Set.of("y"));
    RebalanceResult r = AssignmentPolicy.assign(List.of(a, b, c), List.of(x, y), RebalanceMode.EAGER);
    assertThat(r.partitionsOf("b")).containsExactly(new PartitionRef("x", 0));
    assertThat(r.partitionsOf("a")).containsExactly(new PartitionRef("y", 0), new PartitionRef("y", 1));
    assertThat(r.partitionsOf("c")).containsExactly(new PartitionRef("y", 2));
  }

  /**
   * Racks that constrain nothing: every partition of two 12-partition topics has a replica on
   * both racks, a (rack a) owns all 24 and b (rack b) joins. Each member ends with 6 of each
   * topic, through the shortcut and the general builder alike, in both modes (cooperative: a
   * keeps its 6 + 6, the other 12 wait for revocation).
   */
  @Test
  void racksThatConstrainNothingKeepThePerTopicSpread() {
    List<Set<String>> both = new ArrayList<>();
    for (int q = 0; q < 12; q++) {
      both.add(Set.of("a", "b"));
    }
    AssignableTopic[] topics = {new AssignableTopic("t1", 12, both, 1),
        new AssignableTopic("t2", 12, both, 1)};
    List<PartitionRef> all = new ArrayList<>();
    for (int q = 0; q < 12; q++) {
      all.add(p("t1", q));
      all.add(p("t2", q));
    }
    GroupMember[] members = {
        GroupMember.of("a", Set.of("t1", "t2")).withRack("a").withOwned(all, 1),
        GroupMember.of("b", Set.of("t1", "t2")).withRack("b")};
    for (RebalanceMode mode : RebalanceMode.values()) {
      for (boolean shortcut : new boolean[] {true, false}) {
        RebalanceResult r = AssignmentPolicy.assign(members.clone(), topics.clone(), null, mode,
            shortcut);
        List<PartitionRef> held = new ArrayList<>(r.partitionsOf("a"));
        if (mode == RebalanceMode.EAGER) {
          assertThat(r.partitionsOf("b")).as("%s %s", mode, shortcut).hasSize(12)
              .filteredOn(x -> x.topic().equals("t1")).hasSize(6);
        } else {
          assertThat(r.pendingRevocation()).as("%s %s", mode, shortcut).hasSize(12)
              .filteredOn(x -> x.topic().equals("t1")).hasSize(6);
        }
        assertThat(held).as("%s %s", mode, shortcut).hasSize(12)
            .filteredOn(x -> x.topic().equals("t1")).hasSize(6);
      }
    }
  }

  @Test
  void emptyGroupAndEmptyTopics() {
    assertThat(AssignmentPolicy.assign(List.of(), List.of(AssignableTopic.of("t", 3)),
        RebalanceMode.EAGER).byMember()).isEmpty();
    assertThat(AssignmentPolicy.assign(List.of(GroupMember.of("a", Set.of("t"))),
        List.of(AssignableTopic.of("t", 0)), RebalanceMode.EAGER).partitionsOf("a")).isEmpty();
  }

  @Test
  void duplicateMemberIdsAreRejected() {
    assertThatThrownBy(() -> AssignmentPolicy.assign(
        List.of(GroupMember.of("a", Set.of("t")), GroupMember.of("a", Set.of("t"))),
        List.of(AssignableTopic.of("t", 1)), RebalanceMode.EAGER))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a occurs twice");
  }

  @Test
  void badWeightsAreRejected() {
    assertThatThrownBy(() -> GroupMember.of("a", Set.of()).withWeight(0))
        .hasMessageContaining("weight must be in [1, 1000000], was 0");
    assertThatThrownBy(() -> AssignableTopic.of("t", 1).withWeight(1001))
        .hasMessageContaining("weight must be in [1, 1000], was 1001");
  }

  /** Owned partitions (of topics still subscribed) that end with another member. */
  private static int ownedMoved(List<GroupMember> members, RebalanceResult r) {
    int moved = 0;
    for (GroupMember m : members) {
      for (PartitionRef p : m.ownedPartitions()) {
        if (m.topics().contains(p.topic()) && !r.partitionsOf(m.memberId()).contains(p)) {
          moved++;
        }
      }
    }
    return moved;
  }

  /** Kafka's criterion with equal weights: nobody could take a partition from a member with two more. */
  private static boolean kafkaBalanced(List<GroupMember> members, RebalanceResult r) {
    for (GroupMember holder : members) {
      for (PartitionRef p : r.partitionsOf(holder.memberId())) {
        for (GroupMember other : members) {
          if (other.topics().contains(p.topic())
              && r.countOf(holder.memberId()) - r.countOf(other.memberId()) >= 2) {
            return false;
          }
        }
      }
    }
    return true;
  }

  private static PartitionRef p(String topic, int partition) {
    return new PartitionRef(topic, partition);
  }

  /**
   * The giver's side of a chain: a holds its owned t0-0 and takes a free t1 partition (fill, t1
   * has the fewest subscribers), so a holds 2 where b and c hold none. Giving b the owned t0-0
   * balances but moves it; passing the free t1 partition on to d (a 1, d 2) balances and moves
   * nothing. Before the chain search, t0-0 moved.
   */
  @Test
  void nonEqualBalanceLowersTheGiverThroughAChainOfUnownedPartitions() {
    List<GroupMember> ms = List.of(
        GroupMember.of("a", Set.of("t0", "t1")).withOwned(List.of(p("t0", 0)), 1),
        GroupMember.of("b", Set.of("t0")), GroupMember.of("c", Set.of("t0")), GroupMember.of("d", Set.of("t1")));
    RebalanceResult r = AssignmentPolicy.assign(ms,
        List.of(AssignableTopic.of("t0", 1), AssignableTopic.of("t1", 2)), RebalanceMode.EAGER);
    assertThat(kafkaBalanced(ms, r)).as("%s", r.byMember()).isTrue();
    assertThat(ownedMoved(ms, r)).as("%s", r.byMember()).isZero();
    assertThat(r.partitionsOf("a")).containsExactly(p("t0", 0));
  }

  /**
   * Loads that tie: the fill leaves c with one partition and d with three, so one must move to
   * c. d's are owned; a holds a free t1 partition and c subscribes to t1, so a passes it to c
   * (a 2 to 1, c 1 to 2: the same loads swapped) and nothing owned moves. Before, d gave up its
   * owned t2-1.
   */
  @Test
  void nonEqualBalancePrefersTheTieThatMovesNothingOwned() {
    List<GroupMember> ms = List.of(
        GroupMember.of("a", Set.of("t1")).withOwned(List.of(p("t1", 2)), 1),
        GroupMember.of("b", Set.of("t1", "t2")).withOwned(List.of(p("t1", 1), p("t2", 2)), 1),
        GroupMember.of("c", Set.of("t1", "t2")),
        GroupMember.of("d", Set.of("t0", "t2")).withOwned(List.of(p("t2", 0), p("t2", 1)), 1));
    RebalanceResult r = AssignmentPolicy.assign(ms, List.of(AssignableTopic.of("t0", 1),
        AssignableTopic.of("t1", 4), AssignableTopic.of("t2", 3)), RebalanceMode.EAGER);
    assertThat(kafkaBalanced(ms, r)).as("%s", r.byMember()).isTrue();
    assertThat(ownedMoved(ms, r)).as("%s", r.byMember()).isZero();
  }

  /**
   * c owns four partitions of three topics, d two of t0; a and b own nothing and b subscribes
   * only to t2. Six partitions over four members: c must give up two (b can only take t2-0, a
   * takes one t0 partition), and nothing else moves. Before, c gave up three (t0-0 and t0-1 to
   * a, t2-0 to b) and kept only t1-0.
   */
  @Test
  void nonEqualBalanceMovesOnlyWhatTheLoadsNeed() {
    List<GroupMember> ms = List.of(
        GroupMember.of("a", Set.of("t0", "t1", "t2")),
        GroupMember.of("b", Set.of("t2")),
        GroupMember.of("c", Set.of("t0", "t1", "t2"))
            .withOwned(List.of(p("t0", 0), p("t0", 1), p("t1", 0), p("t2", 0)), 1),
        GroupMember.of("d", Set.of("t0", "t1", "t2")).withOwned(List.of(p("t0", 2), p("t0", 3)), 1));
    RebalanceResult r = AssignmentPolicy.assign(ms, List.of(AssignableTopic.of("t0", 4),
        AssignableTopic.of("t1", 1), AssignableTopic.of("t2", 1)), RebalanceMode.EAGER);
    assertThat(kafkaBalanced(ms, r)).as("%s", r.byMember()).isTrue();
    assertThat(ownedMoved(ms, r)).as("%s", r.byMember()).isEqualTo(2);
  }

  /**
   * Right totals, wrong topic given up (ratchet seed 196): t0 has 1 partition, t1 3, t2 2; a
   * owns t0-0 and t1-2, d owns t1-0, t2-0, t2-1; b subscribes to t0 and t2, c and d to t1 and
   * t2. The totals 2/1/1/2 are right either way, but d keeping both t2 partitions and giving up
   * t1-0 while a gives up t0-0 to b moves 2; keeping t0-0 with a and handing b t2-0 moves one.
   */
  @Test
  void nonEqualCountsGiveUpTheTopicThatKeepsMost() {
    List<GroupMember> ms = List.of(
        GroupMember.of("a", Set.of("t0", "t1", "t2")).withOwned(List.of(p("t0", 0), p("t1", 2)), 1),
        GroupMember.of("b", Set.of("t0", "t2")),
        GroupMember.of("c", Set.of("t1", "t2")),
        GroupMember.of("d", Set.of("t1", "t2")).withOwned(List.of(p("t1", 0), p("t2", 0), p("t2", 1)), 1));
    RebalanceResult r = AssignmentPolicy.assign(ms, List.of(AssignableTopic.of("t0", 1),
        AssignableTopic.of("t1", 3), AssignableTopic.of("t2", 2)), RebalanceMode.EAGER);
    assertThat(kafkaBalanced(ms, r)).as("%s", r.byMember()).isTrue();
    assertThat(ownedMoved(ms, r)).as("%s", r.byMember()).isEqualTo(1);
  }

  /**
   * Other totals move fewer (ratchet seed 275): t0 and t1 have 4 partitions each; a owns t0-0,
   * t0-1, t0-3 and t1-0, b (t1 only) owns t1-2, c owns t0-2 and t1-1, d owns nothing. With totals
   * 2/2/2/2 two of a's move; with 3/1/2/2 (b holds only its own t1-2, balanced because a holds no
   * t1 partition) only t1-0 moves. Before MoveMinimizer, two moved.
   */
  @Test
  void nonEqualTotalsThatKeepMoreAreFound() {
    List<GroupMember> ms = List.of(
        GroupMember.of("a", Set.of("t0", "t1"))
            .withOwned(List.of(p("t0", 0), p("t0", 1), p("t0", 3), p("t1", 0)), 1),
        GroupMember.of("b", Set.of("t1")).withOwned(List.of(p("t1", 2)), 1),
        GroupMember.of("c", Set.of("t0", "t1")).withOwned(List.of(p("t0", 2), p("t1", 1)), 1),
        GroupMember.of("d", Set.of("t0", "t1")));
    RebalanceResult r = AssignmentPolicy.assign(ms, List.of(AssignableTopic.of("t0", 4),
        AssignableTopic.of("t1", 4)), RebalanceMode.EAGER);
    assertThat(kafkaBalanced(ms, r)).as("%s", r.byMember()).isTrue();
    assertThat(ownedMoved(ms, r)).as("%s", r.byMember()).isEqualTo(1);
    assertThat(r.partitionsOf("a")).containsExactlyInAnyOrder(p("t0", 0), p("t0", 1), p("t0", 3));
  }

  /**
   * A ratchet over 5,000 seeded tiny groups with non-equal subscriptions (3-4 members, 2-3
   * topics, at most 9 partitions, random owned partitions): in how many does the policy move more
   * owned partitions than the fewest any assignment balanced by Kafka's criterion needs (found
   * by trying every assignment)? Fails if more than documented; a failure prints the first seeds.
   */
  @Test
  void nonEqualMovesAreTheMinimumInEveryTinyGroup() {
    tinyGroupsAboveTheMinimum(false, NON_EQUAL_ABOVE_MINIMUM);
  }

  /**
   * The same ratchet with member weights 1-3 (drawn after everything else, so the groups are the
   * same): balanced by the weighted criterion, and in how many groups more owned partitions move
   * than the fewest any assignment balanced by that criterion needs. Parts of members that
   * subscribe alike are included since their quotas follow the criterion too
   * ({@code Quotas.balanceByWeight}; before, seed 98 failed: one partition, weights 2
   * and 1, the owner of weight 1 kept it).
   */
  @Test
  void nonEqualWeightedMovesAreTheMinimumInEveryTinyGroup() {
    tinyGroupsAboveTheMinimum(true, NON_EQUAL_WEIGHTED_ABOVE_MINIMUM);
  }

  private static void tinyGroupsAboveTheMinimum(boolean weighted, int documented) {
    int tried = 0;
    List<String> above = new ArrayList<>();
    for (long seed = 0; seed < 5_000; seed++) {
      Random rnd = new Random(seed);
      int nm = 3 + rnd.nextInt(2);
      int nt = 2 + rnd.nextInt(2);
      List<AssignableTopic> ts = new ArrayList<>();
      List<PartitionRef> parts = new ArrayList<>();
      for (int t = 0; t < nt; t++) {
        int n = 1 + rnd.nextInt(4);
        ts.add(AssignableTopic.of("t" + t, n));
        for (int q = 0; q < n; q++) {
          parts.add(p("t" + t, q));
        }
      }
      if (parts.size() > 9) {
        continue;
      }
      List<Set<String>> subs = new ArrayList<>();
      for (int m = 0; m < nm; m++) {
        Set<String> s = new TreeSet<>();
        for (int t = 0; t < nt; t++) {
          if (rnd.nextInt(3) != 0) {
            s.add("t" + t);
          }
        }
        if (s.isEmpty()) {
          s.add("t" + rnd.nextInt(nt));
        }
        subs.add(s);
      }
      if (subs.stream().distinct().count() == 1) {
        continue;
      }
      List<List<PartitionRef>> owned = new ArrayList<>();
      for (int m = 0; m < nm; m++) {
        owned.add(new ArrayList<>());
      }
      int[] owner = new int[parts.size()];
      for (int i = 0; i < parts.size(); i++) {
        int o = rnd.nextInt(nm + 1) - 1;
        owner[i] = o >= 0 && subs.get(o).contains(parts.get(i).topic()) ? o : -1;
        if (owner[i] >= 0) {
          owned.get(o).add(parts.get(i));
        }
      }
      long[] w = new long[nm];
      List<GroupMember> ms = new ArrayList<>();
      for (int m = 0; m < nm; m++) {
        w[m] = weighted ? 1 + rnd.nextInt(3) : 1;
        ms.add(GroupMember.of("m" + m, subs.get(m)).withOwned(owned.get(m), 1).withWeight((int) w[m]));
      }
      RebalanceResult r = AssignmentPolicy.assign(ms, ts, RebalanceMode.EAGER);
      int[] got = new int[parts.size()];
      for (int i = 0; i < parts.size(); i++) {
        got[i] = -1;
        for (int m = 0; m < nm; m++) {
          if (r.partitionsOf("m" + m).contains(parts.get(i))) {
            got[i] = m;
          }
        }
      }
      assertThat(balanced(got, parts, subs, w)).as("seed %d: %s, subscriptions %s, weights %s, owned %s",
          seed, r.byMember(), subs, Arrays.toString(w), owned).isTrue();
      List<Integer> assignable = new ArrayList<>();
      for (int i = 0; i < parts.size(); i++) {
        String t = parts.get(i).topic();
        if (subs.stream().anyMatch(s -> s.contains(t))) {
          assignable.add(i);
        }
      }
      int min = fewestMoves(0, new int[assignable.size()], assignable, parts, subs, w, owner, Integer.MAX_VALUE);
      tried++;
      if (ownedMoved(ms, r) > min) {
        above.add(seed + " (" + ownedMoved(ms, r) + " > " + min + ")");
      }
    }
    assertThat(tried).isGreaterThan(4_000);
    assertThat(above.size()).as("tiny groups above the minimum of %d, first: %s", tried,
        above.subList(0, Math.min(5, above.size()))).isLessThanOrEqualTo(documented);
  }

  /**
   * Tiny groups of the ratchet above (4,420 tried) where the policy moves more than the minimum:
   * 0 since {@code MoveMinimizer} (58 after the chain searches of {@code MixedSubscriptions}, 275
   * before them). Of the 58, 17 had the right member totals but gave up the wrong topic (e.g.
   * seed 196), 41 needed other totals (e.g. seed 275: a member that subscribes to one topic
   * holding one partition fewer lets another keep a third owned one).
   */
  static final int NON_EQUAL_ABOVE_MINIMUM = 0;

  /**
   * The same with member weights 1-3 (4,420 groups tried): 0 (83 with {@code MoveMinimizer}
   * switched off, counted when the groups with a part of members that subscribe alike were left
   * out, 4,079 groups; with {@code Quotas.balanceByWeight} switched off seed 98 is
   * not balanced by the weighted criterion).
   */
  static final int NON_EQUAL_WEIGHTED_ABOVE_MINIMUM = 0;

  /**
   * Kafka's criterion with member weights {@code w} (unit topic costs) for partitions
   * {@code parts} given to members {@code got} (-1 = nobody): no subscriber {@code i} of a
   * partition's topic could take it from its holder {@code j} bringing their loads per weight
   * closer ({@code (2*L_i + 1) * w_j < (2*L_j - 1) * w_i}; equal weights: {@code j} holds two more).
   */
  private static boolean balanced(int[] got, List<PartitionRef> parts, List<Set<String>> subs, long[] w) {
    int[] count = new int[subs.size()];
    for (int m : got) {
      if (m >= 0) {
        count[m]++;
      }
    }
    for (int i = 0; i < got.length; i++) {
      int j = got[i];
      if (j < 0) {
        continue;
      }
      for (int m = 0; m < subs.size(); m++) {
        if (subs.get(m).contains(parts.get(i).topic()) && (2L * count[m] + 1) * w[j] < (2L * count[j] - 1) * w[m]) {
          return false;
        }
      }
    }
    return true;
  }

  private static int fewestMoves(int k, int[] to, List<Integer> assignable, List<PartitionRef> parts,
      List<Set<String>> subs, long[] w, int[] owner, int best) {
    if (k == to.length) {
      int[] got = new int[parts.size()];
      java.util.Arrays.fill(got, -1);
      for (int i = 0; i < to.length; i++) {
        got[assignable.get(i)] = to[i];
      }
      if (!balanced(got, parts, subs, w)) {
        return best;
      }
      int moves = 0;
      for (int i = 0; i < to.length; i++) {
        int o = owner[assignable.get(i)];
        moves += o >= 0 && o != to[i] ? 1 : 0;
      }
      return Math.min(best, moves);
    }
    String t = parts.get(assignable.get(k)).topic();
    for (int m = 0; m < subs.size(); m++) {
      if (subs.get(m).contains(t)) {
        to[k] = m;
        best = fewestMoves(k + 1, to, assignable, parts, subs, w, owner, best);
      }
    }
    return best;
  }
}
