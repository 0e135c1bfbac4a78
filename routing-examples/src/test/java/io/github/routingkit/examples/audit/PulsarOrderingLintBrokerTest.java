package io.github.routingkit.examples.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.audit.AuditCause;
import io.github.routingkit.audit.AuditFinding;
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
import org.apache.pulsar.client.api.BatcherBuilder;
import org.apache.pulsar.client.api.Consumer;
import org.apache.pulsar.client.api.KeySharedPolicy;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.MessageId;
import org.apache.pulsar.client.api.MessageIdAdv;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.ProducerBuilder;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.Schema;
import org.apache.pulsar.client.api.SubscriptionInitialPosition;
import org.apache.pulsar.client.api.SubscriptionType;
import org.apache.pulsar.client.api.TypedMessageBuilder;
import org.apache.pulsar.client.impl.ConsumerBase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The Pulsar ordering faults {@code routing lint} predicts from configuration, provoked for real
 * on an in-process Pulsar 4.2 standalone, each with a control that runs the fix and is clean in
 * both the audit and lint:
 * <ul>
 *   <li>keyless messages whose order matters (each carries its stream as the audit's logical
 *       key), sent with batching and round-robin routing, land on several partitions, and a
 *       consumer behind on some partitions reads them out of send order (KEYLESS_SEND), which
 *       RK016 predicts; the control routes them to one partition (SinglePartition);</li>
 *   <li>keyed messages batched by the default batcher, read through Key_Shared: a batch goes to
 *       the consumer of its first key, so a key's messages reach both consumers and the slower
 *       one processes its share after the other has processed later ones (REDELIVERY: one
 *       partition, two consumers, nothing redelivered), which RK021 predicts; the control
 *       batches by key ({@code BatcherBuilder.KEY_BASED});</li>
 *   <li>a second Key_Shared consumer joins while the first holds unacknowledged messages: with
 *       {@code allowOutOfOrderDelivery} the newcomer gets later messages of the keys it takes
 *       over at once and processes them before the first processes the earlier ones
 *       (REDELIVERY), which RK007 predicts; the control keeps the default, and the broker holds
 *       those keys back until the earlier messages are acknowledged;</li>
 *   <li>messages of one stream sent without a key by two producer instances with SinglePartition
 *       routing: each instance writes to the partition it drew, and a consumer behind on one of
 *       them reads the stream out of send order (KEYLESS_SEND), which RK005 predicts once per-key
 *       order is required; the control gives every message its key and is clean in both.</li>
 * </ul>
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
    assertThat(LintedConfigs.lint("pulsar-keyless-round-robin", List.of(roundRobin),
        List.of(LAGGING), "--require-keyless-order").errors()).containsExactly("RK016");

    Map<String, Object> single = new LinkedHashMap<>(roundRobin);
    single.put("messageRoutingMode", "SinglePartition");
    AuditReport control = run("lint-keyless-single-partition", single);
    assertThat(control.records()).isEqualTo(400);
    assertThat(control.pairs()).isZero();
    assertThat(LintedConfigs.lint("pulsar-keyless-single-partition", List.of(single),
        List.of(LAGGING), "--require-keyless-order", "--strict").clean()).isTrue();
  }

  /**
   * Two Key_Shared consumers of one topic; the slow one starts processing only once the fast one
   * has processed everything the broker gave it. 20 batches of 10 messages, one of each of 10
   * keys, each batch led by another key.
   */
  @Test
  void keySharedWithDefaultBatchingIsRedeliveryAndLintFlagsRk021() throws Exception {
    Map<String, Object> batching = new LinkedHashMap<>();
    batching.put("batchingEnabled", true);
    // a batch closes at flush() only: each holds the 10 messages of one round
    batching.put("batchingMaxPublishDelayMicros", 60_000_000L);
    KeySharedRun run = keySharedRun("lint-key-shared-default-batching", batching, false);
    assertThat(run.report().records()).isEqualTo(200);
    assertThat(run.report().pairs()).isPositive();
    assertThat(run.report().causesFound()).containsExactly(AuditCause.REDELIVERY);
    for (AuditFinding f : run.report().findings()) {
      assertThat(f.sentLater().consumer()).isEqualTo("fast");
      assertThat(f.sentEarlier().consumer()).isEqualTo("slow");
      assertThat(f.sentEarlier().redelivered()).isFalse();
    }
    LintedConfigs.Lint lint = LintedConfigs.lint("pulsar-key-shared-default-batching",
        List.of(batching), run.consumers(), "--require-key-order");
    assertThat(lint.errors()).containsExactly("RK021");
    assertThat(lint.warnings()).isEmpty();

    // the fix: one key per batch. ProducerBuilder#batcherBuilder is set in code (loadConf does
    // not take it); the file states it, as RK021's fix says
    Map<String, Object> keyBased = new LinkedHashMap<>(batching);
    keyBased.put("batcherBuilder", "KEY_BASED");
    KeySharedRun control = keySharedRun("lint-key-shared-key-based-batching", batching, true);
    assertThat(control.report().records()).isEqualTo(200);
    assertThat(control.report().keys()).isEqualTo(10);
    assertThat(control.report().pairs()).isZero();
    assertThat(LintedConfigs.lint("pulsar-key-shared-key-based-batching", List.of(keyBased),
        control.consumers(), "--require-key-order", "--strict").clean()).isTrue();
  }

  /** An audited run and the consumer configs it ran with. */
  record KeySharedRun(AuditReport report, List<Map<String, Object>> consumers) {}

  private static KeySharedRun keySharedRun(String name, Map<String, Object> producerConfig,
      boolean keyBased) throws Exception {
    String topic = "persistent://public/default/" + name;
    InMemoryAuditRecorder recorder = new InMemoryAuditRecorder();
    Map<String, Object> fastConfig = PulsarOrderingAuditBrokerTest.consumerConfig(
        SubscriptionType.Key_Shared, "fast", 1000);
    Map<String, Object> slowConfig = PulsarOrderingAuditBrokerTest.consumerConfig(
        SubscriptionType.Key_Shared, "slow", 1000);
    boolean[] stop = {false};
    try (Consumer<String> fast = PulsarOrderingAuditBrokerTest.consumer(client, topic,
        fastConfig, recorder);
         Consumer<String> slow = PulsarOrderingAuditBrokerTest.consumer(client, topic,
             slowConfig, recorder)) {
      Thread f = PulsarOrderingAuditBrokerTest.receiveLoop(fast, 0, true, () -> stop[0]);
      ProducerBuilder<String> builder = client.newProducer(Schema.STRING).topic(topic)
          .loadConf(producerConfig).intercept(new PulsarAuditProducerInterceptor(name));
      if (keyBased) {
        builder.batcherBuilder(BatcherBuilder.KEY_BASED);
      }
      try (Producer<String> producer = builder.create()) {
        List<CompletableFuture<?>> acks = new ArrayList<>();
        for (int round = 0; round < 20; round++) {
          for (int j = 0; j < 10; j++) {
            acks.add(producer.newMessage().key("order-" + ((round + j) % 10))
                .value("r" + round).sendAsync());
          }
          producer.flush();
        }
        for (CompletableFuture<?> ack : acks) {
          ack.get(60, TimeUnit.SECONDS);
        }
      }
      // fast has processed all it was given; the rest waits in slow's queue
      PulsarOrderingAuditBrokerTest.await("all 200 delivered", () -> recorder.size()
          + ((ConsumerBase<?>) slow).numMessagesInQueue() >= 200);
      assertThat(((ConsumerBase<?>) slow).numMessagesInQueue()).as("slow owns some keys")
          .isPositive();
      assertThat(recorder.size()).as("fast owns some keys").isPositive();
      Thread s = PulsarOrderingAuditBrokerTest.receiveLoop(slow, 0, true, () -> stop[0]);
      PulsarOrderingAuditBrokerTest.await("all 200 received", () -> recorder.size() >= 200);
      stop[0] = true;
      f.join();
      s.join();
    }
    AuditReport report = OrderingAuditReports.all(recorder);
    PulsarOrderingAuditBrokerTest.print("Key_Shared, " + (keyBased ? "key-based" : "default")
        + " batching", report);
    return new KeySharedRun(report, List.of(fastConfig, slowConfig));
  }

  /**
   * Consumer A alone on a Key_Shared subscription receives 100 messages of 10 keys and holds them
   * unprocessed; B joins and 100 more messages are sent; then A processes its queue.
   */
  @Test
  void keySharedOutOfOrderDeliveryWhenAConsumerJoinsIsRedeliveryAndLintFlagsRk007()
      throws Exception {
    JoinRun run = joinRun("lint-key-shared-out-of-order", true);
    assertThat(run.report().records()).isEqualTo(200);
    assertThat(run.report().pairs()).isPositive();
    assertThat(run.report().causesFound()).containsExactly(AuditCause.REDELIVERY);
    for (AuditFinding f : run.report().findings()) {
      assertThat(f.sentLater().consumer()).isEqualTo("consumer-b");
      assertThat(f.sentEarlier().consumer()).isEqualTo("consumer-a");
      assertThat(f.sentEarlier().redelivered()).isFalse();
    }
    LintedConfigs.Lint lint = LintedConfigs.lint("pulsar-key-shared-out-of-order",
        List.of(PulsarOrderingAuditBrokerTest.PRODUCER), run.consumers(), "--require-key-order");
    assertThat(lint.errors()).containsExactly("RK007");

    JoinRun control = joinRun("lint-key-shared-in-order", false);
    assertThat(control.report().records()).isEqualTo(200);
    assertThat(control.report().pairs()).isZero();
    assertThat(LintedConfigs.lint("pulsar-key-shared-in-order",
        List.of(PulsarOrderingAuditBrokerTest.PRODUCER), control.consumers(),
        "--require-key-order", "--strict").clean()).isTrue();
  }

  /** An audited run and the consumer configs it ran with (as routing lint reads them). */
  record JoinRun(AuditReport report, List<Map<String, Object>> consumers) {}

  private static JoinRun joinRun(String name, boolean outOfOrder) throws Exception {
    String topic = "persistent://public/default/" + name;
    InMemoryAuditRecorder recorder = new InMemoryAuditRecorder();
    Map<String, Object> configA = PulsarOrderingAuditBrokerTest.consumerConfig(
        SubscriptionType.Key_Shared, "consumer-a", 1000);
    Map<String, Object> configB = PulsarOrderingAuditBrokerTest.consumerConfig(
        SubscriptionType.Key_Shared, "consumer-b", 1000);
    boolean[] stop = {false};
    try (Consumer<String> a = keyShared(topic, configA, outOfOrder, recorder);
         Producer<String> producer = client.newProducer(Schema.STRING).topic(topic)
             .loadConf(PulsarOrderingAuditBrokerTest.PRODUCER)
             .intercept(new PulsarAuditProducerInterceptor(name)).create()) {
      for (int i = 0; i < 100; i++) {
        producer.newMessage().key("order-" + (i % 10)).value("v" + i).send();
      }
      PulsarOrderingAuditBrokerTest.await("A holds the first 100",
          () -> ((ConsumerBase<?>) a).numMessagesInQueue() >= 100);
      try (Consumer<String> b = keyShared(topic, configB, outOfOrder, recorder)) {
        Thread tb = PulsarOrderingAuditBrokerTest.receiveLoop(b, 0, true, () -> stop[0]);
        for (int i = 100; i < 200; i++) {
          producer.newMessage().key("order-" + (i % 10)).value("v" + i).send();
        }
        if (outOfOrder) {
          // B has processed all it was given; the rest waits in A's queue
          PulsarOrderingAuditBrokerTest.await("all 200 delivered", () -> recorder.size()
              + ((ConsumerBase<?>) a).numMessagesInQueue() >= 200);
          assertThat(recorder.size()).as("B took over some keys").isPositive();
        }
        Thread ta = PulsarOrderingAuditBrokerTest.receiveLoop(a, 0, true, () -> stop[0]);
        PulsarOrderingAuditBrokerTest.await("all 200 received", () -> recorder.size() >= 200);
        stop[0] = true;
        ta.join();
        tb.join();
      }
    }
    AuditReport report = OrderingAuditReports.all(recorder);
    PulsarOrderingAuditBrokerTest.print("Key_Shared, a consumer joins, allowOutOfOrderDelivery="
        + outOfOrder, report);
    List<Map<String, Object>> consumers = new ArrayList<>();
    for (Map<String, Object> c : List.of(configA, configB)) {
      Map<String, Object> linted = new LinkedHashMap<>(c);
      if (outOfOrder) {
        // set in code (ConsumerBuilder#keySharedPolicy), stated in the file for routing lint
        linted.put("allowOutOfOrderDelivery", true);
      }
      consumers.add(linted);
    }
    return new JoinRun(report, consumers);
  }

  private static Consumer<String> keyShared(String topic, Map<String, Object> config,
      boolean outOfOrder, InMemoryAuditRecorder recorder) throws Exception {
    return client.newConsumer(Schema.STRING).topic(topic).loadConf(config)
        .keySharedPolicy(KeySharedPolicy.autoSplitHashRange()
            .setAllowOutOfOrderDelivery(outOfOrder))
        .intercept(new PulsarAuditConsumerInterceptor<>(recorder)).subscribe();
  }

  /**
   * One stream of 200 messages (an application's ordered events, the audit's logical key
   * {@code stream-0}) written by two producer instances in turns of 20, as instances of one
   * service behind a load balancer would: both stamp through one audit interceptor, so the audit
   * sees one stream. With SinglePartition routing and no message key, each instance writes to the
   * partition it drew (the second instance is drawn again until it differs from the first, so
   * the run does not depend on the draw), and the reader, highest partition first, sees the
   * stream out of send order. The control sends the same messages with the stream as the key,
   * hashed to one partition by both instances.
   */
  @Test
  void singlePartitionKeylessSendsOfTwoInstancesAreKeylessSendAndLintFlagsRk005()
      throws Exception {
    Map<String, Object> single = new LinkedHashMap<>();
    single.put("messageRoutingMode", "SinglePartition");
    single.put("batchingEnabled", false);
    AuditReport report = twoInstances("lint-keyless-two-instances", single, false);
    assertThat(report.records()).isEqualTo(200);
    assertThat(report.pairs()).isPositive();
    assertThat(report.causesFound()).containsExactly(AuditCause.KEYLESS_SEND);
    LintedConfigs.Lint lint = LintedConfigs.lint("pulsar-keyless-two-instances",
        List.of(single, single), List.of(LAGGING), "--require-key-order");
    assertThat(lint.errors()).isEmpty();
    assertThat(lint.warnings()).containsExactly("RK005");

    Map<String, Object> keyed = new LinkedHashMap<>(single);
    keyed.put("messageRoutingMode", "RoundRobinPartition");
    AuditReport control = twoInstances("lint-two-instances-keyed", keyed, true);
    assertThat(control.records()).isEqualTo(200);
    assertThat(control.pairs()).isZero();
    assertThat(LintedConfigs.lint("pulsar-two-instances-keyed", List.of(keyed, keyed),
        List.of(LAGGING), "--require-key-order", "--strict").clean()).isTrue();
  }

  private static AuditReport twoInstances(String name, Map<String, Object> config, boolean keyed)
      throws Exception {
    String topic = "persistent://public/default/" + name;
    pulsar.createPartitionedTopic(topic, PARTITIONS);
    PulsarAuditProducerInterceptor stamps = new PulsarAuditProducerInterceptor(name);
    List<Producer<String>> instances = new ArrayList<>();
    InMemoryAuditRecorder recorder = new InMemoryAuditRecorder();
    List<Consumer<String>> consumers = new ArrayList<>();
    try {
      // draw instances until two write to different partitions (a probe message each, before
      // any subscription, so no reader sees it)
      Set<Integer> drawn = new HashSet<>();
      while (instances.size() < 2) {
        Producer<String> p = client.newProducer(Schema.STRING).topic(topic).loadConf(config)
            .intercept(stamps).create();
        MessageId probe = p.newMessage().property(AuditStamp.LOGICAL_KEY, "probe").value("probe")
            .send();
        if (keyed || drawn.add(((MessageIdAdv) probe).getPartitionIndex())) {
          instances.add(p);
        } else {
          p.close();
        }
        assertThat(drawn.size() + instances.size()).as("draws").isLessThan(100);
      }
      for (int p = 0; p < PARTITIONS; p++) {
        consumers.add(client.newConsumer(Schema.STRING).topic(topic + "-partition-" + p)
            .loadConf(LAGGING).intercept(new PulsarAuditConsumerInterceptor<>(recorder))
            .subscribe());
      }
      for (int i = 0; i < 200; i++) {
        TypedMessageBuilder<String> m = instances.get((i / 20) % 2).newMessage().value("v" + i);
        (keyed ? m.key("stream-0") : m.property(AuditStamp.LOGICAL_KEY, "stream-0")).send();
      }
      int received = 0;
      for (int p = PARTITIONS - 1; p >= 0; p--) {
        Consumer<String> c = consumers.get(p);
        for (Message<String> m; (m = c.receive(2, TimeUnit.SECONDS)) != null; ) {
          c.acknowledge(m);
          received++;
        }
      }
      assertThat(received).isEqualTo(200);
    } finally {
      for (Consumer<String> c : consumers) {
        c.close();
      }
      for (Producer<String> p : instances) {
        p.close();
      }
    }
    AuditReport report = OrderingAuditReports.all(recorder);
    PulsarOrderingAuditBrokerTest.print("two producer instances, " + config + (keyed
        ? ", keyed" : ", keyless"), report);
    return report;
  }

  /** The lagging reader's configuration (ConsumerBuilder#loadConf keys), one per partition. */
  static final Map<String, Object> LAGGING = Map.of("subscriptionName", "lagging",
      "subscriptionType", "Exclusive", "consumerName", "lagging");

  /** Sends 400 keyless messages of 4 streams with {@code config}, reads highest partition first. */
  private static AuditReport run(String name, Map<String, Object> config) throws Exception {
    String topic = "persistent://public/default/" + name;
    pulsar.createPartitionedTopic(topic, PARTITIONS);
    InMemoryAuditRecorder recorder = new InMemoryAuditRecorder();
    // subscribe first, so every message is kept for the lagging reader
    List<Consumer<String>> consumers = new ArrayList<>();
    for (int p = 0; p < PARTITIONS; p++) {
      consumers.add(client.newConsumer(Schema.STRING).topic(topic + "-partition-" + p)
          .loadConf(LAGGING).subscriptionInitialPosition(SubscriptionInitialPosition.Earliest)
          .intercept(new PulsarAuditConsumerInterceptor<>(recorder))
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
