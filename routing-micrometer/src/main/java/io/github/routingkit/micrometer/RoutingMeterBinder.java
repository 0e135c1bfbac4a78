package io.github.routingkit.micrometer;

import io.github.routingkit.metrics.AssignorMetrics;
import io.github.routingkit.metrics.RouterMetrics;
import io.github.routingkit.metrics.RoutingMetric;
import io.github.routingkit.metrics.RoutingMetric.Kind;
import io.github.routingkit.metrics.RoutingMetric.Scope;
import io.github.routingkit.metrics.RoutingMetricsRegistry;
import io.github.routingkit.metrics.TopicMetrics;
import io.github.routingkit.router.hotkey.HotKeyEstimate;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * Binds every RoutingKit routing metric of this JVM to a Micrometer {@link MeterRegistry}: each
 * {@code RoutingPartitioner}, {@code RoutingMessageRouter} producer and {@code RoutingAssignor}
 * that publishes ({@link RoutingMetricsRegistry}), now and later, with the names of the
 * {@link RoutingMetric} catalogue ({@code routingkit.records.keyed}, ...) and the tags
 * {@code client.id}, {@code topic}, {@code partition}, {@code rank}, {@code key}, {@code verdict},
 * {@code shape}, {@code generation}, and no base unit (a Prometheus registry would append it to
 * the name; the names stay those of docs/metrics.md). Counters are {@link FunctionCounter}s, the rest
 * {@link Gauge}s reading the live values; the hot keys, whose set changes, are a
 * {@link MultiGauge} refreshed every {@code refresh} (10 s by default) on a daemon thread, as
 * Micrometer's own Kafka binder refreshes its meters. A Spring Boot application declares it as a
 * bean and Boot binds it to its registry.
 *
 * <p>Thread-safe. {@link #close()} stops the refresh and removes every meter it registered.
 */
public final class RoutingMeterBinder implements MeterBinder, AutoCloseable {
  private final Tags extraTags;
  private final Duration refresh;
  private final Map<Object, List<Meter>> meters = new ConcurrentHashMap<>();
  private final Map<RouterMetrics, MultiGauge[]> hotKeys = new ConcurrentHashMap<>();
  private volatile MeterRegistry registry;
  private volatile boolean closed;
  private ScheduledExecutorService scheduler;
  private RoutingMetricsRegistry.Listener listener;

  /** A binder of every instance, no extra tags, hot keys refreshed every 10 seconds. */
  public RoutingMeterBinder() {
    this(Tags.empty(), Duration.ofSeconds(10));
  }

  /**
   * A binder of every instance.
   *
   * @param extraTags tags added to every meter
   * @param refresh how often the hot-key meters are refreshed, positive
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if {@code refresh} is not positive
   */
  public RoutingMeterBinder(Iterable<Tag> extraTags, Duration refresh) {
    this.extraTags = Tags.of(Objects.requireNonNull(extraTags, "extraTags"));
    if (refresh.isNegative() || refresh.isZero()) {
      throw new IllegalArgumentException("refresh was " + refresh + ", must be positive");
    }
    this.refresh = refresh;
  }

  /**
   * Registers the meters of every instance publishing now, and of every later one.
   *
   * @throws IllegalStateException if the binder is already bound or closed
   */
  @Override
  public synchronized void bindTo(MeterRegistry registry) {
    if (this.registry != null || closed) {
      throw new IllegalStateException("a RoutingMeterBinder binds to one registry, once");
    }
    this.registry = Objects.requireNonNull(registry, "registry");
    scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "routingkit-meter-binder");
      t.setDaemon(true);
      return t;
    });
    listener = new RoutingMetricsRegistry.Listener() {
      @Override
      public void added(RouterMetrics metrics) {
        bind(metrics);
      }

      @Override
      public void added(AssignorMetrics metrics) {
        bind(metrics);
      }

      @Override
      public void removed(Object metrics) {
        unbind(metrics);
      }
    };
    RoutingMetricsRegistry.addListener(listener);
    scheduler.scheduleAtFixedRate(this::refreshHotKeys, 0, refresh.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Registers the hot-key rows now, as the next refresh would (for tests and on demand). */
  public void refreshHotKeys() {
    hotKeys.forEach((router, gauges) -> {
      List<MultiGauge.Row<?>> shares = new ArrayList<>();
      List<MultiGauge.Row<?>> errors = new ArrayList<>();
      for (int rank = 1; rank <= RoutingMetric.HOT_KEY_RANKS; rank++) {
        HotKeyEstimate e = router.hotKey(rank);
        if (e != null) {
          Tags tags = Tags.of("rank", String.valueOf(rank), "key",
              e.keyText() == null ? "" : e.keyText());
          int r = rank;
          shares.add(MultiGauge.Row.of(tags, router,
              m -> m.value(RoutingMetric.HOTKEY_SHARE, r)));
          errors.add(MultiGauge.Row.of(tags, router,
              m -> m.value(RoutingMetric.HOTKEY_SHARE_ERROR, r)));
        }
      }
      gauges[0].register(shares, true);
      gauges[1].register(errors, true);
    });
  }

  private void bind(RouterMetrics router) {
    Tags tags = extraTags.and("client.id", router.clientId());
    for (RoutingMetric m : RoutingMetric.of(Scope.ROUTER)) {
      if (router.publishes(m)) {
        add(router, m, tags, router, r -> r.value(m));
      }
    }
    if (router.publishes(RoutingMetric.HOTKEY_SHARE) && !closed) {
      hotKeys.put(router, new MultiGauge[] {multiGauge(RoutingMetric.HOTKEY_SHARE, tags),
          multiGauge(RoutingMetric.HOTKEY_SHARE_ERROR, tags)});
    }
    router.onTopic(topic -> bind(router, topic, tags.and("topic", topic.name())));
  }

  private void bind(RouterMetrics router, TopicMetrics topic, Tags tags) {
    for (RoutingMetric m : RoutingMetric.of(Scope.TOPIC)) {
      if (!topic.publishes(m)) {
        continue;
      }
      if (m.kind() == Kind.STATE_SET) {
        for (String state : m.states()) {
          add(router, m, tags.and(m.stateLabel(), state), topic, t -> t.state(m, state));
        }
      } else if (m.kind() == Kind.INFO) {
        add(router, m, tags.and(m.stateLabel(), router.generation()), topic, t -> 1);
      } else {
        add(router, m, tags, topic, t -> t.value(m));
      }
    }
    int[] published = {0};
    topic.onPartitions(n -> {
      for (int p = published[0]; p < n; p++) {
        int partition = p;
        for (RoutingMetric m : RoutingMetric.of(Scope.PARTITION)) {
          add(router, m, tags.and("partition", String.valueOf(p)), topic,
              t -> t.value(m, partition));
        }
      }
      published[0] = Math.max(published[0], n);
    });
  }

  private void bind(AssignorMetrics assignor) {
    Tags tags = extraTags.and("client.id", assignor.clientId());
    for (RoutingMetric m : RoutingMetric.of(Scope.ASSIGNOR)) {
      if (m.kind() == Kind.STATE_SET) {
        for (String state : m.states()) {
          add(assignor, m, tags.and(m.stateLabel(), state), assignor, a -> a.state(m, state));
        }
      } else {
        add(assignor, m, tags, assignor, a -> a.value(m));
      }
    }
  }

  private <T> void add(Object owner, RoutingMetric m, Tags tags, T source, ToDoubleFunction<T> f) {
    MeterRegistry r = registry;
    if (closed || r == null) {
      return;
    }
    Meter meter = m.kind() == Kind.COUNTER
        ? FunctionCounter.builder(m.otelName(), source, f).tags(tags)
            .description(m.question()).register(r)
        : Gauge.builder(m.otelName(), source, f).tags(tags)
            .description(m.question()).register(r);
    meters.computeIfAbsent(owner, o -> new java.util.concurrent.CopyOnWriteArrayList<>()).add(meter);
  }

  private MultiGauge multiGauge(RoutingMetric m, Tags tags) {
    return MultiGauge.builder(m.otelName()).tags(tags).description(m.question())
        .register(registry);
  }


  private void unbind(Object owner) {
    MultiGauge[] gauges = hotKeys.remove(owner);
    if (gauges != null) {
      gauges[0].register(List.of(), true);
      gauges[1].register(List.of(), true);
    }
    List<Meter> list = meters.remove(owner);
    MeterRegistry r = registry;
    if (list != null && r != null) {
      list.forEach(r::remove);
    }
  }

  /** Stops refreshing and removes every meter this binder registered. */
  @Override
  public synchronized void close() {
    closed = true;
    if (listener != null) {
      RoutingMetricsRegistry.removeListener(listener);
    }
    if (scheduler != null) {
      scheduler.shutdownNow();
    }
    for (Object owner : new ArrayList<>(meters.keySet())) {
      unbind(owner);
    }
    for (Object owner : new ArrayList<>(hotKeys.keySet())) {
      unbind(owner);
    }
  }
}
