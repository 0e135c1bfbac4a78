package io.github.routingkit.kafka.scenarios;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/**
 * One assignor scenario: topics, racks, and the group at each step (who subscribes to what, and
 * optionally what some members claim to own going into the step). A fluent builder; immutable in
 * use.
 */
final class GroupScenario {
  /** What a member claims going into a step, and since which generation. */
  record Owned(List<TopicPartition> partitions, int generation) {}

  /** The group at one rebalance. */
  record Step(Map<String, List<String>> members, Map<String, Owned> preset) {}

  final String name;
  final String upstream;
  private final Map<String, Integer> topics = new LinkedHashMap<>();
  private final List<Step> steps = new ArrayList<>();
  private final Map<String, Integer> memberIndex = new HashMap<>();
  int brokerRacks;
  int replication = 1;
  boolean consumerRacks;

  GroupScenario(String name, String upstream) {
    this.name = name;
    this.upstream = upstream;
  }

  static GroupScenario of(String name, String upstream) {
    return new GroupScenario(name, upstream);
  }

  GroupScenario topic(String t, int partitions) {
    topics.put(t, partitions);
    return this;
  }

  /** Brokers on {@code racks} racks, each partition on {@code rf} consecutive racks; members on racks too. */
  GroupScenario racks(int racks, int rf) {
    brokerRacks = racks;
    replication = rf;
    consumerRacks = true;
    return this;
  }

  /** A new step: the previous step's members (or none), changed by the calls that follow. */
  GroupScenario step() {
    Map<String, List<String>> prev = steps.isEmpty() ? new LinkedHashMap<>()
        : new LinkedHashMap<>(steps.get(steps.size() - 1).members());
    steps.add(new Step(prev, new LinkedHashMap<>()));
    return this;
  }

  GroupScenario member(String m, String... subscribed) {
    last().members().put(m, List.of(subscribed));
    memberIndex.putIfAbsent(m, memberIndex.size());
    return this;
  }

  GroupScenario leave(String m) {
    last().members().remove(m);
    return this;
  }

  GroupScenario own(String m, int generation, String... partitions) {
    List<TopicPartition> ps = new ArrayList<>();
    for (String p : partitions) {
      int dash = p.lastIndexOf('-');
      ps.add(new TopicPartition(p.substring(0, dash), Integer.parseInt(p.substring(dash + 1))));
    }
    last().preset().put(m, new Owned(ps, generation));
    return this;
  }

  GroupScenario ownList(String m, int generation, List<TopicPartition> ps) {
    last().preset().put(m, new Owned(List.copyOf(ps), generation));
    return this;
  }

  private Step last() {
    if (steps.isEmpty()) {
      step();
    }
    return steps.get(steps.size() - 1);
  }

  List<Step> steps() {
    return steps;
  }

  Map<String, Integer> topics() {
    return topics;
  }

  String rackOf(String member) {
    return consumerRacks ? "rack-" + memberIndex.getOrDefault(member, 0) % brokerRacks : null;
  }

  Set<String> replicaRacks(int partition) {
    Set<String> out = new LinkedHashSet<>();
    for (int j = 0; j < replication && brokerRacks > 0; j++) {
      out.add("rack-" + (partition + j) % brokerRacks);
    }
    return out;
  }

  Cluster cluster() {
    int racks = Math.max(brokerRacks, 1);
    List<Node> nodes = new ArrayList<>();
    for (int i = 0; i < racks; i++) {
      nodes.add(brokerRacks == 0 ? new Node(i, "h" + i, 9092) : new Node(i, "h" + i, 9092, "rack-" + i));
    }
    List<PartitionInfo> infos = new ArrayList<>();
    topics.forEach((t, n) -> {
      for (int p = 0; p < n; p++) {
        Node[] replicas = new Node[Math.min(replication, racks)];
        for (int j = 0; j < replicas.length; j++) {
          replicas[j] = nodes.get((p + j) % racks);
        }
        infos.add(new PartitionInfo(t, p, replicas[0], replicas, replicas));
      }
    });
    return new Cluster("c", nodes, infos, Set.of(), Set.of());
  }

  /** The same scenario with racks (3 broker racks, 2 replicas, members on racks), named so. */
  GroupScenario withRacks() {
    GroupScenario s = new GroupScenario(name + " [racks]", upstream);
    s.topics.putAll(topics);
    s.steps.addAll(steps);
    s.memberIndex.putAll(memberIndex);
    s.brokerRacks = 3;
    s.replication = 2;
    s.consumerRacks = true;
    return s;
  }

  @Override
  public String toString() {
    return name;
  }
}
