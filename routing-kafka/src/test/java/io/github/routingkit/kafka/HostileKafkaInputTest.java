package io.github.routingkit.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Assignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupAssignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/**
 * Odd cluster metadata and hostile subscriptions against the real kafka-clients types:
 * {@link RoutingAssignor#assign} never throws, never assigns a partition twice or one the metadata
 * does not list; {@link RoutingPartitioner} keeps keyless records inside the shared range when
 * partitions are unavailable.
 */
class HostileKafkaInputTest {
  private static final Node NODE = new Node(0, "localhost", 9092, "rack-a");

  private static Cluster cluster(String topic, int... partitions) {
    List<PartitionInfo> infos = new ArrayList<>();
    for (int p : partitions) {
      infos.add(new PartitionInfo(topic, p, NODE, new Node[] {NODE}, new Node[] {NODE}));
    }
    return new Cluster("c", List.of(NODE), infos, Set.of(), Set.of());
  }

  private static RoutingAssignor assignor() {
    RoutingAssignor a = new RoutingAssignor();
    a.configure(Map.of());
    return a;
  }

  /** Every assigned partition is listed in the metadata and assigned once. */
  private static Set<TopicPartition> checkValid(Cluster cluster, GroupAssignment result) {
    Set<TopicPartition> seen = new HashSet<>();
    result.groupAssignment().values().forEach(a -> a.partitions().forEach(tp -> {
      assertThat(seen.add(tp)).as("assigned twice: %s", tp).isTrue();
      assertThat(cluster.partition(tp)).as("unknown partition assigned: %s", tp).isNotNull();
    }));
    return seen;
  }

  @Test
  void partitionNumbersWithGapsAreNotFilledWithUnknownPartitions() {
    // guards against: metadata {0, 5} made the assignor hand out t-1..t-4, which do not exist
    Cluster c = cluster("t", 0, 5);
    GroupAssignment r = assignor().assign(c, new GroupSubscription(Map.of(
        "m1", new Subscription(List.of("t")), "m2", new Subscription(List.of("t")))));
    assertThat(checkValid(c, r)).contains(new TopicPartition("t", 0));
  }

  /**
   * The metadata's order does not matter: listed shuffled, reversed or in order (the assignor's
   * fast case), with rack-aware members and replicas on different racks per partition, the
   * assignment is the same; a repeated number after an in-order prefix is a gap like any other.
   */
  @Test
  void partitionOrderInTheMetadataDoesNotChangeTheAssignment() {
    Node a = new Node(0, "a", 9092, "rack-a");
    Node b = new Node(1, "b", 9092, "rack-b");
    List<PartitionInfo> ordered = new ArrayList<>();
    for (int p = 0; p < 12; p++) {
      Node leader = p % 3 == 0 ? a : b;
      ordered.add(new PartitionInfo("t", p, leader, new Node[] {leader}, new Node[] {leader}));
    }
    Map<String, Subscription> subs = Map.of(
        "m1", new Subscription(List.of("t"), null, List.of(), -1, Optional.of("rack-a")),
        "m2", new Subscription(List.of("t"), null, List.of(), -1, Optional.of("rack-b")),
        "m3", new Subscription(List.of("t"), null, List.of(), -1, Optional.of("rack-b")));
    Map<String, Assignment> expected = assignor().assign(
        new Cluster("c", List.of(a, b), ordered, Set.of(), Set.of()),
        new GroupSubscription(subs)).groupAssignment();
    List<PartitionInfo> reversed = new ArrayList<>(ordered);
    Collections.reverse(reversed);
    List<PartitionInfo> shuffled = new ArrayList<>(ordered);
    Collections.shuffle(shuffled, new Random(7));
    for (List<PartitionInfo> infos : List.of(reversed, shuffled)) {
      Cluster cluster = new Cluster("c", List.of(a, b), infos, Set.of(), Set.of());
      assertThat(cluster.partitionsForTopic("t").get(0).partition()).as("kept as listed")
          .isNotZero();
      Map<String, Assignment> actual =
          assignor().assign(cluster, new GroupSubscription(subs)).groupAssignment();
      assertThat(actual.keySet()).isEqualTo(expected.keySet());
      actual.forEach((m, asg) -> assertThat(asg.partitions()).as(m)
          .containsExactlyInAnyOrderElementsOf(expected.get(m).partitions()));
    }
    // the rack-local members hold the partitions of their rack (4 on rack-a, 8 on rack-b)
    assertThat(expected.get("m1").partitions()).allMatch(tp -> tp.partition() % 3 == 0);

    Cluster repeated = cluster("t", 0, 1, 2, 2, 3);
    GroupAssignment r = assignor().assign(repeated, new GroupSubscription(Map.of(
        "m1", new Subscription(List.of("t")), "m2", new Subscription(List.of("t")))));
    assertThat(checkValid(repeated, r)).containsExactlyInAnyOrder(new TopicPartition("t", 0),
        new TopicPartition("t", 1), new TopicPartition("t", 2), new TopicPartition("t", 3));
  }

  @Test
  void hugeOrNegativePartitionNumbersDoNotThrowOrExhaustMemory() {
    // guards against: Integer.MAX_VALUE -> IndexOutOfBoundsException out of assign; 100,000,000 -> OOM
    for (int[] parts : new int[][] {{0, Integer.MAX_VALUE}, {0, 1, 100_000_000}, {-1, 0, 1},
        {}, {3}}) {
      Cluster c = cluster("t", parts);
      GroupAssignment r = assignor().assign(c, new GroupSubscription(Map.of(
          "m1", new Subscription(List.of("t")), "m2", new Subscription(List.of("t", "unknown")))));
      checkValid(c, r);
      assertThat(r.groupAssignment()).containsOnlyKeys("m1", "m2");
    }
  }

  @Test
  void garbageUserDataOwnedPartitionsAndGenerationsNeverBreakAssign() {
    Cluster c = cluster("t", 0, 1, 2, 3, 4);
    Random rnd = new Random(7);
    int[] generations = {-1, 0, 5, Integer.MAX_VALUE, Integer.MIN_VALUE};
    for (int i = 0; i < 300; i++) {
      Map<String, Subscription> members = new HashMap<>();
      for (int m = 0; m < 1 + rnd.nextInt(4); m++) {
        byte[] data = new byte[rnd.nextInt(48)];
        rnd.nextBytes(data);
        if (data.length > 14 && rnd.nextBoolean()) { // a valid header, garbage after it
          ByteBuffer.wrap(data).putShort((short) 1).putInt(1 + rnd.nextInt(10)).putInt(3)
              .putInt(rnd.nextInt(3));
        }
        List<TopicPartition> owned = new ArrayList<>();
        for (int k = 0; k < rnd.nextInt(4); k++) {
          owned.add(new TopicPartition(rnd.nextBoolean() ? "t" : "other", rnd.nextInt(9) - 2));
        }
        members.put("m" + m, new Subscription(rnd.nextBoolean() ? List.of("t") : List.of("t", "x"),
            ByteBuffer.wrap(data), owned, generations[rnd.nextInt(generations.length)],
            Optional.empty()));
      }
      GroupAssignment r = assignor().assign(c, new GroupSubscription(members));
      checkValid(c, r);
    }
  }

  @Test
  void misconfigurationsFailAtConfigureTime() {
    // guards against: accepted; every record silently took the default generation (no headers in Kafka)
    assertThatThrownBy(() -> new RoutingPartitioner().configure(Map.of(
        "routing.version.generations", "v1:kafka-murmur2,v2:xxh3-64",
        "routing.version.default", "v1", "routing.version.source", "header")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("routing.version.source")
        .hasMessageContaining("no record headers");
    // guards against: a typo in a routing.assignor.* key was ignored by both the spec and the assignor
    assertThatThrownBy(() -> new RoutingAssignor().configure(Map.of("routing.assignor.wieght", "3")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("routing.assignor.wieght")
        .hasMessageContaining(RoutingAssignorConfig.WEIGHT);
    // guards against: Arabic-Indic digits and '+' were read as numbers
    for (String w : new String[] {"\u0663", "+3"}) {
      assertThatThrownBy(() -> new RoutingAssignor().configure(Map.of(RoutingAssignorConfig.WEIGHT, w)))
          .isInstanceOf(ConfigException.class).hasMessageContaining(RoutingAssignorConfig.WEIGHT);
    }
    // the producer side still ignores the consumer's keys, so one file can hold both
    RoutingPartitioner p = new RoutingPartitioner();
    p.configure(Map.of(RoutingAssignorConfig.WEIGHT, "3", "routing.hotkey.keys", List.of("a", "b")));
    // guards against: a List value was read through toString(): hot keys "[a" and "b]"
    assertThat(p.spec().toMap()).containsEntry("routing.hotkey.keys", "a,b");
  }

  @Test
  void keylessRecordsStayInTheSharedRangeWhenPartitionsAreUnavailable() {
    RoutingPartitioner p = new RoutingPartitioner();
    p.configure(Map.of("routing.segment.ranges", "order:0-5,payment:6-8",
        "routing.segment.exclusive", "payment"));
    for (int down : new int[] {3, 5, 8}) {
      List<PartitionInfo> infos = new ArrayList<>();
      for (int i = 0; i < 12; i++) { // partitions 0..down-1 have no leader
        infos.add(new PartitionInfo("t", i, i < down ? null : NODE, new Node[] {NODE},
            new Node[] {NODE}));
      }
      Cluster c = new Cluster("c", List.of(NODE), infos, Set.of(), Set.of());
      for (int i = 0; i < 50; i++) {
        // guards against: with 3 down, keyless records went to payment's exclusive 6..8; with 5 down the
        // send failed ("payment range 6-8 exceeds the topic's 7 partitions")
        int partition = p.partition("t", null, null, null, null, c);
        assertThat(partition).as("%d down", down).isIn(0, 1, 2, 3, 4, 5, 9, 10, 11);
        if (down < 9) {
          assertThat(partition).as("prefers an available partition").isGreaterThanOrEqualTo(down);
        }
      }
    }
  }

  /** A header-sourced version in a canary's new spec is refused under the key as written. */
  @Test
  void aCanaryHeaderVersionIsRefusedUnderItsOwnName() {
    assertThatThrownBy(() -> new RoutingPartitioner().configure(Map.of(
        "routing.canary.share", "10%",
        "routing.canary.next.version.generations", "v1:kafka-murmur2,v2:xxh3-64",
        "routing.canary.next.version.default", "v1",
        "routing.canary.next.version.source", "header")))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("Invalid value header for configuration"
            + " routing.canary.next.version.source:")
        .hasMessageContaining("no record headers");
  }

  /** Canary shares with huge exponents name the property, the value and the rule. */
  @Test
  void hugeExponentSharesAreConfigErrors() {
    for (String share : new String[] {"1e99999999999%", "1e-99999999999%", "0e99999999999%",
        "1e2147483648%", "1e99999999999", "1e-2147483649"}) {
      assertThatThrownBy(() -> new RoutingPartitioner().configure(Map.of(
          "routing.canary.share", share, "routing.canary.next.placement", "jump")))
          .as(share).isInstanceOf(ConfigException.class)
          .hasMessageContaining("routing.canary.share").hasMessageContaining(share)
          .hasMessageContaining("[0, 1]");
    }
  }

  /** An assignor list of empty entries is refused like a segment list, not read as empty. */
  @Test
  void emptyAssignorListEntriesAreRefused() {
    for (String value : new String[] {",", " , ", "orders:2,", ",orders:2", "orders:2,,audit:1"}) {
      assertThatThrownBy(() -> new RoutingAssignor().configure(Map.of(
          RoutingAssignorConfig.TOPIC_WEIGHTS, value)))
          .as("'" + value + "'").isInstanceOf(ConfigException.class)
          .hasMessageContaining(RoutingAssignorConfig.TOPIC_WEIGHTS)
          .hasMessageContaining("none of them empty");
    }
    assertThatThrownBy(() -> RoutingAssignorConfig.parse(Map.of(
        RoutingAssignorConfig.INSTANCE_WEIGHTS, ",")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("none of them empty");
    // unset, or set to nothing at all, is every topic at weight 1
    assertThat(RoutingAssignorConfig.parse(Map.of(RoutingAssignorConfig.TOPIC_WEIGHTS, ""))
        .topicWeights()).isEmpty();
  }
}
