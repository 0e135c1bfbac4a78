package io.github.routingkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.routingkit.testing.SampleKeys;
import io.github.routingkit.testbrokers.EmbeddedPulsar;
import io.github.routingkit.cli.CliRun.Result;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.MessageRouter;
import org.apache.pulsar.client.api.MessageRoutingMode;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.Schema;
import org.apache.pulsar.client.api.TopicMetadata;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code routing analyze --service-url} against a real in-process Pulsar standalone (one for the
 * class): a healthy partitioned topic keyed by real sample keys through the client's default
 * router, one whose router sends 60 % of diverse keys to partition 0, one with a hot key; a
 * missing topic (which analyze must not create) and an unreachable broker. After each run the
 * topic has no subscription: analyze reads with Readers, whose non-durable subscriptions go when
 * they close.
 */
@Tag("broker")
class LiveAnalyzePulsarBrokerTest {
  static final int PARTITIONS = 6;
  static final int RECORDS = 12_000;
  static EmbeddedPulsar pulsar;
  static final ObjectMapper JSON = new ObjectMapper();
  static final HttpClient HTTP = HttpClient.newHttpClient();

  @BeforeAll
  static void start() throws Exception {
    pulsar = EmbeddedPulsar.start();
    List<String> keys = SampleKeys.all().stream().distinct().limit(RECORDS).toList();
    for (String t : List.of("healthy", "misrouted", "hotkey")) {
      pulsar.createPartitionedTopic("persistent://public/default/" + t, PARTITIONS);
    }
    try (PulsarClient client = PulsarClient.builder().serviceUrl(pulsar.brokerServiceUrl())
        .build()) {
      int[] next = {0};
      MessageRouter broken = new MessageRouter() {
        private static final long serialVersionUID = 1L;

        @Override
        public int choosePartition(Message<?> msg, TopicMetadata metadata) {
          // a broken router: 60 % of the messages to partition 0 whatever their key
          int i = next[0]++;
          return i % 10 < 6 ? 0 : (msg.getKey().hashCode() & Integer.MAX_VALUE) % PARTITIONS;
        }
      };
      try (Producer<String> healthy = client.newProducer(Schema.STRING)
              .topic("persistent://public/default/healthy").create();
          Producer<String> misrouted = client.newProducer(Schema.STRING)
              .topic("persistent://public/default/misrouted")
              .messageRoutingMode(MessageRoutingMode.CustomPartition).messageRouter(broken)
              .create();
          Producer<String> hotkey = client.newProducer(Schema.STRING)
              .topic("persistent://public/default/hotkey").create()) {
        for (int i = 0; i < RECORDS; i++) {
          String key = keys.get(i);
          healthy.newMessage().key(key).value("v" + i).sendAsync();
          misrouted.newMessage().key(key).value("v" + i).sendAsync();
          hotkey.newMessage().key(i % 10 < 6 ? "tenant-42" : key).value("v" + i).sendAsync();
        }
        healthy.flush();
        misrouted.flush();
        hotkey.flush();
      }
    }
  }

  @AfterAll
  static void stop() {
    if (pulsar != null) {
      pulsar.close();
    }
  }

  static Result analyze(String topic, String... args) throws Exception {
    String[] all = new String[args.length + 7];
    all[0] = "analyze";
    all[1] = "--service-url";
    all[2] = pulsar.brokerServiceUrl();
    all[3] = "--admin-url";
    all[4] = pulsar.webServiceUrl();
    all[5] = "--topic";
    all[6] = topic;
    System.arraycopy(args, 0, all, 7, args.length);
    Result r = CliRun.run(all);
    assertNoSubscription(topic);
    return r;
  }

  /** Readers leave nothing behind: no partition of the topic has a subscription. */
  static void assertNoSubscription(String topic) throws Exception {
    HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(pulsar.webServiceUrl()
        + "/admin/v2/persistent/public/default/" + topic + "/partitioned-stats?perPartition=true"))
        .GET().build(), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() == 404) {
      return;
    }
    JsonNode stats = JSON.readTree(r.body());
    assertThat(stats.path("subscriptions").size()).as("subscriptions of " + topic).isZero();
    assertThat(stats.path("partitions").size()).isEqualTo(PARTITIONS);
    stats.path("partitions").forEach(p ->
        assertThat(p.path("subscriptions").size()).as("subscriptions of a partition").isZero());
  }

  @Test
  void healthyTopicIsBalanced() throws Exception {
    Result r = analyze("healthy");
    System.out.println(r.out());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("pulsar topic persistent://public/default/healthy")
        .contains("(6 partitions)").contains("12,000 records")
        .contains("100.0% of the keyed records sit where pulsar-java-string")
        .containsPattern("diagnosis +(WITHIN_PERFECT_HASH_BOUND|BALANCED): balanced")
        .doesNotContain("skewed");
    JsonNode json = JSON.readTree(analyze("healthy", "--format", "json", "--quiet").out());
    long published = 0;
    for (JsonNode p : json.get("partitionSizes")) {
      published += p.get("records").asLong();
      assertThat(p.get("bytes").asLong()).as("storageSize").isPositive();
      assertThat(p.get("backlog").asLong()).isZero();
      assertThat(p.get("sampled").asLong()).isEqualTo(p.get("records").asLong());
    }
    assertThat(published).as("msgInCounter over the partitions").isEqualTo(RECORDS);
  }

  @Test
  void diverseKeysOnOnePartitionBlameTheRouter() throws Exception {
    Result r = analyze("misrouted", "--since", "1h");
    System.out.println(r.out());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("diagnosis         SUSPECT_ROUTER: a partitioner problem")
        .contains("(above 3: skewed)").contains("messages since 1 h ago")
        .containsPattern("router check +(49|50|51)\\.\\d% ");
  }

  @Test
  void oneHotKeyIsAKeyProblem() throws Exception {
    Result r = analyze("hotkey");
    System.out.println(r.out());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("diagnosis         FIX_KEY_DESIGN: a key-distribution problem")
        .contains("more than half").contains("tenant-42");
  }

  @Test
  void sampleCapsEachPartition() throws Exception {
    JsonNode json = JSON.readTree(analyze("misrouted", "--sample", "600", "--format", "json")
        .out());
    assertThat(json.get("sampled").asLong()).isLessThanOrEqualTo(600);
    for (JsonNode p : json.get("partitionSizes")) {
      assertThat(p.get("sampled").asLong()).isLessThanOrEqualTo(100);
    }
  }

  @Test
  void missingTopicIsBadInputAndIsNotCreated() throws Exception {
    Result r = analyze("no-such-topic", "--timeout", "10s");
    assertThat(r.code()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(r.err().strip()).isEqualTo("routing: pulsar topic"
        + " persistent://public/default/no-such-topic at " + pulsar.brokerServiceUrl()
        + ": no such topic");
    HttpResponse<String> list = HTTP.send(HttpRequest.newBuilder(URI.create(
        pulsar.webServiceUrl() + "/admin/v2/persistent/public/default")).GET().build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(list.body()).doesNotContain("no-such-topic");
  }

  @Test
  void unreachableBrokerIsBadInputWithinTheTimeout() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    long t0 = System.nanoTime();
    Result r = CliRun.run("analyze", "--service-url", "pulsar://127.0.0.1:" + port, "--topic",
        "orders", "--timeout", "3s");
    double seconds = (System.nanoTime() - t0) / 1e9;
    System.out.printf("unreachable broker: exit %d after %.1f s%n", r.code(), seconds);
    assertThat(r.code()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(r.err().strip()).isEqualTo("routing: cannot reach Pulsar at pulsar://127.0.0.1:"
        + port + ": connection refused (is the broker up and --service-url right?)");
    assertThat(seconds).isLessThan(15);
  }

  /** A broker that accepts connections and never answers: the timeout, not a hang. */
  @Test
  void silentBrokerIsBadInputWithinTheTimeout() throws Exception {
    try (ServerSocket silent = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
      long t0 = System.nanoTime();
      Result r = CliRun.run("analyze", "--service-url", "pulsar://127.0.0.1:" + silent.getLocalPort(), "--topic", "orders", "--timeout", "3s");
      double seconds = (System.nanoTime() - t0) / 1e9;
      System.out.printf("silent broker: exit %d after %.1f s: %s%n", r.code(), seconds, r.err());
      assertThat(r.code()).isEqualTo(RoutingCli.EXIT_USAGE);
      assertThat(r.err()).startsWith("routing: cannot reach Pulsar at pulsar://127.0.0.1:" + silent.getLocalPort() + " within 3 s");
      assertThat(seconds).isLessThan(10);
    }
  }
}
