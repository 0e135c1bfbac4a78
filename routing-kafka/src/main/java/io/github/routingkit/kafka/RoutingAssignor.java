package io.github.routingkit.kafka;

import io.github.routingkit.assignment.AssignmentPolicy;
import io.github.routingkit.assignment.GroupMember;
import io.github.routingkit.assignment.PartitionRef;
import io.github.routingkit.assignment.RebalanceMode;
import io.github.routingkit.assignment.RebalanceResult;
import io.github.routingkit.metrics.AssignorMetrics;
import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Configurable;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client-side Kafka {@link ConsumerPartitionAssignor} ({@code group.protocol=classic}) that runs
 * RoutingKit's {@link AssignmentPolicy}: deterministic, balanced by member weight (max - min &lt;= 1
 * at equal weights), sticky with the fewest moves balance allows, cooperative-safe, aware of static
 * membership and racks. Set {@code partition.assignment.strategy} to this class; its
 * {@link #name()} is {@value #NAME}. Configure it with the {@link RoutingAssignorConfig} keys.
 *
 * <p><b>Protocols.</b> By default {@link #supportedProtocols()} is {@code [COOPERATIVE, EAGER]}
 * (Kafka then uses COOPERATIVE, KIP-429); with {@code routing.assignor.rebalance.protocol=eager} it
 * is {@code [EAGER]}. Under COOPERATIVE a partition that another member still lists in its
 * {@code ownedPartitions} is never given to a new owner in the same rebalance; the owner revokes it
 * and Kafka's follow-up rebalance hands it over (so the leader's
 * {@code ConsumerCoordinator} check that no partition is both revoked and added always passes).
 *
 * <p><b>userData</b> (versioned, see {@code AssignorUserData}) carries the member's weight and its
 * last assignment with generation, which keeps EAGER rebalances sticky (an EAGER member revokes
 * everything before it joins). It is used as the member's claim only when no member of the group
 * lists any {@code ownedPartitions} (EAGER, or a cooperative group where everyone starts empty), so
 * it can never delay a hand-over. Garbage, truncated or future-version userData counts as weight 1
 * with nothing owned and logs one warning per member and rebalance (slf4j, not on a hot path);
 * {@link #assign} never throws because of it.
 *
 * <p><b>Inputs used:</b> each subscription's topics, {@code ownedPartitions} and
 * {@code generationId}, {@code groupInstanceId}, {@code rackId} ({@code client.rack});
 * the cluster's partition counts and replica racks; topics missing from the metadata are skipped.
 *
 * <p>Thread-safety: Kafka calls an assignor from the consumer's own thread; the remembered last
 * assignment is kept in volatile fields.
 */
public final class RoutingAssignor implements ConsumerPartitionAssignor, Configurable {
  /** The assignor name sent to the group coordinator. */
  public static final String NAME = "routing";

  private static final Logger LOG = LoggerFactory.getLogger(RoutingAssignor.class);

  private volatile RoutingAssignorConfig config = RoutingAssignorConfig.defaults();
  private volatile List<PartitionRef> lastAssignment = List.of();
  private volatile int lastGeneration = GroupMember.UNKNOWN_GENERATION;
  /** What routing.metrics.* publishes (through metric.reporters), or null when off. */
  private volatile AssignorMetrics metrics;

  /**
   * Reads the {@code routing.assignor.*} consumer properties, and {@code routing.metrics.*}: with
   * metrics on (the default) the assignor publishes its {@code routing-assignor-metrics} through
   * the consumer's {@code metric.reporters} (docs/metrics.md). Other keys are ignored.
   *
   * @throws org.apache.kafka.common.config.ConfigException naming the property, the value and the
   *     rule, for a bad value (also of a {@code routing.metrics.*} key), an unknown
   *     {@code routing.assignor.*} key, or
   *     {@value RoutingAssignorConfig#INSTANCE_WEIGHTS}, which only the broker-side
   *     {@link RoutingGroupAssignor} reads
   */
  @Override
  public void configure(Map<String, ?> configs) {
    this.config = RoutingAssignorConfig.parseForConsumer(configs);
    AssignorMetrics old = metrics;
    if (old != null) {
      old.close();
    }
    KafkaMetricsPublisher published = KafkaMetricsPublisher.assignor(configs);
    this.metrics = published == null ? null : published.assignor();
    if (published != null) {
      // a consumer never closes its assignors: the metrics go when this assignor is collected
      Collected.CLEANER.register(this, published::close);
    }
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<RebalanceProtocol> supportedProtocols() {
    return config.eagerOnly()
        ? List.of(RebalanceProtocol.EAGER)
        : List.of(RebalanceProtocol.COOPERATIVE, RebalanceProtocol.EAGER);
  }

  @Override
  public ByteBuffer subscriptionUserData(Set<String> topics) {
    return AssignorUserData.encode(config.weight(), lastGeneration, lastAssignment);
  }

  @Override
  public void onAssignment(Assignment assignment, ConsumerGroupMetadata metadata) {
    List<PartitionRef> refs = new ArrayList<>();
    for (TopicPartition tp : assignment.partitions()) {
      refs.add(new PartitionRef(tp.topic(), tp.partition()));
    }
    this.lastAssignment = List.copyOf(refs);
    this.lastGeneration = metadata == null ? GroupMember.UNKNOWN_GENERATION : metadata.generationId();
  }

  /**
   * Computes the group's assignment (called on the group leader).
   *
   * @return an assignment for every member of {@code group}; partitions of subscribed topics known
   *     to {@code metadata}, each given to at most one member
   */
  @Override
  public GroupAssignment assign(Cluster metadata, GroupSubscription group) {
    // Nobody physically owns anything under EAGER (members revoke before joining), nor in a
    // cooperative group where every member comes with empty ownedPartitions: then nothing can be
    // handed over while owned, and the userData's last assignments keep the result sticky.
    boolean cooperative = !config.eagerOnly()
        && group.groupSubscription().values().stream().anyMatch(s -> !s.ownedPartitions().isEmpty());
    GroupStateTranslation state = new GroupStateTranslation();
    Set<String> topicNames = new HashSet<>();
    Map<List<String>, Set<String>> subscriptions = new HashMap<>();
    boolean anyRack = false;
    for (Map.Entry<String, Subscription> e : group.groupSubscription().entrySet()) {
      Subscription s = e.getValue();
      anyRack |= s.rackId().isPresent();
      AssignorUserData data = AssignorUserData.decode(s.userData());
      if (data.problem() != null) {
        LOG.warn("Member {} sent unreadable routing assignor userData ({}); using weight 1",
            e.getKey(), data.problem());
      }
      List<PartitionRef> owned = new ArrayList<>(s.ownedPartitions().size());
      for (TopicPartition tp : s.ownedPartitions()) {
        if (tp != null && tp.topic() != null && tp.partition() >= 0) { // a broken client's claim
          owned.add(new PartitionRef(tp.topic(), tp.partition()));
        }
      }
      int generation = s.generationId().orElse(data.generation());
      if (!cooperative && owned.isEmpty()) {
        owned = data.owned();
        generation = data.generation();
      }
      // Members mostly subscribe to the same topics: one shared name set per distinct list, which
      // the policy then indexes once.
      Set<String> names = subscriptions.get(s.topics());
      if (names == null) {
        names = Set.copyOf(s.topics());
        subscriptions.put(List.copyOf(s.topics()), names);
        topicNames.addAll(names);
      }
      state.member(e.getKey(), s.groupInstanceId().orElse(null), s.rackId().orElse(null),
          data.weight(), names, owned, generation);
    }
    Map<Set<String>, Set<String>> rackSets = new HashMap<>();
    for (String name : topicNames) {
      addTopic(state, metadata, name, anyRack ? rackSets : null);
    }
    long started = System.nanoTime();
    RebalanceResult result =
        state.assign(cooperative ? RebalanceMode.COOPERATIVE : RebalanceMode.EAGER);
    AssignorMetrics m = metrics;
    if (m != null) {
      m.record(result, System.nanoTime() - started);
    }
    Map<String, Assignment> out = new HashMap<>();
    for (String member : result.memberIds()) {
      List<TopicPartition> tps = new ArrayList<>(result.countOf(member));
      result.forEachPartition(member, (topic, p) -> tps.add(new TopicPartition(topic, p)));
      out.put(member, new Assignment(tps));
    }
    return new GroupAssignment(out);
  }

  /** The cleaner that closes a collected assignor's metrics, started on first use. */
  private static final class Collected {
    static final Cleaner CLEANER = Cleaner.create();
  }

  /**
   * Adds topic {@code name} as the metadata knows it. Kafka numbers a topic's partitions 0..n-1;
   * broken metadata (gaps, negative or huge numbers) must not make us hand out a partition the
   * topic does not have, nor size tables by a bogus number: only the gap-free prefix 0..count-1 is
   * assigned, with a warning about the rest. With {@code rackSets} null (no member has a rack,
   * so the policy reads no replica racks) the replicas are not looked at.
   */
  private void addTopic(GroupStateTranslation state, Cluster metadata, String name,
      Map<Set<String>, Set<String>> rackSets) {
    List<PartitionInfo> infos = metadata.partitionsForTopic(name);
    if (infos == null || infos.isEmpty()) {
      LOG.debug("Skipping topic {}: no partition metadata", name);
      return;
    }
    // Usually (a broker's metadata response, kafka-clients' Cluster) the list is in partition
    // order: then checking it is one read per partition and nothing is copied.
    int count = inOrderPrefix(infos);
    PartitionInfo[] byNumber = null;
    if (count < infos.size()) {
      byNumber = new PartitionInfo[infos.size()];
      for (PartitionInfo pi : infos) {
        if (pi != null && pi.partition() >= 0 && pi.partition() < infos.size()) {
          byNumber[pi.partition()] = pi;
        }
      }
      count = 0;
      while (count < byNumber.length && byNumber[count] != null) {
        count++;
      }
    }
    if (count < infos.size()) {
      LOG.warn("Topic {} metadata lists {} partitions but not all of 0..{}: assigning only"
          + " partitions 0..{}", name, infos.size(), infos.size() - 1, count - 1);
    }
    int weight = config.topicWeights().getOrDefault(name, 1);
    if (rackSets == null) {
      state.topic(name, count, null, weight);
      return;
    }
    Set<String> scratch = new HashSet<>(8);
    PartitionInfo[] numbered = byNumber;
    RecentRacks recent = new RecentRacks();
    state.topic(name, count, p -> {
      Node[] replicas = (numbered == null ? infos.get(p) : numbered[p]).replicas();
      if (replicas == null || replicas.length == 0) {
        return null;
      }
      int c = recent.read(replicas);
      if (c == 0) {
        return null; // most clusters have no racks: no set per partition then
      }
      Set<String> racks = recent.find(c);
      if (racks != null) {
        return racks;
      }
      if (!scratch.isEmpty()) {
        scratch.clear(); // HashMap.clear wipes the whole table, even when empty
      }
      for (int j = 0; j < c; j++) {
        scratch.add(recent.racks[j]);
      }
      // Few distinct rack sets: one shared immutable instance each (the policy indexes each once).
      racks = rackSets.get(scratch);
      if (racks == null) {
        racks = Set.copyOf(scratch);
        rackSets.put(racks, racks);
      }
      recent.remember(c, racks);
      return racks;
    }, weight);
  }

  /**
   * The rack sets of the last few replica lists, by the replicas' rack strings in replica order
   * (compared by reference, as a {@link Node} hands out its own): a partition whose replicas name
   * the same rack strings gets the same shared set without hashing a set per partition. A miss
   * only costs the lookup by value. Not thread-safe; one per topic translation.
   */
  private static final class RecentRacks {
    private static final int SIZE = 8;
    String[] racks = new String[4]; // the racks of the replicas read last, [0, count)
    private final String[][] keys = new String[SIZE][];
    @SuppressWarnings("unchecked")
    private final Set<String>[] sets = (Set<String>[]) new Set<?>[SIZE];
    private int next;

    /** Reads the racks of {@code replicas} (those that have one) into {@link #racks}; their count. */
    int read(Node[] replicas) {
      if (racks.length < replicas.length) {
        racks = new String[replicas.length];
      }
      int c = 0;
      for (Node n : replicas) {
        if (n != null && n.hasRack()) {
          racks[c++] = n.rack();
        }
      }
      return c;
    }

    /** The set remembered for the {@code c} racks just read, or null. */
    Set<String> find(int c) {
      for (int j = 0; j < SIZE; j++) {
        String[] k = keys[j];
        if (k != null && k.length == c && same(k, c)) {
          return sets[j];
        }
      }
      return null;
    }

    private boolean same(String[] k, int c) {
      for (int i = 0; i < c; i++) {
        if (k[i] != racks[i]) {
          return false;
        }
      }
      return true;
    }

    void remember(int c, Set<String> set) {
      keys[next] = Arrays.copyOf(racks, c);
      sets[next] = set;
      next = (next + 1) % SIZE;
    }
  }

  /**
   * How many of the first elements of {@code infos} are partitions 0, 1, 2, ... in that order; 0
   * for a list without fast positional access (the caller then places each by its number).
   */
  private static int inOrderPrefix(List<PartitionInfo> infos) {
    if (!(infos instanceof RandomAccess)) {
      return 0;
    }
    int count = 0;
    int n = infos.size();
    while (count < n) {
      PartitionInfo pi = infos.get(count);
      if (pi == null || pi.partition() != count) {
        break;
      }
      count++;
    }
    return count;
  }
}
