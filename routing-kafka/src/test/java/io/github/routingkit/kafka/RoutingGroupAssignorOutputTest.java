package io.github.routingkit.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.kafka.GroupSpecStub.Member;
import io.github.routingkit.kafka.GroupSpecStub.Spec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.coordinator.group.api.assignor.SubscribedTopicDescriber;
import org.apache.kafka.coordinator.group.api.assignor.SubscriptionType;
import org.junit.jupiter.api.Test;

/**
 * The target maps {@link RoutingGroupAssignor} returns (compact maps over shared int arrays) over
 * long histories in which the coordinator hands each target back as the next current assignment:
 * every partition exactly once, each map equal to its plain {@code HashMap} copy, and no array
 * behind a member's sets more than half dead (so the coordinator's state does not grow with the
 * number of generations).
 */
class RoutingGroupAssignorOutputTest {
  private static final int TOPICS = 8;
  private static final int PARTITIONS = 6;

  private static final SubscribedTopicDescriber DESCRIBER = new SubscribedTopicDescriber() {
    @Override
    public int numPartitions(Uuid topicId) {
      return topicId.getMostSignificantBits() == 7 && topicId.getLeastSignificantBits() < TOPICS
          ? PARTITIONS : -1;
    }

    @Override
    public Set<String> racksForPartition(Uuid topicId, int partition) {
      return Set.of();
    }
  };

  @Test
  void historiesKeepMapsExactAndArraysMostlyLive() {
    for (long seed = 0; seed < 60; seed++) {
      Random r = new Random(seed);
      Set<Uuid> all = new HashSet<>();
      for (int t = 0; t < TOPICS; t++) {
        all.add(new Uuid(7, t));
      }
      Map<String, Map<Uuid, Set<Integer>>> current = new LinkedHashMap<>();
      int next = 0;
      for (int k = 1 + r.nextInt(6); k > 0; k--) {
        current.put("m" + next++, Map.of());
      }
      RoutingGroupAssignor assignor = new RoutingGroupAssignor();
      for (int step = 0; step < 40; step++) {
        // Someone joins or leaves now and then; everyone else owns its last target.
        if (r.nextInt(3) == 0) {
          current.put("m" + next++, Map.of());
        } else if (r.nextInt(3) == 0 && current.size() > 1) {
          List<String> ids = new ArrayList<>(current.keySet());
          current.remove(ids.get(r.nextInt(ids.size())));
        }
        Map<String, Member> members = new LinkedHashMap<>();
        current.forEach((m, owned) -> members.put(m, new Member(null, null, all,
            Collections.unmodifiableMap(owned))));
        Map<String, Map<Uuid, Set<Integer>>> target = new HashMap<>();
        assignor.assign(new Spec(members, SubscriptionType.HOMOGENEOUS, (t, p) -> true), DESCRIBER)
            .members().forEach((m, a) -> target.put(m, a.partitions()));
        String where = "seed " + seed + " step " + step;
        List<String> given = new ArrayList<>();
        target.forEach((m, ps) -> {
          Map<Uuid, Set<Integer>> plain = new HashMap<>();
          ps.forEach((t, s) -> plain.put(t, new HashSet<>(s)));
          assertThat(ps).as(where).isEqualTo(plain);
          assertThat(plain).as(where).isEqualTo(ps);
          assertThat(ps.hashCode()).as(where).isEqualTo(plain.hashCode());
          ps.forEach((t, s) -> s.forEach(p -> given.add(t + "-" + p)));
          assertMostlyLive(ps, where + " member " + m);
        });
        assertThat(given).as(where).doesNotHaveDuplicates().hasSize(TOPICS * PARTITIONS);
        current = target;
      }
    }
  }

  /** Per array behind this member's sets, the values its sets use are at least half of it. */
  static void assertMostlyLive(Map<Uuid, Set<Integer>> ps, String where) {
    Map<int[], Integer> live = new IdentityHashMap<>();
    ps.values().forEach(s -> {
      if (s instanceof SortedIntSet own) {
        live.merge(own.array(), own.size(), Integer::sum);
      }
    });
    live.forEach((array, used) ->
        assertThat(used * 2).as("%s: %d of %d values used", where, used, array.length)
            .isGreaterThanOrEqualTo(array.length));
  }
}
