package io.github.routingkit.kafka;

import io.github.routingkit.assignment.AssignmentPolicy;
import io.github.routingkit.assignment.OwnedPartitions;
import io.github.routingkit.assignment.RebalanceMode;
import io.github.routingkit.assignment.RebalanceResult;
import java.util.Collection;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import org.apache.kafka.common.Configurable;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.coordinator.group.api.assignor.ConsumerGroupPartitionAssignor;
import org.apache.kafka.coordinator.group.api.assignor.GroupAssignment;
import org.apache.kafka.coordinator.group.api.assignor.GroupSpec;
import org.apache.kafka.coordinator.group.api.assignor.MemberAssignment;
import org.apache.kafka.coordinator.group.api.assignor.MemberSubscription;
import org.apache.kafka.coordinator.group.api.assignor.SubscribedTopicDescriber;

/**
 * The broker-side (KIP-848, {@code group.protocol=consumer}) form of {@link RoutingAssignor}: the
 * same {@link AssignmentPolicy} as a {@link ConsumerGroupPartitionAssignor} (kafka-group-coordinator-api
 * 4.1). Register it on the brokers with {@code group.consumer.assignors} (for example
 * {@code uniform,range,io.github.routingkit.kafka.RoutingGroupAssignor}) and select it in consumers
 * with {@code group.remote.assignor=}{@value #NAME}.
 *
 * <p>What differs from the classic assignor, because of what the broker API provides:
 * <ul>
 *   <li>The coordinator keeps the current assignment of each member and reconciles revocations
 *       itself (a partition goes to its new owner only after the old one has revoked it), so this
 *       assignor computes the target assignment directly (the policy's EAGER mode) with the current
 *       assignment as ownership; stickiness, determinism, balance and rack locality are the same.</li>
 *   <li>There is no userData: member weights come from the broker config
 *       {@value RoutingAssignorConfig#INSTANCE_WEIGHTS} by {@code group.instance.id} (others weigh
 *       1). Topics are known only by id, so per-topic weights are not supported here.</li>
 *   <li>A subscribed topic the describer does not know ({@code numPartitions == -1}) is skipped;
 *       partitions the group spec marks not assignable are left out of the result.</li>
 * </ul>
 *
 * <p>Thread-safe: immutable after {@link #configure}; the coordinator may call {@link #assign} from
 * several threads.
 */
public final class RoutingGroupAssignor implements ConsumerGroupPartitionAssignor, Configurable {
  /** The name consumers give in {@code group.remote.assignor}. */
  public static final String NAME = "routing";

  private volatile RoutingAssignorConfig config = RoutingAssignorConfig.defaults();

  /**
   * Reads {@value RoutingAssignorConfig#INSTANCE_WEIGHTS} from the broker configs (the broker
   * passes its whole config; keys outside {@code routing.assignor.*} are ignored).
   *
   * @throws org.apache.kafka.common.config.ConfigException naming the property, the value and the
   *     rule, for a bad value, an unknown {@code routing.assignor.*} key, or a key only the classic
   *     {@link RoutingAssignor} reads ({@value RoutingAssignorConfig#WEIGHT},
   *     {@value RoutingAssignorConfig#TOPIC_WEIGHTS},
   *     {@value RoutingAssignorConfig#REBALANCE_PROTOCOL}), which would do nothing here
   */
  @Override
  public void configure(Map<String, ?> configs) {
    this.config = RoutingAssignorConfig.parseForBroker(configs);
  }

  @Override
  public String name() {
    return NAME;
  }

  /**
   * Computes the target assignment.
   *
   * @return an assignment for every member of {@code spec}; each assignable partition of a
   *     subscribed, known topic goes to exactly one subscribed member
   */
  @Override
  public GroupAssignment assign(GroupSpec spec, SubscribedTopicDescriber topics) {
    Map<String, Integer> weights = config.instanceWeights();
    GroupStateTranslation state = new GroupStateTranslation();
    // Each topic id becomes a name once, and each distinct subscription one shared name set (the
    // policy then indexes it once), instead of once per member and partition.
    Map<Uuid, String> nameOf = new HashMap<>();
    Map<String, Uuid> idOf = new HashMap<>();
    Map<Set<Uuid>, Set<String>> sameInstance = new IdentityHashMap<>();
    Map<Set<Uuid>, Set<String>> equal = new HashMap<>();
    Set<Uuid> described = new LinkedHashSet<>();
    Collection<String> memberIds = spec.memberIds();
    String[] byPosition = new String[memberIds.size()];
    int position = 0;
    boolean anyRack = false;
    for (String id : memberIds) {
      byPosition[position++] = id;
      MemberSubscription sub = spec.memberSubscription(id);
      anyRack |= sub.rackId().isPresent();
      Set<Uuid> subscribed = sub.subscribedTopicIds();
      Set<String> names = sameInstance.get(subscribed);
      if (names == null) {
        names = equal.get(subscribed);
        if (names == null) {
          Set<String> n = new HashSet<>();
          for (Uuid t : subscribed) {
            n.add(name(t, nameOf, idOf));
            described.add(t);
          }
          names = Set.copyOf(n);
          equal.put(Set.copyOf(subscribed), names);
        }
        sameInstance.put(subscribed, names);
      }
      String instance = sub.instanceId().orElse(null);
      int weight = instance == null ? 1 : weights.getOrDefault(instance, 1);
      // The coordinator reconciles revocations itself, so all current owners are of one generation.
      // What a member owns is read by the policy below, per topic, without a PartitionRef each.
      state.member(id, instance, sub.rackId().orElse(null), weight, names, List.of(), 0);
    }
    Map<Uuid, Integer> topicPosition = new HashMap<>();
    for (Uuid t : described) {
      // Without a member rack the policy reads no replica racks: none are asked for.
      int at = state.topic(nameOf.get(t), topics.numPartitions(t),
          anyRack ? p -> topics.racksForPartition(t, p) : null, 1);
      if (at >= 0) {
        topicPosition.put(t, at);
      }
    }
    // Per member: how many partitions it owns now, and whether all of them are assignable; a member
    // that keeps exactly these gets the coordinator's own assignment object back.
    OwnedReader reader = new OwnedReader(spec, topicPosition, byPosition.length);
    RebalanceResult result = state.assign(RebalanceMode.EAGER, (member, sink) ->
        reader.read(member, spec.memberAssignment(byPosition[member]).partitions(), sink));
    int[] ownedCount = reader.total;
    boolean[] allAssignable = reader.allAssignable;
    Map<String, Integer> positionOf = new HashMap<>(byPosition.length * 2);
    for (int j = 0; j < byPosition.length; j++) {
      positionOf.put(byPosition[j], j);
    }
    List<String> resultTopics = result.topicNames();
    Uuid[] byIndex = new Uuid[resultTopics.size()];
    for (int t = 0; t < byIndex.length; t++) {
      byIndex[t] = idOf.get(resultTopics.get(t));
    }
    Map<String, MemberAssignment> out = new HashMap<>(byPosition.length * 2);
    for (String id : result.memberIds()) {
      Map<Uuid, Set<Integer>> current = spec.memberAssignment(id).partitions();
      Integer j = positionOf.get(id);
      int count = result.countOf(id);
      if (j != null && allAssignable[j] && ownedCount[j] == count && result.keptCountOf(id) == count) {
        // It keeps exactly what it owns (most members, in a rebalance): nothing to build.
        out.put(id, new Partitions(current));
        continue;
      }
      // A topic whose partitions stay as they are keeps the coordinator's own set: nothing is
      // allocated for it.
      int topicsAtMost = Math.min(count, byIndex.length);
      Map<Uuid, Set<Integer>> byTopic = new HashMap<>((int) (topicsAtMost / 0.75f) + 1);
      result.forEachTopic(id, (topic, t, ps) -> {
        Uuid u = byIndex[t];
        int kept = 0;
        for (int p : ps) {
          if (spec.isPartitionAssignable(u, p)) {
            ps[kept++] = p;
          }
        }
        if (kept > 0) {
          Set<Integer> cur = current.get(u);
          byTopic.put(u, sameAs(cur, ps, kept) ? cur
              : new SortedIntSet(kept == ps.length ? ps : Arrays.copyOf(ps, kept)));
        }
      });
      out.put(id, new Partitions(byTopic));
    }
    return new GroupAssignment(out);
  }

  /** {@code cur} holds exactly the first {@code n} values of {@code ps} (distinct). */
  private static boolean sameAs(Set<Integer> cur, int[] ps, int n) {
    if (cur == null || cur.size() != n) {
      return false;
    }
    for (int j = 0; j < n; j++) {
      if (!cur.contains(ps[j])) {
        return false;
      }
    }
    return true;
  }

  private static String name(Uuid t, Map<Uuid, String> nameOf, Map<String, Uuid> idOf) {
    String n = nameOf.get(t);
    if (n == null) {
      n = t.toString();
      nameOf.put(t, n);
      idOf.put(n, t);
    }
    return n;
  }

  /**
   * Hands one member's current assignment to the policy, topic by topic, through one reused
   * buffer; notes per member how many partitions it owns and whether all are assignable (and no
   * topic set is empty). {@code Map.forEach}, not an entry iterator: no wrapper per entry.
   */
  private static final class OwnedReader implements BiConsumer<Uuid, Set<Integer>> {
    private final GroupSpec spec;
    private final Map<Uuid, Integer> topicPosition;
    final int[] total;
    final boolean[] allAssignable;
    private int[] buf = new int[64];
    private int member;
    private OwnedPartitions.Sink sink;

    OwnedReader(GroupSpec spec, Map<Uuid, Integer> topicPosition, int members) {
      this.spec = spec;
      this.topicPosition = topicPosition;
      this.total = new int[members];
      this.allAssignable = new boolean[members];
    }

    void read(int member, Map<Uuid, Set<Integer>> current, OwnedPartitions.Sink sink) {
      this.member = member;
      this.sink = sink;
      allAssignable[member] = true;
      current.forEach(this);
    }

    @Override
    public void accept(Uuid u, Set<Integer> ps) {
      int size = ps.size();
      total[member] += size;
      boolean assignable = allAssignable[member] && size > 0; // an empty set is left out of a rebuilt one
      Integer t = topicPosition.get(u);
      if (t == null) {
        allAssignable[member] = assignable;
        return; // a topic nobody subscribes to, or unknown: claims nothing
      }
      if (ps instanceof SortedIntSet own) {
        // What this assignor gave last time, handed back as it was: read the array, no boxing.
        int[] values = own.values();
        for (int j = 0; j < values.length && assignable; j++) {
          assignable = spec.isPartitionAssignable(u, values[j]);
        }
        allAssignable[member] = assignable;
        sink.accept(t, values, values.length);
        return;
      }
      if (buf.length < size) {
        buf = new int[Math.max(size, buf.length * 2)];
      }
      int c = 0;
      for (int p : ps) {
        buf[c++] = p;
        assignable = assignable && spec.isPartitionAssignable(u, p);
      }
      allAssignable[member] = assignable;
      sink.accept(t, buf, c);
    }
  }

  /** One member's target partitions by topic id. */
  private record Partitions(Map<Uuid, Set<Integer>> partitions) implements MemberAssignment {}
}
