package io.github.routingkit.examples.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.audit.AuditCause;
import io.github.routingkit.audit.AuditFinding;
import io.github.routingkit.audit.AuditLog;
import io.github.routingkit.audit.AuditRecord;
import io.github.routingkit.audit.KafkaAuditConsumerInterceptor;
import io.github.routingkit.audit.KafkaAuditProducerInterceptor;
import io.github.routingkit.audit.KafkaTopicAuditRecorder;
import io.github.routingkit.audit.OrderingAudit;
import io.github.routingkit.audit.PulsarAuditProducerInterceptor;
import io.github.routingkit.audit.PulsarTopicAuditRecorder;
import io.github.routingkit.audit.AuditRecorder;
import io.github.routingkit.audit.streams.ContinuousAudit;
import io.github.routingkit.kafka.RoutingPartitioner;
import io.github.routingkit.testbrokers.EmbeddedKafka;
import io.github.routingkit.testbrokers.EmbeddedPulsar;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.pulsar.client.api.Consumer;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.Schema;
import org.apache.pulsar.client.api.SubscriptionType;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The continuous audit on real brokers: Kafka and Pulsar consumers ship their audit events to one
 * Kafka topic ({@code routingkit.audit.topic}, {@link KafkaTopicAuditRecorder}); two instances of
 * the Streams audit share the work: one in this JVM, one a separate {@code routing audit --follow}
 * process that is killed ({@code SIGKILL}) mid-run and started again. Every provoked violation
 * (a keyless send, a partition expansion under modulo placement, a Shared subscription, a
 * consumer crash with uncommitted offsets) must be reported, each pair exactly once, with the
 * causes the batch audit gives on the same events, and a clean consumer group must give none.
 */
@Tag("broker")
class ContinuousAuditBrokerTest {
  static final String EVENTS = "audit-events";
  static final String PAIRS = "audit-pairs";
  static final String APP = "routingkit-audit-broker-test";
  static final Duration GRACE = Duration.ofSeconds(20);
  static final String PULSAR_EVENTS = "persistent://public/default/audit-events";

  @TempDir
  Path dir;

  EmbeddedKafka kafka;

  @Test
  void twoInstancesOneKilledAndRestartedReportEveryViolationExactlyOnce() throws Exception {
    try (EmbeddedKafka k = EmbeddedKafka.start(); EmbeddedPulsar pulsar = EmbeddedPulsar.start();
         PulsarClient client = PulsarClient.builder().serviceUrl(pulsar.brokerServiceUrl())
             .build()) {
      kafka = k;
      kafka.createTopic(EVENTS, 4);
      kafka.createTopic(PAIRS, 4);
      ContinuousAudit audit = ContinuousAudit.builder().eventsTopic(EVENTS).pairsTopic(PAIRS)
          .grace(GRACE).instance("in-jvm").build();
      Properties p = ContinuousAudit.streamsConfig(APP, kafka.bootstrapServers(), true,
          dir.resolve("state-a"));
      p.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), "10000");
      try (KafkaStreams a = new KafkaStreams(audit.topology(), p)) {
        a.start();
        Process b = follow("b-1");
        await("two instances in the group", () -> members() == 2);

        cleanConsumerGroup("audit-cont-clean");
        keylessSends("audit-cont-keyless");
        await("the second instance audited events", () -> followRecords() > 0);
        b.destroyForcibly().waitFor(60, TimeUnit.SECONDS); // SIGKILL: no commit, no close

        partitionGrowth("audit-cont-growth");
        pulsar.createPartitionedTopic(PULSAR_EVENTS, 3);
        sharedSubscription(client, "persistent://public/default/audit-cont-shared");
        pulsarEventsAreKeyedOnePartitionPerKey(client);
        b = follow("b-2");
        consumerCrash("audit-cont-crash");

        List<AuditRecord> events = events();
        if (Files.isDirectory(Path.of("target"))) { // kept: real events from real brokers
          try (java.io.Writer w = new java.io.OutputStreamWriter(new java.util.zip.GZIPOutputStream(
              Files.newOutputStream(Path.of("target", "continuous-audit-events.jsonl.gz"))),
              java.nio.charset.StandardCharsets.UTF_8)) {
            for (AuditRecord e : events) {
              w.write(AuditLog.line(e) + "\n");
            }
          }
        }
        List<AuditFinding> expected = batch(events);
        List<AuditFinding> reported = pairs(expected.size());
        b.destroyForcibly().waitFor(60, TimeUnit.SECONDS);

        System.out.printf("continuous audit: %,d events, %,d pairs expected, %,d reported; in-JVM"
            + " instance totals %s%n", events.size(), expected.size(), reported.size(),
            audit.totals().snapshot());
        // exactly once: the same pairs as the batch audit of the same events, none twice
        assertThat(sorted(reported)).isEqualTo(sorted(expected));
        Map<String, Map<AuditCause, Long>> byTopic = new TreeMap<>();
        for (AuditFinding f : reported) {
          byTopic.computeIfAbsent(f.sentLater().topic(), t -> new TreeMap<>())
              .merge(f.cause(), 1L, Long::sum);
        }
        System.out.println("pairs by topic and cause: " + byTopic);
        assertThat(byTopic).doesNotContainKey("audit-cont-clean");
        assertThat(byTopic.get("audit-cont-keyless")).containsOnlyKeys(AuditCause.KEYLESS_SEND);
        assertThat(byTopic.get("audit-cont-growth")).containsOnlyKeys(AuditCause.ROUTING_CHANGE);
        assertThat(byTopic.get("persistent://public/default/audit-cont-shared"))
            .containsOnlyKeys(AuditCause.WRONG_SUBSCRIPTION_TYPE);
        assertThat(byTopic.get("audit-cont-crash")).containsOnlyKeys(AuditCause.REDELIVERY);
        assertThat(events.stream().filter(e -> e.topic().equals("audit-cont-clean")).count())
            .isEqualTo(1000);
      }
    }
  }

  // ---- the two audit instances

  Process follow(String name) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin",
        "java").toString(), "-Xmx384m", "-XX:+UseSerialGC",
        "-Dlog4j2.configurationFile=routingkit-demo-log4j2.xml", "-cp",
        System.getProperty("java.class.path"), "io.github.routingkit.cli.RoutingCli", "audit",
        "--follow", "--bootstrap-server", kafka.bootstrapServers(), "--events-topic", EVENTS,
        "--pairs-topic", PAIRS, "--application-id", APP, "--grace", GRACE.toSeconds() + "s",
        "--state-dir", dir.resolve("state-" + name).toString(), "--status-every", "500",
        "--config", streamsConfigFile().toString()));
    File log = dir.resolve("follow-" + name + ".log").toFile();
    followLog = log.toPath();
    return new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log)).start();
  }

  Path followLog;

  Path streamsConfigFile() throws Exception {
    Path f = dir.resolve("streams.properties");
    Files.writeString(f, StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG)
        + "=10000\n");
    return f;
  }

  /** The records the follow process says it applied (its status lines on stderr). */
  long followRecords() {
    try {
      long n = 0;
      for (String line : Files.readAllLines(followLog)) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(", records ([0-9,]+)")
            .matcher(line);
        if (m.find()) {
          n = Math.max(n, Long.parseLong(m.group(1).replace(",", "")));
        }
      }
      return n;
    } catch (java.io.IOException e) {
      return 0;
    }
  }

  int members() {
    try {
      return kafka.admin().describeConsumerGroups(List.of(APP)).all().get(10, TimeUnit.SECONDS)
          .get(APP).members().size();
    } catch (Exception e) {
      return 0;
    }
  }

  // ---- the scenarios, each recorded into the events topic

  KafkaProducer<String, String> producer(String id, Map<String, Object> extra) {
    return new KafkaProducer<>(producerConfig(id, extra));
  }

  /** The configuration of {@link #producer}, which the scenarios also lint. */
  Map<String, Object> producerConfig(String id, Map<String, Object> extra) {
    Map<String, Object> p = new HashMap<>();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, RoutingPartitioner.class.getName());
    p.put(ProducerConfig.INTERCEPTOR_CLASSES_CONFIG, KafkaAuditProducerInterceptor.class.getName());
    p.put("routingkit.audit.producer.id", id);
    p.put(ProducerConfig.LINGER_MS_CONFIG, "0");
    p.putAll(extra);
    return p;
  }

  KafkaConsumer<String, String> consumer(String name, String group) {
    return new KafkaConsumer<>(consumerConfig(name, group));
  }

  /** The configuration of {@link #consumer}, which the scenarios also lint. */
  Map<String, Object> consumerConfig(String name, String group) {
    Map<String, Object> c = new HashMap<>();
    c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    c.put(ConsumerConfig.INTERCEPTOR_CLASSES_CONFIG, KafkaAuditConsumerInterceptor.class.getName());
    c.put(ConsumerConfig.CLIENT_ID_CONFIG, name);
    c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    c.put("routingkit.audit.topic", EVENTS);
    if (group != null) {
      c.put(ConsumerConfig.GROUP_ID_CONFIG, group);
    }
    c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    return c;
  }

  /** A group of two members, keyed sends, every record committed: no pair. */
  void cleanConsumerGroup(String topic) throws Exception {
    kafka.createTopic(topic, 12);
    try (KafkaConsumer<String, String> a = consumer("member-a", "clean");
         KafkaConsumer<String, String> b = consumer("member-b", "clean")) {
      a.subscribe(List.of(topic));
      b.subscribe(List.of(topic));
      await("group formed", () -> {
        a.poll(Duration.ofMillis(50));
        b.poll(Duration.ofMillis(50));
        return a.assignment().size() + b.assignment().size() == 12 && !a.assignment().isEmpty()
            && !b.assignment().isEmpty();
      });
      try (KafkaProducer<String, String> producer = producer("clean-producer", Map.of())) {
        for (int i = 0; i < 1000; i++) {
          producer.send(new ProducerRecord<>(topic, "order-" + (i % 40), "v" + i));
        }
      }
      int[] seen = {0};
      await("all consumed", () -> {
        seen[0] += a.poll(Duration.ofMillis(50)).count() + b.poll(Duration.ofMillis(50)).count();
        a.commitSync();
        b.commitSync();
        return seen[0] >= 1000;
      });
    }
    assertThat(LintedConfigs.lint("continuous-clean", List.of(producerConfig("clean-producer",
        Map.of())), List.of(consumerConfig("member-a", "clean"), consumerConfig("member-b",
        "clean")), "--require-key-order", "--strict").clean()).isTrue();
  }

  /** Every third send of a key without the key, read by a consumer behind on some partitions. */
  void keylessSends(String topic) throws Exception {
    kafka.createTopic(topic, 6);
    try (KafkaProducer<String, String> producer = producer("keyless-producer",
        Map.of("routing.keyless", "round-robin"))) {
      for (int i = 0; i < 300; i++) {
        String key = "order-" + (i % 20);
        ProducerRecord<String, String> r = i % 3 == 2
            ? new ProducerRecord<>(topic, null, "v" + i) : new ProducerRecord<>(topic, key, "v" + i);
        if (r.key() == null) {
          r.headers().add("rk-audit-key", key.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        producer.send(r);
      }
    }
    try (KafkaConsumer<String, String> c = consumer("lagging", null)) {
      drainHighestPartitionFirst(c, topic, 6);
    }
    assertThat(LintedConfigs.lint("continuous-keyless", List.of(producerConfig(
        "keyless-producer", Map.of("routing.keyless", "round-robin"))), List.of(consumerConfig(
        "lagging", null)), "--require-key-order", "--require-keyless-order").errors())
        .containsExactly("RK016");
  }

  /** 12 -> 16 partitions under modulo placement; a lagging consumer reads the new ones first. */
  void partitionGrowth(String topic) throws Exception {
    kafka.createTopic(topic, 12);
    try (KafkaProducer<String, String> producer = producer("growth-producer",
        Map.of(ProducerConfig.METADATA_MAX_AGE_CONFIG, "300"))) {
      for (int i = 0; i < 200; i++) {
        producer.send(new ProducerRecord<>(topic, "customer-" + (i % 100), "before"));
      }
      producer.flush();
      kafka.admin().createPartitions(Map.of(topic, NewPartitions.increaseTo(16))).all()
          .get(60, TimeUnit.SECONDS);
      Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
      for (int p = 0; p < 16; p++) {
        latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
      }
      await("the new partitions are led", () -> {
        try {
          kafka.admin().listOffsets(latest).all().get(5, TimeUnit.SECONDS);
          return true;
        } catch (Exception e) {
          return false;
        }
      });
      await("producer sees 16 partitions", () -> producer.partitionsFor(topic).size() == 16);
      for (int i = 0; i < 200; i++) {
        producer.send(new ProducerRecord<>(topic, "customer-" + (i % 100), "after")).get(60,
            TimeUnit.SECONDS);
      }
    }
    try (KafkaConsumer<String, String> c = consumer("lagging", null)) {
      drainHighestPartitionFirst(c, topic, 16);
    }
    assertThat(LintedConfigs.lint("continuous-growth", List.of(producerConfig("growth-producer",
        Map.of(ProducerConfig.METADATA_MAX_AGE_CONFIG, "300"))), List.of(consumerConfig(
        "lagging", null)), "--require-key-order", "--partitions", "12", "--grow-to", "16")
        .errors()).containsExactly("RK017");
  }

  /** Pulsar, Shared: the slow consumer holds its prefetched messages, the fast one goes on. */
  void sharedSubscription(PulsarClient client, String topic) throws Exception {
    try (KafkaTopicAuditRecorder toKafka = KafkaTopicAuditRecorder.create(
        Map.of("bootstrap.servers", kafka.bootstrapServers()), EVENTS, 100_000);
         PulsarTopicAuditRecorder toPulsar = PulsarTopicAuditRecorder.create(client,
             PULSAR_EVENTS, 100_000)) {
      AuditRecorder recorder = r -> {
        toKafka.record(r);
        toPulsar.record(r);
      };
      Map<String, Object> fastConfig = PulsarOrderingAuditBrokerTest.consumerConfig(
          SubscriptionType.Shared, "fast", 10);
      Map<String, Object> slowConfig = PulsarOrderingAuditBrokerTest.consumerConfig(
          SubscriptionType.Shared, "slow", 10);
      Consumer<String> fast = PulsarOrderingAuditBrokerTest.consumer(client, topic, fastConfig,
          recorder);
      Consumer<String> slow = PulsarOrderingAuditBrokerTest.consumer(client, topic, slowConfig,
          recorder);
      assertThat(LintedConfigs.lint("continuous-shared", List.of(
          PulsarOrderingAuditBrokerTest.PRODUCER), List.of(fastConfig, slowConfig),
          "--require-key-order").errors()).containsExactly("RK004");
      try (Producer<String> producer = client.newProducer(Schema.STRING).topic(topic)
          .loadConf(PulsarOrderingAuditBrokerTest.PRODUCER)
          .intercept(new PulsarAuditProducerInterceptor("shared-producer")).create()) {
        for (int i = 0; i < 100; i++) {
          producer.newMessage().key("order-" + (i % 10)).value("v" + i).send();
        }
      }
      int received = 0;
      List<Message<String>> held = new ArrayList<>();
      while (received < 100) {
        Message<String> m = fast.receive(200, TimeUnit.MILLISECONDS);
        if (m != null) {
          fast.acknowledge(m);
          received++;
          continue;
        }
        Message<String> s = slow.receive(200, TimeUnit.MILLISECONDS); // only once fast is dry
        if (s != null) {
          held.add(s);
          received++;
        }
      }
      for (Message<String> m : held) {
        slow.acknowledge(m);
      }
      fast.close();
      slow.close();
    }
  }

  /** The same records shipped to a partitioned Pulsar topic: keyed, one partition per key. */
  void pulsarEventsAreKeyedOnePartitionPerKey(PulsarClient client) throws Exception {
    Map<String, Set<String>> partitionsOfKey = new HashMap<>();
    int n = 0;
    try (Consumer<byte[]> c = client.newConsumer(Schema.BYTES).topic(PULSAR_EVENTS)
        .subscriptionName("check").subscriptionInitialPosition(
            org.apache.pulsar.client.api.SubscriptionInitialPosition.Earliest).subscribe()) {
      for (Message<byte[]> m = c.receive(10, TimeUnit.SECONDS); m != null && n < 100;
          m = n < 100 ? c.receive(10, TimeUnit.SECONDS) : null) {
        AuditRecord r = AuditLog.parse(new String(m.getValue(),
            java.nio.charset.StandardCharsets.UTF_8));
        assertThat(m.getKey()).isEqualTo(r.key());
        partitionsOfKey.computeIfAbsent(r.key(), k -> new java.util.HashSet<>())
            .add(m.getTopicName());
        n++;
      }
    }
    assertThat(n).isEqualTo(100);
    assertThat(partitionsOfKey).hasSize(10).allSatisfy((k, parts) -> assertThat(parts).hasSize(1));
  }

  /** A member reads and dies without committing; the next member of the group reads it all again. */
  void consumerCrash(String topic) throws Exception {
    kafka.createTopic(topic, 3);
    try (KafkaProducer<String, String> producer = producer("crash-producer", Map.of())) {
      for (int i = 0; i < 90; i++) {
        producer.send(new ProducerRecord<>(topic, "order-" + (i % 9), "v" + i));
      }
    }
    KafkaConsumer<String, String> first = consumer("crashing", "crash-group");
    first.subscribe(List.of(topic));
    int[] seen = {0};
    await("the first member read everything", () -> {
      seen[0] += first.poll(Duration.ofMillis(100)).count();
      return seen[0] >= 90;
    });
    first.close(Duration.ZERO); // no commit: its offsets are lost with it
    try (KafkaConsumer<String, String> next = consumer("successor", "crash-group")) {
      next.subscribe(List.of(topic));
      int[] again = {0};
      await("the successor read everything again", () -> {
        again[0] += next.poll(Duration.ofMillis(100)).count();
        return again[0] >= 90;
      });
      // and one newer record per key after the replay
      try (KafkaProducer<String, String> producer = producer("crash-producer-2", Map.of())) {
        producer.send(new ProducerRecord<>(topic, "order-0", "late"));
      }
    }
    // a crash is no configuration: lint finds nothing to predict it (docs/cli.md, REDELIVERY)
    assertThat(LintedConfigs.lint("continuous-crash", List.of(producerConfig("crash-producer",
        Map.of())), List.of(consumerConfig("crashing", "crash-group"), consumerConfig(
        "successor", "crash-group")), "--require-key-order", "--strict").clean()).isTrue();
  }

  static void drainHighestPartitionFirst(KafkaConsumer<String, String> consumer, String topic,
      int partitions) {
    for (int p = partitions - 1; p >= 0; p--) {
      TopicPartition tp = new TopicPartition(topic, p);
      consumer.assign(List.of(tp));
      consumer.seekToBeginning(List.of(tp));
      long end = consumer.endOffsets(List.of(tp)).get(tp);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (consumer.position(tp) < end) {
        consumer.poll(Duration.ofMillis(200));
        assertThat(System.nanoTime()).as("partition %d drained in time", p).isLessThan(deadline);
      }
    }
  }

  // ---- the expected pairs and the reported ones

  /** Every event on the events topic (the recorders have closed: everything was shipped). */
  List<AuditRecord> events() throws Exception {
    List<long[]> order = new ArrayList<>();
    List<AuditRecord> all = new ArrayList<>();
    try (KafkaConsumer<String, String> c = plainConsumer(null)) {
      List<TopicPartition> parts = new ArrayList<>();
      for (int p = 0; p < 4; p++) {
        parts.add(new TopicPartition(EVENTS, p));
      }
      c.assign(parts);
      c.seekToBeginning(parts);
      Map<TopicPartition, Long> end = c.endOffsets(parts);
      await("events read", () -> {
        for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(200))) {
          AuditRecord a = AuditLog.parse(r.value());
          order.add(new long[] {a.observedAtMillis(), r.offset(), all.size()});
          all.add(a);
        }
        return parts.stream().allMatch(tp -> c.position(tp) >= end.get(tp));
      });
    }
    // the Streams audit applies one partition's events in (observation time, offset) order, and
    // one key's events are all in one partition: this order is the same for every key stream
    order.sort(Comparator.<long[]>comparingLong(x -> x[0]).thenComparingLong(x -> x[1]));
    List<AuditRecord> out = new ArrayList<>();
    for (long[] o : order) {
      out.add(all.get((int) o[2]));
    }
    return out;
  }

  static List<AuditFinding> batch(List<AuditRecord> events) {
    OrderingAudit audit = OrderingAudit.builder().maxFindings(Integer.MAX_VALUE).build();
    events.forEach(audit::accept);
    return audit.report().findings();
  }

  /** The pairs topic (read committed), once it holds {@code expected} pairs and 5 s more. */
  List<AuditFinding> pairs(int expected) throws Exception {
    List<AuditFinding> out = new ArrayList<>();
    try (KafkaConsumer<String, String> c = plainConsumer("read_committed")) {
      List<TopicPartition> parts = new ArrayList<>();
      for (int p = 0; p < 4; p++) {
        parts.add(new TopicPartition(PAIRS, p));
      }
      c.assign(parts);
      c.seekToBeginning(parts);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
      long settle = Long.MAX_VALUE;
      while (System.nanoTime() < Math.min(deadline, settle)) {
        for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(200))) {
          out.add(AuditLog.parseFinding(r.value()));
        }
        if (out.size() >= expected && settle == Long.MAX_VALUE) {
          settle = System.nanoTime() + TimeUnit.SECONDS.toNanos(5); // a duplicate would show
        }
      }
    }
    return out;
  }

  KafkaConsumer<String, String> plainConsumer(String isolation) {
    Map<String, Object> c = new HashMap<>();
    c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    if (isolation != null) {
      c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
    }
    return new KafkaConsumer<>(c);
  }

  static List<String> sorted(List<AuditFinding> findings) {
    return findings.stream().map(AuditLog::findingLine).sorted().collect(Collectors.toList());
  }

  static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as(what).isLessThan(deadline);
      Thread.sleep(50);
    }
  }
}
