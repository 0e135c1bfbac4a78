package com.example.orders;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.routingkit.testbrokers.EmbeddedKafka;
import io.github.routingkit.testbrokers.WithEmbeddedKafka;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * What a user writes against a SASL/PLAIN listener: the client properties the extension hands out
 * produce and consume; the same client with a wrong password or an unknown user is refused, and
 * a client without credentials (plain PLAINTEXT, or SASL without a JAAS login) writes nothing.
 */
@WithEmbeddedKafka(topics = "secured-orders", partitions = 3,
    saslUsername = "orders-app", saslPassword = "orders-secret")
class KafkaSaslTest {
  private static final String TOPIC = "secured-orders";
  private static final int RECORDS = 200;

  @Test
  void theHandedOutCredentialsProduceAndConsume(EmbeddedKafka kafka) throws Exception {
    Map<String, Object> client = kafka.clientProperties();
    assertEquals("SASL_PLAINTEXT", client.get("security.protocol"));
    assertEquals("PLAIN", client.get("sasl.mechanism"));

    Map<String, Object> p = new HashMap<>(client);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
      for (int i = 0; i < RECORDS; i++) {
        producer.send(new ProducerRecord<>(TOPIC, "order-" + i, "v" + i)).get(30, TimeUnit.SECONDS);
      }
    }

    Map<String, Object> c = new HashMap<>(client);
    c.put(ConsumerConfig.GROUP_ID_CONFIG, "secured-check");
    c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    List<String> read = new ArrayList<>();
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(c)) {
      consumer.subscribe(List.of(TOPIC));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (read.size() < RECORDS && System.nanoTime() < deadline) {
        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
          read.add(r.value());
        }
      }
    }
    assertEquals(RECORDS, read.size(), "records read back over SASL/PLAIN");
  }

  @Test
  void aWrongPasswordIsRefused(EmbeddedKafka kafka) {
    Map<String, Object> p = kafka.clientProperties();
    p.put("sasl.jaas.config", EmbeddedKafka.saslPlainJaasConfig("orders-app", "not-the-secret"));
    p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 20_000);
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
      Exception e = assertThrows(Exception.class, () ->
          producer.send(new ProducerRecord<>(TOPIC, "order-1", "v1")).get(30, TimeUnit.SECONDS));
      assertTrue(causedBySaslAuthentication(e), "refused with SaslAuthenticationException: " + e);
    }
  }

  @Test
  void anUnknownUserIsRefused(EmbeddedKafka kafka) throws Exception {
    Map<String, Object> a = kafka.clientProperties();
    a.put("sasl.jaas.config", EmbeddedKafka.saslPlainJaasConfig("intruder", "orders-secret"));
    a.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
    a.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 20_000);
    try (Admin admin = Admin.create(a)) {
      Exception e = assertThrows(Exception.class,
          () -> admin.describeTopics(List.of(TOPIC)).allTopicNames().get(30, TimeUnit.SECONDS));
      assertTrue(causedBySaslAuthentication(e), "refused with SaslAuthenticationException: " + e);
    }
    // The right user still gets through.
    assertEquals(3, kafka.admin().describeTopics(List.of(TOPIC)).allTopicNames()
        .get(30, TimeUnit.SECONDS).get(TOPIC).partitions().size());
  }

  @Test
  void aClientWithoutCredentialsIsRefusedAndWritesNothing(EmbeddedKafka kafka) throws Exception {
    long before = endOffsets(kafka.admin());
    // No SASL at all: the listener takes no PLAINTEXT request, the producer never gets metadata.
    Map<String, Object> p = new HashMap<>();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 5_000);
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
      Exception e = assertThrows(Exception.class, () ->
          producer.send(new ProducerRecord<>(TOPIC, "order-1", "anonymous")).get(30,
              TimeUnit.SECONDS));
      assertTrue(causedBy(e, TimeoutException.class),
          "a PLAINTEXT producer gets no metadata from the SASL listener: " + e);
    }
    // SASL_PLAINTEXT without a JAAS configuration: the client cannot even log in.
    Map<String, Object> a = kafka.clientProperties();
    a.remove("sasl.jaas.config");
    Exception e = assertThrows(Exception.class, () -> Admin.create(a).close());
    StringBuilder causes = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      causes.append(t).append('\n');
    }
    assertTrue(causes.toString().contains("JAAS"), "refused for want of a JAAS configuration: "
        + causes);
    assertEquals(before, endOffsets(kafka.admin()), "records in " + TOPIC);
  }

  private static long endOffsets(Admin admin) throws Exception {
    Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
    for (int i = 0; i < 3; i++) {
      latest.put(new TopicPartition(TOPIC, i),
          OffsetSpec.latest());
    }
    return admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS).values().stream()
        .mapToLong(r -> r.offset()).sum();
  }

  private static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return true;
      }
    }
    return false;
  }

  private static boolean causedBySaslAuthentication(Throwable e) {
    return causedBy(e, SaslAuthenticationException.class);
  }
}
