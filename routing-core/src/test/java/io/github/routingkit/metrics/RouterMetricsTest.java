package io.github.routingkit.metrics;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.router.canary.CanaryRouter;
import io.github.routingkit.router.hotkey.HotKeyEstimate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A router instance's metrics: canary records, fingerprint, hot keys, topics and partitions. */
class RouterMetricsTest {
  private final AtomicLong clock = new AtomicLong();
  private final List<RouterMetrics> created = new ArrayList<>();

  @AfterEach
  void close() {
    created.forEach(RouterMetrics::close);
  }

  private RouterMetrics metrics(String spec) {
    RoutingSpec s = RoutingSpec.parse(spec);
    RouterMetrics m = RouterMetrics.create("test-client", s, s, clock::get);
    if (m != null) {
      created.add(m);
    }
    return m;
  }

  @Test
  void theCanaryCountsExactlyTheKeysItsNewRouterRoutes() {
    RoutingSpec spec = RoutingSpec.parse("routing.canary.share=0.3, routing.canary.next.scheme=xxh3-64");
    RouterMetrics m = metrics(spec.toString());
    KeyRouter plain = spec.keyRouter();
    long inCanary = 0;
    for (int i = 0; i < 20_000; i++) {
      byte[] k = ("order-" + i).getBytes(UTF_8);
      assertThat(m.router().partition(k, 24)).isEqualTo(plain.partition(k, 24));
      if (CanaryRouter.point(k) < 0.3) {
        inCanary++;
      }
    }
    assertThat(m.value(RoutingMetric.CANARY_RECORDS)).isEqualTo(inCanary);
    assertThat(inCanary).isBetween(5_700L, 6_300L);
    assertThat(m.canaryShare()).isEqualTo(0.3);
    assertThat(m.canaryStep()).isEqualTo(-1);
    m.router().partition((byte[]) null, 24); // keyless: the old router's, not counted
    assertThat(m.value(RoutingMetric.CANARY_RECORDS)).isEqualTo(inCanary);
  }

  /** A schedule's step and share are the follower's; its routers count the new router's keys. */
  @Test
  void aCanaryScheduleStepChangesTheShareAndTheStep() {
    String spec = "routing.canary.schedule=10%@2026-12-02T10:00:00Z,50%@2026-12-02T11:00:00Z,"
        + " routing.canary.next.scheme=xxh3-64";
    RouterMetrics m = metrics(spec);
    assertThat(m.canaryShare()).isZero();
    assertThat(m.canaryStep()).isEqualTo(-1);
    long t1 = java.time.Instant.parse("2026-12-02T10:00:00Z").toEpochMilli();
    long counted = 0;
    for (int i = 0; i < 10_000; i++) {
      byte[] k = ("order-" + i).getBytes(UTF_8);
      m.follower().routerAt(t1 + 1).partition(k, 12);
      counted += CanaryRouter.point(k) < 0.1 ? 1 : 0;
    }
    assertThat(m.canaryStep()).isZero();
    assertThat(m.canaryShare()).isEqualTo(0.1);
    assertThat(m.value(RoutingMetric.CANARY_RECORDS)).isEqualTo(counted);
    m.follower().routerAt(t1 + 3_600_000);
    assertThat(m.canaryStep()).isEqualTo(1);
    assertThat(m.canaryShare()).isEqualTo(0.5);
    assertThat(m.generation()).isEqualTo(RoutingSpec.parse(spec).switchPlan(1).generation())
        .isEqualTo(RoutingSpec.parse(spec + ", routing.metrics.window.ms=5000").switchPlan(3)
            .generation());
  }

  @Test
  void theFingerprintIgnoresMetricsPropertiesAndNothingElse() {
    long base = RouterMetrics.fingerprint(RoutingSpec.parse("routing.scheme=xxh3-64"));
    assertThat(RouterMetrics.fingerprint(RoutingSpec.parse(
        "routing.scheme=xxh3-64, routing.metrics.window.ms=5000"))).isEqualTo(base);
    assertThat(RouterMetrics.fingerprint(RoutingSpec.parse("routing.scheme=kafka-murmur2")))
        .isNotEqualTo(base);
    assertThat(RouterMetrics.fingerprint(RoutingSpec.parse(
        "routing.scheme=xxh3-64, routing.placement=jump-back"))).isNotEqualTo(base);
    assertThat(base).isBetween(0L, 0xFFFFFFFFL);
  }

  @Test
  void switchedOffThereIsNothing() {
    assertThat(metrics("routing.metrics.enabled=false")).isNull();
  }

  @Test
  void theHotKeyLayersDetectorNamesAKeyInjectedAtAKnownShare() {
    RouterMetrics m = metrics("routing.hotkey.detect=true, routing.hotkey.threshold=0.05");
    assertThat(m.hasHotKeys()).isTrue();
    byte[] hot = "customer-42".getBytes(UTF_8);
    for (int i = 0; i < 200_000; i++) {
      byte[] k = i % 5 == 0 ? hot : ("c-" + (i % 10_000)).getBytes(UTF_8);
      int p = m.router().partition(k, 12);
      m.keyed("orders", 12, k, p);
    }
    HotKeyEstimate top = m.hotKey(1);
    assertThat(top).isNotNull();
    assertThat(top.keyText()).isEqualTo("customer-42");
    // Space-Saving: the true share (0.2) lies in [share - maxError, share]
    assertThat(top.share()).isGreaterThanOrEqualTo(0.2 - 1e-9);
    assertThat(top.minShare()).isLessThanOrEqualTo(0.2 + 1e-9);
    assertThat(m.value(RoutingMetric.HOTKEYS)).isEqualTo(1);
    assertThat(m.value(RoutingMetric.HOTKEY_SHARE, 1)).isEqualTo(top.share());
    assertThat(m.value(RoutingMetric.HOTKEY_SHARE, 2)).isZero();
  }

  @Test
  void withoutAHotKeyLayerTheSampledTrackerFindsTheKey() {
    RouterMetrics m = metrics("routing.metrics.hotkey.sample=4");
    byte[] hot = "customer-42".getBytes(UTF_8);
    for (int i = 0; i < 400_000; i++) {
      byte[] k = i % 5 == 0 ? hot : ("c-" + (i % 10_000)).getBytes(UTF_8);
      m.keyed("orders", 12, k, m.router().partition(k, 12));
    }
    HotKeyEstimate top = m.hotKey(1);
    assertThat(top).isNotNull();
    assertThat(top.keyText()).isEqualTo("customer-42");
    // counted messages: at least window / (2 * sample) = 12,500; 4 sigma of sampling noise
    double noise = 4 * Math.sqrt(0.2 * 0.8 / 12_500);
    assertThat(top.share()).isCloseTo(0.2, within(top.maxError() + noise));
  }

  @Test
  void withNeitherThereAreNoHotKeys() {
    RouterMetrics m = metrics("routing.scheme=kafka-murmur2");
    assertThat(m.hasHotKeys()).isFalse();
    m.keyed("orders", 3, "a".getBytes(UTF_8), 1);
    assertThat(m.hotKeys()).isEmpty();
  }

  @Test
  void topicsAndPartitionsAreAnnouncedOnceAndOnGrowth() {
    RouterMetrics m = metrics("routing.scheme=kafka-murmur2");
    List<String> topics = new ArrayList<>();
    List<Integer> sizes = new ArrayList<>();
    m.onTopic(t -> {
      topics.add(t.name());
      t.onPartitions(sizes::add);
    });
    m.keyed("a", 4, new byte[] {1}, 3);
    m.keyed("a", 4, new byte[] {1}, 3);
    m.keyless("b", 2, 1);
    m.keyed(new String("a"), 6, new byte[] {1}, 5); // an equal name, another instance; grown
    assertThat(topics).containsExactly("a", "b");
    assertThat(sizes).containsExactly(4, 2, 6);
    TopicMetrics a = m.topic("a", 6);
    assertThat(a.value(RoutingMetric.RECORDS_KEYED, 3)).isEqualTo(2);
    assertThat(a.value(RoutingMetric.RECORDS_KEYED, 5)).isEqualTo(1);
    assertThat(m.topic("b", 2).value(RoutingMetric.RECORDS_KEYLESS, 1)).isEqualTo(1);
    assertThat(a.value(RoutingMetric.SPEC_FINGERPRINT)).isEqualTo(m.fingerprint());
    assertThat(a.value(RoutingMetric.CANARY_SHARE)).isNaN();
    assertThat(a.value(RoutingMetric.GENERATION)).isNaN();
  }

  @Test
  void theGenerationIsTheDefaultVersion() {
    RouterMetrics m = metrics("routing.version.generations=v1:kafka-murmur2:native:12,"
        + "v2:kafka-murmur2:native:*, routing.version.default=v2, routing.scheme=kafka-murmur2");
    assertThat(m.generation()).isEqualTo("v2");
    assertThat(m.topic("t", 3).value(RoutingMetric.GENERATION)).isEqualTo(1);
  }

  @Test
  void theRegistryKnowsLiveInstancesOnly() {
    RouterMetrics m = metrics("routing.scheme=kafka-murmur2");
    assertThat(RoutingMetricsRegistry.routers()).contains(m);
    m.close();
    assertThat(RoutingMetricsRegistry.routers()).doesNotContain(m);
  }
}
