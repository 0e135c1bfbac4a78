package io.github.routingkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.routingkit.cli.CliRun.Result;
import io.github.routingkit.testbrokers.EmbeddedPulsar;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.pulsar.client.api.Consumer;
import org.apache.pulsar.client.api.KeySharedPolicy;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.Range;
import org.apache.pulsar.client.api.Schema;
import org.apache.pulsar.client.api.SubscriptionType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code routing locate --admin-url} against a real in-process Pulsar standalone: one
 * three-partition topic with three subscriptions: Key_Shared with the broker's auto-split hash
 * ranges (three consumers), Key_Shared with sticky ranges (three consumers, a third of the hash
 * range each) and Failover (two consumers). For every key, locate's partition and the consumer it
 * names for each subscription must be the ones that actually received the key's messages. Then
 * the errors: a missing topic, an unknown subscription, an unreachable and a silent admin API.
 */
@Tag("broker")
class LocatePulsarBrokerTest {
  static final int PARTITIONS = 3;
  static final String TOPIC = "persistent://public/default/locate";
  static final List<String> SUBSCRIPTIONS = List.of("auto", "sticky", "failover");
  static final int ROUNDS = 3;
  static final List<String> KEYS = new ArrayList<>();
  static EmbeddedPulsar pulsar;
  static PulsarClient client;
  static final List<Consumer<String>> consumers = new ArrayList<>();
  /** subscription → key → name of the consumer that received the key's messages. */
  static final Map<String, Map<String, String>> receivedBy = new HashMap<>();
  /** key → partition its messages were published to. */
  static final Map<String, Integer> partitionOf = new HashMap<>();
  static final ObjectMapper JSON = new ObjectMapper();

  @BeforeAll
  static void start() throws Exception {
    pulsar = EmbeddedPulsar.start();
    pulsar.createPartitionedTopic(TOPIC, PARTITIONS);
    client = PulsarClient.builder().serviceUrl(pulsar.brokerServiceUrl()).build();
    for (int i = 0; i < 3; i++) {
      consumers.add(client.newConsumer(Schema.STRING).topic(TOPIC).subscriptionName("auto")
          .subscriptionType(SubscriptionType.Key_Shared).consumerName("auto-" + i).subscribe());
    }
    int third = 65_536 / 3;
    for (int i = 0; i < 3; i++) {
      int last = i == 2 ? 65_535 : (i + 1) * third - 1;
      consumers.add(client.newConsumer(Schema.STRING).topic(TOPIC).subscriptionName("sticky")
          .subscriptionType(SubscriptionType.Key_Shared)
          .keySharedPolicy(KeySharedPolicy.stickyHashRange().ranges(Range.of(i * third, last)))
          .consumerName("sticky-" + i).subscribe());
    }
    for (int i = 0; i < 2; i++) {
      consumers.add(client.newConsumer(Schema.STRING).topic(TOPIC).subscriptionName("failover")
          .subscriptionType(SubscriptionType.Failover).consumerName("failover-" + i)
          .subscribe());
    }
    SUBSCRIPTIONS.forEach(s -> receivedBy.put(s, new HashMap<>()));
    for (int i = 0; i < 24; i++) {
      KEYS.add("tenant-" + i);
    }
    KEYS.add("東京");
    // without batching: a Key_Shared subscription delivers a batch by its first message's key
    try (Producer<String> producer = client.newProducer(Schema.STRING).topic(TOPIC)
        .enableBatching(false).create()) {
      for (int round = 0; round < ROUNDS; round++) {
        for (String key : KEYS) {
          producer.newMessage().key(key).value("v" + round).sendAsync();
        }
      }
      producer.flush();
    }
    int expected = ROUNDS * KEYS.size() * SUBSCRIPTIONS.size();
    int got = 0;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (got < expected && System.nanoTime() < deadline) {
      for (Consumer<String> c : consumers) {
        Message<String> m = c.receive(20, TimeUnit.MILLISECONDS);
        if (m == null) {
          continue;
        }
        got++;
        String before = receivedBy.get(c.getSubscription()).put(m.getKey(), c.getConsumerName());
        assertThat(before).as("key %s on two consumers of %s", m.getKey(), c.getSubscription())
            .isIn(null, c.getConsumerName());
        String partitionTopic = m.getTopicName();
        int p = Integer.parseInt(partitionTopic.substring(partitionTopic.lastIndexOf('-') + 1));
        assertThat(partitionOf.put(m.getKey(), p)).isIn(null, p);
        c.acknowledge(m);
      }
    }
    assertThat(got).isEqualTo(expected);
    // the two Key_Shared subscriptions spread the keys: the test covers more than one consumer
    assertThat(receivedBy.get("auto").values().stream().distinct().count()).isGreaterThan(1);
    assertThat(receivedBy.get("sticky").values().stream().distinct().count()).isGreaterThan(1);
  }

  @AfterAll
  static void stop() throws Exception {
    for (Consumer<String> c : consumers) {
      c.close();
    }
    if (client != null) {
      client.close();
    }
    if (pulsar != null) {
      pulsar.close();
    }
  }

  static Result locate(String... args) {
    List<String> all = new ArrayList<>(List.of("locate", "--admin-url", pulsar.webServiceUrl(),
        "--timeout", "20s"));
    all.addAll(List.of(args));
    return CliRun.run(all.toArray(String[]::new));
  }

  static JsonNode reader(JsonNode json, String subscription) {
    for (JsonNode r : json.get("readers")) {
      if (r.get("subscription").asText().equals(subscription)) {
        return r;
      }
    }
    throw new AssertionError("no reader for subscription " + subscription + " in " + json);
  }

  @Test
  void consumerIsTheOneThatReceivedEachKey() throws Exception {
    for (String key : KEYS) {
      Result r = locate("--topic", "locate", "--key", key, "--format", "json");
      assertThat(r.code()).as(r.err()).isZero();
      JsonNode json = JSON.readTree(r.out());
      assertThat(json.get("partition").asInt()).as(key).isEqualTo(partitionOf.get(key));
      assertThat(json.get("leader").get("brokerUrl").asText()).isEqualTo(pulsar.brokerServiceUrl());
      assertThat(json.get("readers")).hasSize(SUBSCRIPTIONS.size());
      for (String s : SUBSCRIPTIONS) {
        JsonNode sub = reader(json, s);
        assertThat(sub.get("consumer").asText()).as("%s in %s: %s", key, s, sub)
            .isEqualTo(receivedBy.get(s).get(key));
        assertThat(sub.get("backlog").asLong()).isZero();
      }
      assertThat(reader(json, "sticky").get("selector").asText()).isEqualTo("STICKY");
    }
  }

  @Test
  void textReportNamesTheConsumerOfEachSubscription() {
    String key = KEYS.get(0);
    Result r = locate("--topic", "locate", "--key", key);
    System.out.println(r.out());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("partition " + partitionOf.get(key) + " under pulsar-java-string")
        .contains(TOPIC + "-partition-" + partitionOf.get(key) + " owned by "
            + pulsar.brokerServiceUrl())
        .contains("subscription auto (Key_Shared AUTO_SPLIT, ")
        .contains(": consumer " + receivedBy.get("auto").get(key) + " (hash range [")
        .contains("subscription sticky (Key_Shared STICKY, sticky: consumer "
            + receivedBy.get("sticky").get(key))
        .contains("subscription failover (Failover: active consumer "
            + receivedBy.get("failover").get(key) + ")")
        .contains("note: " + PulsarLocate.BATCHING_NOTE + "\n");
  }

  @Test
  void subscriptionNarrowsTheReport() throws Exception {
    Result r = locate("--topic", "locate", "--key", KEYS.get(1), "--subscription", "failover",
        "--format", "json");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode readers = JSON.readTree(r.out()).get("readers");
    assertThat(readers).hasSize(1);
    assertThat(JSON.readTree(r.out()).get("notes")).as("no Key_Shared subscription").isEmpty();
    assertThat(readers.get(0).get("consumer").asText())
        .isEqualTo(receivedBy.get("failover").get(KEYS.get(1)));
  }

  @Test
  void unknownSubscriptionIsBadInput() {
    Result r = locate("--topic", "locate", "--key", "k", "--subscription", "nope");
    assertThat(r.code()).as(r.err()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(r.err()).contains("--subscription nope:").contains("has no such subscription");
  }

  @Test
  void unknownTopicIsBadInput() {
    Result r = locate("--topic", "no-such-topic", "--key", "k");
    assertThat(r.code()).as(r.err()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(r.err().strip()).isEqualTo("routing: pulsar topic"
        + " persistent://public/default/no-such-topic at " + pulsar.webServiceUrl()
        + ": no such topic");
  }

  @Test
  void badHexIsBadInput() {
    Result r = locate("--topic", "locate", "--key-hex", "0xzz");
    assertThat(r.code()).as(r.err()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(r.err()).contains("--key-hex was '0xzz'");
  }

  @Test
  void unreachableAdminApiIsBadInput() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Result r = CliRun.run("locate", "--admin-url", "http://127.0.0.1:" + port, "--topic",
        "locate", "--key", "k", "--timeout", "3s");
    assertThat(r.code()).as(r.err()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(r.err().strip()).isEqualTo("routing: cannot reach the Pulsar admin API at"
        + " http://127.0.0.1:" + port + " (connection refused)");
  }

  /** An admin API that accepts connections and never answers: the timeout, not a hang. */
  @Test
  void silentAdminApiIsBadInputWithinTheTimeout() throws Exception {
    try (ServerSocket silent = new ServerSocket(0, 50,
        java.net.InetAddress.getLoopbackAddress())) {
      String url = "http://127.0.0.1:" + silent.getLocalPort();
      long t0 = System.nanoTime();
      Result r = CliRun.run("locate", "--admin-url", url, "--topic", "locate", "--key", "k",
          "--timeout", "2s");
      double seconds = (System.nanoTime() - t0) / 1e9;
      assertThat(r.code()).as(r.err()).isEqualTo(RoutingCli.EXIT_USAGE);
      assertThat(r.err().strip()).isEqualTo("routing: the Pulsar admin API at " + url
          + " did not answer within 2 s");
      assertThat(seconds).isLessThan(10);
    }
  }
}
