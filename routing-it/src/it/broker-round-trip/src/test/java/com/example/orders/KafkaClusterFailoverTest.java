package com.example.orders;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.routingkit.testbrokers.EmbeddedKafka;
import io.github.routingkit.testbrokers.WithEmbeddedKafka;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * What a user writes for failover and rack-aware tests: a three-node KRaft cluster, one node per
 * rack, replication factor 3 and {@code min.insync.replicas=2}. Stopping the leader of a partition
 * while a producer with {@code acks=all} sends keyed records moves the leadership to another
 * replica, and every acknowledged record is read back.
 */
@WithEmbeddedKafka(nodes = 3, racks = {"eu-1a", "eu-1b", "eu-1c"}, minInsyncReplicas = 2,
    topics = "payments", partitions = 6)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KafkaClusterFailoverTest {
  private static final String TOPIC = "payments";
  private static final int PARTITIONS = 6;
  private static final int RECORDS = 3_000;

  @Test
  @Order(1)
  void replicasOfEveryPartitionSpanTheThreeRacks(EmbeddedKafka kafka) throws Exception {
    Map<Integer, String> rackOf = new HashMap<>();
    for (Node n : kafka.admin().describeCluster().nodes().get(30, TimeUnit.SECONDS)) {
      rackOf.put(n.id(), n.rack());
    }
    assertEquals(Map.of(1, "eu-1a", 2, "eu-1b", 3, "eu-1c"), rackOf, "node racks");
    for (TopicPartitionInfo p : describe(kafka).partitions()) {
      Set<String> racks = new HashSet<>();
      p.replicas().forEach(r -> racks.add(rackOf.get(r.id())));
      assertEquals(3, p.replicas().size(), "replicas of partition " + p.partition());
      assertEquals(Set.of("eu-1a", "eu-1b", "eu-1c"), racks, "racks of partition " + p.partition());
      assertEquals(3, p.isr().size(), "ISR of partition " + p.partition());
    }
    String minIsr = kafka.admin().describeConfigs(
            List.of(new ConfigResource(ConfigResource.Type.TOPIC, TOPIC)))
        .all().get(30, TimeUnit.SECONDS).values().iterator().next()
        .get("min.insync.replicas").value();
    assertEquals("2", minIsr, "min.insync.replicas of " + TOPIC);
  }

  @Test
  @Order(2)
  void stoppingALeaderMovesLeadershipAndLosesNoAcknowledgedRecord(EmbeddedKafka kafka)
      throws Exception {
    int leader = describe(kafka).partitions().get(0).leader().id();

    Map<String, Object> p = kafka.clientProperties();
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    AtomicInteger failed = new AtomicInteger();
    List<Exception> failures = new ArrayList<>();
    Thread stopper = null;
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
      for (int i = 0; i < RECORDS; i++) {
        if (i == RECORDS / 3) {
          producer.flush();
          // Stopped while the producer keeps sending: the rest of the records go to the new
          // leaders (and some are retried there).
          stopper = new Thread(() -> kafka.stopNode(leader), "stop-leader");
          stopper.start();
        }
        String value = "v" + i;
        producer.send(new ProducerRecord<>(TOPIC, "key-" + (i % 500), value), (md, e) -> {
          if (e == null) {
            acknowledged.add(value);
          } else {
            failed.incrementAndGet();
            synchronized (failures) {
              failures.add(e);
            }
          }
        });
      }
      producer.flush();
      stopper.join(TimeUnit.SECONDS.toMillis(60));
    }
    assertEquals(0, failed.get(), "failed sends: " + failures);
    assertEquals(RECORDS, acknowledged.size(), "acknowledged records");
    assertEquals(List.of(1, 2, 3).stream().filter(id -> id != leader).toList(),
        kafka.runningNodeIds(), "running nodes");

    // The leadership moved to a replica that is still in sync; the stopped node left every ISR
    // (the brokers' metadata follows the controller within moments).
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    TopicDescription after = describe(kafka);
    while (!movedAway(after, leader) && System.nanoTime() < deadline) {
      Thread.sleep(100);
      after = describe(kafka);
    }
    List<Integer> running = kafka.runningNodeIds();
    for (TopicPartitionInfo info : after.partitions()) {
      assertTrue(info.leader() != null && !info.leader().isEmpty(),
          "partition " + info.partition() + " has no leader after stopping node " + leader);
      int now = info.leader().id();
      assertNotEquals(leader, now, "leader of partition " + info.partition()
          + " after stopping node " + leader);
      assertTrue(running.contains(now) && info.isr().stream().anyMatch(n -> n.id() == now),
          "partition " + info.partition() + " led by node " + now + ", which is not a running"
          + " in-sync replica: running " + running + ", ISR " + info.isr());
      assertEquals(2, info.isr().size(), "ISR of partition " + info.partition() + ": "
          + info.isr() + " (node " + leader + " stopped)");
      assertTrue(info.isr().stream().noneMatch(n -> n.id() == leader), "ISR of partition "
          + info.partition() + " holds the stopped node " + leader + ": " + info.isr());
    }

    // Every acknowledged record is on the surviving replicas, exactly once.
    Map<String, Object> c = kafka.clientProperties();
    c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    List<String> read = new ArrayList<>();
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(c)) {
      List<TopicPartition> partitions = new ArrayList<>();
      for (int i = 0; i < PARTITIONS; i++) {
        partitions.add(new TopicPartition(TOPIC, i));
      }
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      long end = consumer.endOffsets(partitions, Duration.ofSeconds(30)).values().stream()
          .mapToLong(Long::longValue).sum();
      assertEquals(RECORDS, end, "records in the log (sum of end offsets)");
      long readBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (read.size() < end && System.nanoTime() < readBy) {
        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
          read.add(r.value());
        }
      }
    }
    assertEquals(RECORDS, read.size(), "records read");
    assertEquals(acknowledged, new HashSet<>(read), "records read are the acknowledged ones");
  }

  private static boolean movedAway(TopicDescription d, int stopped) {
    return d.partitions().stream().allMatch(p -> p.leader() != null && p.leader().id() != stopped
        && p.isr().stream().noneMatch(n -> n.id() == stopped));
  }

  private static TopicDescription describe(EmbeddedKafka kafka) throws Exception {
    return kafka.admin().describeTopics(List.of(TOPIC)).allTopicNames()
        .get(30, TimeUnit.SECONDS).get(TOPIC);
  }
}
