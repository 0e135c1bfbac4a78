package io.github.routingkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.routingkit.testing.SampleKeys;
import io.github.routingkit.testbrokers.EmbeddedKafka;
import io.github.routingkit.cli.CliRun.Result;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code routing analyze --bootstrap-server} against a real in-process Kafka (one broker for the
 * class, with the standard authorizer so that a missing ACL can be shown): a healthy topic keyed
 * by real sample keys through the default partitioner, a topic whose producer sends 60 % of
 * diverse keys to one partition (a partitioner problem), a topic with one hot key (a key
 * problem), and the errors a user meets: an unreachable broker, a missing topic, a missing ACL.
 * After every run the broker has no group: analyze reads with assign and seek.
 */
@Tag("broker")
class LiveAnalyzeKafkaBrokerTest {
  static final int PARTITIONS = 6;
  static final int RECORDS = 20_000;
  static EmbeddedKafka kafka;
  static Admin admin;
  static List<String> keys;

  @BeforeAll
  static void start() throws Exception {
    kafka = EmbeddedKafka.start(Map.of(
        "authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
        // resources without ACLs stay open: only the topic "secret" gets one (a DENY)
        "allow.everyone.if.no.acl.found", "true"));
    admin = kafka.admin();
    keys = SampleKeys.all().stream().distinct().limit(RECORDS).toList();
    for (String t : List.of("healthy", "misrouted", "hotkey", "secret", "binary", "keyless",
        "readonly-denied")) {
      kafka.createTopic(t, PARTITIONS);
    }
    try (KafkaProducer<String, String> producer = producer()) {
      for (int i = 0; i < RECORDS; i++) {
        String key = keys.get(i);
        producer.send(new ProducerRecord<>("healthy", key, "v" + i));
        producer.send(new ProducerRecord<>("secret", key, "v" + i));
        producer.send(new ProducerRecord<>("readonly-denied", key, "v" + i));
        // a broken partitioner: 60 % of the records to partition 0 whatever their key
        int p = i % 10 < 6 ? 0 : Utils.toPositive(Utils.murmur2(key.getBytes(
            java.nio.charset.StandardCharsets.UTF_8))) % PARTITIONS;
        producer.send(new ProducerRecord<>("misrouted", p, key, "v" + i));
        // a hot key: 60 % of the records carry tenant-42
        producer.send(new ProducerRecord<>("hotkey", i % 10 < 6 ? "tenant-42" : key, "v" + i));
      }
      for (int i = 0; i < 100; i++) {
        producer.send(new ProducerRecord<>("keyless", null, "v" + i));
        producer.send(new ProducerRecord<>("binary", i % 2 == 0 ? null : "text-" + i, "v" + i));
      }
      producer.flush();
    }
    Properties bytes = new Properties();
    bytes.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    bytes.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    bytes.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(bytes)) {
      for (int i = 0; i < 50; i++) {
        // not UTF-8: 0xff never starts a sequence; one hot binary key
        producer.send(new ProducerRecord<>("binary", new byte[] {(byte) 0xff, 0x01}, new byte[8]));
      }
      producer.flush();
    }
    admin.createAcls(List.of(new AclBinding(
        new ResourcePattern(ResourceType.TOPIC, "secret", PatternType.LITERAL),
        new AccessControlEntry("User:ANONYMOUS", "*", AclOperation.READ,
            AclPermissionType.DENY)),
        // may describe (offsets, sizes), may not read: the consumer is refused
        new AclBinding(new ResourcePattern(ResourceType.TOPIC, "readonly-denied",
            PatternType.LITERAL), new AccessControlEntry("User:ANONYMOUS", "*",
            AclOperation.DESCRIBE, AclPermissionType.ALLOW)),
        new AclBinding(new ResourcePattern(ResourceType.TOPIC, "readonly-denied",
            PatternType.LITERAL), new AccessControlEntry("User:ANONYMOUS", "*", AclOperation.READ,
            AclPermissionType.DENY)))).all().get(30, TimeUnit.SECONDS);
  }

  static KafkaProducer<String, String> producer() {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.LINGER_MS_CONFIG, "20");
    return new KafkaProducer<>(p);
  }

  @AfterAll
  static void stop() {
    if (kafka != null) {
      kafka.close();
    }
  }

  /** analyze reads with assign + seek and no group.id: no group may exist after any run. */
  @AfterEach
  void noGroupLeftBehind() throws Exception {
    assertThat(admin.listGroups().all().get(30, TimeUnit.SECONDS)).isEmpty();
  }

  static Result analyze(String... args) {
    String[] all = new String[args.length + 3];
    all[0] = "analyze";
    all[1] = "--bootstrap-server";
    all[2] = kafka.bootstrapServers();
    System.arraycopy(args, 0, all, 3, args.length);
    return CliRun.run(all);
  }

  @Test
  void healthyTopicIsBalanced(@TempDir Path dir) throws Exception {
    Path chart = dir.resolve("healthy.svg");
    Result r = analyze("--topic", "healthy", "--chart", chart.toString());
    System.out.println(r.out());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("(6 partitions)")
        .contains("20,000 records").contains("100.0% of the keyed records sit where kafka-murmur2")
        .containsPattern("diagnosis +(WITHIN_PERFECT_HASH_BOUND|BALANCED): balanced")
        .doesNotContain("skewed");
    assertThat(Files.size(chart)).isPositive();

    JsonNode json = new ObjectMapper().readTree(analyze("--topic", "healthy", "--format", "json",
        "--quiet").out());
    assertThat(json.get("sampled").asLong()).isEqualTo(RECORDS);
    assertThat(json.get("recordSkew").asDouble()).isLessThan(LiveReport.SIZE_SKEW);
    assertThat(json.get("partitionSizes")).hasSize(PARTITIONS);
    long retained = 0;
    for (JsonNode p : json.get("partitionSizes")) {
      retained += p.get("records").asLong();
      assertThat(p.get("bytes").asLong()).as("describeLogDirs size").isPositive();
      assertThat(p.get("sampled").asLong()).isEqualTo(p.get("records").asLong());
    }
    assertThat(retained).isEqualTo(RECORDS);
    assertThat(json.get("routerMatch").asDouble()).isEqualTo(1.0);
  }

  @Test
  void diverseKeysOnOnePartitionBlameThePartitioner() {
    Result r = analyze("--topic", "misrouted", "--from-beginning");
    System.out.println(r.out());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("diagnosis         SUSPECT_ROUTER: a partitioner problem")
        .contains("(above 3: skewed)");
    assertThat(r.out()).containsPattern("top 10 keys +0\\.\\d%");
    // 40 % are murmur2-placed, plus the 1/6 of the other 60 % that murmur2 also puts on 0: 50 %
    assertThat(r.out()).containsPattern("router check +(49|50|51)\\.\\d% ");
  }

  @Test
  void oneHotKeyIsAKeyProblem() {
    Result r = analyze("--topic", "hotkey", "--since", "1h");
    System.out.println(r.out());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("diagnosis         FIX_KEY_DESIGN: a key-distribution problem")
        .contains("more than half").contains("tenant-42").contains("records since 1 h ago");
  }

  @Test
  void sampleBoundsTheReadAndKeepsPartitionShares() throws Exception {
    AnalyzeCommand.progressNanos = 0;
    try {
      Result r = analyze("--topic", "misrouted", "--sample", "1000", "--format", "json");
      assertThat(r.code()).as(r.err()).isZero();
      assertThat(r.err()).contains("records read from kafka topic misrouted");
      JsonNode json = new ObjectMapper().readTree(r.out());
      assertThat(json.get("sampled").asLong()).isBetween(995L, 1000L);
      for (JsonNode p : json.get("partitionSizes")) {
        // each partition gives its share of the 1,000: the sample's shares are the topic's
        double expected = 1000.0 * p.get("records").asLong() / RECORDS;
        assertThat((double) p.get("sampled").asLong()).isCloseTo(expected,
            org.assertj.core.data.Offset.offset(1.0));
      }
    } finally {
      AnalyzeCommand.progressNanos = AnalyzeCommand.PROGRESS_NANOS;
    }
  }

  @Test
  void missingTopicIsBadInput() {
    Result r = analyze("--topic", "no-such-topic", "--timeout", "10s");
    assertThat(r.code()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(r.err().strip()).isEqualTo("routing: kafka topic no-such-topic at "
        + kafka.bootstrapServers() + ": no such topic");
  }

  @Test
  void missingAclIsBadInput() {
    Result r = analyze("--topic", "secret", "--timeout", "10s");
    System.out.print("missing ACL: " + r.err());
    assertThat(r.code()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(r.err().strip()).isEqualTo("routing: not authorized to describe kafka topic secret"
        + " at " + kafka.bootstrapServers() + " (the principal needs DESCRIBE and READ on the"
        + " topic)");

    Result read = analyze("--topic", "readonly-denied", "--timeout", "10s");
    System.out.print("missing READ ACL: " + read.err());
    assertThat(read.code()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(read.err()).startsWith("routing: not authorized to read kafka topic"
        + " readonly-denied at " + kafka.bootstrapServers());
    assertThat(read.err().strip().lines()).hasSize(1);
  }

  @Test
  void unreachableBrokerIsBadInputWithinTheTimeout() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    long t0 = System.nanoTime();
    Result r = CliRun.run("analyze", "--bootstrap-server", "127.0.0.1:" + port, "--topic",
        "orders", "--timeout", "3s");
    double seconds = (System.nanoTime() - t0) / 1e9;
    System.out.printf("unreachable broker: exit %d after %.1f s%n", r.code(), seconds);
    assertThat(r.code()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(r.err().strip()).isEqualTo("routing: cannot reach Kafka at 127.0.0.1:" + port
        + " within 3 s (is the broker up and --bootstrap-server right? raise --timeout for a slow"
        + " cluster)");
    assertThat(seconds).isLessThan(10);
  }

  /** A broker that accepts connections and never answers: the timeout, not a hang. */
  @Test
  void silentBrokerIsBadInputWithinTheTimeout() throws Exception {
    try (ServerSocket silent = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
      long t0 = System.nanoTime();
      Result r = CliRun.run("analyze", "--bootstrap-server", "127.0.0.1:" + silent.getLocalPort(), "--topic", "orders", "--timeout", "3s");
      double seconds = (System.nanoTime() - t0) / 1e9;
      System.out.printf("silent broker: exit %d after %.1f s: %s%n", r.code(), seconds, r.err());
      assertThat(r.code()).isEqualTo(RoutingCli.EXIT_USAGE);
      assertThat(r.err()).startsWith("routing: cannot reach Kafka at 127.0.0.1:" + silent.getLocalPort() + " within 3 s");
      assertThat(seconds).isLessThan(10);
    }
  }

  @Test
  void binaryKeysStayDistinctAndKeylessRecordsAreCounted() {
    Result r = analyze("--topic", "binary", "--top", "3");
    System.out.println(r.out());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("150 records").contains("100 keyed, 50 keyless")
        .contains("'0xff01'");
  }

  @Test
  void aTopicWithoutKeysIsBadInput() {
    Result r = analyze("--topic", "keyless");
    assertThat(r.code()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(r.err().strip()).isEqualTo("routing: kafka topic keyless at "
        + kafka.bootstrapServers() + ": all 100 sampled records have no key, there is no key"
        + " routing to analyze");
  }

  @Test
  void aSampleSmallerThanThePartitionCountStillReadsRecords() {
    Result r = analyze("--topic", "healthy", "--from-beginning", "--sample", "2");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("sampled           2 records");
  }

  @Test
  void anEmptyTopicReadFromTheBeginningIsNotToldToReadFromTheBeginning() throws Exception {
    kafka.createTopic("empty", 3);
    Result r = analyze("--topic", "empty", "--from-beginning");
    assertThat(r.code()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(r.err()).contains("holds no records in the window (from the beginning")
        .doesNotContain("try --from-beginning");
    assertThat(analyze("--topic", "empty").err()).contains("try --from-beginning");
  }

  @Test
  void liveAnalyzeListsAsManyHotKeysAsTopAsks() {
    Result r = analyze("--topic", "hotkey", "--from-beginning", "--top", "3");
    assertThat(r.code()).as(r.err()).isZero();
    String keysSection = r.out().substring(r.out().indexOf("\nhottest keys") + 1);
    long listed = keysSection.lines().skip(1).takeWhile(l -> l.contains("partition "))
        .count();
    assertThat(listed).isEqualTo(3);
  }

  @Test
  void aTopicDeletedDuringTheReadIsNamedInThePartialReport() throws Exception {
    kafka.createTopic("vanishing", 3);
    try (KafkaProducer<String, String> producer = producer()) {
      for (int i = 0; i < 300; i++) {
        producer.send(new ProducerRecord<>("vanishing", keys.get(i), "v"));
      }
      producer.flush();
    }
    try (KafkaTopic t = KafkaTopic.open(kafka.bootstrapServers(), "vanishing",
        LiveTopic.Window.FROM_BEGINNING, null, java.time.Duration.ofSeconds(3),
        new Properties())) {
      admin.deleteTopics(List.of("vanishing")).all().get(30, TimeUnit.SECONDS);
      LiveTopic.ReadResult read = t.read(1_000, (p, key, keyBytes, bytes) -> { }, records -> { });
      assertThat(read.stalled()).isNotEmpty();
      assertThat(t.notes()).anySatisfy(n -> assertThat(n)
          .startsWith("topic vanishing was deleted during the read"));
    }
  }
}
