package io.github.routingkit.kafka;

import io.github.routingkit.property.Gen;
import io.github.routingkit.property.Property;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.routingkit.assignment.PartitionRef;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Assignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.RebalanceProtocol;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class RoutingAssignorTest {
  private static final Cluster CLUSTER = KafkaGroups.cluster(Map.of("orders", 12, "clicks", 7), 3);

  private static RoutingAssignor assignor(Map<String, ?> config) {
    RoutingAssignor a = new RoutingAssignor();
    a.configure(config);
    return a;
  }

  private static Map<String, List<TopicPartition>> assign(RoutingAssignor a, Map<String, Subscription> subs) {
    Map<String, List<TopicPartition>> out = new TreeMap<>();
    a.assign(CLUSTER, new GroupSubscription(subs)).groupAssignment()
        .forEach((m, as) -> out.put(m, as.partitions()));
    return out;
  }

  private static Subscription sub(ByteBuffer userData) {
    return new Subscription(List.of("orders", "clicks"), userData, List.of(), -1, Optional.empty());
  }

  @Test
  void nameAndProtocols() {
    assertThat(new RoutingAssignor().name()).isEqualTo("routing");
    assertThat(new RoutingAssignor().supportedProtocols())
        .containsExactly(RebalanceProtocol.COOPERATIVE, RebalanceProtocol.EAGER);
    assertThat(assignor(Map.of(RoutingAssignorConfig.REBALANCE_PROTOCOL, "eager")).supportedProtocols())
        .containsExactly(RebalanceProtocol.EAGER);
    // case-insensitive, as Kafka reads its own enum configs (group.protocol, auto.offset.reset);
    // docs/configuration.md names it as the exception to case-sensitive routing identifiers
    assertThat(assignor(Map.of(RoutingAssignorConfig.REBALANCE_PROTOCOL, " EAGER ")).supportedProtocols())
        .containsExactly(RebalanceProtocol.EAGER);
    assertThat(assignor(Map.of(RoutingAssignorConfig.REBALANCE_PROTOCOL, "Cooperative"))
        .supportedProtocols()).containsExactly(RebalanceProtocol.COOPERATIVE, RebalanceProtocol.EAGER);
  }

  @Test
  void weightsFromUserDataShareTheLoad() {
    Map<String, Subscription> subs = new HashMap<>();
    subs.put("heavy", sub(assignor(Map.of(RoutingAssignorConfig.WEIGHT, "3")).subscriptionUserData(null)));
    subs.put("light", sub(new RoutingAssignor().subscriptionUserData(null)));
    Map<String, List<TopicPartition>> a = assign(new RoutingAssignor(), subs);
    // 19 partitions, weights 3:1 -> shares 14.25 and 4.75.
    assertThat(a.get("heavy")).hasSize(14);
    assertThat(a.get("light")).hasSize(5);
  }

  @Test
  void topicWeightsComeFromTheLeadersConfig() {
    Map<String, Subscription> subs = new HashMap<>();
    subs.put("a", sub(null));
    subs.put("b", sub(null));
    Map<String, List<TopicPartition>> a =
        assign(assignor(Map.of(RoutingAssignorConfig.TOPIC_WEIGHTS, "orders:3")), subs);
    // load 12*3 + 7 = 43: each member carries 21 or 22.
    for (List<TopicPartition> ps : a.values()) {
      long load = ps.stream().mapToLong(tp -> tp.topic().equals("orders") ? 3 : 1).sum();
      assertThat(load).isBetween(20L, 23L);
    }
  }

  @Test
  void eagerMembersStayStickyThroughTheirUserData() {
    RoutingAssignor leader = assignor(Map.of(RoutingAssignorConfig.REBALANCE_PROTOCOL, "eager"));
    Map<String, RoutingAssignor> consumers = new TreeMap<>();
    for (String m : List.of("m1", "m2", "m3")) {
      consumers.put(m, assignor(Map.of(RoutingAssignorConfig.REBALANCE_PROTOCOL, "eager")));
    }
    Map<String, Subscription> subs = new HashMap<>();
    consumers.forEach((m, c) -> subs.put(m, sub(c.subscriptionUserData(null))));
    Map<String, List<TopicPartition>> first = assign(leader, subs);
    consumers.forEach((m, c) -> c.onAssignment(new Assignment(first.get(m)),
        new ConsumerGroupMetadata("g", 1, m, Optional.empty())));
    // m4 joins; everyone revoked (EAGER), only userData remembers.
    subs.clear();
    consumers.forEach((m, c) -> subs.put(m, sub(c.subscriptionUserData(null))));
    subs.put("m4", sub(null));
    Map<String, List<TopicPartition>> second = assign(leader, subs);
    int kept = 0;
    for (String m : consumers.keySet()) {
      kept += (int) second.get(m).stream().filter(first.get(m)::contains).count();
    }
    // 19 partitions: 7/6/6 -> quotas 5/5/5/4: the old members keep 15, m4 takes 4.
    assertThat(kept).isEqualTo(15);
    assertThat(second.get("m4")).hasSize(4);
  }

  /** The same group in any member insertion order gives the same assignment. */
  @Test
  void deterministicForAnyMemberOrder() {
    Property.check(50, Gen.longs(), seed -> {
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < 7; i++) {
        ids.add("consumer-" + i + "-" + Long.toHexString(seed + i));
      }
      Map<String, List<TopicPartition>> reference = null;
      for (int round = 0; round < 3; round++) {
        java.util.Collections.shuffle(ids, new java.util.Random(seed + round));
        Map<String, Subscription> subs = new java.util.LinkedHashMap<>();
        for (int i = 0; i < ids.size(); i++) {
          String id = ids.get(i);
          int rack = Math.floorMod(id.hashCode(), 3);
          subs.put(id, new Subscription(List.of("orders", "clicks"), null, List.of(), -1,
              Optional.of("rack-" + rack)));
        }
        Map<String, List<TopicPartition>> a = assign(new RoutingAssignor(), subs);
        if (reference == null) {
          reference = a;
        }
        assertThat(a).isEqualTo(reference);
      }
    });
  }

  @Test
  void userDataRoundTrips() {
    List<PartitionRef> owned = List.of(new PartitionRef("clicks", 3), new PartitionRef("orders", 0),
        new PartitionRef("orders", 11), new PartitionRef("ünï", 2));
    AssignorUserData d = AssignorUserData.decode(AssignorUserData.encode(42, 7, owned));
    assertThat(d).isEqualTo(new AssignorUserData(42, 7, owned, null));
  }

  @Test
  void futureTruncatedAndEmptyUserDataFallBackToWeightOne() {
    ByteBuffer v2 = AssignorUserData.encode(5, 1, List.of());
    v2.putShort(0, (short) 2);
    assertThat(AssignorUserData.decode(v2).problem()).contains("version 2");
    ByteBuffer full = AssignorUserData.encode(5, 1, List.of(new PartitionRef("orders", 1)));
    for (int len = 1; len < full.remaining(); len++) {
      AssignorUserData d = AssignorUserData.decode(full.duplicate().limit(len));
      assertThat(d.weight()).as("length %s", len).isEqualTo(1);
      assertThat(d.problem()).isNotNull();
    }
    assertThat(AssignorUserData.decode(ByteBuffer.allocate(0))).isEqualTo(AssignorUserData.FALLBACK);
    assertThat(AssignorUserData.decode(null)).isEqualTo(AssignorUserData.FALLBACK);
  }

  /** Any bytes as userData: assign never throws, every partition is given out once, balanced. */
  @Test
  void garbageUserDataNeverBreaksAssign() {
    Property.check(500, Gen.bytes(0, 255).list(0, 64), garbage -> {
      Map<String, Subscription> subs = new HashMap<>();
      for (int i = 0; i < garbage.size(); i++) {
        subs.put("m" + i, sub(ByteBuffer.wrap(garbage.get(i))));
      }
      Map<String, List<TopicPartition>> a = assign(new RoutingAssignor(), subs);
      List<TopicPartition> all = new ArrayList<>();
      a.values().forEach(all::addAll);
      assertThat(all).doesNotHaveDuplicates().hasSize(garbage.isEmpty() ? 0 : 19);
      if (!garbage.isEmpty()) {
        int max = a.values().stream().mapToInt(List::size).max().orElseThrow();
        int min = a.values().stream().mapToInt(List::size).min().orElseThrow();
        // Garbage decodes to weight 1; a lucky valid prefix may carry another weight.
        boolean allWeightOne = garbage.stream()
            .allMatch(g -> AssignorUserData.decode(ByteBuffer.wrap(g)).weight() == 1);
        if (allWeightOne) {
          assertThat(max - min).isLessThanOrEqualTo(1);
        }
      }
    });
  }

  @Test
  void impossibleOwnedPartitionsAreIgnored() {
    Map<String, Subscription> subs = new HashMap<>();
    subs.put("a", new Subscription(List.of("orders", "clicks"), null,
        List.of(new TopicPartition("orders", -1), new TopicPartition("orders", 99),
            new TopicPartition("nope", 0)), 3, Optional.empty()));
    subs.put("b", sub(null));
    Map<String, List<TopicPartition>> a = assign(new RoutingAssignor(), subs);
    assertThat(a.get("a").size() + a.get("b").size()).isEqualTo(19);
  }

  @Test
  void badConfigNamesPropertyValueAndRule() {
    assertThatThrownBy(() -> assignor(Map.of(RoutingAssignorConfig.WEIGHT, "0")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("routing.assignor.weight")
        .hasMessageContaining("0")
        .hasMessageContaining("[1, 1000000]");
    assertThatThrownBy(() -> assignor(Map.of(RoutingAssignorConfig.TOPIC_WEIGHTS, "orders=3")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("routing.assignor.topic.weights")
        .hasMessageContaining("orders=3")
        .hasMessageContaining("topic:weight");
    assertThatThrownBy(() -> assignor(Map.of(RoutingAssignorConfig.TOPIC_WEIGHTS, "orders:5000")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("[1, 1000]");
    assertThatThrownBy(() -> assignor(Map.of(RoutingAssignorConfig.REBALANCE_PROTOCOL, "sticky")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("routing.assignor.rebalance.protocol")
        .hasMessageContaining("sticky")
        .hasMessageContaining("[cooperative, eager]");
  }

  @Test
  void brokerSideInstanceWeightsAreRefusedWithWhatToUseInstead() {
    // guards against: accepted and never read, so a member kept weight 1 without a word
    assertThatThrownBy(() -> assignor(Map.of(RoutingAssignorConfig.INSTANCE_WEIGHTS, "c1:2")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("routing.assignor.instance.weights")
        .hasMessageContaining("c1:2")
        .hasMessageContaining("has no effect on RoutingAssignor")
        .hasMessageContaining("RoutingGroupAssignor")
        .hasMessageContaining("routing.assignor.weight");
    // the consumer-side keys still pass, and other consumer configs are ignored
    assertThat(assignor(Map.of(RoutingAssignorConfig.WEIGHT, "2", "group.id", "g")).name())
        .isEqualTo(RoutingAssignor.NAME);
  }

  @Test
  void assignorKeyTyposGetTheProducersDidYouMean() {
    assertThatThrownBy(() -> assignor(Map.of("routing.assignor.wieght", "2")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("routing.assignor.wieght")
        .hasMessageContaining("did you mean routing.assignor.weight?");
    assertThatThrownBy(() -> new RoutingGroupAssignor().configure(
        Map.of("routing.assignor.instance.weight", "a:2")))
        .hasMessageContaining("did you mean routing.assignor.instance.weights?");
    assertThatThrownBy(() -> assignor(Map.of("routing.assignor.zzzzzz", "1")))
        .isInstanceOf(ConfigException.class)
        .message().doesNotContain("did you mean");
  }

  @Test
  void kafkaInstantiatesAndConfiguresItFromTheStrategyList() {
    var instances = org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.getAssignorInstances(
        List.of(RoutingAssignor.class.getName()), Map.of(RoutingAssignorConfig.WEIGHT, "4"));
    assertThat(instances).singleElement().isInstanceOf(RoutingAssignor.class);
    ByteBuffer ud = instances.get(0).subscriptionUserData(null);
    assertThat(AssignorUserData.decode(ud).weight()).isEqualTo(4);
  }
}
