package io.github.routingkit.config;

import java.util.Locale;

/**
 * What the adapters publish: the {@code routing.metrics.*} properties, typed and checked
 * ({@link RoutingSpec#metricsOptions()}). They change no routing decision, so they are not part
 * of a spec's fingerprint. Immutable and thread-safe.
 */
public final class MetricsOptions {
  /** Whether the adapters publish routing metrics ({@code true} or {@code false}, default true). */
  public static final String ENABLED = "routing.metrics.enabled";
  /** The skew metrics' sliding window in milliseconds (default 60000). */
  public static final String WINDOW_MS = "routing.metrics.window.ms";
  /** The metrics' own hot-key tracker samples one keyed record in this many (0, the default: off). */
  public static final String HOTKEY_SAMPLE = "routing.metrics.hotkey.sample";
  /** The share from which the metrics' own hot-key tracker reports a key (default 0.01). */
  public static final String HOTKEY_THRESHOLD = "routing.metrics.hotkey.threshold";

  /** The default skew window: one minute. */
  public static final long DEFAULT_WINDOW_MS = 60_000;
  /** The shortest skew window: one second. */
  public static final long MIN_WINDOW_MS = 1_000;
  /** The longest skew window: one day. */
  public static final long MAX_WINDOW_MS = 86_400_000;
  /** The default share from which the metrics' hot-key tracker reports a key. */
  public static final double DEFAULT_HOTKEY_THRESHOLD = 0.01;
  /** The largest hot-key sample. */
  public static final int MAX_HOTKEY_SAMPLE = 1024;

  private static final MetricsOptions DEFAULTS =
      new MetricsOptions(true, DEFAULT_WINDOW_MS, 0, DEFAULT_HOTKEY_THRESHOLD);
  private static final MetricsOptions OFF =
      new MetricsOptions(false, DEFAULT_WINDOW_MS, 0, DEFAULT_HOTKEY_THRESHOLD);

  private final boolean enabled;
  private final long windowMillis;
  private final int hotKeySample;
  private final double hotKeyThreshold;

  private MetricsOptions(boolean enabled, long windowMillis, int hotKeySample,
      double hotKeyThreshold) {
    this.enabled = enabled;
    this.windowMillis = windowMillis;
    this.hotKeySample = hotKeySample;
    this.hotKeyThreshold = hotKeyThreshold;
  }

  /** Metrics on, one-minute window, no hot-key tracker of their own. */
  public static MetricsOptions defaults() {
    return DEFAULTS;
  }

  /** Metrics off: the adapters record and publish nothing. */
  public static MetricsOptions off() {
    return OFF;
  }

  /**
   * Returns options with the given values.
   *
   * @param enabled whether metrics are published
   * @param windowMillis the skew window, in [{@value #MIN_WINDOW_MS}, {@value #MAX_WINDOW_MS}]
   * @param hotKeySample 0 (no tracker), or the tracker's sample: a power of two in [1, 1024]
   * @param hotKeyThreshold the tracker's threshold, in (0, 1]
   * @throws IllegalArgumentException naming the option, its value and the rule
   */
  public static MetricsOptions of(boolean enabled, long windowMillis, int hotKeySample,
      double hotKeyThreshold) {
    String rule = windowRule(windowMillis);
    if (rule != null) {
      throw new IllegalArgumentException("window was " + windowMillis + ", " + rule);
    }
    rule = sampleRule(hotKeySample);
    if (rule != null) {
      throw new IllegalArgumentException("hotKeySample was " + hotKeySample + ", " + rule);
    }
    if (!(hotKeyThreshold > 0 && hotKeyThreshold <= 1)) {
      throw new IllegalArgumentException(
          "hotKeyThreshold was " + hotKeyThreshold + ", must be a share in (0, 1]");
    }
    return new MetricsOptions(enabled, windowMillis, hotKeySample, hotKeyThreshold);
  }

  /** The rule {@code windowMillis} breaks, or null if it is a valid window. */
  public static String windowRule(long windowMillis) {
    return windowMillis >= MIN_WINDOW_MS && windowMillis <= MAX_WINDOW_MS ? null
        : "must be a number of milliseconds in [" + MIN_WINDOW_MS + ", " + MAX_WINDOW_MS + "]";
  }

  /** The rule {@code sample} breaks, or null if it is 0 or a power of two in [1, 1024]. */
  public static String sampleRule(int sample) {
    return sample == 0 || (sample >= 1 && sample <= MAX_HOTKEY_SAMPLE
        && Integer.bitCount(sample) == 1) ? null
        : "must be 0 (off) or a power of two from 1 to " + MAX_HOTKEY_SAMPLE;
  }

  /** Returns whether the adapters publish metrics. */
  public boolean enabled() {
    return enabled;
  }

  /** Returns the skew window in milliseconds. */
  public long windowMillis() {
    return windowMillis;
  }

  /** Returns the metrics' own hot-key tracker's sample, 0 when there is none. */
  public int hotKeySample() {
    return hotKeySample;
  }

  /** Returns the metrics' own hot-key tracker's threshold, in (0, 1]. */
  public double hotKeyThreshold() {
    return hotKeyThreshold;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof MetricsOptions)) {
      return false;
    }
    MetricsOptions m = (MetricsOptions) o;
    return enabled == m.enabled && windowMillis == m.windowMillis
        && hotKeySample == m.hotKeySample
        && Double.compare(hotKeyThreshold, m.hotKeyThreshold) == 0;
  }

  @Override
  public int hashCode() {
    return (Boolean.hashCode(enabled) * 31 + Long.hashCode(windowMillis)) * 31 + hotKeySample;
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "MetricsOptions{enabled=%s, windowMs=%d, hotKeySample=%d,"
        + " hotKeyThreshold=%s}", enabled, windowMillis, hotKeySample, hotKeyThreshold);
  }
}
