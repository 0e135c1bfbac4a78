package io.github.routingkit.examples.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.testbrokers.EmbeddedPulsar;
import io.github.routingkit.audit.AuditCause;
import io.github.routingkit.audit.AuditFinding;
import io.github.routingkit.audit.AuditRecorder;
import io.github.routingkit.audit.AuditReport;
import io.github.routingkit.audit.InMemoryAuditRecorder;
import io.github.routingkit.audit.PulsarAuditConsumerInterceptor;
import io.github.routingkit.audit.PulsarAuditProducerInterceptor;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.pulsar.client.api.Consumer;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.Schema;
import org.apache.pulsar.client.api.SubscriptionType;
import org.apache.pulsar.client.impl.ConsumerBase;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The ordering audit on a real in-process Pulsar 4.2 standalone: the audit interceptors stamp and
 * record real messages; a Shared subscription where Key_Shared was meant, and a Key_Shared
 * consumer that crashes with unacknowledged messages, each must be named for what they are; the
 * same slow/fast consumers on Key_Shared must give zero findings.
 */
@Tag("broker")
class PulsarOrderingAuditBrokerTest {
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

  static Consumer<String> consumer(PulsarClient c, String topic, SubscriptionType type,
      String name, InMemoryAuditRecorder recorder) throws Exception {
    return consumer(c, topic, consumerConfig(type, name, 10), recorder);
  }

  static Consumer<String> consumer(PulsarClient c, String topic, Map<String, Object> config,
      AuditRecorder recorder) throws Exception {
    return c.newConsumer(Schema.STRING).topic(topic).loadConf(config)
        .intercept(new PulsarAuditConsumerInterceptor<>(recorder)).subscribe();
  }

  /** A consumer's configuration as ConsumerBuilder#loadConf takes it, and routing lint reads it. */
  static Map<String, Object> consumerConfig(SubscriptionType type, String name, int queue) {
    Map<String, Object> c = new LinkedHashMap<>();
    c.put("subscriptionName", "audit");
    c.put("subscriptionType", type.name());
    c.put("consumerName", name);
    c.put("receiverQueueSize", queue);
    return c;
  }

  /** The producers' configuration (ProducerBuilder#loadConf keys). */
  static final Map<String, Object> PRODUCER = Map.of("batchingEnabled", false);

  static void send(String topic, String producerId, int messages, int keys) throws Exception {
    try (Producer<String> producer = client.newProducer(Schema.STRING).topic(topic)
        .loadConf(PRODUCER).intercept(new PulsarAuditProducerInterceptor(producerId))
        .create()) {
      for (int i = 0; i < messages; i++) {
        producer.newMessage().key("order-" + (i % keys)).value("v" + i).send();
      }
    }
  }

  /** Receives and acknowledges until told to stop; {@code pauseMillis} per message. */
  static Thread receiveLoop(Consumer<String> consumer, long pauseMillis, boolean ack,
      BooleanSupplier stop) {
    Thread t = new Thread(() -> {
      try {
        while (!stop.getAsBoolean()) {
          Message<String> m = consumer.receive(100, TimeUnit.MILLISECONDS);
          if (m == null) {
            continue;
          }
          if (pauseMillis > 0) {
            Thread.sleep(pauseMillis);
          }
          if (ack) {
            consumer.acknowledge(m);
          }
        }
      } catch (Exception e) {
        if (!stop.getAsBoolean()) {
          throw new IllegalStateException(e);
        }
      }
    }, "receive-" + consumer.getConsumerName());
    t.setDaemon(true);
    t.start();
    return t;
  }

  static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as(what).isLessThan(deadline);
      Thread.sleep(20);
    }
  }

  static void print(String scenario, AuditReport report) {
    System.out.println("== pulsar audit, " + scenario);
    System.out.print(report.toText(3));
  }

  /**
   * Two consumers on one Shared subscription: the slow one holds its prefetched messages while
   * the fast one takes everything after them, then processes its own; every key with a message
   * in the slow consumer's queue is seen out of order.
   */
  @Test
  void sharedWhereKeySharedWasMeantIsNamedWrongSubscriptionType() throws Exception {
    String topic = "persistent://public/default/audit-shared";
    InMemoryAuditRecorder recorder = new InMemoryAuditRecorder();
    boolean[] stop = {false};
    try (Consumer<String> fast = consumer(client, topic, SubscriptionType.Shared, "fast", recorder);
         Consumer<String> slow = consumer(client, topic, SubscriptionType.Shared, "slow",
             recorder)) {
      Thread f = receiveLoop(fast, 0, true, () -> stop[0]);
      send(topic, "shared-producer", 300, 10);
      // the fast consumer has everything but what the broker prefetched into slow's queue
      await("fast has all but slow's queue", () -> recorder.size()
          + ((ConsumerBase<?>) slow).numMessagesInQueue() >= 300);
      Thread s = receiveLoop(slow, 0, true, () -> stop[0]);
      await("all 300 received", () -> recorder.size() >= 300);
      stop[0] = true;
      f.join();
      s.join();
    }
    AuditReport report = OrderingAuditReports.all(recorder);
    print("Shared where Key_Shared was meant", report);
    assertThat(report.records()).isEqualTo(300);
    assertThat(report.pairs()).isPositive();
    assertThat(report.causesFound()).containsExactly(AuditCause.WRONG_SUBSCRIPTION_TYPE);
    for (AuditFinding finding : report.findings()) {
      assertThat(finding.sentLater().consumer()).isEqualTo("fast");
      assertThat(finding.sentEarlier().consumer()).isEqualTo("slow");
      assertThat(finding.sentEarlier().subscription()).isEqualTo("Shared");
    }
    assertThat(LintedConfigs.lint("pulsar-shared", List.of(PRODUCER), List.of(
        consumerConfig(SubscriptionType.Shared, "fast", 10),
        consumerConfig(SubscriptionType.Shared, "slow", 10)), "--require-key-order").errors())
        .containsExactly("RK004");
  }

  /** The control: the same consumers on Key_Shared keep per-key order. */
  @Test
  void keySharedWithTheSameConsumersHasZeroFindings() throws Exception {
    String topic = "persistent://public/default/audit-key-shared";
    InMemoryAuditRecorder recorder = new InMemoryAuditRecorder();
    boolean[] stop = {false};
    try (Consumer<String> fast = consumer(client, topic, SubscriptionType.Key_Shared, "fast",
        recorder);
         Consumer<String> slow = consumer(client, topic, SubscriptionType.Key_Shared, "slow",
             recorder)) {
      Thread f = receiveLoop(fast, 0, true, () -> stop[0]);
      Thread s = receiveLoop(slow, 2, true, () -> stop[0]);
      send(topic, "key-shared-producer", 300, 10);
      await("all 300 received", () -> recorder.size() >= 300);
      stop[0] = true;
      f.join();
      s.join();
    }
    AuditReport report = OrderingAuditReports.all(recorder);
    print("clean run (Key_Shared, a slow and a fast consumer)", report);
    assertThat(report.records()).isEqualTo(300);
    assertThat(report.keys()).isEqualTo(10);
    assertThat(report.pairs()).isZero();
    assertThat(recorder.records()).allMatch(r -> r.subscription().equals("Key_Shared"));
    assertThat(LintedConfigs.lint("pulsar-key-shared", List.of(PRODUCER), List.of(
        consumerConfig(SubscriptionType.Key_Shared, "fast", 10),
        consumerConfig(SubscriptionType.Key_Shared, "slow", 10)), "--require-key-order",
        "--strict").clean()).isTrue();
  }

  /**
   * Key_Shared consumer A receives its keys' messages and never acknowledges them; its client
   * then dies. The broker redelivers them to B, after the later messages A had already seen.
   */
  @Test
  void crashWithUnackedMessagesRedeliveredToAnotherConsumerIsNamedRedelivery() throws Exception {
    String topic = "persistent://public/default/audit-crash";
    InMemoryAuditRecorder recorder = new InMemoryAuditRecorder();
    boolean[] stop = {false};
    PulsarClient clientA = PulsarClient.builder().serviceUrl(pulsar.brokerServiceUrl()).build();
    Map<String, Object> configA = consumerConfig(SubscriptionType.Key_Shared, "consumer-a", 1000);
    Consumer<String> a = consumer(clientA, topic, configA, recorder);
    try (Consumer<String> b = consumer(client, topic, SubscriptionType.Key_Shared, "consumer-b",
        recorder)) {
      boolean[] stopA = {false};
      Thread ta = receiveLoop(a, 0, false, () -> stopA[0]);
      Thread tb = receiveLoop(b, 0, true, () -> stop[0]);
      send(topic, "crash-producer", 200, 20);
      await("all 200 received once", () -> recorder.size() >= 200);
      Set<String> keysOfA = new HashSet<>();
      recorder.records().stream().filter(r -> r.consumer().equals("consumer-a"))
          .forEach(r -> keysOfA.add(r.key()));
      long unacked = recorder.records().stream()
          .filter(r -> r.consumer().equals("consumer-a")).count();
      assertThat(unacked).as("consumer-a got some keys").isPositive();
      stopA[0] = true;
      ta.join();
      clientA.close(); // the crash: connection gone, 'unacked' messages unacknowledged
      await("A's messages redelivered to B", () -> recorder.size() >= 200 + unacked);
      stop[0] = true;
      tb.join();
      AuditReport report = OrderingAuditReports.all(recorder);
      print("consumer crash with unacked messages (Key_Shared)", report);
      assertThat(report.causesFound()).containsExactly(AuditCause.REDELIVERY);
      Set<String> keysWithFindings = new HashSet<>();
      for (AuditFinding f : report.findings()) {
        keysWithFindings.add(f.sentLater().key());
        assertThat(f.sentLater().consumer()).isEqualTo("consumer-a");
        assertThat(f.sentEarlier().consumer()).isEqualTo("consumer-b");
      }
      assertThat(keysWithFindings).isEqualTo(keysOfA);
    }
    // a crash is no configuration: lint finds nothing to predict it (docs/cli.md, REDELIVERY)
    assertThat(LintedConfigs.lint("pulsar-crash", List.of(PRODUCER), List.of(configA,
        consumerConfig(SubscriptionType.Key_Shared, "consumer-b", 10)), "--require-key-order",
        "--strict").clean()).isTrue();
  }
}
