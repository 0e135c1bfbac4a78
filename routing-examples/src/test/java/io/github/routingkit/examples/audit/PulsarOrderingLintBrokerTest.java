package io.github.routingkit.examples.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.audit.AuditCause;
import io.github.routingkit.audit.AuditReport;
import io.github.routingkit.audit.AuditStamp;
import io.github.routingkit.audit.InMemoryAuditRecorder;
import io.github.routingkit.audit.PulsarAuditConsumerInterceptor;
import io.github.routingkit.audit.PulsarAuditProducerInterceptor;
import io.github.routingkit.testbrokers.EmbeddedPulsar;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.pulsar.client.api.Consumer;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.Schema;
import org.apache.pulsar.client.api.SubscriptionInitialPosition;
import org.apache.pulsar.client.api.SubscriptionType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The Pulsar ordering fault {@code routing lint} predicts from the producer's configuration
 * alone, provoked for real on an in-process Pulsar 4.2 standalone: keyless messages whose order
 * matters (each carries its stream as the audit's logical key), sent with batching and
 * round-robin routing, land on several partitions, and a consumer behind on some partitions reads
 * them out of send order (KEYLESS_SEND), which RK016 predicts; the control routes them to one
 * partition (SinglePartition) and is clean in both.
 */
@Tag("broker")
class PulsarOrderingLintBrokerTest {
  static final int PARTITIONS = 4;
  static EmbeddedPulsar pulsar;
  static PulsarClient client;

  @BeforeAll
  static void start() throws Exception {
    pulsar = EmbeddedPulsar.start();
    client = PulsarClient.builder().serviceUrl(pulsar.brokerServiceUrl()).build();
  }

  @AfterAll
  static void stop() throws Exception {
    if (client != null) {
      client.close();
    }
    if (pulsar != null) {
      pulsar.close();
    }
  }

  @Test
  void batchingWithRoundRobinKeylessSendsIsKeylessSendAndLintFlagsRk016() throws Exception {
    Map<String, Object> roundRobin = new LinkedHashMap<>();
    roundRobin.put("messageRoutingMode", "RoundRobinPartition");
    roundRobin.put("batchingEnabled", true);
    AuditReport report = run("lint-keyless-round-robin", roundRobin);
    assertThat(report.pairs()).isPositive();
    assertThat(report.causesFound()).containsExactly(AuditCause.KEYLESS_SEND);
    assertThat(LintedConfigs.lint("pulsar-keyless-round-robin", List.of(roundRobin), List.of(),
        "--require-keyless-order").errors()).containsExactly("RK016");

    Map<String, Object> single = new LinkedHashMap<>(roundRobin);
    single.put("messageRoutingMode", "SinglePartition");
    AuditReport control = run("lint-keyless-single-partition", single);
    assertThat(control.records()).isEqualTo(400);
    assertThat(control.pairs()).isZero();
    assertThat(LintedConfigs.lint("pulsar-keyless-single-partition", List.of(single), List.of(),
        "--require-keyless-order", "--strict").clean()).isTrue();
  }

  /** Sends 400 keyless messages of 4 streams with {@code config}, reads highest partition first. */
  private static AuditReport run(String name, Map<String, Object> config) throws Exception {
    String topic = "persistent://public/default/" + name;
    pulsar.createPartitionedTopic(topic, PARTITIONS);
    InMemoryAuditRecorder recorder = new InMemoryAuditRecorder();
    // subscribe first, so every message is kept for the lagging reader
    List<Consumer<String>> consumers = new ArrayList<>();
    for (int p = 0; p < PARTITIONS; p++) {
      consumers.add(client.newConsumer(Schema.STRING).topic(topic + "-partition-" + p)
          .subscriptionName("lagging").subscriptionType(SubscriptionType.Exclusive)
          .subscriptionInitialPosition(SubscriptionInitialPosition.Earliest)
          .consumerName("lagging").intercept(new PulsarAuditConsumerInterceptor<>(recorder))
          .subscribe());
    }
    Set<Integer> partitionsUsed = new HashSet<>();
    try (Producer<String> producer = client.newProducer(Schema.STRING).topic(topic)
        .loadConf(config).intercept(new PulsarAuditProducerInterceptor(name)).create()) {
      List<CompletableFuture<?>> acks = new ArrayList<>();
      for (int i = 0; i < 400; i++) {
        acks.add(producer.newMessage().property(AuditStamp.LOGICAL_KEY, "stream-" + (i % 4))
            .value("v" + i).sendAsync());
        if (i % 20 == 19) {
          producer.flush();
          Thread.sleep(3); // batch boundaries: round-robin moves on at each
        }
      }
      producer.flush();
      for (CompletableFuture<?> ack : acks) {
        ack.get(60, TimeUnit.SECONDS);
      }
    }
    try {
      int received = 0;
      for (int p = PARTITIONS - 1; p >= 0; p--) {
        Consumer<String> c = consumers.get(p);
        for (Message<String> m; (m = c.receive(2, TimeUnit.SECONDS)) != null; ) {
          c.acknowledge(m);
          received++;
          partitionsUsed.add(p);
        }
      }
      assertThat(received).isEqualTo(400);
    } finally {
      for (Consumer<String> c : consumers) {
        c.close();
      }
    }
    AuditReport report = OrderingAuditReports.all(recorder);
    System.out.println("== pulsar audit, keyless, " + config + ", partitions used: "
        + partitionsUsed);
    System.out.print(report.toText(3));
    return report;
  }
}
