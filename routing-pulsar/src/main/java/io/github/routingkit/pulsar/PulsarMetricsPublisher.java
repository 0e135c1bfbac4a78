package io.github.routingkit.pulsar;

import io.github.routingkit.metrics.RouterMetrics;
import io.github.routingkit.metrics.RoutingMetric;
import io.github.routingkit.metrics.RoutingMetric.Kind;
import io.github.routingkit.metrics.TopicMetrics;
import io.github.routingkit.router.hotkey.HotKeyEstimate;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.api.metrics.ObservableDoubleMeasurement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Publishes a Pulsar producer's {@link RouterMetrics} through OpenTelemetry, as pulsar-client 4.x
 * publishes its own client metrics: asynchronous instruments of the meter
 * {@value #INSTRUMENTATION_SCOPE}, one per {@link RoutingMetric} ({@link RoutingMetric#otelName()}),
 * read when the SDK collects, with Pulsar's attributes {@code pulsar.topic} and
 * {@code pulsar.partition} and ours ({@code routingkit.client.id}, {@code routingkit.rank},
 * {@code routingkit.key}, {@code routingkit.verdict}, {@code routingkit.generation}). Loaded only
 * when metrics are on and {@code opentelemetry-api} is present. {@link #close()} removes every
 * instrument's callback.
 */
final class PulsarMetricsPublisher implements AutoCloseable {
  /** The instrumentation scope (meter name). */
  static final String INSTRUMENTATION_SCOPE = "io.github.routingkit";

  static final AttributeKey<String> CLIENT = AttributeKey.stringKey("routingkit.client.id");
  static final AttributeKey<String> TOPIC = AttributeKey.stringKey("pulsar.topic");
  static final AttributeKey<Long> PARTITION = AttributeKey.longKey("pulsar.partition");
  static final AttributeKey<Long> RANK = AttributeKey.longKey("routingkit.rank");
  static final AttributeKey<String> KEY = AttributeKey.stringKey("routingkit.key");

  private final List<AutoCloseable> instruments = new ArrayList<>();
  private final RouterMetrics router;

  private PulsarMetricsPublisher(Meter meter, RouterMetrics router, TopicMetrics topic) {
    this.router = router;
    Attributes base = Attributes.of(CLIENT, router.clientId(), TOPIC, topic.name());
    for (RoutingMetric m : RoutingMetric.values()) {
      if (!topic.publishes(m)) {
        continue;
      }
      instrument(meter, m, out -> observe(m, topic, base, out));
    }
  }

  /**
   * Publishes {@code topic}'s metrics (and its router's) through {@code openTelemetry}'s meter
   * provider.
   */
  static PulsarMetricsPublisher publish(Object openTelemetry, TopicMetrics topic) {
    Meter meter = ((OpenTelemetry) openTelemetry).getMeterProvider()
        .meterBuilder(INSTRUMENTATION_SCOPE).build();
    return new PulsarMetricsPublisher(meter, topic.router(), topic);
  }

  private void instrument(Meter meter, RoutingMetric m, Consumer<ObservableDoubleMeasurement> cb) {
    // unit 1 is left out: a Prometheus exporter would append _ratio to the name
    String unit = m.unit().equals("1") ? "" : m.unit();
    if (m.kind() == Kind.COUNTER) {
      instruments.add(meter.counterBuilder(m.otelName()).ofDoubles().setUnit(unit)
          .setDescription(m.question()).buildWithCallback(cb));
    } else {
      instruments.add(meter.gaugeBuilder(m.otelName()).setUnit(unit)
          .setDescription(m.question()).buildWithCallback(cb));
    }
  }

  private void observe(RoutingMetric m, TopicMetrics topic, Attributes base,
      ObservableDoubleMeasurement out) {
    switch (m.scope()) {
      case PARTITION:
        for (int p = 0; p < topic.partitions(); p++) {
          out.record(topic.value(m, p), base.toBuilder().put(PARTITION, (long) p).build());
        }
        return;
      case HOT_KEY:
        for (int rank = 1; rank <= RoutingMetric.HOT_KEY_RANKS; rank++) {
          HotKeyEstimate e = router.hotKey(rank);
          if (e != null) {
            out.record(router.value(m, rank), base.toBuilder().put(RANK, (long) rank)
                .put(KEY, e.keyText() == null ? "" : e.keyText()).build());
          }
        }
        return;
      case ROUTER:
        out.record(router.value(m), base);
        return;
      default:
        if (m.kind() == Kind.STATE_SET) {
          AttributeKey<String> label = AttributeKey.stringKey("routingkit." + m.stateLabel());
          for (String state : m.states()) {
            out.record(topic.state(m, state), base.toBuilder().put(label, state).build());
          }
        } else if (m.kind() == Kind.INFO) {
          out.record(1, base.toBuilder().put(AttributeKey.stringKey("routingkit." + m.stateLabel()),
              router.generation()).build());
        } else {
          out.record(topic.value(m), base);
        }
    }
  }

  /** Removes every instrument's callback and stops the producer's bookkeeping. */
  @Override
  public void close() {
    for (AutoCloseable i : instruments) {
      try {
        i.close();
      } catch (Exception e) {
        // an SDK's close of a callback does not fail; nothing else to release
      }
    }
    router.close();
  }
}
