package io.github.routingkit.config;

import io.github.routingkit.internal.Values;
import java.util.Map;

/**
 * Types the {@code routing.metrics.*} properties as {@link MetricsOptions}: part of
 * {@link LayerCheck}, which reports the problems; {@link RoutingSpec#metricsOptions()} reads the
 * checked values.
 */
final class MetricsCheck {
  private MetricsCheck() {}

  /** Checks the metrics properties; problems go to {@code c}. */
  static void check(LayerCheck c) {
    read(c.properties(), c);
  }

  /** The options of checked properties (no problem left to report). */
  static MetricsOptions options(Map<String, String> layers) {
    return read(layers, null);
  }

  private static MetricsOptions read(Map<String, String> p, LayerCheck c) {
    boolean enabled = true;
    String v = p.get(MetricsOptions.ENABLED);
    if (v != null) {
      enabled = "true".equals(v);
      if (!enabled && !"false".equals(v)) {
        problem(c, MetricsOptions.ENABLED, v, "must be true or false");
      }
    }
    long window = MetricsOptions.DEFAULT_WINDOW_MS;
    v = p.get(MetricsOptions.WINDOW_MS);
    if (v != null) {
      window = Values.parseLong(v, 1);
      String rule = window == Values.INVALID ? MetricsOptions.windowRule(0)
          : MetricsOptions.windowRule(window);
      if (rule != null) {
        problem(c, MetricsOptions.WINDOW_MS, v, rule);
        window = MetricsOptions.DEFAULT_WINDOW_MS;
      }
    }
    int sample = 0;
    v = p.get(MetricsOptions.HOTKEY_SAMPLE);
    if (v != null) {
      sample = "0".equals(v) ? 0 : Values.parseInt(v, 1);
      String rule = MetricsOptions.sampleRule(sample);
      if (rule != null) {
        problem(c, MetricsOptions.HOTKEY_SAMPLE, v, rule);
        sample = 0;
      }
    }
    double threshold = MetricsOptions.DEFAULT_HOTKEY_THRESHOLD;
    v = p.get(MetricsOptions.HOTKEY_THRESHOLD);
    if (v != null) {
      threshold = Values.parseDecimal(v);
      if (!(threshold > 0 && threshold <= 1)) {
        problem(c, MetricsOptions.HOTKEY_THRESHOLD, v,
            "must be a decimal share in (0, 1]" + Values.exponentHint(v));
        threshold = MetricsOptions.DEFAULT_HOTKEY_THRESHOLD;
      } else if (sample == 0 && c != null) {
        c.requires(MetricsOptions.HOTKEY_SAMPLE + " is at least 1", MetricsOptions.HOTKEY_THRESHOLD);
      }
    }
    if (!enabled && c != null) {
      c.requires(MetricsOptions.ENABLED + "=true", MetricsOptions.WINDOW_MS, MetricsOptions.HOTKEY_SAMPLE,
          MetricsOptions.HOTKEY_THRESHOLD);
    }
    return MetricsOptions.of(enabled, window, sample, threshold);
  }

  private static void problem(LayerCheck c, String key, String value, String rule) {
    if (c != null) {
      c.problem(key, value, rule);
    }
  }
}
