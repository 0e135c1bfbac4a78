package io.github.routingkit.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.RoutingSpec;
import io.github.routingkit.SwitchBarrier;
import io.github.routingkit.examples.broker.EmbeddedKafka;
import io.github.routingkit.kafka.RoutingPartitioner;
import io.github.routingkit.kafka.SwitchMarkers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 17, switch markers on a real in-process Kafka broker: producers move from one router to
 * another at a step, a marker goes to every partition between the two, and a consumer keeping
 * per-key counters (and checking per-key sequence) stays correct even when it reads the
 * partitions in the worst order, one after the other from the last.
 */
class SwitchMarkerBrokerTest {
  private static final int PARTITIONS = 12;
  private static final int KEYS = 300;
  private static final int PER_STEP = 10;
  private static EmbeddedKafka kafka;

  @BeforeAll
  static void start() {
    kafka = EmbeddedKafka.start();
  }

  @AfterAll
  static void stop() {
    if (kafka != null) {
      kafka.close();
    }
  }

  private static KafkaProducer<String, String> producer(String placement) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, RoutingPartitioner.class.getName());
    p.put(RoutingSpec.PLACEMENT, placement);
    return new KafkaProducer<>(p);
  }

  private static KeyRouter router(String placement) {
    return RoutingSpec.parse(Map.of(RoutingSpec.PLACEMENT, placement)).keyRouter();
  }

  /** Reads partitions one at a time, last first: later partitions' records come first. */
  private static List<ConsumerRecords<String, String>> readWorstOrder(String topic) {
    Properties c = new Properties();
    c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    List<ConsumerRecords<String, String>> polls = new ArrayList<>();
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(c)) {
      for (int p = PARTITIONS - 1; p >= 0; p--) {
        TopicPartition tp = new TopicPartition(topic, p);
        consumer.assign(List.of(tp));
        consumer.seekToBeginning(List.of(tp));
        long end = consumer.endOffsets(List.of(tp)).get(tp);
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (consumer.position(tp) < end && System.nanoTime() < deadline) {
          ConsumerRecords<String, String> r = consumer.poll(Duration.ofMillis(200));
          if (!r.isEmpty()) {
            polls.add(r);
          }
        }
        assertThat(consumer.position(tp)).isEqualTo(end);
      }
    }
    return polls;
  }

  @Test
  void perKeyCountersStayCorrectAcrossAStep() {
    String topic = "switch-orders";
    kafka.createTopic(topic, PARTITIONS);
    try (KafkaProducer<String, String> old = producer("native");
        KafkaProducer<String, String> next = producer("jump")) {
      for (int s = 0; s < PER_STEP; s++) {
        for (int k = 0; k < KEYS; k++) {
          old.send(new ProducerRecord<>(topic, "key-" + k, Integer.toString(s)));
        }
      }
      old.flush();
      assertThat(SwitchMarkers.send(old, topic, "g2", 1)).isEqualTo(PARTITIONS);
      for (int s = PER_STEP; s < 2 * PER_STEP; s++) {
        for (int k = 0; k < KEYS; k++) {
          next.send(new ProducerRecord<>(topic, "key-" + k, Integer.toString(s)));
        }
      }
      next.flush();
    }
    List<ConsumerRecords<String, String>> polls = readWorstOrder(topic);
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
