package io.github.routingkit.examples;

import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.kafka.GroupSwitchBarrier;
import io.github.routingkit.kafka.RoutingPartitioner;
import io.github.routingkit.kafka.SwitchMarkers;
import io.github.routingkit.switching.SwitchPlan;
import io.github.routingkit.testbrokers.EmbeddedKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A router change as it happens in production, on the in-process Kafka broker: a fleet of
 * producer instances follows a canary schedule (each instance sends its own keys, one round of
 * per-key sequence numbers at a time, and restarts when told); a marker sender sends each step's
 * markers at its settle instant; the members of a consumer group run the usual poll loop with a
 * {@link GroupSwitchBarrier} and commit after every poll, and are killed (no commit), restarted,
 * added and stopped when told. Every record handed to business code is logged with the member's
 * ownership epoch of its partition, for {@link SwitchRunCheck}.
 *
 * <p>{@code -Droutingkit.switch.barrier=single-consumer} runs the same with the deprecated
 * single-consumer {@code SwitchBarrier} per member (commit past every record read, as its loop
 * did), {@code none} without any barrier: the "without the fix" runs.
 */
final class KafkaSwitchRun extends SwitchRunBase implements AutoCloseable {
  /** Which consumer-side barrier the members run. */
  enum Barrier { GROUP, SINGLE_CONSUMER, NONE }

  static Barrier barrierFromSystemProperty() {
    String v = System.getProperty("routingkit.switch.barrier", "group");
    return switch (v) {
      case "single-consumer" -> Barrier.SINGLE_CONSUMER;
      case "none" -> Barrier.NONE;
      default -> Barrier.GROUP;
    };
  }

  private final EmbeddedKafka kafka;
  final String topic;
  private final Map<String, Object> protocol;
  final Map<String, String> routing;
  final RoutingSpec spec;
  final SwitchPlan plan;
  final Barrier barrier;
  private final List<ProducerInstance> producers = new ArrayList<>();
  private final AtomicLong epochs = new AtomicLong();
  final AtomicLong rewinds = new AtomicLong();
  final AtomicLong ignoredMarkers = new AtomicLong();
  private volatile boolean producing = true;

  /**
   * @param routing the producers' routing.* properties (with the schedule)
   * @param planPartitions the partition count the plan routes onto
   */
  KafkaSwitchRun(EmbeddedKafka kafka, String topic, Map<String, Object> protocol,
      Map<String, String> routing, int planPartitions, Barrier barrier) {
    super(topic);
    this.kafka = kafka;
    this.topic = topic;
    this.protocol = protocol;
    this.routing = routing;
    this.spec = RoutingSpec.parse(routing);
    this.plan = spec.switchPlan(planPartitions);
    this.barrier = barrier;
  }

  // --- producers -----------------------------------------------------------------------

  /** Starts {@code instances} producer instances, sharing {@code keys} keys round-robin. */
  void startProducers(int instances, int keys, long roundMillis) {
    for (int i = 0; i < instances; i++) {
      List<String> own = new ArrayList<>();
      for (int k = i; k < keys; k += instances) {
        own.add("key-" + k);
      }
      ProducerInstance p = new ProducerInstance(i, own, roundMillis);
      producers.add(p);
      thread("producer-" + i, p::run);
    }
  }

  /** Asks instance {@code i} to close (flushing what it sent) and come back after {@code downMillis}. */
  void restartProducer(int i, long downMillis) {
    producers.get(i).restartFor = downMillis;
  }

  void stopProducers() {
    producing = false;
  }

  private KafkaProducer<String, String> producer() {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, RoutingPartitioner.class.getName());
    p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
    // generous for a loaded machine: a timed-out send is an unknown outcome the books cannot count
    p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
    p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "20000");
    p.put(ProducerConfig.METADATA_MAX_AGE_CONFIG, "1000");
    p.putAll(routing);
    return new KafkaProducer<>(p);
  }

  private final class ProducerInstance {
    final int id;
    final List<String> keys;
    final long roundMillis;
    final Map<String, Integer> next = new HashMap<>();
    volatile long restartFor = -1;

    ProducerInstance(int id, List<String> keys, long roundMillis) {
      this.id = id;
      this.keys = keys;
      this.roundMillis = roundMillis;
    }

    void run() {
      KafkaProducer<String, String> producer = producer();
      try {
        while (producing) {
          for (String key : keys) {
            int seq = next.merge(key, 1, Integer::sum) - 1;
            check.sent(key, seq);
            producer.send(new ProducerRecord<>(topic, key, Integer.toString(seq)), (md, e) -> {
              if (e == null) {
                check.acked(key, seq, md.partition());
              } else {
                check.failed(key, seq, e);
              }
            });
          }
          sleep(roundMillis);
          long down = restartFor;
          if (down >= 0) {
            restartFor = -1;
            producer.close(); // flushes: every record sent is acked or failed before the restart
            producerRestarts.incrementAndGet();
            sleep(down);
            producer = producer();
          }
        }
      } finally {
        producer.close();
      }
    }
  }

  /** Sends each step's markers at its settle instant, by this host's clock. */
  void startMarkerSender() {
    thread("markers", () -> {
      try (KafkaProducer<String, String> p = producer()) {
        for (int i = 0; i < plan.steps(); i++) {
          sleep(plan.settleInstant(i) - System.currentTimeMillis());
          SwitchMarkers.send(p, topic, plan.generation(), plan.stepNumber(i));
        }
      }
    });
  }

  // --- consumers -----------------------------------------------------------------------

  @Override
  RunMember newMember(String name) {
    return new Member(name);
  }

  private final class Member extends RunMember implements ConsumerRebalanceListener {
    final Map<Integer, Long> epoch = new ConcurrentHashMap<>();

    Member(String name) {
      super(name);
    }

    @Override
    void run() {
      Map<String, Object> c = new HashMap<>(protocol);
      c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
      c.put(ConsumerConfig.GROUP_ID_CONFIG, topic + "-group");
      c.put(ConsumerConfig.CLIENT_ID_CONFIG, topic + "-" + name + "-" + memberStarts.get());
      c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
      c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
      c.put(ConsumerConfig.METADATA_MAX_AGE_CONFIG, "1000");
      c.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "200");
      KafkaConsumer<String, String> consumer =
          new KafkaConsumer<>(c, new StringDeserializer(), new StringDeserializer());
      try {
        switch (barrier) {
          case GROUP -> runGroupBarrier(consumer);
          default -> runWithoutGroupBarrier(consumer);
        }
      } finally {
        consumer.close();
      }
    }

    private void runGroupBarrier(KafkaConsumer<String, String> consumer) {
      GroupSwitchBarrier<String, String> b = GroupSwitchBarrier.builder(consumer, topic, plan)
          .rebalanceListener(this).timing(Duration.ofMillis(300), Duration.ofSeconds(15)).build();
      consumer.subscribe(List.of(topic), b);
      while (running) {
        b.forEach(consumer.poll(Duration.ofMillis(100)), this::deliver);
        maxWaiting.accumulateAndGet(b.held() + b.skipped(), Math::max);
        if (!running && kill) {
          break;
        }
        commit(consumer, b.offsetsToCommit());
      }
      rewinds.addAndGet(b.counts().rewinds());
      ignoredMarkers.addAndGet(b.counts().ignoredMarkers());
      if (kill) {
        b.abandon(); // what was handed over since the last commit is read again by the next owner
      }
    }

    @SuppressWarnings("deprecation")
    private void runWithoutGroupBarrier(KafkaConsumer<String, String> consumer) {
      io.github.routingkit.SwitchBarrier<ConsumerRecord<String, String>> single =
          new io.github.routingkit.SwitchBarrier<>(plan.oldRouter(), plan.newRouter(),
              plan.numPartitions(), (p, g, s) -> {});
      consumer.subscribe(List.of(topic), this);
      Map<TopicPartition, OffsetAndMetadata> read = new HashMap<>();
      while (running) {
        ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(100));
        for (ConsumerRecord<String, String> r : records) {
          read.put(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1));
        }
        if (barrier == Barrier.SINGLE_CONSUMER) {
          SwitchMarkers.forEach(records, single, k -> k.getBytes(StandardCharsets.UTF_8), this::deliver);
        } else {
          for (ConsumerRecord<String, String> r : records) {
            if (SwitchMarkers.marker(r) == null) {
              deliver(r);
            }
          }
        }
        if (!running && kill) {
          break;
        }
        commit(consumer, read);
        read.clear();
      }
    }

    private void commit(KafkaConsumer<String, String> consumer,
        Map<TopicPartition, OffsetAndMetadata> offsets) {
      if (offsets.isEmpty()) {
        return;
      }
      try {
        consumer.commitSync(offsets);
      } catch (RebalanceInProgressException | CommitFailedException e) {
        // the revocation commits; the next poll rejoins
      }
    }

    private void deliver(ConsumerRecord<String, String> r) {
      sleep(slowMillis);
      Long e = epoch.get(r.partition());
      check.delivered(r.key(), r.value(), r.partition(), r.offset(), e == null ? -1 : e, name);
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
      for (TopicPartition tp : partitions) {
        epoch.put(tp.partition(), epochs.incrementAndGet());
      }
    }

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
      for (TopicPartition tp : partitions) {
        epoch.remove(tp.partition());
      }
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> partitions) {
      onPartitionsRevoked(partitions);
    }
  }

  // --- plumbing ------------------------------------------------------------------------

  @Override
  public void close() throws InterruptedException {
    producing = false;
    stopAll();
  }
}
