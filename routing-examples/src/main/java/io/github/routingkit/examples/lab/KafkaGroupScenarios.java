package io.github.routingkit.examples.lab;

import io.github.routingkit.testbrokers.EmbeddedKafka;
import io.github.routingkit.audit.AuditRecorders;
import io.github.routingkit.audit.InMemoryAuditRecorder;
import io.github.routingkit.audit.KafkaAuditConsumerInterceptor;
import io.github.routingkit.audit.KafkaAuditProducerInterceptor;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The Kafka part of the {@link SubscriptionLab}: one consumer group with two members, then two
 * groups, on the lab's 6-partition topic, recorded by the audit interceptors.
 */
final class KafkaGroupScenarios {
  private static final String KAFKA_TOPIC = SubscriptionLab.KAFKA_TOPIC;
  private static final long WAIT_SECONDS = SubscriptionLab.WAIT_SECONDS;
  private final LabLog log;

  private KafkaGroupScenarios(LabLog log) {
    this.log = log;
  }

  /** Runs the Kafka scenarios against {@code kafka}, writing to {@code log}. */
  static void run(EmbeddedKafka kafka, LabLog log) throws Exception {
    new KafkaGroupScenarios(log).kafka(kafka);
  }

  private void kafka(EmbeddedKafka kafka) throws Exception {
    kafka.createTopic(KAFKA_TOPIC, 6);
    InMemoryAuditRecorder one = new InMemoryAuditRecorder();
    InMemoryAuditRecorder two = new InMemoryAuditRecorder();
    AuditRecorders.register("lab-one-group", one);
    AuditRecorders.register("lab-two-groups", two);
    log.line("### one consumer group, two members (read side: partition -> member)");
    try (KafkaConsumer<String, String> m1 = kafkaConsumer(kafka, "orders-one-group", "member-1",
        "lab-one-group");
         KafkaConsumer<String, String> m2 = kafkaConsumer(kafka, "orders-one-group", "member-2",
             "lab-one-group")) {
      m1.subscribe(List.of(KAFKA_TOPIC));
      m2.subscribe(List.of(KAFKA_TOPIC));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
      while (m1.assignment().isEmpty() || m2.assignment().isEmpty()
          || m1.assignment().size() + m2.assignment().size() != 6) {
        m1.poll(Duration.ofMillis(50));
        m2.poll(Duration.ofMillis(50));
        LabLog.require(System.nanoTime() < deadline, "the group did not form");
      }
      Set<TopicPartition> p1 = new HashSet<>(m1.assignment());
      Set<TopicPartition> p2 = new HashSet<>(m2.assignment());
      kafkaSend(kafka, 60, 12);
      while (one.size() < 60) {
        m1.poll(Duration.ofMillis(50));
        m2.poll(Duration.ofMillis(50));
        LabLog.require(System.nanoTime() < deadline, "the group did not read the 60 messages");
      }
      Set<TopicPartition> both = new HashSet<>(p1);
      both.retainAll(p2);
      log.check("the group's two members split the 6 partitions (" + Math.min(p1.size(), p2.size())
          + " + " + Math.max(p1.size(), p2.size()) + ", disjoint)", both.isEmpty()
          && p1.size() + p2.size() == 6);
      Set<String> read = new HashSet<>();
      one.records().forEach(r -> read.add(r.key() + "#" + r.sequence()));
      log.check("the group reads each of the 60 messages once", one.size() == 60 && read.size() == 60);
      Map<String, Set<String>> membersOfKey = new HashMap<>();
      one.records().forEach(r -> membersOfKey.computeIfAbsent(r.key(), k -> new HashSet<>())
          .add(r.consumer()));
      log.check("each key is read by one member only (its partition's)", membersOfKey.values()
          .stream().allMatch(s -> s.size() == 1));
      log.orderKept(one);
    }
    log.line("### two consumer groups (each group is its own subscription)");
    try (KafkaConsumer<String, String> b = kafkaConsumer(kafka, "orders-group-b", "group-b",
        "lab-two-groups");
         KafkaConsumer<String, String> c = kafkaConsumer(kafka, "orders-group-c", "group-c",
             "lab-two-groups")) {
      b.subscribe(List.of(KAFKA_TOPIC));
      c.subscribe(List.of(KAFKA_TOPIC));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
      while (two.size() < 120) {
        b.poll(Duration.ofMillis(50));
        c.poll(Duration.ofMillis(50));
        LabLog.require(System.nanoTime() < deadline, "the two groups did not read 60 messages each");
      }
      log.check("group orders-group-b receives all 60 messages", LabLog.countBy(two, "group-b") == 60);
      log.check("group orders-group-c receives all 60 messages", LabLog.countBy(two, "group-c") == 60);
    } finally {
      AuditRecorders.unregister("lab-one-group");
      AuditRecorders.unregister("lab-two-groups");
    }
  }

  private static KafkaConsumer<String, String> kafkaConsumer(EmbeddedKafka kafka, String group,
      String name, String recorder) {
    Map<String, Object> c = new HashMap<>();
    c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    c.put(ConsumerConfig.GROUP_ID_CONFIG, group);
    c.put(ConsumerConfig.CLIENT_ID_CONFIG, name);
    c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    c.put(ConsumerConfig.INTERCEPTOR_CLASSES_CONFIG, KafkaAuditConsumerInterceptor.class.getName());
    c.put("routingkit.audit.recorder", recorder);
    return new KafkaConsumer<>(c);
  }

  private static void kafkaSend(EmbeddedKafka kafka, int messages, int keys) {
    Map<String, Object> p = new HashMap<>();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.INTERCEPTOR_CLASSES_CONFIG, KafkaAuditProducerInterceptor.class.getName());
    p.put("routingkit.audit.producer.id", "kafka-lab-producer");
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
      for (int i = 0; i < messages; i++) {
        producer.send(new ProducerRecord<>(KAFKA_TOPIC, "order-" + (i % keys), "v" + i));
      }
      producer.flush();
    }
  }
}
