package io.github.routingkit.examples.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.audit.AuditCause;
import io.github.routingkit.audit.AuditFinding;
import io.github.routingkit.audit.AuditRecorders;
import io.github.routingkit.audit.AuditReport;
import io.github.routingkit.audit.AuditStamp;
import io.github.routingkit.audit.InMemoryAuditRecorder;
import io.github.routingkit.kafka.RoutingPartitioner;
import io.github.routingkit.testbrokers.EmbeddedKafka;
import io.github.routingkit.testbrokers.WithEmbeddedKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The ordering faults {@code routing lint} predicts from configuration, provoked for real on an
 * in-process Kafka 4.1 broker: each scenario runs its clients with a configuration, the audit
 * names the cause of the out-of-order pairs, and lint, given the same configuration, flags the
 * rule that predicts that cause; each control runs the fix and is clean in both.
 */
@Tag("broker")
@WithEmbeddedKafka
class KafkaOrderingLintBrokerTest {
  static EmbeddedKafka kafka;

  @BeforeAll
  static void broker(EmbeddedKafka broker) {
    kafka = broker; // started before the class's tests, closed after them
  }

  static Map<String, Object> producerConfig(String id, Map<String, Object> extra) {
    return AuditedKafkaClients.producerConfig(kafka, id, extra);
  }

  /**
   * A consumer config recording into {@code recorder}, in {@code group} (null: none); a group
   * member keeps the client's commit default (auto-commit) unless {@code extra} sets it.
   */
  static Map<String, Object> consumerConfig(String name, String recorder, String group,
      Map<String, Object> extra) {
    Map<String, Object> c = AuditedKafkaClients.consumerConfig(kafka, name, recorder, group,
        extra);
    if (group != null && !extra.containsKey(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG)) {
      c.remove(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG);
    }
    return c;
  }

  static InMemoryAuditRecorder recorder(String name) {
    InMemoryAuditRecorder r = new InMemoryAuditRecorder();
    AuditRecorders.register(name, r);
    return r;
  }

  static AuditReport drainAndAudit(String topic, int partitions, String recorderName,
      InMemoryAuditRecorder recorder, int expected, String scenario) {
    try (KafkaConsumer<String, String> c = new KafkaConsumer<>(consumerConfig("lagging",
        recorderName, null, Map.of()))) {
      assertThat(KafkaOrderingAuditBrokerTest.drainHighestPartitionFirst(c, topic, partitions))
          .isEqualTo(expected);
    }
    AuditReport report = OrderingAuditReports.all(recorder);
    KafkaOrderingAuditBrokerTest.print(scenario, report);
    return report;
  }

  static void sendAll(KafkaProducer<String, String> producer, List<ProducerRecord<String, String>>
      records) throws Exception {
    List<Future<?>> acks = new ArrayList<>();
    for (ProducerRecord<String, String> r : records) {
      acks.add(producer.send(r));
    }
    producer.flush();
    for (Future<?> ack : acks) {
      ack.get(60, TimeUnit.SECONDS); // a failed send fails here, with its cause
    }
  }

  /**
   * Hot keys spread over 4 candidates by load, a consumer behind on the lower partitions: the
   * hot key's records are read out of send order (ROUTING_CHANGE), which RK014 predicts. The
   * control, the same RoutingPartitioner and records without the hot-key layer, keeps each key on
   * one partition and is clean in both.
   */
  @Test
  void hotKeyScatterIsRoutingChangeAndLintFlagsRk014() throws Exception {
    Run run = hotKeyRun("lint-hot-key", "hot-producer", Map.of(
        "routing.hotkey.keys", "merchant-1", "routing.hotkey.candidates", "4"));
    assertThat(run.report().pairs()).isPositive();
    assertThat(run.report().causesFound()).containsExactly(AuditCause.ROUTING_CHANGE);
    assertThat(run.report().findings()).allMatch(f -> f.sentLater().key().equals("merchant-1"));
    LintedConfigs.Lint lint = run.lintProducerAndConsumer("kafka-hot-key", "--require-key-order");
    assertThat(lint.errors()).containsExactly("RK014");

    Run control = hotKeyRun("lint-no-hot-key", "no-hot-key-producer", Map.of());
    assertThat(control.report().records()).isEqualTo(300);
    assertThat(control.report().pairs()).isZero();
    assertThat(control.lintProducerAndConsumer("kafka-no-hot-key", "--require-key-order",
        "--strict").clean()).isTrue();
  }

  /**
   * 300 records through RoutingPartitioner with {@code routing} keys, every other one of key
   * merchant-1, on 6 partitions read highest partition first; the configs are the producer's and
   * the consumer's.
   */
  private static Run hotKeyRun(String topic, String id, Map<String, Object> routing)
      throws Exception {
    kafka.createTopic(topic, 6);
    InMemoryAuditRecorder recorder = recorder(topic);
    Map<String, Object> extra = new LinkedHashMap<>(routing);
    extra.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, RoutingPartitioner.class.getName());
    Map<String, Object> config = producerConfig(id, extra);
    List<ProducerRecord<String, String>> records = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      String key = i % 2 == 0 ? "merchant-1" : "order-" + (i % 20);
      records.add(new ProducerRecord<>(topic, key, "v" + i));
    }
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(config)) {
      sendAll(producer, records);
    }
    AuditReport report = drainAndAudit(topic, 6, topic, recorder, 300, routing.isEmpty()
        ? "RoutingPartitioner without hot keys" : "hot key spread over 4 candidates by load");
    return new Run(report, List.of(config, consumerConfig("lagging", topic, null, Map.of())));
  }

  /**
   * Keyed records through kafka-clients' RoundRobinPartitioner, which ignores the key: each key's
   * records land on several partitions, and a consumer behind on the lower partitions reads them
   * out of send order (ROUTING_CHANGE: both keyed, on different partitions), which RK006 predicts
   * from the producer's config. The control, the built-in partitioner, keeps each key on one
   * partition and is clean in both.
   */
  @Test
  void roundRobinPartitionerWithKeysIsRoutingChangeAndLintFlagsRk006() throws Exception {
    Map<String, Object> roundRobin = Map.of(ProducerConfig.PARTITIONER_CLASS_CONFIG,
        "org.apache.kafka.clients.producer.RoundRobinPartitioner");
    Run run = keyedRun("lint-round-robin", "round-robin-producer", roundRobin);
    assertThat(run.report().pairs()).isPositive();
    assertThat(run.report().causesFound()).containsExactly(AuditCause.ROUTING_CHANGE);
    assertThat(run.lintProducerAndConsumer("kafka-round-robin", "--require-key-order").errors())
        .containsExactly("RK006");

    Run control = keyedRun("lint-default-partitioner", "default-producer", Map.of());
    assertThat(control.report().records()).isEqualTo(240);
    assertThat(control.report().pairs()).isZero();
    assertThat(control.lintProducerAndConsumer("kafka-default-partitioner", "--require-key-order",
        "--strict").clean()).isTrue();
  }

  /**
   * 240 records of 7 keys (prime to the 6 partitions, so a round-robin turn moves each key) on 6
   * partitions, read highest partition first; the configs are the producer's and the consumer's.
   */
  private static Run keyedRun(String topic, String id, Map<String, Object> extra)
      throws Exception {
    kafka.createTopic(topic, 6);
    InMemoryAuditRecorder recorder = recorder(topic);
    Map<String, Object> config = producerConfig(id, extra);
    List<ProducerRecord<String, String>> records = new ArrayList<>();
    for (int i = 0; i < 240; i++) {
      records.add(new ProducerRecord<>(topic, "order-" + (i % 7), "v" + i));
    }
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(config)) {
      sendAll(producer, records);
    }
    AuditReport report = drainAndAudit(topic, 6, topic, recorder, 240, "keyed records, "
        + (extra.isEmpty() ? "the built-in partitioner" : extra));
    return new Run(report, List.of(config, consumerConfig("lagging", topic, null, Map.of())));
  }

  /**
   * One key stream written through two producers that place keys differently (the built-in
   * partitioner, and RoutingPartitioner with librdkafka's default hash, as a librdkafka producer
   * would: the cross-client vectors prove the scheme places keys as librdkafka does). The audit
   * tells key streams apart by producer instance, so both producers carry one stream's stamp,
   * numbered in send order, as an application whose events of a key go through both clients
   * would. Keys the second producer puts on a higher partition are read out of order
   * (ROUTING_CHANGE), which RK013 predicts from the two configs.
   */
  @Test
  void twoProducersThatPlaceKeysDifferentlyAreRoutingChangeAndLintFlagsRk013() throws Exception {
    String topic = "lint-two-producers";
    kafka.createTopic(topic, 6);
    InMemoryAuditRecorder recorder = recorder("lint-two-producers");
    Map<String, Object> javaDefault = producerConfig("unused", Map.of());
    javaDefault.remove(ProducerConfig.INTERCEPTOR_CLASSES_CONFIG);
    javaDefault.remove("routingkit.audit.producer.id");
    Map<String, Object> crc32 = new LinkedHashMap<>(javaDefault);
    crc32.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, RoutingPartitioner.class.getName());
    crc32.put("routing.scheme", "librdkafka-crc32");
    List<String> keys = new ArrayList<>();
    for (int k = 0; k < 60; k++) {
      keys.add("customer-" + k);
    }
    try (KafkaProducer<String, String> first = new KafkaProducer<>(javaDefault);
         KafkaProducer<String, String> second = new KafkaProducer<>(crc32)) {
      for (int round = 0; round < 4; round++) {
        List<ProducerRecord<String, String>> records = new ArrayList<>();
        for (String key : keys) {
          ProducerRecord<String, String> r = new ProducerRecord<>(topic, key, "r" + round);
          r.headers().add(AuditStamp.HEADER, ((round + 1) + "," + System.currentTimeMillis()
              + ",k,,~5eed,checkout").getBytes(StandardCharsets.UTF_8));
          records.add(r);
        }
        sendAll(round < 2 ? first : second, records);
      }
    }
    AuditReport report = drainAndAudit(topic, 6, "lint-two-producers", recorder, 240,
        "two producers, built-in vs librdkafka-crc32");
    assertThat(report.pairs()).isPositive();
    assertThat(report.causesFound()).containsExactly(AuditCause.ROUTING_CHANGE);

    LintedConfigs.Lint lint = LintedConfigs.lint("kafka-two-producers",
        List.of(javaDefault, crc32), List.of(consumerConfig("lagging", "lint-two-producers", null,
        Map.of())), "--require-key-order", "--partitions", "6");
    assertThat(lint.errors()).containsExactly("RK013");
  }

  /**
   * One produce request is damaged on the way (a flipped byte: the broker answers CORRUPT_MESSAGE,
   * retriable, nothing written) and the answer arrives after four later requests of the same
   * partition went out ({@link FaultInjectingProxy}). Without idempotence the later batches are
   * written first and the failed one after them when it is retried: the log holds a key's records
   * out of send order (PRODUCER_RETRY), which RK015 predicts from the producer's config. With
   * idempotence (the control) the broker refuses the later batches out of sequence until the
   * failed one is in, and the order holds.
   */
  @Test
  void retriesWithoutIdempotenceAreProducerRetryAndLintFlagsRk015() throws Exception {
    Map<String, Object> reorder = Map.of(
        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false",
        ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "5",
        ProducerConfig.BATCH_SIZE_CONFIG, "128");
    Run run = retryRun("lint-retry", "retrying-producer", reorder);
    assertThat(run.report().pairs()).isPositive();
    assertThat(run.report().causesFound()).containsExactly(AuditCause.PRODUCER_RETRY);
    assertThat(LintedConfigs.lint("kafka-retry", run.configs(), List.of(consumerConfig(
        "lagging", "lint-retry", null, Map.of())), "--require-key-order").errors())
        .containsExactly("RK015");

    Map<String, Object> idempotent = new LinkedHashMap<>(reorder);
    idempotent.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    Run control = retryRun("lint-retry-idempotent", "idempotent-producer", idempotent);
    assertThat(control.report().records()).isEqualTo(200);
    assertThat(control.report().pairs()).isZero();
    assertThat(LintedConfigs.lint("kafka-retry-idempotent", control.configs(),
        List.of(consumerConfig("lagging", "lint-retry-idempotent", null, Map.of())),
        "--require-key-order", "--strict").clean()).isTrue();
  }

  private static Run retryRun(String topic, String id, Map<String, Object> extra)
      throws Exception {
    kafka.createTopic(topic, 1);
    InMemoryAuditRecorder recorder = recorder(topic);
    Map<String, Object> config;
    try (FaultInjectingProxy proxy = new FaultInjectingProxy(kafka.bootstrapServers(),
        "retry-me-once")) {
      config = producerConfig(id, extra);
      config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, proxy.bootstrap());
      try (KafkaProducer<String, String> producer = new KafkaProducer<>(config)) {
        producer.partitionsFor(topic); // metadata first: the sends then go out at once
        List<ProducerRecord<String, String>> records = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
          // one record per batch (batch.size=128), so batches are requests of their own; not the
          // producer's first one: a broker takes any sequence from a producer it has no state of
          records.add(new ProducerRecord<>(topic, "order-" + (i / 20),
              i == 40 ? "retry-me-once" : "v" + i));
        }
        sendAll(producer, records);
      }
      assertThat(proxy.corrupted()).as("a produce request was damaged").isTrue();
    }
    AuditReport report = drainAndAudit(topic, 1, topic, recorder, 200, "one produce request"
        + " damaged and retried, " + ("true".equals(extra.get(
        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG)) ? "idempotent" : "no idempotence"));
    return new Run(report, List.of(config));
  }

  /**
   * A group member reads its records and then stops polling (a crash, or processing slower than
   * max.poll.interval.ms) without having committed: with auto-commit (interval 60 s here, so no
   * commit fell in between) the member that takes its partitions over reads them again, after
   * newer records of the same keys (REDELIVERY), which RK019 predicts. The control commits after
   * each processed poll, as RK019's fix says: the new owner starts where the first stopped.
   */
  @Test
  void autoCommitAndAMemberThatLeavesIsRedeliveryAndLintFlagsRk019() throws Exception {
    Map<String, Object> autoCommit = Map.of(ConsumerConfig.AUTO_COMMIT_INTERVAL_MS_CONFIG, "60000");
    Run run = groupHandOver("lint-auto-commit", autoCommit, false);
    assertThat(run.report().pairs()).isPositive();
    assertThat(run.report().causesFound()).containsExactly(AuditCause.REDELIVERY);
    for (AuditFinding f : run.report().findings()) {
      assertThat(f.sentEarlier().consumer()).isEqualTo("member-b");
    }
    LintedConfigs.Lint lint = LintedConfigs.lint("kafka-auto-commit", List.of(),
        run.configs(), "--require-key-order");
    assertThat(lint.errors()).isEmpty();
    assertThat(lint.warnings()).containsExactly("RK019");

    Run control = groupHandOver("lint-commit-per-poll",
        Map.of(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false"), true);
    assertThat(control.report().records()).isEqualTo(400);
    assertThat(control.report().pairs()).isZero();
    assertThat(LintedConfigs.lint("kafka-commit-per-poll", List.of(), control.configs(),
        "--require-key-order", "--strict").clean()).isTrue();
  }

  /** An audited run and the client configs it ran with. */
  record Run(AuditReport report, List<Map<String, Object>> configs) {
    /** Lints the run's configs as one producer's then one consumer's (the first two configs). */
    LintedConfigs.Lint lintProducerAndConsumer(String scenario, String... options) {
      return LintedConfigs.lint(scenario, configs.subList(0, 1), configs.subList(1, 2), options);
    }
  }

  private static Run groupHandOver(String topic, Map<String, Object> commit, boolean commitSync)
      throws Exception {
    kafka.createTopic(topic, 4);
    InMemoryAuditRecorder recorder = recorder(topic);
    List<ProducerRecord<String, String>> records = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      records.add(new ProducerRecord<>(topic, "order-" + (i % 40), "v" + i));
    }
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig(
        topic + "-producer", Map.of()))) {
      sendAll(producer, records);
    }
    Map<String, Object> member = new LinkedHashMap<>(Map.of(
        ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, "3000",
        ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "6000",
        ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "1000"));
    member.putAll(commit);
    Map<String, Object> a = consumerConfig("member-a", topic, topic, member);
    Map<String, Object> b = consumerConfig("member-b", topic, topic, member);
    KafkaConsumer<String, String> first = new KafkaConsumer<>(a);
    try (KafkaConsumer<String, String> second = new KafkaConsumer<>(b)) {
      first.subscribe(List.of(topic));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (recorder.size() < 400) {
        first.poll(Duration.ofMillis(100));
        if (commitSync) {
          first.commitSync(); // what was just processed
        }
        assertThat(System.nanoTime()).as("member-a read all").isLessThan(deadline);
      }
      // member-a stops polling here; member-b joins and gets its partitions once it is gone
      second.subscribe(List.of(topic));
      Set<String> seen = new HashSet<>();
      while (second.assignment().size() < 4) {
        second.poll(Duration.ofMillis(100)).forEach(r -> seen.add(r.key()));
        assertThat(System.nanoTime()).as("member-b took over").isLessThan(deadline);
      }
      long quiet = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
      while (System.nanoTime() < quiet && recorder.size() < 800) {
        second.poll(Duration.ofMillis(100));
      }
    } finally {
      first.close(Duration.ZERO);
    }
    AuditReport report = OrderingAuditReports.all(recorder);
    KafkaOrderingAuditBrokerTest.print("member-a leaves without committing ("
        + (commitSync ? "commit after each poll" : "auto-commit") + ")", report);
    return new Run(report, List.of(a, b));
  }
}
