package io.github.routingkit.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.kafka.RoutingAssignor;
import io.github.routingkit.kafka.RoutingGroupAssignor;
import io.github.routingkit.testbrokers.EmbeddedKafka;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Plumbing shared by the broker tests: the consumers of one group, each on its own thread, that
 * commit after every poll and on every revocation. Ownership is tracked through the rebalance
 * listeners (a partition assigned to one member while another still holds it is a violation, as
 * is a member's thread failing), and every consumed record is kept for the per-key order check.
 * Records carry their per-key sequence number as the value.
 */
final class TrackedConsumerGroup {
  /** One consumed record: key (as {@code keyOf} makes it), per-key sequence number, by whom. */
  record Seen(String key, int seq, String consumer) {}

  /**
   * An in-process broker that offers {@code RoutingGroupAssignor} to KIP-848 groups, with 500 ms
   * heartbeats for faster reconciliation than the 5 s default.
   */
  static EmbeddedKafka startBroker() {
    Map<String, Object> broker = new HashMap<>();
    broker.put("group.consumer.assignors", "uniform," + RoutingGroupAssignor.class.getName());
    broker.put("group.consumer.heartbeat.interval.ms", "500");
    broker.put("group.consumer.min.heartbeat.interval.ms", "500");
    return EmbeddedKafka.start(broker);
  }

  /** Consumer properties: the classic protocol with the client-side {@code RoutingAssignor}. */
  static Map<String, Object> classicWithRoutingAssignor() {
    Map<String, Object> p = new HashMap<>();
    p.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "classic");
    p.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, RoutingAssignor.class.getName());
    // 30 s: a consumer starved of CPU for 10 s would be evicted and its uncommitted records
    // re-read by another member, which the tests report as duplicates
    p.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "30000");
    p.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "500");
    return p;
  }

  /** Consumer properties: the KIP-848 consumer protocol with the broker-side {@code RoutingGroupAssignor}. */
  static Map<String, Object> consumerProtocolWithRoutingGroupAssignor() {
    Map<String, Object> p = new HashMap<>();
    p.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer");
    p.put(ConsumerConfig.GROUP_REMOTE_ASSIGNOR_CONFIG, RoutingGroupAssignor.NAME);
    return p;
  }

  private final String bootstrapServers;
  private final String group;
  private final Map<String, Object> protocol;
  private final Duration wait;
  private final Function<ConsumerRecord<String, String>, String> keyOf;
  private final Map<TopicPartition, String> owners = new ConcurrentHashMap<>();
  private final List<String> violations = new ArrayList<>();
  private final ConcurrentLinkedQueue<Seen> seen = new ConcurrentLinkedQueue<>();

  /**
   * @param protocol the consumer properties that choose the group protocol and assignor
   * @param wait deadline for {@link #await} and for a member's thread to end on {@link Member#stop}
   * @param keyOf the key a record's sequence number counts under
   */
  TrackedConsumerGroup(String bootstrapServers, String group, Map<String, Object> protocol, Duration wait,
      Function<ConsumerRecord<String, String>, String> keyOf) {
    this.bootstrapServers = bootstrapServers;
    this.group = group;
    this.protocol = protocol;
    this.wait = wait;
    this.keyOf = keyOf;
  }

  /** Starts a member named {@code name} subscribed to {@code topics}. */
  Member start(String name, List<String> topics) {
    return new Member(name, topics).start();
  }

  /** Current owner of each owned partition, by member name. */
  Map<TopicPartition, String> owners() {
    return owners;
  }

  /** Violations so far; read under {@code synchronized} on the list. */
  List<String> violations() {
    return violations;
  }

  int seenCount() {
    return seen.size();
  }

  /** Polls {@code condition} every 20 ms; an AssertionError naming {@code what} after the wait. */
  void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + wait.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting until " + what + "; owners: " + owners);
      }
      Thread.sleep(20);
    }
  }

  void assertNoViolations() {
    synchronized (violations) {
      assertThat(violations).as("partitions owned by two consumers at once, failed consumers").isEmpty();
    }
  }

  /**
   * Asserts that each key's records were consumed in the order produced (sequence numbers 0, 1, 2,
   * ...) and none twice; {@code noun} names a record in the messages. Returns, per key, how many
   * records were consumed.
   */
  Map<String, Integer> assertEachKeyInOrderOnce(String noun) {
    Map<String, Integer> expectNext = new HashMap<>();
    int duplicates = 0;
    for (Seen s : seen) {
      int want = expectNext.getOrDefault(s.key(), 0);
      if (s.seq() < want) {
        duplicates++;
        continue;
      }
      assertThat(s.seq()).as("next " + noun + " of %s (read by %s)", s.key(), s.consumer()).isEqualTo(want);
      expectNext.put(s.key(), want + 1);
    }
    assertThat(duplicates).as(noun + "s consumed twice (of %s read)", seen.size()).isZero();
    return expectNext;
  }

  /** A consumer on its own thread that commits after every poll and on every revocation. */
  final class Member implements ConsumerRebalanceListener {
    final String name;
    private final KafkaConsumer<String, String> consumer;
    private final List<String> topics;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Set<TopicPartition> owned = ConcurrentHashMap.newKeySet();
    private final Map<TopicPartition, OffsetAndMetadata> processed = new HashMap<>();
    final Thread thread;
    volatile Object assignment;

    private Member(String name, List<String> topics) {
      this.name = name;
      this.topics = topics;
      Map<String, Object> c = new HashMap<>(protocol);
      c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
      c.put(ConsumerConfig.GROUP_ID_CONFIG, group);
      c.put(ConsumerConfig.CLIENT_ID_CONFIG, group + "-" + name);
      c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
      c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
      this.consumer = new KafkaConsumer<>(c, new StringDeserializer(), new StringDeserializer());
      this.thread = new Thread(this::loop, group + "-" + name);
    }

    private Member start() {
      thread.start();
      return this;
    }

    int owned() {
      return owned.size();
    }

    Set<TopicPartition> ownedSet() {
      return Set.copyOf(owned);
    }

    List<String> topics() {
      return topics;
    }

    void stop() throws InterruptedException {
      running.set(false);
      thread.join(wait.toMillis());
    }

    private void loop() {
      try {
        consumer.subscribe(topics, this);
        while (running.get()) {
          var records = consumer.poll(Duration.ofMillis(100));
          assignment = consumer.assignment();
          for (ConsumerRecord<String, String> r : records) {
            seen.add(new Seen(keyOf.apply(r), Integer.parseInt(r.value()), name));
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
