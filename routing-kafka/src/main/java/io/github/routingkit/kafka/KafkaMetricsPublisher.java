package io.github.routingkit.kafka;

import io.github.routingkit.RoutingConfigException;
import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.metrics.AssignorMetrics;
import io.github.routingkit.metrics.RouterMetrics;
import io.github.routingkit.metrics.RoutingMetric;
import io.github.routingkit.metrics.RoutingMetric.Kind;
import io.github.routingkit.metrics.RoutingMetric.Scope;
import io.github.routingkit.metrics.TopicMetrics;
import io.github.routingkit.router.hotkey.HotKeyEstimate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.metrics.Gauge;
import org.apache.kafka.common.metrics.JmxReporter;
import org.apache.kafka.common.metrics.KafkaMetricsContext;
import org.apache.kafka.common.metrics.Measurable;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.MetricsReporter;
import org.apache.kafka.common.utils.Time;

/**
 * Publishes a {@link RouterMetrics} or {@link AssignorMetrics} through kafka-clients'
 * {@link Metrics}, with the reporters the client's own {@code metric.reporters} names (by
 * default {@link JmxReporter}), in the client's JMX domain ({@code kafka.producer},
 * {@code kafka.consumer}): beans such as
 * {@code kafka.producer:type=routing-partitioner-partition-metrics,client-id=C,topic=T,partition=P}
 * with the attributes of the {@link RoutingMetric} catalogue. Topics and partitions are published
 * when first routed to. Thread-safe; {@link #close()} unregisters everything.
 */
final class KafkaMetricsPublisher implements AutoCloseable {
  private static final String METRICS_PREFIX = "routing.metrics.";
  /**
   * The most partitions one client publishes per-partition beans for (over all its topics): a
   * producer that writes thousands of partitions would otherwise register thousands of beans; the
   * topic metrics (skew over every partition) still cover the rest.
   */
  static final int MAX_PARTITIONS = 4096;
  private static final AtomicInteger UNNAMED = new AtomicInteger();
  private static final ConfigDef REPORTERS = new ConfigDef()
      .define(CommonClientConfigs.METRIC_REPORTER_CLASSES_CONFIG, ConfigDef.Type.LIST,
          JmxReporter.class.getName(), ConfigDef.Importance.LOW, "metric reporters")
      .define("auto.include.jmx.reporter", ConfigDef.Type.BOOLEAN, true, ConfigDef.Importance.LOW,
          "kafka-clients 3.x: add a JmxReporter");

  private final Metrics metrics;
  private final String clientId;
  private final Runnable onClose;
  private final AtomicInteger partitionSeries = new AtomicInteger();
  private RouterMetrics router;
  private AssignorMetrics assignor;

  private KafkaMetricsPublisher(Map<String, ?> configs, String namespace, String clientId,
      Runnable onClose) {
    this.clientId = clientId;
    AbstractConfig config = new AbstractConfig(REPORTERS, configs, false);
    List<MetricsReporter> reporters = CommonClientConfigs.metricsReporters(clientId, config);
    this.metrics = new Metrics(new MetricConfig(), reporters, Time.SYSTEM,
        new KafkaMetricsContext(namespace,
            config.originalsWithPrefix(CommonClientConfigs.METRICS_CONTEXT_PREFIX)));
    // Metrics registers its own metric count (type=kafka-metrics-count, no client-id here, so it
    // never replaces the client's own bean); it would only collide between instances
    metrics.removeMetric(metrics.metricName("count", "kafka-metrics-count"));
    this.onClose = onClose;
  }

  /**
   * Creates and publishes a partitioner's metrics in {@code kafka.producer}, or returns null when
   * {@code routing.metrics.enabled=false}.
   *
   * @param routed the spec the partitioner routes keyed records by
   * @param configured the spec as configured (fingerprint, generation)
   * @param sticky the default keyless policy, whose switches are published, or null
   */
  static KafkaMetricsPublisher partitioner(Map<String, ?> configs, RoutingSpec routed,
      RoutingSpec configured, BatchStickyKeyless sticky) {
    RouterMetrics router = RouterMetrics.create(clientId(configs, "routing-producer-"), routed,
        configured, System::nanoTime);
    if (router == null) {
      return null;
    }
    if (sticky != null) {
      router.onTopic(t -> t.keylessSwitches(() -> sticky.switches(t.name())));
    }
    KafkaMetricsPublisher p = new KafkaMetricsPublisher(configs, "kafka.producer",
        router.clientId(), router::close);
    p.router = router;
    p.publish(router);
    return p;
  }

  /**
   * Creates and publishes an assignor's metrics in {@code kafka.consumer}, or returns null when
   * the consumer configs say {@code routing.metrics.enabled=false}.
   *
   * @throws ConfigException naming the property, the value and the rule for a bad
   *     {@code routing.metrics.*} value
   */
  static KafkaMetricsPublisher assignor(Map<String, ?> configs) {
    Map<String, Object> own = new TreeMap<>();
    configs.forEach((k, v) -> {
      if (k != null && k.startsWith(METRICS_PREFIX)) {
        own.put(k, v);
      }
    });
    try {
      if (!RoutingSpec.parse(own).metricsOptions().enabled()) {
        return null;
      }
    } catch (RoutingConfigException e) {
      throw e.value() == null ? new ConfigException(e.getMessage())
          : new ConfigException(e.property(), e.value(), e.rule());
    }
    AssignorMetrics assignor = AssignorMetrics.create(clientId(configs, "routing-consumer-"));
    KafkaMetricsPublisher p = new KafkaMetricsPublisher(configs, "kafka.consumer",
        assignor.clientId(), assignor::close);
    p.assignor = assignor;
    for (RoutingMetric m : RoutingMetric.of(Scope.ASSIGNOR)) {
      if (m.kind() == Kind.STATE_SET) {
        for (String state : m.states()) {
          p.add(m, p.tags(m.stateLabel(), state), (c, now) -> assignor.state(m, state));
        }
      } else {
        p.add(m, p.tags(), (c, now) -> assignor.value(m));
      }
    }
    return p;
  }

  /** The router instance's metrics (null for an assignor's publisher). */
  RouterMetrics router() {
    return router;
  }

  /** The assignor instance's metrics (null for a partitioner's publisher). */
  AssignorMetrics assignor() {
    return assignor;
  }

  /** The client's {@code client.id}, or a generated one when the configs have none. */
  private static String clientId(Map<String, ?> configs, String prefix) {
    Object id = configs.get(CommonClientConfigs.CLIENT_ID_CONFIG);
    return id == null || id.toString().isEmpty() ? prefix + UNNAMED.incrementAndGet()
        : id.toString();
  }

  private void publish(RouterMetrics router) {
    for (RoutingMetric m : RoutingMetric.of(Scope.ROUTER)) {
      if (router.publishes(m)) {
        add(m, tags(), (c, now) -> router.value(m));
      }
    }
    if (router.publishes(RoutingMetric.HOTKEY_SHARE)) {
      for (int rank = 1; rank <= RoutingMetric.HOT_KEY_RANKS; rank++) {
        int r = rank;
        Map<String, String> tags = tags("rank", String.valueOf(rank));
        for (RoutingMetric m : RoutingMetric.of(Scope.HOT_KEY)) {
          add(m, tags, (c, now) -> router.value(m, r));
        }
        metrics.addMetric(metrics.metricName("hot-key", RoutingMetric.HOTKEY_SHARE.kafkaGroup(),
            "the rank-th hottest key, as text (empty when fewer keys are hot)", tags),
            (Gauge<String>) (c, now) -> text(router.hotKey(r)));
      }
    }
    router.onTopic(this::publish);
  }

  private void publish(TopicMetrics topic) {
    RouterMetrics router = topic.router();
    for (RoutingMetric m : RoutingMetric.of(Scope.TOPIC)) {
      if (!topic.publishes(m)) {
        continue;
      }
      if (m.kind() == Kind.STATE_SET) {
        for (String state : m.states()) {
          add(m, tags("topic", topic.name(), m.stateLabel(), state), (c, now) -> topic.state(m, state));
        }
      } else if (m.kind() == Kind.INFO) {
        add(m, tags("topic", topic.name(), m.stateLabel(), router.generation()), (c, now) -> 1);
      } else {
        add(m, tags("topic", topic.name()), (c, now) -> topic.value(m));
      }
    }
    AtomicInteger published = new AtomicInteger();
    topic.onPartitions(n -> {
      for (int p = published.get(); p < n && partitionSeries.getAndIncrement() < MAX_PARTITIONS;
          p++) {
        int partition = p;
        Map<String, String> tags = tags("topic", topic.name(), "partition", String.valueOf(p));
        for (RoutingMetric m : RoutingMetric.of(Scope.PARTITION)) {
          add(m, tags, (c, now) -> topic.value(m, partition));
        }
      }
      published.accumulateAndGet(n, Math::max);
    });
  }

  private void add(RoutingMetric m, Map<String, String> tags, Measurable value) {
    metrics.addMetricIfAbsent(metrics.metricName(m.kafkaName(), m.kafkaGroup(), m.question(), tags),
        null, value);
  }

  private Map<String, String> tags(String... pairs) {
    Map<String, String> tags = new LinkedHashMap<>();
    tags.put("client-id", clientId);
    for (int i = 0; i < pairs.length; i += 2) {
      tags.put(pairs[i], pairs[i + 1]);
    }
    return tags;
  }

  private static String text(HotKeyEstimate e) {
    return e == null || e.keyText() == null ? "" : e.keyText();
  }

  /** Unregisters every metric (the reporters close) and stops the instance's bookkeeping. */
  @Override
  public void close() {
    onClose.run();
    metrics.close();
  }
}
