package io.github.routingkit.examples.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.testbrokers.EmbeddedKafka;
import io.github.routingkit.testbrokers.WithEmbeddedKafka;
import io.github.routingkit.kafka.RoutingPartitioner;
import io.github.routingkit.audit.AuditCause;
import io.github.routingkit.audit.AuditFinding;
import io.github.routingkit.audit.AuditRecorders;
import io.github.routingkit.audit.AuditReport;
import io.github.routingkit.audit.AuditStamp;
import io.github.routingkit.audit.InMemoryAuditRecorder;
import io.github.routingkit.audit.OrderingAudit;
import io.github.routingkit.cli.RoutingCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The ordering audit on a real in-process Kafka 4.1 broker: the audit interceptors stamp and
 * record real records, each scenario provokes one cause for real, and the audit must name it
 * (and only it). A consumer that is behind on some partitions is played by draining the
 * partitions one at a time, highest first: Kafka keeps order per partition only, so whatever
 * moved a key to another partition shows.
 */
@Tag("broker")
@WithEmbeddedKafka
class KafkaOrderingAuditBrokerTest {
  static EmbeddedKafka kafka;

  @BeforeAll
  static void broker(EmbeddedKafka broker) {
    kafka = broker; // started before the class's tests, closed after them
  }

  static KafkaProducer<String, String> producer(String id, Map<String, Object> extra) {
    return new KafkaProducer<>(producerConfig(id, extra));
  }

  /** The producer configuration of {@link #producer}, as routing lint reads it. */
  static Map<String, Object> producerConfig(String id, Map<String, Object> extra) {
    Map<String, Object> p = new HashMap<>(Map.of(ProducerConfig.PARTITIONER_CLASS_CONFIG,
        RoutingPartitioner.class.getName()));
    p.putAll(extra);
    return AuditedKafkaClients.producerConfig(kafka, id, p);
  }

  static KafkaConsumer<String, String> consumer(String name, String recorder, String group) {
    return new KafkaConsumer<>(consumerConfig(name, recorder, group));
  }

  /**
   * The consumer configuration of {@link #consumer}, as routing lint reads it. Group members commit
   * themselves (enable.auto.commit=false): the tests here read once and never hand partitions over.
   */
  static Map<String, Object> consumerConfig(String name, String recorder, String group) {
    return AuditedKafkaClients.consumerConfig(kafka, name, recorder, group, Map.of());
  }

  /** Reads every partition to its end, one at a time, from the highest partition down. */
  static int drainHighestPartitionFirst(KafkaConsumer<String, String> consumer, String topic,
      int partitions) {
    int total = 0;
    for (int p = partitions - 1; p >= 0; p--) {
      TopicPartition tp = new TopicPartition(topic, p);
      consumer.assign(List.of(tp));
      consumer.seekToBeginning(List.of(tp));
      long end = consumer.endOffsets(List.of(tp)).get(tp);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (consumer.position(tp) < end) {
        total += consumer.poll(Duration.ofMillis(200)).count();
        assertThat(System.nanoTime()).as("partition %d drained in time", p).isLessThan(deadline);
      }
    }
    return total;
  }

  /**
   * Waits until the broker answers ListOffsets for every partition: right after
   * createPartitions the metadata can name a leader that does not lead yet, and the idempotent
   * producer then keeps retrying the new partitions' first batches until delivery.timeout.ms
   * (seen here under load; EmbeddedKafka.createTopic waits the same way for new topics).
   */
  static void awaitServed(String topic, int partitions) throws InterruptedException {
    awaitServed(kafka, topic, partitions);
  }

  /** {@link #awaitServed(String, int)} on the given broker. */
  static void awaitServed(EmbeddedKafka kafka, String topic, int partitions)
      throws InterruptedException {
    Map<TopicPartition, OffsetSpec> request = new HashMap<>();
    for (int p = 0; p < partitions; p++) {
      request.put(new TopicPartition(topic, p), OffsetSpec.latest());
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      try {
        kafka.admin().listOffsets(request, new ListOffsetsOptions().timeoutMs(2_000)).all()
            .get(5, TimeUnit.SECONDS);
        return;
      } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
        assertThat(System.nanoTime()).as("new partitions led: %s", e).isLessThan(deadline);
        Thread.sleep(50);
      }
    }
  }

  static InMemoryAuditRecorder recorder(String name) {
    InMemoryAuditRecorder r = new InMemoryAuditRecorder();
    AuditRecorders.register(name, r);
    return r;
  }

  static void print(String scenario, AuditReport report) {
    System.out.println("== kafka audit, " + scenario);
    System.out.print(report.toText(3));
  }

  @Test
  void cleanRunOfAConsumerGroupHasZeroFindings() throws Exception {
    String topic = "audit-clean";
    kafka.createTopic(topic, 12);
    InMemoryAuditRecorder recorder = recorder("kafka-clean");
    try (KafkaConsumer<String, String> a = consumer("member-a", "kafka-clean", "clean");
         KafkaConsumer<String, String> b = consumer("member-b", "kafka-clean", "clean")) {
      a.subscribe(List.of(topic));
      b.subscribe(List.of(topic));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (a.assignment().size() + b.assignment().size() < 12 || a.assignment().isEmpty()
          || b.assignment().isEmpty()) {
        a.poll(Duration.ofMillis(50));
        b.poll(Duration.ofMillis(50));
        assertThat(System.nanoTime()).as("group formed").isLessThan(deadline);
      }
      try (KafkaProducer<String, String> producer = producer("clean-producer", Map.of())) {
        for (int i = 0; i < 1000; i++) {
          producer.send(new ProducerRecord<>(topic, "order-" + (i % 40), "v" + i));
        }
        producer.flush();
      }
      while (recorder.size() < 1000) {
        a.poll(Duration.ofMillis(50));
        b.poll(Duration.ofMillis(50));
        assertThat(System.nanoTime()).as("all consumed").isLessThan(deadline);
      }
    }
    AuditReport report = recorder.audit();
    print("clean run (a consumer group of 2, keyed sends)", report);
    assertThat(report.records()).isEqualTo(1000);
    assertThat(report.keys()).isEqualTo(40);
    assertThat(report.pairs()).isZero();
    assertThat(recorder.records()).extracting(r -> r.consumer()).contains("member-a", "member-b");
    assertThat(recorder.records()).allMatch(r -> r.subscription().equals("kafka-group")
        && r.producer().equals("clean-producer") && r.keyed());
    // the configuration of a clean run lints clean, per-key order required
    assertThat(LintedConfigs.lint("kafka-clean", List.of(producerConfig("clean-producer",
        Map.of())), List.of(consumerConfig("member-a", "kafka-clean", "clean"),
        consumerConfig("member-b", "kafka-clean", "clean")), "--require-key-order", "--strict")
        .clean()).isTrue();
  }

  /**
   * Recorded through the consumer interceptor's JSON-lines file ({@code routingkit.audit.log}) and
   * audited by the {@code routing audit} command, as in staging.
   */
  @Test
  void keylessSendsMixedWithKeyedOnesAreNamedKeylessSend() throws Exception {
    String topic = "audit-keyless";
    int partitions = 6;
    kafka.createTopic(topic, partitions);
    Path log = Path.of("target", "audit-keyless.jsonl").toAbsolutePath();
    Files.deleteIfExists(log);
    try (KafkaProducer<String, String> producer = producer("keyless-producer",
        Map.of("routing.keyless", "round-robin"))) {
      for (int i = 0; i < 400; i++) {
        String key = "order-" + (i % 20);
        // every third send of a key goes through a code path that forgot the key
        ProducerRecord<String, String> r = (i / 20) % 3 == 2
            ? new ProducerRecord<>(topic, null, "v" + i)
            : new ProducerRecord<>(topic, key, "v" + i);
        if (r.key() == null) {
          r.headers().add(AuditStamp.LOGICAL_KEY, key.getBytes(StandardCharsets.UTF_8));
        }
        producer.send(r);
      }
      producer.flush();
    }
    try (KafkaConsumer<String, String> c = consumer("lagging", "file:" + log, null)) {
      assertThat(drainHighestPartitionFirst(c, topic, partitions)).isEqualTo(400);
    }
    assertThat(Files.readAllLines(log)).hasSize(400);
    AuditReport report = OrderingAudit.builder().build().auditFiles(List.of(log), false,
        n -> { }, 1_000_000);
    print("keyless sends mixed with keyed", report);
    assertThat(report.records()).isEqualTo(400);
    assertThat(report.pairs()).isPositive();
    assertThat(report.causesFound()).containsExactly(AuditCause.KEYLESS_SEND);
    for (AuditFinding f : report.findings()) {
      assertThat(f.sentLater().partition()).isNotEqualTo(f.sentEarlier().partition());
      assertThat(f.sentLater().keyed() && f.sentEarlier().keyed()).as(f.toString()).isFalse();
    }
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = RoutingCli.run(new PrintWriter(out), new PrintWriter(err), "audit", "--show", "2",
        log.toString());
    System.out.println("$ routing audit --show 2 audit-keyless.jsonl");
    System.out.print(out);
    assertThat(code).as(err.toString()).isEqualTo(RoutingCli.EXIT_THRESHOLD);
    assertThat(out.toString()).containsPattern("KEYLESS_SEND +write side +" + report.pairs());
    // some records of a key go out without it: their order is declared needed, and lint sees
    // that the producer's keyless policy spreads them (RK016, KEYLESS_SEND)
    assertThat(LintedConfigs.lint("kafka-keyless", List.of(producerConfig("keyless-producer",
        Map.of("routing.keyless", "round-robin"))), List.of(consumerConfig("lagging",
        "file:" + log, null)), "--require-key-order", "--require-keyless-order").errors())
        .containsExactly("RK016");
  }

  @Test
  void partitionGrowthTwelveToSixteenWithModuloPlacementIsNamedRoutingChange() throws Exception {
    String topic = "audit-growth";
    kafka.createTopic(topic, 12);
    InMemoryAuditRecorder recorder = recorder("kafka-growth");
    List<String> keys = new java.util.ArrayList<>();
    for (int k = 0; k < 200; k++) {
      keys.add("customer-" + k);
    }
    try (KafkaProducer<String, String> producer = producer("growth-producer",
        Map.of(ProducerConfig.METADATA_MAX_AGE_CONFIG, "300"))) {
      for (int round = 0; round < 3; round++) {
        for (String key : keys) {
          producer.send(new ProducerRecord<>(topic, key, "before-" + round));
        }
      }
      producer.flush();
      kafka.admin().createPartitions(Map.of(topic, NewPartitions.increaseTo(16)))
          .all().get(60, TimeUnit.SECONDS);
      awaitServed(topic, 16);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (producer.partitionsFor(topic).size() < 16) {
        Thread.sleep(50);
        assertThat(System.nanoTime()).as("producer sees 16 partitions").isLessThan(deadline);
      }
      List<java.util.concurrent.Future<?>> acks = new java.util.ArrayList<>();
      for (int round = 0; round < 3; round++) {
        for (String key : keys) {
          acks.add(producer.send(new ProducerRecord<>(topic, key, "after-" + round)));
        }
      }
      producer.flush();
      for (java.util.concurrent.Future<?> ack : acks) {
        ack.get(60, TimeUnit.SECONDS); // a failed send fails here, with its cause
      }
    }
    try (KafkaConsumer<String, String> c = consumer("lagging", "kafka-growth", null)) {
      assertThat(drainHighestPartitionFirst(c, topic, 16)).isEqualTo(1200);
    }
    AuditReport report = OrderingAuditReports.all(recorder);
    print("partition growth 12 -> 16, modulo placement", report);
    // exactly the keys modulo moved to a higher partition are read out of order
    Set<String> movedUp = new HashSet<>();
    int moved = 0;
    for (String key : keys) {
      int hash = Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8)));
      if (hash % 12 != hash % 16) {
        moved++;
      }
      if (hash % 16 > hash % 12) {
        movedUp.add(key);
      }
    }
    System.out.printf("%d of %d keys moved partition (plain modulo: 75 %% expected), %d to a"
        + " higher one%n", moved, keys.size(), movedUp.size());
    assertThat(report.causesFound()).containsExactly(AuditCause.ROUTING_CHANGE);
    Set<String> withFindings = new HashSet<>();
    report.findings().forEach(f -> withFindings.add(f.sentLater().key()));
    assertThat(withFindings).isEqualTo(movedUp);
    assertThat(report.pairs()).isEqualTo(3L * movedUp.size()); // the 3 old messages of each
    // the growth declared to lint: the producer's modulo placement moves keys (RK017)
    assertThat(LintedConfigs.lint("kafka-growth", List.of(producerConfig("growth-producer",
        Map.of(ProducerConfig.METADATA_MAX_AGE_CONFIG, "300"))), List.of(consumerConfig(
        "lagging", "kafka-growth", null)), "--require-key-order", "--partitions", "12",
        "--grow-to", "16").errors()).containsExactly("RK017");
  }
}
