package io.github.routingkit.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.SwitchBarrier;
import io.github.routingkit.testbrokers.EmbeddedKafka;
import io.github.routingkit.testbrokers.WithEmbeddedKafka;
import io.github.routingkit.kafka.SwitchMarkers;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
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
 * Switch markers on a real in-process Kafka broker: producers move from one router to
 * another at a step, a marker goes to every partition between the two, and a consumer keeping
 * per-key counters (and checking per-key sequence) stays correct even when it reads the
 * partitions in the worst order, one after the other from the last.
 */
@Tag("broker")
@WithEmbeddedKafka
class SwitchMarkerBrokerTest {
  private static final int PARTITIONS = 12;
  private static final int KEYS = 300;
  private static final int PER_STEP = 10;
  private static EmbeddedKafka kafka;

  @BeforeAll
  static void broker(EmbeddedKafka broker) {
    kafka = broker; // started before the class's tests, closed after them
  }

  private static KafkaProducer<String, String> producer(String placement) {
    return KafkaRouterStep.producer(kafka, Map.of(RoutingSpec.PLACEMENT, placement));
  }

  private static KeyRouter router(String placement) {
    return RoutingSpec.parse(Map.of(RoutingSpec.PLACEMENT, placement)).keyRouter();
  }

  @Test
  void perKeyCountersStayCorrectAcrossAStep() {
    String topic = "switch-orders";
    kafka.createTopic(topic, PARTITIONS);
    try (KafkaProducer<String, String> old = producer("native");
        KafkaProducer<String, String> next = producer("jump")) {
      KafkaRouterStep.produceAcrossStep(topic, PARTITIONS, old, next, KEYS, PER_STEP, "g2", 1);
    }
    List<ConsumerRecords<String, String>> polls =
        KafkaRouterStep.readWorstOrder(kafka, topic, PARTITIONS);
    KeyRouter oldRouter = router("native");
    KeyRouter newRouter = router("jump");

    // without the barrier: moved keys' new records arrive before their old ones
    Map<String, Integer> naive = new HashMap<>();
    int naiveViolations = 0;
    int markersSeenByNaive = 0;
    for (ConsumerRecords<String, String> poll : polls) {
      for (ConsumerRecord<String, String> r : poll) {
        if (SwitchMarkers.marker(r) != null) {
          markersSeenByNaive++;
          continue;
        }
        int want = naive.getOrDefault(r.key(), 0);
        if (Integer.parseInt(r.value()) != want) {
          naiveViolations++;
        }
        naive.put(r.key(), Math.max(want, Integer.parseInt(r.value()) + 1));
      }
    }
    assertThat(markersSeenByNaive).isEqualTo(PARTITIONS);
    assertThat(naiveViolations).as("the test must be able to fail").isPositive();

    // with the barrier: every key's records in order, counts exact, no marker handed over
    Set<Integer> marked = new TreeSet<>();
    SwitchBarrier<ConsumerRecord<String, String>> barrier = new SwitchBarrier<>(oldRouter,
        newRouter, PARTITIONS, (p, generation, step) -> {
          assertThat(generation).isEqualTo("g2");
          assertThat(step).isEqualTo(1);
          marked.add(p);
        });
    Map<String, Integer> counters = new HashMap<>();
    int moved = 0;
    for (int k = 0; k < KEYS; k++) {
      if (barrier.moves(("key-" + k).getBytes(StandardCharsets.UTF_8))) {
        moved++;
      }
    }
    assertThat(moved).isPositive();
    for (ConsumerRecords<String, String> poll : polls) {
      for (ConsumerRecord<String, String> r : SwitchMarkers.filter(poll, barrier,
          key -> key.getBytes(StandardCharsets.UTF_8))) {
        assertThat(SwitchMarkers.marker(r)).isNull();
        int want = counters.getOrDefault(r.key(), 0);
        assertThat(Integer.parseInt(r.value())).as("key %s in order", r.key()).isEqualTo(want);
        counters.put(r.key(), want + 1);
      }
    }
    assertThat(barrier.complete()).isTrue();
    assertThat(barrier.heldBack()).isZero();
    assertThat(marked).hasSize(PARTITIONS);
    assertThat(counters).hasSize(KEYS);
    assertThat(counters.values()).allMatch(v -> v == 2 * PER_STEP);
  }
}
