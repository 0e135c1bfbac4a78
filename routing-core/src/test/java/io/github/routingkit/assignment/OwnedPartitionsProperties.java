package io.github.routingkit.assignment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link AssignmentPolicy#assign(List, List, OwnedPartitions, RebalanceMode)} (claims as partition
 * numbers per topic position) gives exactly what the {@link PartitionRef} form gives, over seeded
 * random groups with double claims of equal and different generations, out-of-range partitions and
 * unknown topics; and {@link RebalanceResult#keptCountOf} counts what a member keeps.
 */
class OwnedPartitionsProperties {

  @Test
  void perTopicClaimsGiveTheSameResultAsPartitionRefs() {
    AssignmentPolicyProperties.forSeeds(400, seed -> {
      Random r = new Random(seed);
      GroupState g = GroupState.random(seed, r.nextBoolean(), r.nextInt(4) == 0, r.nextBoolean(),
          true, r.nextBoolean());
      List<AssignableTopic> topics = new ArrayList<>(g.topics());
      Collections.shuffle(topics, r);
      // Claims: the generated ones, a few double claims, claims beyond the partition count and
      // of an unknown topic; generations differ between members.
      List<GroupMember> withRefs = new ArrayList<>();
      List<GroupMember> bare = new ArrayList<>();
      List<Map<Integer, List<Integer>>> perTopic = new ArrayList<>();
      for (GroupMember m : g.members()) {
        Set<PartitionRef> claims = new HashSet<>(m.ownedPartitions());
        for (int k = r.nextInt(4); k > 0; k--) {
          AssignableTopic t = topics.get(r.nextInt(topics.size()));
          claims.add(new PartitionRef(t.name(), r.nextInt(t.partitions() + 3)));
        }
        if (r.nextInt(5) == 0) {
          claims.add(new PartitionRef("no-such-topic", 0));
        }
        List<PartitionRef> sorted = new ArrayList<>(claims);
        Collections.sort(sorted);
        int gen = r.nextInt(3) - 1;
        withRefs.add(m.withOwned(sorted, gen));
        bare.add(m.withOwned(List.of(), gen));
        Map<Integer, List<Integer>> byTopic = new LinkedHashMap<>();
        for (PartitionRef p : sorted) {
          int at = -1;
          for (int t = 0; t < topics.size(); t++) {
            at = topics.get(t).name().equals(p.topic()) ? t : at;
          }
          byTopic.computeIfAbsent(at < 0 ? topics.size() + r.nextInt(2) : at, k -> new ArrayList<>())
              .add(p.partition());
        }
        perTopic.add(byTopic);
      }
      // Member order shuffled the same way for both forms.
      List<Integer> order = new ArrayList<>();
      for (int i = 0; i < bare.size(); i++) {
        order.add(i);
      }
      Collections.shuffle(order, r);
      List<GroupMember> refsShuffled = new ArrayList<>();
      List<GroupMember> bareShuffled = new ArrayList<>();
      List<Map<Integer, List<Integer>>> claimsShuffled = new ArrayList<>();
      for (int i : order) {
        refsShuffled.add(withRefs.get(i));
        bareShuffled.add(bare.get(i));
        claimsShuffled.add(perTopic.get(i));
      }
      boolean split = r.nextBoolean(); // report a topic in two calls
      int[] buffer = new int[256];
      OwnedPartitions owned = (member, sink) -> claimsShuffled.get(member).forEach((t, ps) -> {
        int c = 0;
        for (int p : ps) {
          buffer[c++] = p;
        }
        if (split && c > 1) {
          sink.accept(t, buffer, c / 2);
          System.arraycopy(buffer, c / 2, buffer, 0, c - c / 2);
          sink.accept(t, buffer, c - c / 2);
        } else {
          sink.accept(t, buffer, c);
        }
        java.util.Arrays.fill(buffer, -7); // the policy must have read it already
      });
      for (RebalanceMode mode : RebalanceMode.values()) {
        RebalanceResult expected = AssignmentPolicy.assign(refsShuffled, topics, mode);
        RebalanceResult actual = AssignmentPolicy.assign(bareShuffled, topics, owned, mode);
        assertThat(actual).as("%s\nclaims %s", mode, withRefs).isEqualTo(expected);
        for (GroupMember m : withRefs) {
          String id = m.memberId();
          assertThat(actual.keptCountOf(id)).isEqualTo(expected.keptCountOf(id));
        }
      }
    });
  }

  @Test
  void keptCountIsWhatTheMemberOwnedAndStillGets() {
    AssignmentPolicyProperties.forSeeds(300, seed -> {
      Random r = new Random(seed);
      GroupState g = GroupState.random(seed, r.nextBoolean(), false, r.nextBoolean(), true,
          r.nextBoolean());
      RebalanceResult a = g.assign(RebalanceMode.EAGER);
      for (GroupMember m : g.members()) {
        // The generated ownership is disjoint, so every valid claim wins.
        Set<PartitionRef> owned = new HashSet<>(m.ownedPartitions());
        Set<String> subscribed = m.topics();
        long kept = a.partitionsOf(m.memberId()).stream()
            .filter(p -> owned.contains(p) && subscribed.contains(p.topic())).count();
        assertThat(a.keptCountOf(m.memberId())).as(m.memberId()).isEqualTo(kept);
      }
      assertThat(a.keptCountOf("nobody")).isZero();
    });
  }
}
