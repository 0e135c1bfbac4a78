package io.github.routingkit.examples.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.audit.AuditCause;
import io.github.routingkit.audit.AuditReport;
import io.github.routingkit.audit.AuditRecorders;
import io.github.routingkit.audit.InMemoryAuditRecorder;
import io.github.routingkit.kafka.RoutingPartitioner;
import io.github.routingkit.testbrokers.EmbeddedKafka;
import io.github.routingkit.testbrokers.WithEmbeddedKafka;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * RK010 provoked for real on an in-process Kafka 4.1 broker: a transactional producer whose router
 * is not a pure function of the key (a hot key spread over candidates by load) aborts some of its
 * transactions and replays them, as an application retrying a failed transaction does. The
 * replayed records of the hot key land on other partitions than their aborted copies, and a
 * read_committed consumer behind on the lower partitions reads the hot key's committed records
 * out of send order: the audit names ROUTING_CHANGE, which RK010 predicts from the producer's
 * config. The control, the same transactions through RoutingPartitioner without the hot-key layer,
 * replays every record onto its first partition and is clean in both.
 */
@Tag("broker")
@WithEmbeddedKafka
class KafkaTransactionLintBrokerTest {
  static final int TRANSACTIONS = 12;
  static final int PER_TRANSACTION = 10;
  static final int COMMITTED = TRANSACTIONS * PER_TRANSACTION;
  static final int PARTITIONS = 6;

  static EmbeddedKafka kafka;

  @BeforeAll
  static void broker(EmbeddedKafka broker) {
    kafka = broker; // started before the class's tests, closed after them
  }

  @Test
  void replayedTransactionsWithAnImpureRouterAreRoutingChangeAndLintFlagsRk010() throws Exception {
    Run run = transactionalRun("lint-tx-hot-key", Map.of("routing.hotkey.keys", "merchant-1",
        "routing.hotkey.candidates", "4"));
    assertThat(run.movedOnReplay()).as("replayed records on another partition than their aborted"
        + " copy").isNotEmpty().allMatch(v -> run.hotValues().contains(v));
    assertThat(run.report().records()).isEqualTo(COMMITTED);
    assertThat(run.report().pairs()).isPositive();
    assertThat(run.report().causesFound()).containsExactly(AuditCause.ROUTING_CHANGE);
    assertThat(run.report().findings()).allMatch(f -> f.sentLater().key().equals("merchant-1"));
    LintedConfigs.Lint lint = LintedConfigs.lint("kafka-tx-hot-key", run.configs().subList(0, 1),
        run.configs().subList(1, 2));
    assertThat(lint.errors()).containsExactly("RK010");

    Run control = transactionalRun("lint-tx-pure", Map.of());
    assertThat(control.movedOnReplay()).isEmpty();
    assertThat(control.report().records()).isEqualTo(COMMITTED);
    assertThat(control.report().pairs()).isZero();
    assertThat(LintedConfigs.lint("kafka-tx-pure", control.configs().subList(0, 1),
        control.configs().subList(1, 2), "--require-key-order", "--strict").clean()).isTrue();
  }

  /**
   * What a run showed: the audit of the committed records, the values whose replayed copy is on
   * another partition than the aborted one, the values sent with the hot key, and the producer's
   * and the consumer's configs.
   */
  record Run(AuditReport report, Set<String> movedOnReplay, Set<String> hotValues,
      List<Map<String, Object>> configs) {}

  /**
   * {@value #TRANSACTIONS} transactions of {@value #PER_TRANSACTION} records (every other one of
   * key merchant-1) through RoutingPartitioner with {@code routing} keys; every third transaction
   * is aborted once and then sent again and committed. The committed records are read
   * read_committed, highest partition first; all copies, aborted ones too, read_uncommitted.
   */
  private static Run transactionalRun(String topic, Map<String, Object> routing)
      throws Exception {
    kafka.createTopic(topic, PARTITIONS);
    InMemoryAuditRecorder recorder = new InMemoryAuditRecorder();
    AuditRecorders.register(topic, recorder);
    Map<String, Object> extra = new LinkedHashMap<>(routing);
    extra.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, RoutingPartitioner.class.getName());
    extra.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, topic + "-tx");
    Map<String, Object> config = AuditedKafkaClients.producerConfig(kafka, topic + "-producer",
        extra);
    Set<String> hotValues = new TreeSet<>();
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(config)) {
      producer.initTransactions();
      for (int t = 0; t < TRANSACTIONS; t++) {
        if (t % 3 == 1) {
          send(producer, records(topic, t, hotValues));
          producer.abortTransaction(); // the application's transaction failed: it sends it again
        }
        send(producer, records(topic, t, hotValues));
        producer.commitTransaction();
      }
    }
    awaitStable(topic);
    Map<String, Object> reader = AuditedKafkaClients.consumerConfig(kafka, "lagging", topic, null,
        Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"));
    try (KafkaConsumer<String, String> c = new KafkaConsumer<>(reader)) {
      assertThat(KafkaOrderingAuditBrokerTest.drainHighestPartitionFirst(c, topic, PARTITIONS))
          .isEqualTo(COMMITTED);
    }
    AuditReport report = OrderingAuditReports.all(recorder);
    KafkaOrderingAuditBrokerTest.print("transactions aborted and replayed, " + (routing.isEmpty()
        ? "RoutingPartitioner without hot keys" : "hot key spread over 4 candidates by load"),
        report);
    Set<String> moved = movedOnReplay(topic);
    System.out.println("replayed records on another partition than their aborted copy: "
        + moved.size() + " of " + (TRANSACTIONS / 3) * PER_TRANSACTION);
    return new Run(report, moved, hotValues, List.of(config, reader));
  }

  /**
   * Waits until every partition's last stable offset reaches its end: commitTransaction returns
   * before the coordinator has written the commit markers to every partition, and a read_committed
   * consumer's end offset is the last stable one, so a drain started earlier stops short.
   */
  private static void awaitStable(String topic) throws Exception {
    Map<TopicPartition, OffsetSpec> request = new HashMap<>();
    for (int p = 0; p < PARTITIONS; p++) {
      request.put(new TopicPartition(topic, p), OffsetSpec.latest());
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      var stable = kafka.admin().listOffsets(request,
          new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all().get(30, TimeUnit.SECONDS);
      var end = kafka.admin().listOffsets(request,
          new ListOffsetsOptions(IsolationLevel.READ_UNCOMMITTED)).all().get(30, TimeUnit.SECONDS);
      boolean settled = request.keySet().stream()
          .allMatch(tp -> stable.get(tp).offset() == end.get(tp).offset());
      if (settled) {
        return;
      }
      assertThat(System.nanoTime()).as("commit markers written on %s", topic).isLessThan(deadline);
      Thread.sleep(50);
    }
  }

  /** Transaction {@code t}'s records, new ones at each call (a sent record's headers are closed). */
  private static List<ProducerRecord<String, String>> records(String topic, int t,
      Set<String> hotValues) {
    List<ProducerRecord<String, String>> records = new ArrayList<>();
    for (int i = t * PER_TRANSACTION; i < (t + 1) * PER_TRANSACTION; i++) {
      String key = i % 2 == 0 ? "merchant-1" : "order-" + (i % 20);
      records.add(new ProducerRecord<>(topic, key, "v" + i));
      if (i % 2 == 0) {
        hotValues.add("v" + i);
      }
    }
    return records;
  }

  private static void send(KafkaProducer<String, String> producer,
      List<ProducerRecord<String, String>> records) {
    producer.beginTransaction();
    records.forEach(producer::send);
    producer.flush();
  }

  /** The values that are on more than one partition, aborted copies included. */
  private static Set<String> movedOnReplay(String topic) {
    Map<String, Object> raw = new HashMap<>();
    raw.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    raw.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    raw.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    raw.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
    Map<String, Set<Integer>> partitionsOf = new HashMap<>();
    int copies = 0;
    try (KafkaConsumer<String, String> c = new KafkaConsumer<>(raw)) {
      List<TopicPartition> all = new ArrayList<>();
      for (int p = 0; p < PARTITIONS; p++) {
        all.add(new TopicPartition(topic, p));
      }
      c.assign(all);
      c.seekToBeginning(all);
      Map<TopicPartition, Long> end = c.endOffsets(all);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (all.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
        for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(200))) {
          partitionsOf.computeIfAbsent(r.value(), v -> new TreeSet<>()).add(r.partition());
          copies++;
        }
        assertThat(System.nanoTime()).as("all copies read in time").isLessThan(deadline);
      }
    }
    assertThat(copies).as("committed and aborted copies").isEqualTo(COMMITTED
        + (TRANSACTIONS / 3) * PER_TRANSACTION);
    Set<String> moved = new TreeSet<>();
    partitionsOf.forEach((v, ps) -> {
      if (ps.size() > 1) {
        moved.add(v);
      }
    });
    return moved;
  }
}
