package io.github.routingkit.kafka.scenarios;

import io.github.routingkit.kafka.GroupSpecStub.Member;
import io.github.routingkit.kafka.GroupSpecStub.Spec;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Assignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.coordinator.group.api.assignor.ConsumerGroupPartitionAssignor;
import org.apache.kafka.coordinator.group.api.assignor.SubscribedTopicDescriber;
import org.apache.kafka.coordinator.group.api.assignor.SubscriptionType;

/**
 * Drives one assignor through a scenario's steps the way Kafka does: the classic protocol with one
 * assignor instance per member (each member's {@code subscriptionUserData} after its
 * {@code onAssignment}, cooperative rounds until nobody revokes), or the KIP-848 coordinator
 * (the previous target is the current assignment). Returns the last step's outcome.
 */
final class GroupRun {
  private GroupRun() {}

  /** The group after the last step, and what happened in it. */
  record Outcome(Map<String, List<TopicPartition>> owners, Map<String, List<TopicPartition>> before,
      int rounds, List<String> violations) {}

  static Outcome classic(GroupScenario s, Supplier<ConsumerPartitionAssignor> factory, boolean eager) {
    Cluster cluster = s.cluster();
    Map<String, ConsumerPartitionAssignor> instances = new HashMap<>();
    Map<String, List<TopicPartition>> current = new TreeMap<>();
    Map<String, Integer> gen = new HashMap<>();
    int generation = 0;
    Outcome last = null;
    List<String> violations = new ArrayList<>();
    for (GroupScenario.Step step : s.steps()) {
      current.keySet().retainAll(step.members().keySet());
      for (String m : step.members().keySet()) {
        instances.computeIfAbsent(m, k -> factory.get());
        current.putIfAbsent(m, List.of());
        gen.putIfAbsent(m, -1);
      }
      step.preset().forEach((m, owned) -> {
        instances.get(m).onAssignment(new Assignment(owned.partitions()),
            new ConsumerGroupMetadata("g", owned.generation(), m, Optional.empty()));
        current.put(m, owned.partitions());
        gen.put(m, owned.generation());
      });
      generation = Math.max(generation, step.preset().values().stream()
          .mapToInt(GroupScenario.Owned::generation).max().orElse(0));
      Map<String, List<TopicPartition>> before = new TreeMap<>(current);
      int rounds = 0;
      while (rounds < 5) {
        rounds++;
        Map<String, Subscription> subs = new HashMap<>();
        for (Map.Entry<String, List<String>> e : step.members().entrySet()) {
          String m = e.getKey();
          ByteBuffer ud = instances.get(m).subscriptionUserData(new HashSet<>(e.getValue()));
          subs.put(m, new Subscription(e.getValue(), ud, eager ? List.of() : current.get(m),
              gen.get(m), Optional.ofNullable(s.rackOf(m))));
        }
        Map<String, Assignment> result = factory.get().assign(cluster, new GroupSubscription(subs))
            .groupAssignment();
        boolean revoked = false;
        Map<TopicPartition, String> ownedBy = new HashMap<>();
        current.forEach((m, ps) -> ps.forEach(p -> ownedBy.put(p, m)));
        generation++;
        for (String m : step.members().keySet()) {
          List<TopicPartition> now = result.containsKey(m) ? result.get(m).partitions() : List.of();
          if (!eager) {
            for (TopicPartition p : now) {
              String o = ownedBy.get(p);
              // Kafka's rule (ConsumerCoordinator): nothing is added to one member while
              // another still owns it; keeping what one claimed is no addition.
              if (o != null && !o.equals(m) && !current.get(m).contains(p)) {
                violations.add("round " + rounds + ": " + p + " given to " + m + " while " + o + " owns it");
              }
            }
            revoked |= !new HashSet<>(now).containsAll(current.get(m));
          }
          instances.get(m).onAssignment(new Assignment(now),
              new ConsumerGroupMetadata("g", generation, m, Optional.empty()));
          current.put(m, List.copyOf(now));
          gen.put(m, generation);
        }
        if (eager || !revoked) {
          break;
        }
      }
      last = new Outcome(new TreeMap<>(current), before, rounds, violations);
    }
    return last;
  }

  static Outcome kip848(GroupScenario s, Supplier<ConsumerGroupPartitionAssignor> factory) {
    Map<String, Uuid> ids = new HashMap<>();
    Map<Uuid, String> names = new HashMap<>();
    for (String t : s.topics().keySet()) {
      Uuid u = new Uuid(t.hashCode() * 31L + 7, t.length() + 1L);
      ids.put(t, u);
      names.put(u, t);
    }
    SubscribedTopicDescriber describer = new SubscribedTopicDescriber() {
      @Override
      public int numPartitions(Uuid topicId) {
        String t = names.get(topicId);
        return t == null ? -1 : s.topics().get(t);
      }

      @Override
      public Set<String> racksForPartition(Uuid topicId, int partition) {
        return s.replicaRacks(partition);
      }
    };
    Map<String, List<TopicPartition>> current = new TreeMap<>();
    Outcome last = null;
    for (GroupScenario.Step step : s.steps()) {
      current.keySet().retainAll(step.members().keySet());
      for (String m : step.members().keySet()) {
        current.putIfAbsent(m, List.of());
      }
      step.preset().forEach((m, owned) -> current.put(m, owned.partitions()));
      // The coordinator never lets two members own one partition: drop later duplicate claims.
      Set<TopicPartition> seen = new HashSet<>();
      current.replaceAll((m, ps) -> ps.stream().filter(seen::add).toList());
      Map<String, List<TopicPartition>> before = new TreeMap<>(current);
      Map<String, Member> members = new LinkedHashMap<>();
      Set<List<String>> distinct = new HashSet<>();
      for (Map.Entry<String, List<String>> e : step.members().entrySet()) {
        Set<Uuid> topics = new HashSet<>();
        for (String t : e.getValue()) {
          if (ids.containsKey(t)) { // the coordinator resolves names to ids; unknown ones drop out
            topics.add(ids.get(t));
          }
        }
        distinct.add(e.getValue().stream().sorted().toList());
        Map<Uuid, Set<Integer>> owned = new HashMap<>();
        for (TopicPartition p : current.get(e.getKey())) {
          owned.computeIfAbsent(ids.get(p.topic()), k -> new HashSet<>()).add(p.partition());
        }
        members.put(e.getKey(), new Member(s.rackOf(e.getKey()), null, topics, java.util.Collections.unmodifiableMap(owned)));
      }
      SubscriptionType type = distinct.size() <= 1 ? SubscriptionType.HOMOGENEOUS : SubscriptionType.HETEROGENEOUS;
      Map<String, List<TopicPartition>> next = new TreeMap<>();
      factory.get().assign(new Spec(members, type, (t, p) -> true), describer).members().forEach((m, a) -> {
        List<TopicPartition> ps = new ArrayList<>();
        a.partitions().forEach((t, parts) -> parts.forEach(p -> ps.add(new TopicPartition(names.get(t), p))));
        next.put(m, ps);
      });
      for (String m : step.members().keySet()) {
        next.putIfAbsent(m, List.of());
      }
      current.clear();
      current.putAll(next);
      last = new Outcome(new TreeMap<>(current), before, 1, List.of());
    }
    return last;
  }
}
