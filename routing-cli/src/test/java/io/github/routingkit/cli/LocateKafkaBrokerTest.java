package io.github.routingkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.routingkit.cli.CliRun.Result;
import io.github.routingkit.testbrokers.EmbeddedKafka;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.io.TempDir;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code routing locate} against a real in-process Kafka: two groups of three consumers read one
 * six-partition topic, one on the classic protocol and one on the consumer protocol (KIP-848).
 * For every key the test produces, locate's partition and member must be where the consumers
 * actually received the key's records, and its lag the number of records produced after the
 * group's last commit; a key read from a file (text or binary) answers as the same key; the
 * --agree-with gate; a consumer-protocol group mid-rebalance, whose target member is the one that
 * then receives the key. Then the errors a user meets: a missing topic, a missing group, bad hex,
 * an unreachable broker.
 */
@Tag("broker")
class LocateKafkaBrokerTest {
  static final int PARTITIONS = 6;
  static final String TOPIC = "orders";
  /** Read by one consumer-protocol group whose assignment the handover test moves. */
  static final String HANDOVER = "handover";
  /** Written with a binary key; nobody reads it. */
  static final String BINARY = "binary-keys";
  static final List<String> KEYS = List.of("tenant-1", "tenant-2", "tenant-3", "order-17",
      "order-42", "customer-9000", "東京", "k");
  /** Records produced for the first key after the groups committed: its partition's lag. */
  static final int UNCONSUMED = 7;
  static EmbeddedKafka kafka;
  static final List<KafkaConsumer<String, String>> consumers = new ArrayList<>();
  /** group → key → client id of the consumer that received the key's records. */
  static final Map<String, Map<String, String>> receivedBy = new HashMap<>();
  /** key → partition its records arrived on. */
  static final Map<String, Integer> partitionOf = new HashMap<>();
  static final ObjectMapper JSON = new ObjectMapper();

  @BeforeAll
  static void start() throws Exception {
    kafka = EmbeddedKafka.start();
    kafka.createTopic(TOPIC, PARTITIONS);
    kafka.createTopic(HANDOVER, PARTITIONS);
    kafka.createTopic(BINARY, PARTITIONS);
    for (String protocol : List.of("classic", "consumer")) {
      for (int i = 0; i < 3; i++) {
        consumers.add(consumer(protocol, i));
      }
      receivedBy.put(group(protocol), new HashMap<>());
    }
    awaitStable();
    try (KafkaProducer<String, String> producer = producer()) {
      for (int round = 0; round < 3; round++) {
        for (String key : KEYS) {
          producer.send(new ProducerRecord<>(TOPIC, key, "v" + round));
        }
      }
      producer.flush();
    }
    int expected = 3 * KEYS.size();
    Map<String, Integer> got = new HashMap<>();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while ((got.getOrDefault(group("classic"), 0) < expected
        || got.getOrDefault(group("consumer"), 0) < expected) && System.nanoTime() < deadline) {
      for (KafkaConsumer<String, String> c : consumers) {
        String g = c.groupMetadata().groupId();
        String client = clientId(c);
        for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(50))) {
          got.merge(g, 1, Integer::sum);
          String before = receivedBy.get(g).put(r.key(), client);
          assertThat(before).as("key %s read by two members of %s", r.key(), g)
              .isIn(null, client);
          Integer p = partitionOf.put(r.key(), r.partition());
          assertThat(p).isIn(null, r.partition());
        }
      }
    }
    assertThat(got).containsEntry(group("classic"), expected)
        .containsEntry(group("consumer"), expected);
    for (KafkaConsumer<String, String> c : consumers) {
      c.commitSync();
    }
    // records nobody reads: they are the lag of the first key's partition in both groups
    try (KafkaProducer<String, String> producer = producer()) {
      for (int i = 0; i < UNCONSUMED; i++) {
        producer.send(new ProducerRecord<>(TOPIC, KEYS.get(0), "unread-" + i));
      }
      producer.flush();
    }
  }

  static String group(String protocol) {
    return "readers-" + protocol;
  }

  /** The client.id each consumer was given. */
  static final Map<KafkaConsumer<String, String>, String> clientIds = new HashMap<>();

  static String clientId(KafkaConsumer<?, ?> c) {
    return clientIds.get(c);
  }

  static KafkaConsumer<String, String> consumer(String protocol, int i) {
    KafkaConsumer<String, String> c = consumer(group(protocol), protocol, protocol + "-" + i);
    c.subscribe(List.of(TOPIC));
    return c;
  }

  static KafkaConsumer<String, String> consumer(String group, String protocol, String client) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
    p.put(ConsumerConfig.CLIENT_ID_CONFIG, client);
    p.put("group.protocol", protocol);
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    KafkaConsumer<String, String> c = new KafkaConsumer<>(p);
    clientIds.put(c, client);
    return c;
  }

  static KafkaProducer<String, String> producer() {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    return new KafkaProducer<>(p);
  }

  /**
   * Polls until each consumer holds two partitions and the coordinator describes both groups as
   * stable with the same assignment the consumers hold.
   */
  static void awaitStable() throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (System.nanoTime() < deadline) {
      for (KafkaConsumer<String, String> c : consumers) {
        c.poll(Duration.ofMillis(50));
      }
      if (consumers.stream().allMatch(c -> c.assignment().size() == 2) && described()) {
        return;
      }
    }
    throw new AssertionError("groups not stable: " + consumers.stream()
        .map(c -> clientId(c) + c.assignment()).toList());
  }

  private static boolean described() throws Exception {
    Map<String, ConsumerGroupDescription> d = kafka.admin().describeConsumerGroups(
        List.of(group("classic"), group("consumer"))).all().get(30, TimeUnit.SECONDS);
    for (KafkaConsumer<String, String> c : consumers) {
      ConsumerGroupDescription g = d.get(c.groupMetadata().groupId());
      if (g.groupState() != GroupState.STABLE) {
        return false;
      }
      MemberDescription m = g.members().stream()
          .filter(x -> x.consumerId().equals(c.groupMetadata().memberId())).findFirst()
          .orElse(null);
      if (m == null || !m.assignment().topicPartitions().equals(c.assignment())) {
        return false;
      }
    }
    return true;
  }

  @AfterAll
  static void stop() {
    consumers.forEach(c -> c.close(Duration.ofSeconds(5)));
    if (kafka != null) {
      kafka.close();
    }
  }

  static Result locate(String... args) {
    List<String> all = new ArrayList<>(List.of("locate", "--bootstrap-server",
        kafka.bootstrapServers(), "--timeout", "20s"));
    all.addAll(List.of(args));
    return CliRun.run(all.toArray(String[]::new));
  }

  static JsonNode reader(JsonNode json, String group) {
    for (JsonNode r : json.get("readers")) {
      if (r.get("group").asText().equals(group)) {
        return r;
      }
    }
    throw new AssertionError("no reader for group " + group + " in " + json);
  }

  static String memberClient(JsonNode member) {
    String memberId = member.get("memberId").asText();
    for (KafkaConsumer<String, String> c : consumers) {
      if (c.groupMetadata().memberId().equals(memberId)) {
        return clientId(c);
      }
    }
    throw new AssertionError("no consumer has member id " + memberId);
  }

  @Test
  void partitionAndMemberAreWhereTheConsumersReceivedEachKey() throws Exception {
    for (String key : KEYS) {
      Result r = locate("--topic", TOPIC, "--key", key, "--format", "json");
      assertThat(r.code()).as(r.err()).isZero();
      JsonNode json = JSON.readTree(r.out());
      assertThat(json.get("partition").asInt()).as(key).isEqualTo(partitionOf.get(key));
      assertThat(json.get("leader").get("broker").asInt()).isEqualTo(1);
      assertThat(json.get("readers")).hasSize(2);
      for (String protocol : List.of("classic", "consumer")) {
        JsonNode g = reader(json, group(protocol));
        assertThat(g.get("protocol").asText()).isEqualToIgnoringCase(protocol);
        assertThat(memberClient(g.get("member"))).as("%s in %s", key, group(protocol))
            .isEqualTo(receivedBy.get(group(protocol)).get(key));
        assertThat(g.get("member").get("clientId").asText())
            .isEqualTo(receivedBy.get(group(protocol)).get(key));
      }
    }
  }

  @Test
  void lagIsTheRecordsProducedAfterTheCommit() throws Exception {
    for (String key : KEYS) {
      JsonNode json = JSON.readTree(locate("--topic", TOPIC, "--key", key, "--format", "json")
          .out());
      // the first key's partition holds the unread records; other keys may share it
      long lag = partitionOf.get(key).equals(partitionOf.get(KEYS.get(0))) ? UNCONSUMED : 0;
      for (String protocol : List.of("classic", "consumer")) {
        JsonNode g = reader(json, group(protocol));
        assertThat(g.get("lag").asLong()).as("%s in %s", key, group(protocol)).isEqualTo(lag);
        assertThat(g.get("endOffset").asLong() - g.get("committedOffset").asLong())
            .isEqualTo(lag);
      }
    }
  }

  @Test
  void textReportNamesPartitionLeaderMemberAndLag() {
    String key = KEYS.get(0);
    Result r = locate("--topic", TOPIC, "--key", key, "--group", group("consumer"));
    System.out.println(r.out());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("partition " + partitionOf.get(key) + " under kafka-murmur2")
        .contains("leader    broker 1 at " + kafka.bootstrapServers())
        .contains("group " + group("consumer") + " (Consumer, Stable")
        .contains("lag " + UNCONSUMED).doesNotContain(group("classic"));
    assertThat(r.out()).containsPattern("kafka-murmur2 +" + partitionOf.get(key) + "  +\\S");
  }

  @Test
  void hexKeyIsTheSameKeyAsItsText() throws Exception {
    String key = KEYS.get(3);
    String hex = "0x" + java.util.HexFormat.of().formatHex(key.getBytes(
        java.nio.charset.StandardCharsets.UTF_8));
    JsonNode json = JSON.readTree(locate("--topic", TOPIC, "--key-hex", hex, "--format", "json")
        .out());
    assertThat(json.get("partition").asInt()).isEqualTo(partitionOf.get(key));
    assertThat(json.get("key").asText()).isEqualTo(key);
  }

  @Test
  void expectPartitionFailsWithCodeOneElsewhere() {
    int p = partitionOf.get(KEYS.get(0));
    assertThat(locate("--topic", TOPIC, "--key", KEYS.get(0), "--expect-partition",
        Integer.toString(p)).code()).isZero();
    Result r = locate("--topic", TOPIC, "--key", KEYS.get(0), "--expect-partition",
        Integer.toString((p + 1) % PARTITIONS));
    assertThat(r.code()).as(r.err()).isEqualTo(RoutingCli.EXIT_CHECK_FAILED);
    assertThat(r.err()).contains("--expect-partition " + (p + 1) % PARTITIONS)
        .contains("partition " + p);
  }

  @Test
  void agreeWithPassesForTheProducersHashAndFailsNamingEachSchemeElsewhere() throws Exception {
    String key = KEYS.get(0);
    assertThat(locate("--topic", TOPIC, "--key", key, "--agree-with", "kafka-murmur2").code())
        .isZero();
    Result all = locate("--topic", TOPIC, "--key", key, "--agree-with", "all", "--format", "json");
    assertThat(all.code()).as(all.err()).isEqualTo(RoutingCli.EXIT_CHECK_FAILED);
    JsonNode json = JSON.readTree(all.out());
    assertThat(json.get("partition").asInt()).isEqualTo(partitionOf.get(key));
    List<String> elsewhere = new ArrayList<>();
    for (JsonNode row : json.get("schemes")) {
      if (!row.get("agrees").asBoolean()) {
        elsewhere.add(row.get("scheme").asText() + " puts it on partition " + row.get("partition"));
      }
    }
    assertThat(elsewhere).isNotEmpty();
    assertThat(json.get("agreeWithFailed")).isEqualTo(JSON.valueToTree(elsewhere));
    assertThat(all.err()).startsWith("routing: --agree-with: the spec (kafka-murmur2").contains(
        "puts the key on partition " + partitionOf.get(key) + ", " + String.join(", ", elsewhere));
    // a spec on another hash: the Java producer's scheme disagrees, and its row is where the
    // consumers received the key
    for (String k : KEYS) {
      Result r = locate("--topic", TOPIC, "--key", k, "--scheme", "librdkafka-fnv1a",
          "--agree-with", "kafka-murmur2", "--format", "json");
      JsonNode j = JSON.readTree(r.out());
      assertThat(j.get("schemes").get(0).get("scheme").asText()).isEqualTo("kafka-murmur2");
      assertThat(j.get("schemes").get(0).get("partition").asInt()).isEqualTo(partitionOf.get(k));
      boolean differs = j.get("partition").asInt() != partitionOf.get(k);
      assertThat(r.code()).as("%s: %s", k, r.err())
          .isEqualTo(differs ? RoutingCli.EXIT_CHECK_FAILED : 0);
    }
  }

  @Test
  void keyFileIsTheKeysBytesWithOneNewlineDropped(@TempDir Path dir) throws Exception {
    for (String key : List.of(KEYS.get(2), KEYS.get(6))) {
      Path f = Files.writeString(dir.resolve("key.txt"), key + "\n");
      Result r = locate("--topic", TOPIC, "--key-file", f.toString(), "--format", "json");
      assertThat(r.code()).as(r.err()).isZero();
      JsonNode json = JSON.readTree(r.out());
      assertThat(json.get("key").asText()).isEqualTo(key);
      assertThat(json.get("partition").asInt()).as(key).isEqualTo(partitionOf.get(key));
      assertThat(memberClient(reader(json, group("consumer")).get("member")))
          .isEqualTo(receivedBy.get(group("consumer")).get(key));
    }
    // binary bytes ending in a newline of their own: the file carries one more
    byte[] binary = {(byte) 0xff, 0x00, (byte) 0x9c, '\n'};
    int written;
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.clientProperties(),
        new ByteArraySerializer(), new ByteArraySerializer())) {
      written = producer.send(new ProducerRecord<>(BINARY, binary, binary)).get().partition();
    }
    Path f = Files.write(dir.resolve("key.bin"), new byte[] {(byte) 0xff, 0x00, (byte) 0x9c, '\n',
        '\n'});
    JsonNode json = JSON.readTree(locate("--topic", BINARY, "--key-file", f.toString(),
        "--format", "json").out());
    assertThat(json.get("key").isNull()).isTrue();
    assertThat(json.get("keyHex").asText()).isEqualTo("ff009c0a");
    assertThat(json.get("partition").asInt()).isEqualTo(written);
    Result missing = locate("--topic", TOPIC, "--key-file", dir.resolve("none").toString());
    assertThat(missing.code()).as(missing.err()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(missing.err()).contains("cannot read --key-file").contains("no such file");
  }

  /**
   * A consumer-protocol group mid-rebalance: member a holds every partition and does not poll, so
   * it cannot finish revoking what the coordinator's target assignment gives the new member b.
   * Locate names b as the target of each moving partition; once a polls again, the key's records
   * reach b and locate names b as the owner.
   */
  @Test
  void consumerProtocolTargetAssignmentNamesTheMemberThatThenReceivesTheKey() throws Exception {
    String group = "handover-consumer";
    try (KafkaConsumer<String, String> a = consumer(group, "consumer", "handover-a");
        KafkaConsumer<String, String> b = consumer(group, "consumer", "handover-b")) {
      a.subscribe(List.of(HANDOVER), POLL_TO_REVOKE);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (a.assignment().size() < PARTITIONS && System.nanoTime() < deadline) {
        a.poll(Duration.ofMillis(50));
      }
      assertThat(a.assignment()).hasSize(PARTITIONS);
      b.subscribe(List.of(HANDOVER), POLL_TO_REVOKE);
      String bId = null;
      Set<Integer> moving = Set.of();
      while (moving.isEmpty() && System.nanoTime() < deadline) {
        b.poll(Duration.ofMillis(50));
        bId = b.groupMetadata().memberId();
        ConsumerGroupDescription d = kafka.admin().describeConsumerGroups(List.of(group))
            .all().get(30, TimeUnit.SECONDS).get(group);
        for (MemberDescription m : d.members()) {
          if (m.consumerId().equals(bId) && m.targetAssignment().isPresent()) {
            moving = m.targetAssignment().get().topicPartitions().stream()
                .map(TopicPartition::partition).collect(Collectors.toSet());
          }
        }
      }
      assertThat(moving).as("b's target assignment").isNotEmpty().hasSizeLessThan(PARTITIONS);
      Map<Integer, String> keyOn = new TreeMap<>();
      for (int i = 0; keyOn.size() < PARTITIONS; i++) {
        String k = "h-" + i;
        keyOn.putIfAbsent(Utils.toPositive(Utils.murmur2(k.getBytes(StandardCharsets.UTF_8)))
            % PARTITIONS, k);
      }
      for (Map.Entry<Integer, String> e : keyOn.entrySet()) {
        Result r = locate("--topic", HANDOVER, "--key", e.getValue(), "--group", group,
            "--format", "json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode g = reader(JSON.readTree(r.out()), group);
        assertThat(g.get("member").get("clientId").asText()).isEqualTo("handover-a");
        if (moving.contains(e.getKey())) {
          assertThat(g.get("targetMember").get("memberId").asText()).isEqualTo(bId);
          assertThat(locate("--topic", HANDOVER, "--key", e.getValue(), "--group", group).out())
              .contains(", moving to member " + bId + " (target assignment)");
        } else {
          assertThat(g.has("targetMember")).as(g.toString()).isFalse();
        }
      }
      while ((a.assignment().size() + b.assignment().size() != PARTITIONS
          || b.assignment().isEmpty()) && System.nanoTime() < deadline) {
        a.poll(Duration.ofMillis(50));
        b.poll(Duration.ofMillis(50));
      }
      try (KafkaProducer<String, String> producer = producer()) {
        keyOn.values().forEach(k -> producer.send(new ProducerRecord<>(HANDOVER, k, "after")));
      }
      Map<String, String> got = new HashMap<>();
      while (got.size() < keyOn.size() && System.nanoTime() < deadline) {
        for (KafkaConsumer<String, String> c : List.of(a, b)) {
          for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(50))) {
            got.put(r.key(), clientId(c));
          }
        }
      }
      for (Map.Entry<Integer, String> e : keyOn.entrySet()) {
        assertThat(got.get(e.getValue())).as("%s on partition %d", e.getValue(), e.getKey())
            .isEqualTo(moving.contains(e.getKey()) ? "handover-b" : "handover-a");
        JsonNode g = reader(JSON.readTree(locate("--topic", HANDOVER, "--key", e.getValue(),
            "--group", group, "--format", "json").out()), group);
        assertThat(g.get("member").get("clientId").asText()).isEqualTo(got.get(e.getValue()));
        assertThat(g.has("targetMember")).isFalse();
      }
    }
  }

  /** A listener: a consumer-protocol member's revocations then wait for its next poll. */
  static final ConsumerRebalanceListener POLL_TO_REVOKE = new ConsumerRebalanceListener() {
    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {}

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {}
  };

  @Test
  void unknownTopicIsBadInput() {
    Result r = locate("--topic", "no-such-topic", "--key", "k");
    assertThat(r.code()).as(r.err()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(r.err()).startsWith("routing: ").contains("no-such-topic")
        .contains("no such topic").doesNotContain("\tat ");
    assertThat(kafka.admin().listTopics().names().toCompletionStage().toCompletableFuture()
        .join()).doesNotContain("no-such-topic");
  }

  @Test
  void unknownGroupIsBadInput() {
    Result r = locate("--topic", TOPIC, "--key", "k", "--group", "no-such-group");
    assertThat(r.code()).as(r.err()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(r.err()).contains("--group no-such-group: no such consumer group");
  }

  @Test
  void badHexIsBadInput() {
    Result r = locate("--topic", TOPIC, "--key-hex", "0xabc");
    assertThat(r.code()).as(r.err()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(r.err()).contains("--key-hex was '0xabc'").contains("even number of hex digits");
  }

  @Test
  void unreachableBrokerIsBadInputWithinTheTimeout() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Result r = CliRun.run("locate", "--bootstrap-server", "127.0.0.1:" + port, "--topic", TOPIC,
        "--key", "k", "--timeout", "2s");
    assertThat(r.code()).as(r.err()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(r.err()).contains("cannot reach Kafka at 127.0.0.1:" + port + " within 2 s");
    assertThat(r.err().strip().lines()).hasSize(1);
  }
}
