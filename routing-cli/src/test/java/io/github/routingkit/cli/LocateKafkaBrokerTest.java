package io.github.routingkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.routingkit.cli.CliRun.Result;
import io.github.routingkit.testbrokers.EmbeddedKafka;
import java.net.ServerSocket;
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
 * group's last commit. Then the errors a user meets: a missing topic, a missing group, bad hex,
 * an unreachable broker.
 */
@Tag("broker")
class LocateKafkaBrokerTest {
  static final int PARTITIONS = 6;
  static final String TOPIC = "orders";
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
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    p.put(ConsumerConfig.GROUP_ID_CONFIG, group(protocol));
    p.put(ConsumerConfig.CLIENT_ID_CONFIG, protocol + "-" + i);
    p.put("group.protocol", protocol);
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    KafkaConsumer<String, String> c = new KafkaConsumer<>(p);
    clientIds.put(c, protocol + "-" + i);
    c.subscribe(List.of(TOPIC));
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
