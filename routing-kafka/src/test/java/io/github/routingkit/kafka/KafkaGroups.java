package io.github.routingkit.kafka;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/** Test helpers: clusters with racks, and groups driven through rebalances like the coordinator. */
final class KafkaGroups {
  private KafkaGroups() {}

  /** Topics of {@code partitions} each; partition p has replicas on racks p%racks and (p+1)%racks. */
  static Cluster cluster(Map<String, Integer> topics, int racks) {
    List<Node> nodes = new ArrayList<>();
    for (int i = 0; i < Math.max(racks, 1); i++) {
      nodes.add(racks == 0 ? new Node(i, "localhost", 9092 + i) : new Node(i, "localhost", 9092 + i, "rack-" + i));
    }
    List<PartitionInfo> infos = new ArrayList<>();
    topics.forEach((t, n) -> {
      for (int p = 0; p < n; p++) {
        Node a = nodes.get(p % nodes.size());
        Node b = nodes.get((p + 1) % nodes.size());
        Node[] replicas = a == b ? new Node[] {a} : new Node[] {a, b};
        infos.add(new PartitionInfo(t, p, a, replicas, replicas));
      }
    });
    return new Cluster("test", nodes, infos, Set.of(), Set.of());
  }

  /** One consumer's state as the coordinator sees it. */
  record Consumer(String memberId, String rack, List<String> topics, List<TopicPartition> owned,
      int generation, java.nio.ByteBuffer userData) {
    Subscription subscription() {
      return new Subscription(topics, userData == null ? null : userData.duplicate(), owned,
          generation, Optional.ofNullable(rack));
    }
  }

  /**
   * Runs rebalances like a cooperative coordinator: each round every consumer reports what it owns,
   * keeps what it was given; repeats while someone revoked something (at most {@code maxRounds}).
   * Returns the final owners and checks that no round handed an owned partition to someone else.
   */
  static Map<String, List<TopicPartition>> rebalance(ConsumerPartitionAssignor assignor,
      Cluster cluster, List<Consumer> consumers, int generation, int maxRounds) {
    List<Consumer> state = new ArrayList<>(consumers);
    for (int round = 0; round < maxRounds; round++) {
      Map<String, Subscription> subs = new HashMap<>();
      state.forEach(c -> subs.put(c.memberId(), c.subscription()));
      Map<String, ConsumerPartitionAssignor.Assignment> result =
          assignor.assign(cluster, new GroupSubscription(subs)).groupAssignment();
      checkNoTransfer(state, result);
      boolean revoked = false;
      List<Consumer> next = new ArrayList<>();
      for (Consumer c : state) {
        List<TopicPartition> got = result.get(c.memberId()).partitions();
        revoked |= !got.containsAll(c.owned());
        next.add(new Consumer(c.memberId(), c.rack(), c.topics(), got, generation + round,
            c.userData()));
      }
      state = next;
      if (!revoked) {
        break;
      }
    }
    Map<String, List<TopicPartition>> out = new HashMap<>();
    state.forEach(c -> out.put(c.memberId(), c.owned()));
    return out;
  }

  /** The check Kafka's ConsumerCoordinator applies to cooperative assignments. */
  static void checkNoTransfer(List<Consumer> before, Map<String, ConsumerPartitionAssignor.Assignment> after) {
    Set<TopicPartition> revoked = new java.util.HashSet<>();
    Set<TopicPartition> added = new java.util.HashSet<>();
    for (Consumer c : before) {
      List<TopicPartition> got = after.get(c.memberId()).partitions();
      c.owned().stream().filter(p -> !got.contains(p)).forEach(revoked::add);
      got.stream().filter(p -> !c.owned().contains(p)).forEach(added::add);
    }
    added.retainAll(revoked);
    if (!added.isEmpty()) {
      throw new AssertionError("partitions transferred while still owned: " + added);
    }
  }
}
