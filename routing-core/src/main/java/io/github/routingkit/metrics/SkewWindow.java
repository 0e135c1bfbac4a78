package io.github.routingkit.metrics;

import io.github.routingkit.stats.LoadStatistics;
import io.github.routingkit.stats.PerfectHashBound;
import io.github.routingkit.stats.SkewVerdict;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;

/**
 * The spread of one topic's recent records over its partitions: per-partition counts over a
 * sliding time window, their max/mean and its {@link SkewVerdict}. Computed when a metric is read,
 * from snapshots of the cumulative counters, so routing pays nothing for it. Thread-safe.
 */
final class SkewWindow {
  /*
   * The window is [oldest kept snapshot, now]. A snapshot of the cumulative per-partition totals
   * is kept at most every window/4; snapshots older than the window are dropped except the newest
   * of them, so once warmed up the window covers between 1 and 1.25 windows of traffic (the first
   * window after start covers everything since the start). Reads within REFRESH_NANOS of the last
   * computation share its result, so a scrape that reads several metrics sees one consistent view.
   */
  static final long REFRESH_NANOS = 1_000_000_000L;
  private static final int STEPS = 4;

  private final PartitionCounters counters;
  private final long windowNanos;
  private final Deque<Snapshot> snapshots = new ArrayDeque<>();
  private View view;

  SkewWindow(PartitionCounters counters, long windowNanos) {
    this.counters = counters;
    this.windowNanos = windowNanos;
  }

  /**
   * The window's view at {@code nowNanos} over the topic's {@code partitions} partitions
   * (recomputed at most once per second of that clock, or when the partition count changed).
   */
  synchronized View at(long nowNanos, int partitions) {
    if (view != null && view.counts.length == partitions && nowNanos >= view.computedAt
        && nowNanos - view.computedAt < REFRESH_NANOS) {
      return view;
    }
    long[] totals = totals(partitions);
    if (snapshots.isEmpty()) {
      snapshots.add(new Snapshot(nowNanos, new long[totals.length]));
    }
    Snapshot last = snapshots.peekLast();
    if (nowNanos - last.at >= windowNanos / STEPS) {
      snapshots.add(new Snapshot(nowNanos, totals));
    }
    while (snapshots.size() > 1 && nowNanos - secondOldest().at >= windowNanos) {
      snapshots.removeFirst();
    }
    Snapshot base = snapshots.peekFirst();
    long[] counts = new long[totals.length];
    for (int p = 0; p < totals.length; p++) {
      counts[p] = totals[p] - (p < base.totals.length ? base.totals[p] : 0);
    }
    view = new View(nowNanos, nowNanos - base.at, counts);
    return view;
  }

  private Snapshot secondOldest() {
    java.util.Iterator<Snapshot> it = snapshots.iterator();
    it.next();
    return it.next();
  }

  /** Keyed plus keyless records per partition since the start, of partitions 0..n-1. */
  private long[] totals(int n) {
    long[] totals = new long[Math.max(1, n)];
    counters.sumInto(0, totals);
    counters.sumInto(1, totals);
    return totals;
  }

  /** The records per partition in a window, with what they mean. Immutable. */
  static final class View {
    final long computedAt;
    /** How long the window is, in nanoseconds (up to 1.25 windows, or the time since start). */
    final long spanNanos;
    final long[] counts;
    final long records;
    final double maxOverMean;

    View(long computedAt, long spanNanos, long[] counts) {
      this.computedAt = computedAt;
      this.spanNanos = spanNanos;
      this.counts = counts;
      this.records = Arrays.stream(counts).sum();
      this.maxOverMean = records == 0 ? 1 : LoadStatistics.of(counts).maxOverMean();
    }

    /**
     * The verdict on the window's spread, given the hottest known key's share ({@code 0} if none
     * is known) among {@code partitions} partitions; the keys themselves are not known, so the
     * router is never blamed ({@link SkewVerdict#of}).
     */
    SkewVerdict verdict(double hottestShare, int partitions) {
      if (records == 0 || partitions < 1) {
        return SkewVerdict.WITHIN_PERFECT_HASH_BOUND;
      }
      double samplingP99 = PerfectHashBound.maxOverMeanQuantile(records, partitions, 0.99);
      double floor = PerfectHashBound.hotKeyFloor(Math.max(0, Math.min(1, hottestShare)),
          partitions);
      return SkewVerdict.of(maxOverMean, samplingP99, Double.NaN, Double.NaN, floor, partitions);
    }
  }

  private static final class Snapshot {
    final long at;
    final long[] totals;

    Snapshot(long at, long[] totals) {
      this.at = at;
      this.totals = totals;
    }
  }
}
