package io.github.routingkit.metrics;

import io.github.routingkit.stats.SkewVerdict;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.IntConsumer;
import java.util.function.LongSupplier;

/**
 * The metrics of one topic of a {@link RouterMetrics}: records per partition, the skew of the
 * recent ones and what the router's settings are for the topic. Recording is thread-safe and
 * allocation-free; reading computes the skew at most once a second.
 */
public final class TopicMetrics {
  private final RouterMetrics router;
  private final String name;
  private final PartitionCounters counters;
  private final SkewWindow window;
  private final List<IntConsumer> partitionListeners = new CopyOnWriteArrayList<>();
  private volatile int partitions;
  private volatile LongSupplier keylessSwitches;

  TopicMetrics(RouterMetrics router, String name, int partitions) {
    this.router = router;
    this.name = name;
    this.partitions = Math.max(1, partitions);
    this.counters = new PartitionCounters(this.partitions);
    this.window = new SkewWindow(counters, router.options().windowMillis() * 1_000_000L);
  }

  /** Returns the topic's name. */
  public String name() {
    return name;
  }

  /** Returns the router instance the topic belongs to. */
  public RouterMetrics router() {
    return router;
  }

  /** Returns the topic's partition count as last seen when a record was routed. */
  public int partitions() {
    return partitions;
  }

  /**
   * Counts a keyed record routed to {@code partition} (a partition outside {@code [0, 2^20)} is
   * not counted per partition). Allocation-free.
   */
  public void keyed(int partition) {
    counters.keyed(partition);
  }

  /** Counts a keyless record placed on {@code partition}. Allocation-free. */
  public void keyless(int partition) {
    counters.keyless(partition);
  }

  /** Notes the topic's partition count; tells the listeners when it grew. */
  void partitions(int n) {
    int before = partitions;
    if (n > before) {
      synchronized (this) {
        if (n > partitions) {
          partitions = n;
          for (IntConsumer l : partitionListeners) {
            l.accept(n);
          }
        }
      }
    } else if (n < before && n >= 1) {
      partitions = n;
    }
  }

  /**
   * Calls {@code listener} with the partition count now and whenever it grows (on the thread that
   * routed the record that showed it), so an ecosystem bridge can publish every partition.
   */
  public void onPartitions(IntConsumer listener) {
    synchronized (this) {
      partitionListeners.add(Objects.requireNonNull(listener, "listener"));
      listener.accept(partitions);
    }
  }

  /** Sets the counter of keyless batch switches (the Kafka adapter's default keyless policy). */
  public void keylessSwitches(LongSupplier switches) {
    this.keylessSwitches = switches;
  }

  /** Returns whether the topic counts keyless batch switches. */
  public boolean hasKeylessSwitches() {
    return keylessSwitches != null;
  }

  /**
   * Returns whether the topic has {@code metric}: as {@link RouterMetrics#publishes}, and keyless
   * batch switches only when the topic counts them.
   */
  public boolean publishes(RoutingMetric metric) {
    return metric == RoutingMetric.KEYLESS_BATCH_SWITCHES ? hasKeylessSwitches()
        : router.publishes(metric);
  }

  /**
   * Returns a partition-scoped metric's value ({@link RoutingMetric.Scope#PARTITION}).
   *
   * @throws IllegalArgumentException if {@code metric} is not partition-scoped
   */
  public double value(RoutingMetric metric, int partition) {
    switch (metric) {
      case RECORDS_KEYED:
        return counters.count(0, partition);
      case RECORDS_KEYLESS:
        return counters.count(1, partition);
      default:
        throw new IllegalArgumentException(metric + " is not a partition metric");
    }
  }

  /**
   * Returns a topic-scoped metric's value ({@link RoutingMetric.Scope#TOPIC}); for a state set
   * use {@link #state}, for {@link RoutingMetric#GENERATION} 1 (its label is
   * {@link RouterMetrics#generation()}). NaN for a metric the router does not have (a canary's
   * share without a canary).
   *
   * @throws IllegalArgumentException if {@code metric} is not topic-scoped or is a state set
   */
  public double value(RoutingMetric metric) {
    switch (metric) {
      case SKEW_MAX_OVER_MEAN:
        return view().maxOverMean;
      case SKEW_WINDOW_RECORDS:
        return view().records;
      case SPEC_FINGERPRINT:
        return router.fingerprint();
      case CANARY_SHARE:
        return router.canaryShare();
      case CANARY_STEP:
        return router.canaryStep();
      case GENERATION:
        return router.generation() == null ? Double.NaN : 1;
      case KEYLESS_BATCH_SWITCHES:
        LongSupplier s = keylessSwitches;
        return s == null ? Double.NaN : s.getAsLong();
      default:
        throw new IllegalArgumentException(metric + " is not a topic gauge or counter");
    }
  }

  /** Returns 1 if the skew verdict in force is {@code state} (a {@link SkewVerdict} name), else 0. */
  public double state(RoutingMetric metric, String state) {
    if (metric != RoutingMetric.SKEW_VERDICT) {
      throw new IllegalArgumentException(metric + " is not a topic state set");
    }
    return verdict().name().equals(state) ? 1 : 0;
  }

  /**
   * Returns the verdict on the window's spread: the test kit's rule on the window's counts, with
   * the hottest detected key's share (if any) as the hot-key floor; the keys themselves are not
   * known here, so it never says {@link SkewVerdict#SUSPECT_ROUTER}.
   */
  public SkewVerdict verdict() {
    List<io.github.routingkit.router.hotkey.HotKeyEstimate> hot = router.hotKeys();
    return view().verdict(hot.isEmpty() ? 0 : hot.get(0).share(), partitions);
  }

  /** Returns the records per partition in the skew window (a copy, one entry per partition). */
  public long[] windowCounts() {
    return view().counts.clone();
  }

  /** Returns the window's length in milliseconds (up to 1.25 windows; less after the start). */
  public long windowSpanMillis() {
    return view().spanNanos / 1_000_000L;
  }

  private SkewWindow.View view() {
    return window.at(router.nanoTime(), partitions);
  }

  /** The counters' memory in bytes. */
  long memoryBytes() {
    return counters.memoryBytes();
  }

  @Override
  public String toString() {
    return "TopicMetrics{" + router.clientId() + ", " + name + ", partitions=" + partitions + '}';
  }
}
