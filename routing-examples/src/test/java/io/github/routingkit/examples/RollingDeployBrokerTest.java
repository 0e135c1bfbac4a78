package io.github.routingkit.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.examples.broker.EmbeddedKafka;
import io.github.routingkit.kafka.RoutingAssignor;
import io.github.routingkit.kafka.RoutingGroupAssignor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
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
 * A rolling deploy on a real in-process Kafka 4.1 broker that passes through non-equal
 * subscriptions: four consumers read {@code orders} (12 partitions); one after the other, two of
 * them are redeployed subscribing to {@code orders} and {@code payments} (6 partitions) while
 * keyed records flow to both topics. Every record must be consumed once, per-key order must hold,
 * no partition may be owned by two consumers at once, and at the end the group must be balanced by
 * Kafka's criterion (no consumer could take a partition of its topics from one holding two more).
 * Once with the classic protocol and {@link RoutingAssignor}, once with KIP-848 and
 * {@link RoutingGroupAssignor}.
 */
class RollingDeployBrokerTest {
  private static final int MESSAGES = 40_000;
  private static final int KEYS = 400;
  private static final Duration WAIT = Duration.ofSeconds(120);

  private static EmbeddedKafka kafka;

  @BeforeAll
  static void startBroker() {
    Map<String, Object> broker = new HashMap<>();
    broker.put("group.consumer.assignors", "uniform," + RoutingGroupAssignor.class.getName());
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
  void classicCooperativeRollingDeploy() throws Exception {
    Map<String, Object> p = new HashMap<>();
    p.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "classic");
    p.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, RoutingAssignor.class.getName());
    p.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "30000");
    p.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "500");
    run("classic", p);
  }

  @Test
  void consumerProtocolRollingDeploy() throws Exception {
    Map<String, Object> p = new HashMap<>();
    p.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer");
    p.put(ConsumerConfig.GROUP_REMOTE_ASSIGNOR_CONFIG, RoutingGroupAssignor.NAME);
    run("consumer", p);
  }

  /** One consumed record: topic/key, per-key sequence number, by whom. */
  record Seen(String key, int seq, String consumer) {}

  private static volatile Map<TopicPartition, String> lastOwners = Map.of();

  private void run(String name, Map<String, Object> protocol) throws Exception {
    String orders = "orders";
    String payments = "payments";
    String group = "rolling-" + name;
    kafka.createTopic(orders + "-" + name, 12);
    kafka.createTopic(payments + "-" + name, 6);
    List<String> oldSubs = List.of(orders + "-" + name);
    List<String> newSubs = List.of(orders + "-" + name, payments + "-" + name);
    Map<TopicPartition, String> owners = new ConcurrentHashMap<>();
    lastOwners = owners;
    List<String> violations = new ArrayList<>();
    ConcurrentLinkedQueue<Seen> seen = new ConcurrentLinkedQueue<>();
    List<Member> members = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      members.add(new Member("c" + i, oldSubs, group, protocol, owners, violations, seen).start());
    }
    await("4 consumers own all of orders", () -> owners.size() == 12
        && members.stream().allMatch(m -> m.owned() > 0));

    Properties pp = new Properties();
    pp.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    pp.put(ProducerConfig.ACKS_CONFIG, "all");
    pp.put(ProducerConfig.LINGER_MS_CONFIG, "5");
    Map<String, Integer> nextSeq = new HashMap<>();
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(pp, new StringSerializer(), new StringSerializer())) {
      for (int i = 0; i < MESSAGES; i++) {
        String topic = (i & 1) == 0 ? orders + "-" + name : payments + "-" + name;
        String key = "key-" + (int) ((i * 2_654_435_761L) % KEYS);
        int seq = nextSeq.merge(topic + "/" + key, 1, Integer::sum) - 1;
        producer.send(new ProducerRecord<>(topic, key, Integer.toString(seq)));
        if (i % 100 == 99) {
          Thread.sleep(1);
        }
        // The rolling deploy: c0 then c1 come back subscribed to both topics.
        for (int d = 0; d < 2; d++) {
          if (i == (d + 1) * MESSAGES / 3) {
            Member old = members.get(d);
            old.stop();
            Member redeployed = new Member("c" + d, newSubs, group, protocol, owners, violations, seen).start();
            members.set(d, redeployed);
            await("c" + d + " redeployed gets partitions", () -> redeployed.owned() > 0);
          }
        }
      }
      producer.flush();
    }
    await("all records consumed", () -> seen.size() >= MESSAGES);
    await("all 18 partitions owned and balanced", () -> owners.size() == 18 && balanced(members));
    Thread.sleep(500);
    Map<String, Integer> counts = new HashMap<>();
    members.forEach(m -> counts.put(m.name, m.owned()));
    for (Member m : members) {
      m.stop();
    }
    synchronized (violations) {
      assertThat(violations).as("partitions owned by two consumers at once, failed consumers").isEmpty();
    }
    Map<String, Integer> expectNext = new HashMap<>();
    int duplicates = 0;
    for (Seen s : seen) {
      int want = expectNext.getOrDefault(s.key(), 0);
      if (s.seq() < want) {
        duplicates++;
        continue;
      }
      assertThat(s.seq()).as("next record of %s (read by %s)", s.key(), s.consumer()).isEqualTo(want);
      expectNext.put(s.key(), want + 1);
    }
    assertThat(duplicates).as("records consumed twice (of %s read)", seen.size()).isZero();
    assertThat(expectNext).isEqualTo(nextSeq);
    System.out.println("rolling deploy (" + name + "): " + seen.size() + " records, final counts " + counts);
  }

  /** Kafka's criterion over the members' current partitions. */
  private static boolean balanced(List<Member> members) {
    for (Member j : members) {
      for (TopicPartition p : j.ownedSet()) {
        for (Member i : members) {
          if (i != j && i.topics().contains(p.topic()) && j.owned() - i.owned() >= 2) {
            return false;
          }
        }
      }
    }
    return true;
  }

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
    private final List<String> topics;
    private final Map<TopicPartition, String> owners;
    private final List<String> violations;
    private final ConcurrentLinkedQueue<Seen> seen;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final java.util.Set<TopicPartition> owned = ConcurrentHashMap.newKeySet();
    private final Map<TopicPartition, OffsetAndMetadata> processed = new HashMap<>();
    final Thread thread;
    volatile Object assignment;

    Member(String name, List<String> topics, String group, Map<String, Object> protocol,
        Map<TopicPartition, String> owners, List<String> violations, ConcurrentLinkedQueue<Seen> seen) {
      this.name = name;
      this.topics = topics;
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

    java.util.Set<TopicPartition> ownedSet() {
      return java.util.Set.copyOf(owned);
    }

    List<String> topics() {
      return topics;
    }

    void stop() throws InterruptedException {
      running.set(false);
      thread.join(WAIT.toMillis());
    }

    private void loop() {
      try {
        consumer.subscribe(topics, this);
        while (running.get()) {
          var records = consumer.poll(Duration.ofMillis(100));
          assignment = consumer.assignment();
          for (ConsumerRecord<String, String> r : records) {
            seen.add(new Seen(r.topic() + "/" + r.key(), Integer.parseInt(r.value()), name));
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
