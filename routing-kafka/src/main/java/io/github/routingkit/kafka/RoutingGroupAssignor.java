package io.github.routingkit.kafka;

import io.github.routingkit.assignment.AssignmentPolicy;
import io.github.routingkit.assignment.PartitionRef;
import io.github.routingkit.assignment.RebalanceMode;
import io.github.routingkit.assignment.RebalanceResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
   * Reads {@value RoutingAssignorConfig#INSTANCE_WEIGHTS} from the broker configs.
   *
   * @throws org.apache.kafka.common.config.ConfigException naming the property, the value and the
   *     rule, for a bad value
   */
  @Override
  public void configure(Map<String, ?> configs) {
    this.config = RoutingAssignorConfig.parse(configs);
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
    Map<String, Uuid> ids = new HashMap<>();
    for (String id : spec.memberIds()) {
      MemberSubscription sub = spec.memberSubscription(id);
      Set<String> names = new HashSet<>();
      for (Uuid t : sub.subscribedTopicIds()) {
        names.add(ids.computeIfAbsent(t.toString(), k -> t).toString());
      }
      List<PartitionRef> owned = new ArrayList<>();
      spec.memberAssignment(id).partitions().forEach((t, ps) ->
          ps.forEach(p -> owned.add(new PartitionRef(t.toString(), p))));
      String instance = sub.instanceId().orElse(null);
      int weight = instance == null ? 1 : weights.getOrDefault(instance, 1);
      // The coordinator reconciles revocations itself, so all current owners are of one generation.
      state.member(id, instance, sub.rackId().orElse(null), weight, names, owned, 0);
    }
    for (Uuid t : ids.values()) {
      state.topic(t.toString(), topics.numPartitions(t), p -> topics.racksForPartition(t, p), 1);
    }
    RebalanceResult result = state.assign(RebalanceMode.EAGER);
    Map<String, MemberAssignment> out = new HashMap<>();
    for (String id : result.memberIds()) {
      Map<Uuid, Set<Integer>> byTopic = new HashMap<>();
      result.forEachPartition(id, (topic, p) -> {
        Uuid t = ids.get(topic);
        if (spec.isPartitionAssignable(t, p)) {
          byTopic.computeIfAbsent(t, k -> new HashSet<>()).add(p);
        }
      });
      out.put(id, new Partitions(byTopic));
    }
    return new GroupAssignment(out);
  }

  /** One member's target partitions by topic id. */
  private record Partitions(Map<Uuid, Set<Integer>> partitions) implements MemberAssignment {}
}
