package com.example.orders;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.pulsar.RoutingMessageRouter;
import io.github.routingkit.testbrokers.EmbeddedKafka;
import io.github.routingkit.testbrokers.EmbeddedPulsar;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Utils;
import org.apache.pulsar.client.api.Consumer;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.MessageRoutingMode;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.Schema;
import org.apache.pulsar.client.api.SubscriptionInitialPosition;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * What a user writes: a keyed round trip through RoutingKit's adapters on both in-process brokers,
 * each record read back from the partition the client's built-in hashing predicts.
 */
class BrokerRoundTripTest {
  private static final int KEYS = 300;
  private static final int PARTITIONS = 6;

  @Test
  void slf4j2IsTheActiveApiAndTheUsersBindingIsUsed() {
    // kafka-clients declares slf4j-api 1.7.36; routing-bom aligns it on SLF4J 2, so the user's
    // SLF4J 2 binding (slf4j-simple 2) is the one in use, not the NOP fallback.
    assertEquals("org.slf4j.simple.SimpleLoggerFactory",
        LoggerFactory.getILoggerFactory().getClass().getName());
  }

  @Test
  void noLoggingConfigurationOrBindingComesFromRoutingKit() throws Exception {
    for (String name : List.of("log4j2.xml", "log4j2-test.xml", "logback.xml", "logback-test.xml",
        "simplelogger.properties", "log4j.properties")) {
      for (URL url : Collections.list(getClass().getClassLoader().getResources(name))) {
        assertFalse(url.toString().contains("/io/github/routingkit/"), "RoutingKit ships " + url);
      }
    }
    // The only SLF4J provider is the user's own (pulsar-broker's log4j-slf4j2-impl is excluded).
    List<String> providers = new ArrayList<>();
    for (URL url : Collections.list(getClass().getClassLoader()
        .getResources("META-INF/services/org.slf4j.spi.SLF4JServiceProvider"))) {
      providers.add(url.toString());
    }
    assertEquals(1, providers.size(), providers.toString());
    assertTrue(providers.get(0).contains("slf4j-simple"), providers.toString());
  }

  @Test
  void theShadedPulsarClientComesFirstOnTheClassPath() {
    // The situation the harness must survive: the application's shaded pulsar-client is declared
    // first, so its bundled org.apache.pulsar.common classes win in this class loader.
    URL where = org.apache.pulsar.common.naming.TopicName.class.getProtectionDomain()
        .getCodeSource().getLocation();
    assertTrue(where.toString().contains("/pulsar-client/"), where.toString());
  }

  @Test
  void kafkaKeyedRoundTrip() {
    try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
      kafka.createTopic("orders", PARTITIONS);
      Properties p = new Properties();
      p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
      p.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, "io.github.routingkit.kafka.RoutingPartitioner");
      p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
      p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
      try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
        for (int i = 0; i < KEYS; i++) {
          producer.send(new ProducerRecord<>("orders", "order-" + i, "v" + i));
        }
        producer.flush();
      }

      Properties c = new Properties();
      c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
      c.put(ConsumerConfig.GROUP_ID_CONFIG, "orders-check");
      c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
      c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
      c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
      Map<String, Integer> seen = new HashMap<>();
      try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(c)) {
        consumer.subscribe(List.of("orders"));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (seen.size() < KEYS && System.nanoTime() < deadline) {
          for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
            seen.put(r.key(), r.partition());
          }
        }
      }
      assertEquals(KEYS, seen.size(), "records read back");
      seen.forEach((key, partition) -> assertEquals(
          Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % PARTITIONS,
          partition, "partition of " + key));
    }
  }

  @Test
  void pulsarKeyedRoundTrip() throws Exception {
    try (EmbeddedPulsar pulsar = EmbeddedPulsar.start()) {
      String topic = "persistent://public/default/orders";
      pulsar.createPartitionedTopic(topic, PARTITIONS);
      RoutingSpec spec = RoutingSpec.parse(Map.of("routing.scheme", "pulsar-java-string"));
      Map<String, Integer> seen = new HashMap<>();
      try (PulsarClient client = PulsarClient.builder().serviceUrl(pulsar.brokerServiceUrl()).build();
           Consumer<String> consumer = client.newConsumer(Schema.STRING).topic(topic)
               .subscriptionName("orders-check")
               .subscriptionInitialPosition(SubscriptionInitialPosition.Earliest).subscribe();
           Producer<String> producer = client.newProducer(Schema.STRING).topic(topic)
               .messageRoutingMode(MessageRoutingMode.CustomPartition)
               .messageRouter(new RoutingMessageRouter(spec))
               .enableBatching(false).create()) {
        for (int i = 0; i < KEYS; i++) {
          producer.newMessage().key("order-" + i).value("v" + i).send();
        }
        while (seen.size() < KEYS) {
          Message<String> m = consumer.receive(60, TimeUnit.SECONDS);
          assertFalse(m == null, "timed out after " + seen.size() + " messages");
          String t = m.getTopicName();
          seen.put(m.getKey(), Integer.parseInt(t.substring(t.lastIndexOf("-partition-") + 11)));
          consumer.acknowledge(m);
        }
      }
      assertEquals(KEYS, seen.size());
      seen.forEach((key, partition) -> assertEquals(
          (key.hashCode() & Integer.MAX_VALUE) % PARTITIONS, partition, "partition of " + key));
      assertTrue(seen.values().stream().distinct().count() == PARTITIONS, "every partition used");
    }
  }
}
