package io.github.routingkit.pulsar;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.metrics.RouterMetrics;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.data.PointData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.pulsar.client.api.TopicMetadata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A producer's router metrics as an OpenTelemetry SDK (in-memory reader) collects them: exact
 * per-partition counts under Pulsar's attributes, the fingerprint, the verdict, hot keys.
 */
class PulsarMetricsTest {
  private final InMemoryMetricReader reader = InMemoryMetricReader.create();
  private final OpenTelemetrySdk otel = OpenTelemetrySdk.builder()
      .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(reader).build()).build();
  private PulsarMetricsPublisher publisher;

  @AfterEach
  void close() {
    if (publisher != null) {
      publisher.close();
    }
    otel.close();
  }

  private RoutingMessageRouter router(String spec) {
    RoutingSpec s = RoutingSpec.parse(spec);
    RouterMetrics m = RouterMetrics.create("p-1", s, s, System::nanoTime);
    publisher = PulsarMetricsPublisher.publish(otel, m.topic("persistent://t/n/orders", 1));
    return new RoutingMessageRouter(s, m, "persistent://t/n/orders");
  }

  static Optional<MetricData> metric(Collection<MetricData> all, String name) {
    return all.stream().filter(d -> d.getName().equals(name)).findFirst();
  }

  static Map<Long, Double> byPartition(MetricData d) {
    Map<Long, Double> out = new HashMap<>();
    for (PointData p : d.getData().getPoints()) {
      out.put(p.getAttributes().get(PulsarMetricsPublisher.PARTITION),
          ((io.opentelemetry.sdk.metrics.data.DoublePointData) p).getValue());
    }
    return out;
  }

  @Test
  void perPartitionCountsAreExactUnderPulsarsAttributes() {
    RoutingMessageRouter r = router("routing.scheme=pulsar-java-string");
    TopicMetadata six = () -> 6;
    Map<Long, Double> expected = new HashMap<>();
    for (int i = 0; i < 3_000; i++) {
      int p = r.choosePartition(RoutingMessageRouterDifferentialTest.keyed("k" + i), six);
      expected.merge((long) p, 1.0, Double::sum);
    }
    Collection<MetricData> all = reader.collectAllMetrics();
    MetricData keyed = metric(all, "routingkit.records.keyed").orElseThrow();
    assertThat(byPartition(keyed)).isEqualTo(expected);
    PointData any = keyed.getData().getPoints().iterator().next();
    assertThat(any.getAttributes().get(PulsarMetricsPublisher.TOPIC))
        .isEqualTo("persistent://t/n/orders");
    assertThat(any.getAttributes().get(PulsarMetricsPublisher.CLIENT)).isEqualTo("p-1");
    assertThat(metric(all, "routingkit.spec.fingerprint")).isPresent();
    assertThat(metric(all, "routingkit.skew.verdict").orElseThrow().getData().getPoints())
        .hasSize(5);
    assertThat(metric(all, "routingkit.canary.share")).isEmpty(); // no canary, no series
  }

  @Test
  void keylessMessagesAndHotKeysArePublished() {
    RoutingMessageRouter r = router("routing.metrics.hotkey.sample=1");
    TopicMetadata four = () -> 4;
    for (int i = 0; i < 20_000; i++) {
      r.choosePartition(RoutingMessageRouterDifferentialTest.keyed(i % 2 == 0 ? "hot" : "k" + i),
          four);
      r.choosePartition(RoutingMessageRouterDifferentialTest.message(b -> { }), four);
    }
    Collection<MetricData> all = reader.collectAllMetrics();
    double keyless = byPartition(metric(all, "routingkit.records.keyless").orElseThrow()).values()
        .stream().mapToDouble(Double::doubleValue).sum();
    assertThat(keyless).isEqualTo(20_000);
    PointData top = metric(all, "routingkit.hotkey.share").orElseThrow().getData().getPoints()
        .stream().filter(p -> p.getAttributes().get(PulsarMetricsPublisher.RANK) == 1L)
        .findFirst().orElseThrow();
    assertThat(top.getAttributes().get(PulsarMetricsPublisher.KEY)).isEqualTo("hot");
    assertThat(((io.opentelemetry.sdk.metrics.data.DoublePointData) top).getValue())
        .isBetween(0.5, 0.5 + 0.002);
  }

  @Test
  void closingRemovesTheInstruments() {
    RoutingMessageRouter r = router("routing.scheme=pulsar-murmur3");
    r.choosePartition(RoutingMessageRouterDifferentialTest.keyed("a"), () -> 3);
    publisher.close();
    publisher = null;
    assertThat(metric(reader.collectAllMetrics(), "routingkit.records.keyed")).isEmpty();
  }
}
