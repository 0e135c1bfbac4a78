package io.github.routingkit.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.testbrokers.EmbeddedKafka;
import io.github.routingkit.kafka.RoutingAssignor;
import io.github.routingkit.kafka.RoutingGroupAssignor;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * RoutingKit's assignors on a real in-process Kafka 4.1 broker: three consumers read a 12-partition
 * topic while 50,000 keyed messages are produced; a fourth consumer joins, then one leaves. Every
 * message must be consumed exactly once, per-key order must hold, and no partition may be owned by
 * two consumers at once (tracked with rebalance listeners). Once with the classic protocol and the
 * client-side {@link RoutingAssignor} (cooperative), once with the KIP-848 consumer protocol and the
 * broker-side {@link RoutingGroupAssignor}.
 */
class RoutingAssignorBrokerTest {
  private static final int PARTITIONS = 12;
  private static final int MESSAGES = 50_000;
  private static final int KEYS = 600;
  // A deadline for polled conditions, not a sleep: generous so that a loaded 2-core CI machine
  // (broker, 4 consumers and a producer in one JVM) is never the reason for a failure.
  private static final Duration WAIT = Duration.ofSeconds(120);

  private static EmbeddedKafka kafka;

  @BeforeAll
  static void startBroker() {
    Map<String, Object> broker = new HashMap<>();
    broker.put("group.consumer.assignors", "uniform," + RoutingGroupAssignor.class.getName());
    // Faster KIP-848 reconciliation than the 5 s default heartbeat.
    broker.put("group.consumer.heartbeat.interval.ms", "500");
    broker.put("group.consumer.min.heartbeat.interval.ms", "500");
    kafka = EmbeddedKafka.start(broker);
  }

  @AfterAll
  static void stopBroker() {
    if (kafka != null) {
      kafka.close();
    }
  }

  @Test
  void classicCooperativeGroupWithRoutingAssignor() throws Exception {
    Map<String, Object> p = new HashMap<>();
    p.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "classic");
    p.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, RoutingAssignor.class.getName());
    // 30 s: a consumer starved of CPU for 10 s would be evicted and its uncommitted records
    // re-read by another member, which this test reports as duplicates
    p.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "30000");
    p.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "500");
    run("orders-classic", p, RoutingAssignor.NAME);
  }

  @Test
  void consumerProtocolGroupWithBrokerSideRoutingGroupAssignor() throws Exception {
    Map<String, Object> p = new HashMap<>();
    p.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer");
    p.put(ConsumerConfig.GROUP_REMOTE_ASSIGNOR_CONFIG, RoutingGroupAssignor.NAME);
    run("orders-consumer", p, RoutingGroupAssignor.NAME);
  }

  /** One consumed record: key, per-key sequence number, by whom. */
  record Seen(String key, int seq, String consumer) {}

  private void run(String topic, Map<String, Object> protocol, String assignorName) throws Exception {
    kafka.createTopic(topic, PARTITIONS);
    String group = topic + "-group";
    Map<TopicPartition, String> owners = new ConcurrentHashMap<>();
    lastOwners = owners;
    List<String> violations = new ArrayList<>();
    ConcurrentLinkedQueue<Seen> seen = new ConcurrentLinkedQueue<>();

    List<Member> members = new ArrayList<>();
    for (int i = 1; i <= 3; i++) {
      members.add(new Member("c" + i, topic, group, protocol, owners, violations, seen).start());
    }
    await("3 consumers own all partitions", () -> owners.size() == PARTITIONS
        && members.stream().allMatch(m -> m.owned() > 0));

    Properties pp = new Properties();
    pp.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    pp.put(ProducerConfig.ACKS_CONFIG, "all");
    pp.put(ProducerConfig.LINGER_MS_CONFIG, "5");
    int[] nextSeq = new int[KEYS];
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(pp, new StringSerializer(), new StringSerializer())) {
      for (int i = 0; i < MESSAGES; i++) {
        int k = (int) ((i * 2_654_435_761L) % KEYS);
        producer.send(new ProducerRecord<>(topic, "key-" + k, Integer.toString(nextSeq[k]++)));
        if (i % 100 == 99) {
          Thread.sleep(1); // spread production over the membership changes
        }
        if (i == MESSAGES / 3) {
          Member fourth = new Member("c4", topic, group, protocol, owners, violations, seen).start();
          members.add(fourth);
          await("the 4th consumer gets partitions", () -> fourth.owned() > 0);
        }
        if (i == 2 * MESSAGES / 3) {
          Member leaving = members.remove(0);
          leaving.stop();
          await("the 3 remaining consumers own all partitions", () -> owners.size() == PARTITIONS
              && owners.values().stream().noneMatch(leaving.name::equals));
        }
      }
      producer.flush();
    }
    await("all messages consumed", () -> seen.size() >= MESSAGES);
    try {
      await("3 consumers with 4 partitions each", () -> owners.size() == PARTITIONS
          && members.stream().allMatch(m -> m.owned() == PARTITIONS / 3));
    } catch (AssertionError e) {
      for (Member m : members) {
        System.out.println(m.name + " owned=" + m.owned() + " alive=" + m.thread.isAlive()
            + " assignment=" + m.assignment);
      }
      System.out.println("violations " + violations);
      System.out.println(kafka.admin().describeConsumerGroups(List.of(group)).all().get().get(group));
      throw e;
    }
    Thread.sleep(500); // give a duplicate, if any, a chance to show up
    var description = kafka.admin().describeConsumerGroups(List.of(group)).all()
        .get(30, TimeUnit.SECONDS).get(group);
    for (Member m : members) {
      m.stop();
    }

    synchronized (violations) {
      assertThat(violations).as("partitions owned by two consumers at once, failed consumers")
          .isEmpty();
    }
    assertThat(description.partitionAssignor()).isEqualTo(assignorName);
    // Every message once, and each key's messages in the order they were produced.
    Map<String, Integer> expectNext = new HashMap<>();
    int duplicates = 0;
    for (Seen s : seen) {
      int want = expectNext.getOrDefault(s.key(), 0);
      if (s.seq() < want) {
        duplicates++;
        continue;
      }
      assertThat(s.seq()).as("next message of %s (read by %s)", s.key(), s.consumer()).isEqualTo(want);
      expectNext.put(s.key(), want + 1);
    }
    assertThat(duplicates).as("messages consumed twice (of %s read)", seen.size()).isZero();
    assertThat(expectNext.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(MESSAGES);
    for (int k = 0; k < KEYS; k++) {
      assertThat(expectNext.get("key-" + k)).isEqualTo(nextSeq[k]);
    }
  }

  private static volatile Map<TopicPartition, String> lastOwners = Map.of();

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting until " + what + "; owners: " + lastOwners);
      }
      Thread.sleep(20);
    }
  }

  /** A consumer on its own thread that commits after every poll and on every revocation. */
  private static final class Member implements ConsumerRebalanceListener {
    final String name;
    private final KafkaConsumer<String, String> consumer;
    private final String topic;
    private final Map<TopicPartition, String> owners;
    private final List<String> violations;
    private final ConcurrentLinkedQueue<Seen> seen;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final java.util.Set<TopicPartition> owned = ConcurrentHashMap.newKeySet();
    private final Map<TopicPartition, OffsetAndMetadata> processed = new HashMap<>();
    final Thread thread;
    volatile Object assignment;

    Member(String name, String topic, String group, Map<String, Object> protocol,
        Map<TopicPartition, String> owners, List<String> violations, ConcurrentLinkedQueue<Seen> seen) {
      this.name = name;
      this.topic = topic;
      this.owners = owners;
      this.violations = violations;
      this.seen = seen;
      Map<String, Object> c = new HashMap<>(protocol);
      c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
      c.put(ConsumerConfig.GROUP_ID_CONFIG, group);
      c.put(ConsumerConfig.CLIENT_ID_CONFIG, group + "-" + name);
      c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
      c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
      this.consumer = new KafkaConsumer<>(c, new StringDeserializer(), new StringDeserializer());
      this.thread = new Thread(this::loop, group + "-" + name);
    }

    Member start() {
      thread.start();
      return this;
    }

    int owned() {
      return owned.size();
    }

    void stop() throws InterruptedException {
      running.set(false);
      thread.join(WAIT.toMillis());
    }

    private void loop() {
      try {
        consumer.subscribe(List.of(topic), this);
        while (running.get()) {
          var records = consumer.poll(Duration.ofMillis(100));
          assignment = consumer.assignment();
          for (ConsumerRecord<String, String> r : records) {
            seen.add(new Seen(r.key(), Integer.parseInt(r.value()), name));
            processed.put(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1));
          }
          if (!processed.isEmpty()) {
            try {
              consumer.commitSync(processed);
              processed.clear();
            } catch (RebalanceInProgressException | CommitFailedException e) {
              // Mid-rebalance (classic) or stale member epoch (KIP-848): keep the offsets and
              // commit after the next poll, or on revocation.
            }
          }
        }
      } catch (RuntimeException e) {
        synchronized (violations) {
          violations.add(name + " failed: " + e);
        }
        throw e;
      } finally {
        consumer.close(); // revokes through the listener below
      }
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
      for (TopicPartition tp : partitions) {
        String previous = owners.putIfAbsent(tp, name);
        if (previous != null && !previous.equals(name)) {
          synchronized (violations) {
            violations.add(tp + " assigned to " + name + " while owned by " + previous);
          }
        }
      }
      owned.addAll(partitions);
    }

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
      Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
      processed.forEach((tp, o) -> {
        if (partitions.contains(tp)) {
          commit.put(tp, o);
        }
      });
      if (!commit.isEmpty()) {
        commitOnRevocation(commit, 5);
      }
      partitions.forEach(processed::remove);
      release(partitions);
    }

    private void commitOnRevocation(Map<TopicPartition, OffsetAndMetadata> commit, int tries) {
      try {
        consumer.commitSync(commit);
      } catch (RebalanceInProgressException | CommitFailedException e) {
        if (tries <= 1) {
          throw e; // the partitions' next owner would re-read: the test reports duplicates
        }
        commitOnRevocation(commit, tries - 1);
      }
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> partitions) {
      partitions.forEach(processed::remove);
      release(partitions);
    }

    private void release(Collection<TopicPartition> partitions) {
      for (TopicPartition tp : partitions) {
        owners.remove(tp, name);
      }
      owned.removeAll(partitions);
    }
  }
}
