package io.github.routingkit.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.SwitchBarrier;
import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.kafka.SwitchMarkers;
import io.github.routingkit.router.canary.CanaryRouter;
import io.github.routingkit.testbrokers.EmbeddedKafka;
import io.github.routingkit.testbrokers.WithEmbeddedKafka;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A canary step on a real in-process Kafka broker: producers route through
 * {@code RoutingPartitioner} with {@code routing.canary.share=0.05} (old spec murmur2, new spec
 * jump placement), a switch marker goes to every partition, the share is raised to 0.25 and
 * production continues. A consumer keeps its per-key counters per partition, as a consumer of a
 * group does for the partitions it owns, and at each partition's marker hands the state of the
 * keys that leave it ({@link SwitchBarrier#movedOut}) over to their new partition. Read in the
 * worst order (last partition first), every record is consumed once, every counter is exact and
 * each key's records arrive in order; the same reads without the barrier and hand-off break.
 */
@Tag("broker")
@WithEmbeddedKafka
class CanaryRolloutBrokerTest {
  private static final int PARTITIONS = 12;
  private static final int KEYS = 600;
  private static final int PER_STEP = 10;
  private static final String NEXT = "routing.canary.next.placement";
  private static EmbeddedKafka kafka;

  @BeforeAll
  static void broker(EmbeddedKafka broker) {
    kafka = broker; // started before the class's tests, closed after them
  }

  private static Map<String, String> canary(String share) {
    return Map.of(RoutingSpec.CANARY_SHARE, share, NEXT, "jump");
  }

  private static KafkaProducer<String, String> producer(String share) {
    return KafkaRouterStep.producer(kafka, canary(share));
  }

  @Test
  void perKeyCountersStayCorrectAcrossACanaryStep() {
    String topic = "canary-orders";
    kafka.createTopic(topic, PARTITIONS);
    try (KafkaProducer<String, String> at5 = producer("0.05");
        KafkaProducer<String, String> at25 = producer("25%")) {
      KafkaRouterStep.produceAcrossStep(topic, PARTITIONS, at5, at25, KEYS, PER_STEP, "canary-25",
          2);
    }
    List<ConsumerRecords<String, String>> polls =
        KafkaRouterStep.readWorstOrder(kafka, topic, PARTITIONS);
    KeyRouter before = RoutingSpec.parse(canary("0.05")).keyRouter();
    KeyRouter after = RoutingSpec.parse(canary("0.25")).keyRouter();

    // on the broker: a key in the 5 % canary never moves back; only keys whose canary point is
    // in [0.05, 0.25) change partition, and those at most once
    Map<String, Set<Integer>> partitionsOf = new HashMap<>();
    for (ConsumerRecords<String, String> poll : polls) {
      for (ConsumerRecord<String, String> r : poll) {
        if (SwitchMarkers.marker(r) == null) {
          partitionsOf.computeIfAbsent(r.key(), k -> new TreeSet<>()).add(r.partition());
        }
      }
    }
    int moved = 0;
    for (int k = 0; k < KEYS; k++) {
      String key = "key-" + k;
      double point = CanaryRouter.point(key);
      Set<Integer> ps = partitionsOf.get(key);
      if (point < 0.05 || point >= 0.25) {
        assertThat(ps).as("%s (point %s) stays", key, point).hasSize(1);
      } else {
        assertThat(ps).hasSizeLessThanOrEqualTo(2);
        moved += ps.size() - 1;
      }
    }
    assertThat(moved).as("keys moved at the step").isBetween(80, 150); // 600 x 0.2 x 11/12 = 110

    // without the barrier and the hand-off: counters restart or run ahead
    PerPartitionCounters naive = new PerPartitionCounters(PARTITIONS);
    for (ConsumerRecords<String, String> poll : polls) {
      for (ConsumerRecord<String, String> r : poll) {
        if (SwitchMarkers.marker(r) == null) {
          naive.count(r.key(), r.partition(), Integer.parseInt(r.value()));
        }
      }
    }
    assertThat(naive.errors).as("the test must be able to fail").isPositive();

    // SwitchMarkers.filter over whole polls: the listener hands state off before the poll's
    // records ahead of the marker were counted, so it hands off stale state (docs/rollout.md)
    PerPartitionCounters perPoll = new PerPartitionCounters(PARTITIONS);
    @SuppressWarnings("unchecked")
    SwitchBarrier<ConsumerRecord<String, String>>[] pollBarrier = new SwitchBarrier[1];
    pollBarrier[0] = new SwitchBarrier<>(before, after, PARTITIONS,
        (p, generation, step) -> perPoll.handOff(p, pollBarrier[0]));
    for (ConsumerRecords<String, String> poll : polls) {
      for (ConsumerRecord<String, String> r : SwitchMarkers.filter(poll, pollBarrier[0],
          key -> key.getBytes(StandardCharsets.UTF_8))) {
        perPoll.count(r.key(), r.partition(), Integer.parseInt(r.value()));
      }
    }
    assertThat(perPoll.errors).as("hand-off at the marker of a whole poll").isPositive();

    // with them: every record once, in order, every counter exact
    Set<Integer> marked = new TreeSet<>();
    PerPartitionCounters counters = new PerPartitionCounters(PARTITIONS);
    @SuppressWarnings("unchecked")
    SwitchBarrier<ConsumerRecord<String, String>>[] barrier = new SwitchBarrier[1];
    barrier[0] = new SwitchBarrier<>(before, after, PARTITIONS, (p, generation, step) -> {
      assertThat(generation).isEqualTo("canary-25");
      assertThat(step).isEqualTo(2);
      marked.add(p);
      counters.handOff(p, barrier[0]);
    });
    Set<String> delivered = new HashSet<>();
    // SwitchMarkers.forEach hands each released record to business code before the next is
    // offered, so the listener's hand-off at a marker sees every earlier record counted
    int handed = 0;
    for (ConsumerRecords<String, String> poll : polls) {
      handed += SwitchMarkers.forEach(poll, barrier[0], key -> key.getBytes(StandardCharsets.UTF_8),
          r -> {
            assertThat(SwitchMarkers.marker(r)).isNull();
            assertThat(delivered.add(r.key() + "#" + r.value())).as("consumed once").isTrue();
            counters.count(r.key(), r.partition(), Integer.parseInt(r.value()));
          });
    }
    assertThat(handed).isEqualTo(2 * PER_STEP * KEYS);
    assertThat(counters.errors).as("per-key order and counts").isZero();
    assertThat(counters.handOffs).isEqualTo(moved);
    assertThat(counters.handedOff).isEmpty();
    assertThat(delivered).hasSize(2 * PER_STEP * KEYS);
    assertThat(barrier[0].complete()).isTrue();
    assertThat(barrier[0].heldBack()).isZero();
    assertThat(marked).hasSize(PARTITIONS);
    for (int k = 0; k < KEYS; k++) {
      assertThat(counters.total("key-" + k)).isEqualTo(2 * PER_STEP);
    }
  }
}
