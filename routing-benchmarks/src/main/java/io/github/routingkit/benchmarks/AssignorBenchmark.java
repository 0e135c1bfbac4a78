package io.github.routingkit.benchmarks;

import io.github.routingkit.kafka.RoutingAssignor;
import io.github.routingkit.kafka.RoutingGroupAssignor;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Assignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.coordinator.group.api.assignor.ConsumerGroupPartitionAssignor;
import org.apache.kafka.coordinator.group.api.assignor.GroupSpec;
import org.apache.kafka.coordinator.group.api.assignor.MemberAssignment;
import org.apache.kafka.coordinator.group.api.assignor.MemberSubscription;
import org.apache.kafka.coordinator.group.api.assignor.SubscribedTopicDescriber;
import org.apache.kafka.coordinator.group.api.assignor.SubscriptionType;
import org.apache.kafka.coordinator.group.assignor.UniformAssignor;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One {@code assign} call on Kafka's own scale scenarios (AbstractStickyAssignorTest's
 * testLargeAssignmentAndGroupWith{Uniform,NonEqual}Subscription): 2,000 members, topics of 2,000
 * partitions each (50 topics = 100,000 partitions, 500 = 1,000,000); with racks, 3 broker racks,
 * 2 replicas per partition, member {@code i} on rack {@code i % 3}; "nonequal": the last member
 * subscribes to the first topic only. {@code fresh}: nobody owns anything; {@code rebalance}: the
 * first member has left and the others own what the same assignor gave them.
 *
 * <p>Both assignor pairs in the same run: the classic {@link RoutingAssignor} against
 * {@link CooperativeStickyAssignor}, the KIP-848 {@link RoutingGroupAssignor} against
 * {@link UniformAssignor}. Run with {@code -prof gc}: {@code gc.alloc.rate.norm} is what one
 * assign call allocates.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx8g"})
@State(Scope.Benchmark)
public class AssignorBenchmark {
  @Param({"uniform-racks-100k", "uniform-100k", "uniform-racks-1m", "uniform-1m", "nonequal-racks-100k"})
  String scenario;

  @Param({"routing", "cooperative-sticky", "routing-group", "uniform"})
  String assignor;

  private static final int MEMBERS = 2_000;
  private static final int PARTITIONS_PER_TOPIC = 2_000;

  private boolean classic;
  private ConsumerPartitionAssignor classicAssignor;
  private ConsumerGroupPartitionAssignor groupAssignor;
  private Cluster cluster;
  private GroupSubscription freshClassic;
  private GroupSubscription rebalanceClassic;
  private Spec freshGroup;
  private Spec rebalanceGroup;
  private Describer describer;

  @Setup(Level.Trial)
  public void setUp() {
    boolean racks = scenario.contains("racks");
    boolean nonEqual = scenario.startsWith("nonequal");
    int topicCount = scenario.endsWith("1m") ? 500 : 50;
    List<String> topics = new ArrayList<>();
    for (int t = 0; t < topicCount; t++) {
      topics.add("topic-" + t);
    }
    classic = assignor.equals("routing") || assignor.equals("cooperative-sticky");
    List<List<String>> subs = new ArrayList<>();
    for (int i = 0; i < MEMBERS; i++) {
      subs.add(nonEqual && i == MEMBERS - 1 ? topics.subList(0, 1) : topics);
    }
    if (classic) {
      setUpClassic(racks, topics, subs);
    } else {
      setUpGroup(racks, topics, subs, nonEqual);
    }
  }

  private static String member(int i) {
    return "member-" + i;
  }

  private void setUpClassic(boolean racks, List<String> topics, List<List<String>> subs) {
    classicAssignor = assignor.equals("routing") ? new RoutingAssignor() : new CooperativeStickyAssignor();
    List<Node> nodes = new ArrayList<>();
    for (int n = 0; n < 3; n++) {
      nodes.add(racks ? new Node(n, "h" + n, 9092, "rack-" + n) : new Node(n, "h" + n, 9092));
    }
    List<PartitionInfo> infos = new ArrayList<>();
    for (String t : topics) {
      for (int p = 0; p < PARTITIONS_PER_TOPIC; p++) {
        Node[] replicas = {nodes.get(p % 3), nodes.get((p + 1) % 3)};
        infos.add(new PartitionInfo(t, p, replicas[0], replicas, replicas));
      }
    }
    cluster = new Cluster("bench", nodes, infos, Set.of(), Set.of());
    Map<String, Subscription> fresh = new HashMap<>();
    for (int i = 0; i < MEMBERS; i++) {
      fresh.put(member(i), new Subscription(subs.get(i), null, List.of(), -1,
          racks ? Optional.of("rack-" + i % 3) : Optional.empty()));
    }
    freshClassic = new GroupSubscription(fresh);
    // The userData each member would send at generation 1 (CooperativeStickyAssignor encodes it).
    ConsumerPartitionAssignor encoder =
        assignor.equals("routing") ? new RoutingAssignor() : new CooperativeStickyAssignor();
    encoder.onAssignment(new Assignment(List.of()), new ConsumerGroupMetadata("g", 1, "m", Optional.empty()));
    ByteBuffer userData = encoder.subscriptionUserData(new HashSet<>(topics));
    Map<String, Assignment> first = classicAssignor.assign(cluster, freshClassic).groupAssignment();
    Map<String, Subscription> next = new HashMap<>();
    for (int i = 1; i < MEMBERS; i++) {
      next.put(member(i), new Subscription(subs.get(i), userData == null ? null : userData.duplicate(),
          first.get(member(i)).partitions(), 1, racks ? Optional.of("rack-" + i % 3) : Optional.empty()));
    }
    rebalanceClassic = new GroupSubscription(next);
  }

  private void setUpGroup(boolean racks, List<String> topics, List<List<String>> subs, boolean nonEqual) {
    groupAssignor = assignor.equals("routing-group") ? new RoutingGroupAssignor() : new UniformAssignor();
    Map<String, Uuid> ids = new HashMap<>();
    for (int t = 0; t < topics.size(); t++) {
      ids.put(topics.get(t), new Uuid(17, t + 1));
    }
    describer = new Describer(ids.size(), racks);
    SubscriptionType type = nonEqual ? SubscriptionType.HETEROGENEOUS : SubscriptionType.HOMOGENEOUS;
    Map<String, Member> fresh = new HashMap<>();
    Set<Uuid> all = new HashSet<>(ids.values());
    Set<Uuid> first = Set.of(ids.get(topics.get(0)));
    for (int i = 0; i < MEMBERS; i++) {
      fresh.put(member(i), new Member(racks ? "rack-" + i % 3 : null,
          subs.get(i).size() == 1 ? first : all, Collections.emptyMap()));
    }
    freshGroup = new Spec(fresh, type);
    Map<String, Member> next = new HashMap<>();
    groupAssignor.assign(freshGroup, describer).members().forEach((m, a) -> {
      if (!m.equals(member(0))) {
        next.put(m, new Member(fresh.get(m).rack(), fresh.get(m).topics(),
            Collections.unmodifiableMap(a.partitions())));
      }
    });
    rebalanceGroup = new Spec(next, type);
  }

  @Benchmark
  public Object fresh() {
    return classic ? classicAssignor.assign(cluster, freshClassic) : groupAssignor.assign(freshGroup, describer);
  }

  @Benchmark
  public Object rebalance() {
    return classic ? classicAssignor.assign(cluster, rebalanceClassic)
        : groupAssignor.assign(rebalanceGroup, describer);
  }

  /** Topic ids {@code (17, 1..n)}, each of 2,000 partitions, replicas on racks p%3 and (p+1)%3. */
  record Describer(int topics, boolean racks) implements SubscribedTopicDescriber {
    private static final List<Set<String>> RACKS =
        List.of(Set.of("rack-0", "rack-1"), Set.of("rack-1", "rack-2"), Set.of("rack-2", "rack-0"));

    @Override
    public int numPartitions(Uuid topicId) {
      return topicId.getMostSignificantBits() == 17 && topicId.getLeastSignificantBits() <= topics
          ? PARTITIONS_PER_TOPIC : -1;
    }

    @Override
    public Set<String> racksForPartition(Uuid topicId, int partition) {
      return racks ? RACKS.get(partition % 3) : Set.of();
    }
  }

  record Member(String rack, Set<Uuid> topics, Map<Uuid, Set<Integer>> partitions)
      implements MemberSubscription, MemberAssignment {
    @Override
    public Optional<String> rackId() {
      return Optional.ofNullable(rack);
    }

    @Override
    public Optional<String> instanceId() {
      return Optional.empty();
    }

    @Override
    public Set<Uuid> subscribedTopicIds() {
      return topics;
    }
  }

  record Spec(Map<String, Member> members, SubscriptionType type, Set<Long> assigned) implements GroupSpec {
    Spec(Map<String, Member> members, SubscriptionType type) {
      this(members, type, assignedOf(members));
    }

    private static Set<Long> assignedOf(Map<String, Member> members) {
      Set<Long> out = new HashSet<>();
      members.values().forEach(m -> m.partitions().forEach((t, ps) ->
          ps.forEach(p -> out.add(key(t, p)))));
      return out;
    }

    /** Distinct small longs (Long's hash of {@code lsb << 32 | p} would collide for every p). */
    private static long key(Uuid t, int p) {
      return (long) p * 1024 + t.getLeastSignificantBits();
    }

    @Override
    public Collection<String> memberIds() {
      return members.keySet();
    }

    @Override
    public SubscriptionType subscriptionType() {
      return type;
    }

    @Override
    public boolean isPartitionAssigned(Uuid topicId, int partitionId) {
      return assigned.contains(key(topicId, partitionId));
    }

    @Override
    public boolean isPartitionAssignable(Uuid topicId, int partitionId) {
      return true;
    }

    @Override
    public MemberSubscription memberSubscription(String memberId) {
      return members.get(memberId);
    }

    @Override
    public MemberAssignment memberAssignment(String memberId) {
      return members.get(memberId);
    }
  }

}
