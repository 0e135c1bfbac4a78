package io.github.routingkit.examples.pulsar;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.testbrokers.EmbeddedPulsar;
import io.github.routingkit.pulsar.KeyShare;
import io.github.routingkit.pulsar.KeySharedPredictor;
import io.github.routingkit.pulsar.StickyRangeReport;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.pulsar.client.api.KeySharedPolicy;
import org.apache.pulsar.client.api.Range;
import org.apache.pulsar.common.policies.data.ConsumerStats;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A real Pulsar 4.2.4 standalone (default broker config): a Key_Shared subscription with three
 * named consumers receives 20,000 keyed messages, and every consumer's keys equal the
 * prediction, for the default selector (consistent hashing, 100 points) and for sticky ranges.
 */
@Tag("broker")
class PulsarKeySharedBrokerTest {
  static final List<String> CONSUMERS = List.of("consumer-a", "consumer-b", "consumer-c");
  static final List<String> KEYS = KeySharedRun.keys(20_000);

  static EmbeddedPulsar pulsar;

  @BeforeAll
  static void start() {
    pulsar = EmbeddedPulsar.start();
  }

  @AfterAll
  static void stop() {
    if (pulsar != null) {
      pulsar.close();
    }
  }

  @Test
  void defaultSelectorDeliversEveryKeyToThePredictedConsumer() throws Exception {
    String topic = "persistent://public/default/key-shared-default";
    Map<String, KeySharedPolicy> policies = new LinkedHashMap<>();
    CONSUMERS.forEach(c -> policies.put(c, KeySharedPolicy.autoSplitHashRange()));
    // the broker's ranges are read while the consumers are connected
    KeySharedPredictor predictor = KeySharedPredictor.consistentHashing(CONSUMERS);
    Map<String, Set<String>> received = KeySharedRun.deliver(
        pulsar.brokerServiceUrl(), topic, policies, KEYS);

    assertMatchesPrediction("consistent hashing (default)", predictor, received);
  }

  @Test
  void brokerReportsThePredictedHashRanges() throws Exception {
    String topic = "persistent://public/default/key-shared-ranges";
    KeySharedPredictor predictor = KeySharedPredictor.consistentHashing(CONSUMERS);
    try (var client = org.apache.pulsar.client.api.PulsarClient.builder()
        .serviceUrl(pulsar.brokerServiceUrl()).build()) {
      List<org.apache.pulsar.client.api.Consumer<byte[]>> consumers = new ArrayList<>();
      for (String name : CONSUMERS) {
        consumers.add(client.newConsumer().topic(topic).subscriptionName("ranges")
            .subscriptionType(org.apache.pulsar.client.api.SubscriptionType.Key_Shared)
            .consumerName(name).subscribe());
      }
      // the stats are read over HTTP: poll (deadline 60 s) until the broker lists all three
      List<? extends ConsumerStats> stats = List.of();
      long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
      while (System.nanoTime() < deadline) {
        stats = pulsar.admin().topics().getStats(topic).getSubscriptions().get("ranges")
            .getConsumers();
        if (stats.size() == 3) {
          break;
        }
        Thread.sleep(50);
      }
      assertThat(stats).hasSize(3);
      for (ConsumerStats s : stats) {
        int index = CONSUMERS.indexOf(s.getConsumerName());
        Set<Range> brokerRanges = new HashSet<>();
        s.getKeyHashRangeArrays().forEach(r -> brokerRanges.add(Range.of(r[0], r[1])));
        assertThat(brokerRanges).as(s.getConsumerName())
            .containsExactlyInAnyOrderElementsOf(predictor.hashRanges(index));
      }
      System.out.printf("broker-reported ranges match: %s has %d ranges%n", CONSUMERS,
          predictor.hashRanges(0).size());
      for (var c : consumers) {
        c.close();
      }
    }
  }

  @Test
  void stickyRangesDeliverEveryKeyToThePredictedConsumer() throws Exception {
    String topic = "persistent://public/default/key-shared-sticky";
    Map<String, List<Range>> ranges = new LinkedHashMap<>();
    ranges.put("consumer-a", List.of(Range.of(0, 9_999)));
    ranges.put("consumer-b", List.of(Range.of(10_000, 29_999), Range.of(60_000, 65_535)));
    ranges.put("consumer-c", List.of(Range.of(30_000, 59_999)));
    Map<String, KeySharedPolicy> policies = new LinkedHashMap<>();
    ranges.forEach((c, r) -> policies.put(c, KeySharedPolicy.stickyHashRange().ranges(r)));
    KeySharedPredictor predictor = KeySharedPredictor.sticky(ranges);
    assertThat(KeySharedPredictor.validateStickyRanges(ranges, KEYS).coversAllSlots()).isTrue();
    Map<String, Set<String>> received = KeySharedRun.deliver(
        pulsar.brokerServiceUrl(), topic, policies, KEYS);

    assertMatchesPrediction("sticky ranges", predictor, received);
  }

  @Test
  void keysInStickyGapsReachNobodyAndTheReportCountsThem() throws Exception {
    String topic = "persistent://public/default/key-shared-sticky-gap";
    Map<String, List<Range>> ranges = new LinkedHashMap<>();
    ranges.put("consumer-a", List.of(Range.of(0, 9_999)));
    ranges.put("consumer-b", List.of(Range.of(10_000, 29_999), Range.of(63_000, 65_535)));
    ranges.put("consumer-c", List.of(Range.of(30_000, 59_999)));
    StickyRangeReport report = KeySharedPredictor.validateStickyRanges(ranges, KEYS);
    System.out.println("== sticky ranges with a gap: validation report");
    System.out.println(report);
    assertThat(report.isValid()).isTrue();
    assertThat(report.gaps()).containsExactly(Range.of(60_000, 62_999));
    Map<String, KeySharedPolicy> policies = new LinkedHashMap<>();
    ranges.forEach((c, r) -> policies.put(c, KeySharedPolicy.stickyHashRange().ranges(r)));
    KeySharedPredictor predictor = KeySharedPredictor.sticky(ranges);
    int deliverable = (int) (KEYS.size() - report.keysInGaps());
    Map<String, Set<String>> received = KeySharedRun.deliver(
        pulsar.brokerServiceUrl(), topic, policies, KEYS, deliverable, 3000);

    Set<String> all = new HashSet<>();
    received.values().forEach(all::addAll);
    assertThat(all).hasSize(deliverable);
    for (String key : KEYS) {
      assertThat(all.contains(key)).as(key).isEqualTo(predictor.consumerOf(key).isPresent());
    }
    for (String c : predictor.consumers()) {
      Set<String> predicted = new HashSet<>();
      KEYS.stream().filter(k -> predictor.consumerOf(k).equals(java.util.Optional.of(c)))
          .forEach(predicted::add);
      assertThat(received.get(c)).as(c).isEqualTo(predicted);
    }
    System.out.printf("broker delivered %d of %d keys; the %d keys in the gap reached nobody%n",
        all.size(), KEYS.size(), report.keysInGaps());
  }

  static void assertMatchesPrediction(
      String what, KeySharedPredictor predictor, Map<String, Set<String>> received) {
    Map<String, Set<String>> predicted = new LinkedHashMap<>();
    predictor.consumers().forEach(c -> predicted.put(c, new HashSet<>()));
    for (String key : KEYS) {
      predicted.get(predictor.consumerOf(key).orElseThrow()).add(key);
    }
    KeyShare share = predictor.shareOf(KEYS);
    System.out.println("== " + what + ": predicted share of " + KEYS.size() + " keys");
    System.out.println(share);
    received.forEach((c, keys) -> System.out.printf(
        "broker delivered %6d keys to %s, predicted %6d, equal: %s%n",
        keys.size(), c, predicted.get(c).size(), keys.equals(predicted.get(c))));
    assertThat(received.values().stream().mapToInt(Set::size).sum()).isEqualTo(KEYS.size());
    for (String c : predictor.consumers()) {
      assertThat(received.get(c)).as("keys received by %s", c)
          .hasSameSizeAs(predicted.get(c))
          .isEqualTo(predicted.get(c));
    }
  }
}
