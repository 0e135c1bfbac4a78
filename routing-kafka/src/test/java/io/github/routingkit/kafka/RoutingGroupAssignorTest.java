package io.github.routingkit.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.routingkit.kafka.GroupSpecStub.Member;
import io.github.routingkit.kafka.GroupSpecStub.Spec;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiPredicate;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.coordinator.group.api.assignor.SubscribedTopicDescriber;
import org.apache.kafka.coordinator.group.api.assignor.SubscriptionType;
import org.junit.jupiter.api.Test;

class RoutingGroupAssignorTest {
  private static final Uuid ORDERS = new Uuid(1, 1);
  private static final Uuid CLICKS = new Uuid(2, 2);
  private static final Uuid MISSING = new Uuid(3, 3);

  /** orders: 12 partitions, clicks: 6; partition p on racks r(p%3) and r((p+1)%3). */
  static final SubscribedTopicDescriber TOPICS = new SubscribedTopicDescriber() {
    @Override
    public int numPartitions(Uuid topicId) {
      return topicId.equals(ORDERS) ? 12 : topicId.equals(CLICKS) ? 6 : -1;
    }

    @Override
    public Set<String> racksForPartition(Uuid topicId, int partition) {
      return Set.of("r" + partition % 3, "r" + (partition + 1) % 3);
    }
  };

  private static Map<String, Map<Uuid, Set<Integer>>> assign(RoutingGroupAssignor a, Map<String, Member> members,
      BiPredicate<Uuid, Integer> assignable) {
    Map<String, Map<Uuid, Set<Integer>>> out = new TreeMap<>();
    a.assign(new Spec(members, SubscriptionType.HOMOGENEOUS, assignable), TOPICS).members().forEach((m, as) -> out.put(m, as.partitions()));
    return out;
  }

  private static int count(Map<Uuid, Set<Integer>> ps) {
    return ps.values().stream().mapToInt(Set::size).sum();
  }

  @Test
  void balancedDeterministicRackLocalAndSticky() {
    Map<String, Member> members = new LinkedHashMap<>();
    for (int i = 0; i < 3; i++) {
      members.put("m" + i, new Member("r" + i, null, Set.of(ORDERS, CLICKS, MISSING), Map.of()));
    }
    Map<String, Map<Uuid, Set<Integer>>> first = assign(new RoutingGroupAssignor(), members, (t, p) -> true);
    assertThat(first.values()).allSatisfy(ps -> assertThat(count(ps)).isEqualTo(6));
    first.forEach((m, ps) -> ps.forEach((t, parts) -> parts.forEach(p ->
        assertThat(TOPICS.racksForPartition(t, p)).contains(members.get(m).rack()))));

    // Same state in reverse member order: same result.
    Map<String, Member> reversed = new LinkedHashMap<>();
    List<String> keys = new ArrayList<>(members.keySet());
    java.util.Collections.reverse(keys);
    keys.forEach(k -> reversed.put(k, members.get(k)));
    assertThat(assign(new RoutingGroupAssignor(), reversed, (t, p) -> true)).isEqualTo(first);

    // A fourth member joins while the others own their targets: only the minimum moves (4 of 18).
    Map<String, Member> joined = new LinkedHashMap<>();
    first.forEach((m, ps) -> joined.put(m, new Member(members.get(m).rack(), null,
        Set.of(ORDERS, CLICKS), ps)));
    joined.put("m3", new Member("r0", null, Set.of(ORDERS, CLICKS), Map.of()));
    Map<String, Map<Uuid, Set<Integer>>> second = assign(new RoutingGroupAssignor(), joined, (t, p) -> true);
    assertThat(count(second.get("m3"))).isEqualTo(4);
    int kept = 0;
    for (String m : first.keySet()) {
      for (Map.Entry<Uuid, Set<Integer>> e : second.get(m).entrySet()) {
        kept += (int) e.getValue().stream().filter(first.get(m).getOrDefault(e.getKey(), Set.of())::contains).count();
      }
    }
    assertThat(kept).isEqualTo(14);
  }

  /**
   * A member that keeps exactly its current assignment gets the coordinator's map back unchanged;
   * one whose current assignment holds an unassignable partition, an empty topic set or a claim of
   * a topic the group does not know gets a rebuilt one without them.
   */
  @Test
  void unchangedMembersGetTheirCurrentAssignmentBack() {
    Map<String, Member> members = new LinkedHashMap<>();
    for (int i = 0; i < 3; i++) {
      members.put("m" + i, new Member("r" + i, null, Set.of(ORDERS, CLICKS), Map.of()));
    }
    Map<String, Map<Uuid, Set<Integer>>> first = assign(new RoutingGroupAssignor(), members, (t, p) -> true);
    Map<String, Member> stable = new LinkedHashMap<>();
    first.forEach((m, ps) -> stable.put(m, new Member("r" + m.charAt(1), null, Set.of(ORDERS, CLICKS),
        java.util.Collections.unmodifiableMap(new HashMap<>(ps)))));
    Map<String, Map<Uuid, Set<Integer>>> again = assign(new RoutingGroupAssignor(), stable, (t, p) -> true);
    again.forEach((m, ps) -> assertThat(ps).isSameAs(stable.get(m).partitions()));

    // m0: one of its partitions is no longer assignable; m1: an empty set of a topic it holds
    // nothing of, and a claim of an unknown topic. Both are rebuilt, m2 is handed back as it is.
    int gone = first.get("m0").get(ORDERS).iterator().next();
    Map<String, Member> odd = new LinkedHashMap<>(stable);
    Map<Uuid, Set<Integer>> m1 = new HashMap<>(first.get("m1"));
    m1.putIfAbsent(CLICKS, Set.of());
    m1.putIfAbsent(ORDERS, Set.of());
    m1.put(MISSING, Set.of(0));
    odd.put("m1", new Member("r1", null, Set.of(ORDERS, CLICKS), m1));
    Map<String, Map<Uuid, Set<Integer>>> rebuilt = assign(new RoutingGroupAssignor(), odd,
        (t, p) -> !(t.equals(ORDERS) && p == gone));
    assertThat(rebuilt.get("m0")).isNotSameAs(odd.get("m0").partitions());
    assertThat(rebuilt.get("m0").getOrDefault(ORDERS, Set.of())).doesNotContain(gone);
    assertThat(rebuilt.get("m1")).isNotSameAs(m1).doesNotContainKey(MISSING)
        .allSatisfy((t, ps) -> assertThat(ps).isNotEmpty());
    assertThat(rebuilt.get("m2")).isSameAs(odd.get("m2").partitions());
    List<String> all = new ArrayList<>();
    rebuilt.values().forEach(ps -> ps.forEach((t, parts) -> parts.forEach(p -> all.add(t + "-" + p))));
    assertThat(all).doesNotHaveDuplicates().hasSize(17);
  }

  @Test
  void instanceWeightsFromBrokerConfigAndUnassignablePartitionsLeftOut() {
    RoutingGroupAssignor a = new RoutingGroupAssignor();
    a.configure(Map.of(RoutingAssignorConfig.INSTANCE_WEIGHTS, "big:2"));
    Map<String, Member> members = new HashMap<>();
    members.put("a", new Member(null, "big", Set.of(ORDERS, CLICKS), Map.of()));
    members.put("b", new Member(null, "small", Set.of(ORDERS, CLICKS), Map.of()));
    Map<String, Map<Uuid, Set<Integer>>> result = assign(a, members, (t, p) -> true);
    assertThat(count(result.get("a"))).isEqualTo(12);
    assertThat(count(result.get("b"))).isEqualTo(6);
    Map<String, Map<Uuid, Set<Integer>>> filtered = assign(a, members, (t, p) -> !t.equals(CLICKS));
    assertThat(filtered.values()).allSatisfy(ps -> assertThat(ps).doesNotContainKey(CLICKS));
  }

  @Test
  void badBrokerConfigNamesPropertyValueAndRule() {
    assertThatThrownBy(() -> new RoutingGroupAssignor().configure(
        Map.of(RoutingAssignorConfig.INSTANCE_WEIGHTS, "big:0")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("routing.assignor.instance.weights")
        .hasMessageContaining("big:0")
        .hasMessageContaining("[1, 1000000]");
  }

  @Test
  void classicKeysInTheBrokerConfigAreRefusedNamingPropertyValueAndRule() {
    // guards against: accepted and never read (the broker-side assignor has no userData, no topic names
    // and no rebalance protocol choice), so the setting silently did nothing
    Map<String, String> wrong = new LinkedHashMap<>();
    wrong.put(RoutingAssignorConfig.WEIGHT, "3");
    wrong.put(RoutingAssignorConfig.TOPIC_WEIGHTS, "orders:5");
    wrong.put(RoutingAssignorConfig.REBALANCE_PROTOCOL, "eager");
    wrong.forEach((key, value) -> assertThatThrownBy(
        () -> new RoutingGroupAssignor().configure(Map.of(key, value)))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(key)
        .hasMessageContaining(value)
        .hasMessageContaining("has no effect on RoutingGroupAssignor (KIP-848 broker-side"
            + " assignor)")
        .hasMessageContaining("classic RoutingAssignor"));
    assertThatThrownBy(() -> new RoutingGroupAssignor().configure(
        Map.of(RoutingAssignorConfig.WEIGHT, "3")))
        .hasMessageContaining("routing.assignor.instance.weights");
    // the rest of a broker config is ignored, the broker-side key is read
    RoutingGroupAssignor a = new RoutingGroupAssignor();
    a.configure(Map.of("process.roles", "broker,controller", "group.consumer.assignors",
        "uniform," + RoutingGroupAssignor.class.getName(), RoutingAssignorConfig.INSTANCE_WEIGHTS,
        "big:2"));
  }

  @Test
  void nameMatchesTheClassicAssignor() {
    assertThat(new RoutingGroupAssignor().name()).isEqualTo(RoutingAssignor.NAME);
  }
}
