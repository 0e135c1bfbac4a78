package io.github.routingkit.benchmarks;

import io.github.routingkit.kafka.RoutingAssignor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Assignment time of the classic {@link RoutingAssignor} against kafka-clients'
 * {@link CooperativeStickyAssignor} on the same group: 1,000 members on 3 racks subscribed to 10
 * topics with 10,000 partitions in all (2 replicas each), for a fresh group and for one member
 * joining a balanced group.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Benchmark)
public class AssignorBenchmark {
  @Param({"routing", "cooperative-sticky"})
  String assignor;

  private static final int MEMBERS = 1000;
  private static final int PARTITIONS = 10_000;
  private static final int TOPICS = 10;

  private ConsumerPartitionAssignor instance;
  private Cluster cluster;
  private GroupSubscription fresh;
  private GroupSubscription join;

  @Setup
  public void setUp() {
    instance = assignor.equals("routing") ? new RoutingAssignor() : new CooperativeStickyAssignor();
    List<Node> nodes = List.of(
        new Node(0, "h0", 1, "r0"), new Node(1, "h1", 2, "r1"), new Node(2, "h2", 3, "r2"));
    List<PartitionInfo> infos = new ArrayList<>();
    List<String> topics = new ArrayList<>();
    for (int t = 0; t < TOPICS; t++) {
      topics.add("t" + t);
      for (int p = 0; p < PARTITIONS / TOPICS; p++) {
        Node[] replicas = {nodes.get(p % 3), nodes.get((p + 1) % 3)};
        infos.add(new PartitionInfo("t" + t, p, replicas[0], replicas, replicas));
      }
    }
    cluster = new Cluster("bench", nodes, infos, Set.of(), Set.of());
    Map<String, Subscription> members = new HashMap<>();
    for (int i = 0; i < MEMBERS; i++) {
      members.put("m" + i, new Subscription(topics, null, List.of(), -1, Optional.of("r" + i % 3)));
    }
    fresh = new GroupSubscription(members);
    Map<String, Subscription> balanced = new HashMap<>();
    instance.assign(cluster, fresh).groupAssignment().forEach((member, assignment) ->
        balanced.put(member, new Subscription(topics, assignment.userData(),
            assignment.partitions(), 1, members.get(member).rackId())));
    balanced.put("joiner", new Subscription(topics, null, List.of(), -1, Optional.of("r0")));
    join = new GroupSubscription(balanced);
  }

  @Benchmark
  public Object freshGroup() {
    return instance.assign(cluster, fresh);
  }

  @Benchmark
  public Object oneMemberJoins() {
    return instance.assign(cluster, join);
  }
}
