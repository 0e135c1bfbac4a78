package io.github.routingkit.metrics;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.config.MetricsOptions;
import io.github.routingkit.config.RoutingProperty;
import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.router.canary.CanaryRouter;
import io.github.routingkit.router.canary.CanarySchedule;
import io.github.routingkit.router.canary.ScheduleFollower;
import io.github.routingkit.router.hotkey.HotKeyEstimate;
import io.github.routingkit.router.hotkey.HotKeyRouter;
import io.github.routingkit.router.hotkey.HotKeyTracker;
import io.github.routingkit.router.segment.SegmentRouter;
import io.github.routingkit.router.version.VersionedRouter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.DoubleSupplier;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/**
 * The metrics of one router instance (a Kafka producer's partitioner, a Pulsar producer's message
 * router): its router, built from the spec so that the canary's new router is counted, and one
 * {@link TopicMetrics} per topic it routes for. The adapters record every routed record here;
 * ecosystem bridges (JMX, OpenTelemetry, Micrometer) read the values through the
 * {@link RoutingMetric} catalogue.
 *
 * <p><b>Hot keys</b> come from the router's hot-key layers when one detects
 * ({@code routing.hotkey.detect=true}); otherwise, with {@code routing.metrics.hotkey.sample} set,
 * from a {@link HotKeyTracker} of 64 KiB fed with the keyed records (see its error bounds); else
 * there are none.
 *
 * <p><b>Cost.</b> Recording a record is one striped, padded counter increment (see
 * {@code PartitionCounters}) and, with a tracker, its sampling draw; nothing is allocated once a
 * topic is known. Memory: per topic at most 256 KiB of counters (about 16 KiB at 24 partitions)
 * and, with a tracker, its 64 KiB. Thread-safe.
 */
public final class RouterMetrics {
  private final String clientId;
  private final MetricsOptions options;
  private final long fingerprint;
  private final String generation;
  private final LongSupplier nanoClock;
  private final KeyRouter router;
  private final ScheduleFollower follower;
  private final LongAdder canaryRecords = new LongAdder();
  private final List<HotKeyRouter> detectors;
  private final HotKeyTracker tracker;
  private final Map<String, TopicMetrics> topics = new ConcurrentHashMap<>();
  private final List<Consumer<TopicMetrics>> topicListeners = new CopyOnWriteArrayList<>();
  private volatile DoubleSupplier canaryShare;
  private volatile IntSupplier canaryStep = () -> -1;
  /** The topic routed last: most producers write one topic, so most lookups end here. */
  private TopicMetrics last;
  private volatile List<HotKeyEstimate> hotKeys = Collections.emptyList();
  private volatile long hotKeysAt = Long.MIN_VALUE;

  private RouterMetrics(String clientId, RoutingSpec routed, RoutingSpec configured,
      LongSupplier nanoClock) {
    this.clientId = Objects.requireNonNull(clientId, "clientId");
    this.options = routed.metricsOptions();
    this.fingerprint = fingerprint(configured);
    // a scheduled canary's generation is its switch plan's, the one its markers carry
    this.generation = configured.canarySchedule() != null ? configured.switchPlan(1).generation()
        : configured.toMap().get(RoutingSpec.VERSION_DEFAULT);
    this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
    CanarySchedule schedule = routed.canarySchedule();
    if (routed.hasCanary()) {
      KeyRouter oldRouter = routed.withoutCanary().keyRouter();
      KeyRouter newRouter = countingNew(routed.canaryNext().keyRouter());
      this.router = CanaryRouter.of(oldRouter, newRouter, routed.canaryShare());
      // a schedule's steps share these two routers, so the detectors found below are theirs
      this.follower = schedule == null ? null
          : new ScheduleFollower(schedule, oldRouter, newRouter);
    } else {
      this.router = routed.keyRouter();
      this.follower = null;
    }
    double share = routed.canaryShare();
    ScheduleFollower f = follower;
    if (f != null) {
      this.canaryShare = () -> f.step() < 0 ? schedule.startShare() : schedule.share(f.step());
      this.canaryStep = f::step;
    } else {
      this.canaryShare = routed.hasCanary() ? () -> share : null;
    }
    List<HotKeyRouter> found = new ArrayList<>();
    collectDetectors(router, found);
    this.detectors = Collections.unmodifiableList(found);
    this.tracker = found.isEmpty() && options.hotKeySample() > 0
        ? HotKeyTracker.of(options.hotKeyThreshold(), options.hotKeySample()) : null;
  }

  /**
   * Returns the metrics of a router instance, or null when {@code routing.metrics.enabled=false}.
   *
   * @param clientId the client instance's id (Kafka {@code client.id}, a Pulsar producer's name)
   * @param routed the spec the instance routes by (its metrics options are read from it)
   * @param configured the spec as the user configured it, for the fingerprint and generation (the
   *     Kafka adapter routes keyless records by another policy than its spec names)
   * @param nanoClock the clock the skew window runs on, {@code System::nanoTime} in production
   * @throws NullPointerException if an argument is null
   */
  public static RouterMetrics create(String clientId, RoutingSpec routed, RoutingSpec configured,
      LongSupplier nanoClock) {
    if (!routed.metricsOptions().enabled()) {
      return null;
    }
    RouterMetrics m = new RouterMetrics(clientId, routed, Objects.requireNonNull(configured,
        "configured"), nanoClock);
    RoutingMetricsRegistry.add(m);
    return m;
  }

  /**
   * Returns the router to route by: the spec's, except that a canary's new router counts what it
   * routes ({@link RoutingMetric#CANARY_RECORDS}). Routes exactly as {@code spec.keyRouter()}.
   */
  public KeyRouter router() {
    return router;
  }

  /**
   * Returns the canary schedule's follower to route by (its steps count what the new router
   * routes, and its step and share are the published ones), or null without
   * {@code routing.canary.schedule}. The adapters pass it their clock's time.
   */
  public ScheduleFollower follower() {
    return follower;
  }

  /**
   * Returns {@code newRouter} counting the keyed messages it routes, for an adapter that builds a
   * canary's routers itself (a canary schedule's steps).
   */
  public KeyRouter countingNew(KeyRouter newRouter) {
    return new CountingRouter(Objects.requireNonNull(newRouter, "newRouter"), canaryRecords);
  }

  /**
   * Sets where the canary's share and step come from (a schedule follower); by default the
   * spec's fixed share and step -1.
   */
  public void canary(DoubleSupplier share, IntSupplier step) {
    this.canaryShare = Objects.requireNonNull(share, "share");
    this.canaryStep = Objects.requireNonNull(step, "step");
  }

  /**
   * Returns the metrics of {@code topic} with {@code numPartitions} partitions, created on first
   * use (then the topic listeners are told, on this thread). Allocation-free for a known topic.
   */
  public TopicMetrics topic(String topic, int numPartitions) {
    TopicMetrics t = last;
    if (t == null || !(t.name() == topic || t.name().equals(topic))) {
      t = topics.get(topic);
      if (t == null) {
        t = newTopic(topic, numPartitions);
      }
      last = t;
    }
    if (t.partitions() != numPartitions) {
      t.partitions(numPartitions);
    }
    return t;
  }

  private TopicMetrics newTopic(String topic, int numPartitions) {
    TopicMetrics created = new TopicMetrics(this, Objects.requireNonNull(topic, "topic"),
        numPartitions);
    TopicMetrics raced = topics.putIfAbsent(topic, created);
    if (raced != null) {
      return raced;
    }
    for (Consumer<TopicMetrics> l : topicListeners) {
      l.accept(created);
    }
    return created;
  }

  /** Counts a keyed record of {@code topic} routed to {@code partition}; samples its key for the tracker. */
  public void keyed(String topic, int numPartitions, byte[] key, int partition) {
    topic(topic, numPartitions).keyed(partition);
    HotKeyTracker t = tracker;
    if (t != null) {
      t.offer(key);
    }
  }

  /** Counts a keyed record of {@code topic} with a text key routed to {@code partition}. */
  public void keyed(String topic, int numPartitions, CharSequence key, int partition) {
    topic(topic, numPartitions).keyed(partition);
    HotKeyTracker t = tracker;
    if (t != null) {
      t.offer(key);
    }
  }

  /** Counts a keyed record of a known topic with key bytes. */
  public void keyed(TopicMetrics topic, byte[] key, int partition) {
    topic.keyed(partition);
    HotKeyTracker t = tracker;
    if (t != null) {
      t.offer(key);
    }
  }

  /** Counts a keyed record of a known topic with a text key. */
  public void keyed(TopicMetrics topic, CharSequence key, int partition) {
    topic.keyed(partition);
    HotKeyTracker t = tracker;
    if (t != null) {
      t.offer(key);
    }
  }

  /** Counts a keyless record of {@code topic} placed on {@code partition}. */
  public void keyless(String topic, int numPartitions, int partition) {
    topic(topic, numPartitions).keyless(partition);
  }

  /**
   * Calls {@code listener} for every topic known now and every topic seen later, so a bridge
   * publishes each topic's metrics.
   */
  public synchronized void onTopic(Consumer<TopicMetrics> listener) {
    topicListeners.add(Objects.requireNonNull(listener, "listener"));
    for (TopicMetrics t : new ArrayList<>(topics.values())) {
      listener.accept(t);
    }
  }

  /** Returns the topics known now. */
  public List<TopicMetrics> topics() {
    return Collections.unmodifiableList(new ArrayList<>(topics.values()));
  }

  /** Returns the client instance's id. */
  public String clientId() {
    return clientId;
  }

  /** Returns the metrics options. */
  public MetricsOptions options() {
    return options;
  }

  /** Returns the spec's fingerprint, in [0, 2^32). */
  public long fingerprint() {
    return fingerprint;
  }

  /**
   * Returns the routing generation in effect: a canary schedule's switch-plan generation (what its
   * switch markers carry), else the one untagged records take ({@code routing.version.default}),
   * else null.
   */
  public String generation() {
    return generation;
  }

  /** Returns the canary share in force, NaN without a canary. */
  public double canaryShare() {
    DoubleSupplier s = canaryShare;
    return s == null ? Double.NaN : s.getAsDouble();
  }

  /** Returns the canary schedule's step in force, -1 before its first step or without one. */
  public int canaryStep() {
    return canaryStep.getAsInt();
  }

  /** Returns whether the router has a canary. */
  public boolean hasCanary() {
    return canaryShare != null;
  }

  /**
   * Returns whether this instance has {@code metric} at all, so a bridge publishes no series that
   * could only ever be empty: the canary's metrics only with a canary, the generation only with
   * versions, the hot-key metrics only with a detecting hot-key layer or a tracker, keyless batch
   * switches only where a topic counts them ({@link TopicMetrics#publishes}); every other metric
   * always. Assignor metrics are an {@link AssignorMetrics}'s, never a router's.
   */
  public boolean publishes(RoutingMetric metric) {
    switch (metric) {
      case CANARY_SHARE:
      case CANARY_STEP:
      case CANARY_RECORDS:
        return hasCanary();
      case GENERATION:
        return generation != null;
      case HOTKEYS:
      case HOTKEY_SHARE:
      case HOTKEY_SHARE_ERROR:
        return hasHotKeys();
      default:
        return metric.scope() != RoutingMetric.Scope.ASSIGNOR;
    }
  }

  /** Returns whether hot keys can be reported (a detecting hot-key layer or a tracker). */
  public boolean hasHotKeys() {
    return !detectors.isEmpty() || tracker != null;
  }

  /**
   * Returns a router-scoped metric's value ({@link RoutingMetric.Scope#ROUTER}).
   *
   * @throws IllegalArgumentException for a metric of another scope
   */
  public double value(RoutingMetric metric) {
    switch (metric) {
      case CANARY_RECORDS:
        return canaryRecords.sum();
      case HOTKEYS:
        return hotKeys().size();
      default:
        throw new IllegalArgumentException(metric + " is not a router metric");
    }
  }

  /**
   * Returns a hot-key metric of rank {@code rank} (1 = hottest), 0 when fewer keys are hot.
   *
   * @throws IllegalArgumentException for a metric of another scope
   */
  public double value(RoutingMetric metric, int rank) {
    HotKeyEstimate e = hotKey(rank);
    switch (metric) {
      case HOTKEY_SHARE:
        return e == null ? 0 : e.share();
      case HOTKEY_SHARE_ERROR:
        return e == null ? 0 : e.maxError();
      default:
        throw new IllegalArgumentException(metric + " is not a hot-key metric");
    }
  }

  /** Returns the hot key of rank {@code rank} (1 = hottest), or null. */
  public HotKeyEstimate hotKey(int rank) {
    List<HotKeyEstimate> hot = hotKeys();
    return rank >= 1 && rank <= hot.size() ? hot.get(rank - 1) : null;
  }

  /**
   * Returns the keys hot right now, hottest first (at most {@value RoutingMetric#HOT_KEY_RANKS}),
   * read from the detectors at most once a second.
   */
  public List<HotKeyEstimate> hotKeys() {
    if (detectors.isEmpty() && tracker == null) {
      return Collections.emptyList();
    }
    long now = nanoTime();
    long at = hotKeysAt;
    if (at != Long.MIN_VALUE && now >= at && now - at < SkewWindow.REFRESH_NANOS) {
      return hotKeys;
    }
    List<HotKeyEstimate> all = new ArrayList<>(tracker == null ? List.of() : tracker.hotKeys());
    for (HotKeyRouter d : detectors) {
      all.addAll(d.hotKeyEstimates());
    }
    all.sort((a, b) -> Double.compare(b.share(), a.share()));
    List<HotKeyEstimate> top = Collections.unmodifiableList(
        new ArrayList<>(all.subList(0, Math.min(all.size(), RoutingMetric.HOT_KEY_RANKS))));
    hotKeys = top;
    hotKeysAt = now;
    return top;
  }

  /** Reads the metrics' clock. */
  long nanoTime() {
    return nanoClock.getAsLong();
  }

  /** Stops publishing: the registry and its listeners forget this instance. */
  public void close() {
    RoutingMetricsRegistry.remove(this);
  }

  /**
   * Returns a spec's fingerprint: the low 32 bits of XXH3-64 of its string form without the
   * {@code routing.metrics.*} properties (which change no routing decision), so two producers
   * whose specs route alike have the same one and two that differ almost surely not
   * (probability 2^-32 per pair).
   */
  public static long fingerprint(RoutingSpec spec) {
    Map<String, String> map = new TreeMap<>(spec.toMap());
    map.keySet().removeAll(RoutingProperty.keys(RoutingProperty.Layer.METRICS));
    byte[] text = map.toString().getBytes(StandardCharsets.UTF_8);
    return HashScheme.XXH3_64.hash64(text, 0, text.length) & 0xFFFFFFFFL;
  }

  /** Finds the hot-key layers that detect, anywhere in the router's composition. */
  private static void collectDetectors(KeyRouter r, List<HotKeyRouter> out) {
    if (r instanceof CountingRouter) {
      collectDetectors(((CountingRouter) r).delegate(), out);
    } else if (r instanceof CanaryRouter) {
      collectDetectors(((CanaryRouter) r).oldRouter(), out);
      collectDetectors(((CanaryRouter) r).newRouter(), out);
    } else if (r instanceof VersionedRouter) {
      for (VersionedRouter.Generation g : ((VersionedRouter) r).generations()) {
        collectDetectors(g.router(), out);
      }
    } else if (r instanceof SegmentRouter) {
      collectDetectors(((SegmentRouter) r).inner(), out);
    } else if (r instanceof HotKeyRouter) {
      HotKeyRouter h = (HotKeyRouter) r;
      if (h.options().detect()) {
        out.add(h);
      }
      collectDetectors(h.inner(), out);
    }
  }

  @Override
  public String toString() {
    return "RouterMetrics{" + clientId + ", topics=" + topics.keySet() + '}';
  }
}
