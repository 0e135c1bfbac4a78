package io.github.routingkit.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.kafka.RoutingPartitioner;
import io.github.routingkit.kafka.SwitchMarkers;
import io.github.routingkit.testbrokers.EmbeddedKafka;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A router change at one step on the in-process Kafka broker, shared by the switch-marker and
 * canary broker tests: {@code perStep} rounds of keys {@code key-0 … key-(keys-1)} through the old
 * producer (values 0, 1, …), a marker to every partition, then as many rounds through the new
 * producer; and a reader that reads the partitions one at a time, last first (the worst order for
 * per-key state: later partitions' records come first).
 */
final class KafkaRouterStep {
  private KafkaRouterStep() {}

  /** A String producer routing through {@code RoutingPartitioner} with these routing.* settings. */
  static KafkaProducer<String, String> producer(EmbeddedKafka kafka, Map<String, String> routing) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, RoutingPartitioner.class.getName());
    p.putAll(routing);
    return new KafkaProducer<>(p);
  }

  /** Produces the two halves with a marker ({@code generation}, {@code step}) between them. */
  static void produceAcrossStep(String topic, int partitions, KafkaProducer<String, String> before,
      KafkaProducer<String, String> after, int keys, int perStep, String generation, int step) {
    for (int s = 0; s < perStep; s++) {
      for (int k = 0; k < keys; k++) {
        before.send(new ProducerRecord<>(topic, "key-" + k, Integer.toString(s)));
      }
    }
    before.flush();
    assertThat(SwitchMarkers.send(before, topic, generation, step)).isEqualTo(partitions);
    for (int s = perStep; s < 2 * perStep; s++) {
      for (int k = 0; k < keys; k++) {
        after.send(new ProducerRecord<>(topic, "key-" + k, Integer.toString(s)));
      }
    }
    after.flush();
  }

  /** Every record of the topic, as polls, partitions read one at a time from the last. */
  static List<ConsumerRecords<String, String>> readWorstOrder(EmbeddedKafka kafka, String topic,
      int partitions) {
    Properties c = new Properties();
    c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    List<ConsumerRecords<String, String>> polls = new ArrayList<>();
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(c)) {
      for (int p = partitions - 1; p >= 0; p--) {
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
}
