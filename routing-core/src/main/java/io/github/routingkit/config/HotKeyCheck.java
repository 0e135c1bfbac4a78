package io.github.routingkit.config;

import static io.github.routingkit.config.RoutingSpec.*;

import io.github.routingkit.RoutingConfigException;
import io.github.routingkit.internal.Values;
import io.github.routingkit.router.hotkey.HotKeyOptions;
import io.github.routingkit.router.hotkey.HotKeyRouter;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Decides whether the {@code routing.hotkey.*} properties of one spec make a hot-key layer, and
 * types them as {@link HotKeyOptions}: every value is checked, also where the layer is off, and
 * the detector's window must let it see a hot key. Part of {@link LayerCheck}.
 */
final class HotKeyCheck {
  private HotKeyCheck() {}

  /**
   * The hot-key layer's options, or null when the layer is off ({@value RoutingSpec#HOTKEY_KEYS}
   * unset and no {@value RoutingSpec#HOTKEY_DETECT}{@code =true}) or has a problem; problems go to
   * {@code c}.
   */
  static HotKeyOptions options(LayerCheck c) {
    int before = c.problemCount();
    List<String> keys = List.of();
    if (c.has(HOTKEY_KEYS)) {
      Set<String> set = new LinkedHashSet<>();
      for (String k : Values.items(c.get(HOTKEY_KEYS))) {
        if (k.isEmpty()) {
          c.problem(HOTKEY_KEYS, c.get(HOTKEY_KEYS),
              "must be a comma-separated list of non-empty keys");
          break;
        }
        if (!set.add(k)) {
          c.problem(HOTKEY_KEYS, c.get(HOTKEY_KEYS), "key '" + k + "' is listed twice");
          break;
        }
      }
      keys = List.copyOf(set);
    }
    boolean detect = false;
    if (c.has(HOTKEY_DETECT)) {
      detect = "true".equals(c.get(HOTKEY_DETECT));
      if (!detect && !"false".equals(c.get(HOTKEY_DETECT))) {
        c.problem(HOTKEY_DETECT, c.get(HOTKEY_DETECT), "must be true or false");
      }
    }
    // every value is checked, also where its layer is off: a disabled option's own error
    // is reported next to "has no effect"
    double threshold = 0.01;
    if (c.has(HOTKEY_THRESHOLD)) {
      threshold = Values.parseDecimal(c.get(HOTKEY_THRESHOLD));
      if (!(threshold > 0 && threshold <= 1)) {
        c.problem(HOTKEY_THRESHOLD, c.get(HOTKEY_THRESHOLD), "must be a decimal share in (0, 1]"
            + Values.exponentHint(c.get(HOTKEY_THRESHOLD)));
      }
    }
    int memory = 65536;
    if (c.has(HOTKEY_MEMORY)) {
      memory = Values.parseInt(c.get(HOTKEY_MEMORY), 1);
      if (memory < 1) {
        c.problem(HOTKEY_MEMORY, c.get(HOTKEY_MEMORY), "must be a positive number of bytes");
      } else if (memory < HotKeyOptions.MIN_MEMORY || memory > HotKeyRouter.MAX_MEMORY) {
        c.problem(HOTKEY_MEMORY, c.get(HOTKEY_MEMORY), "must be at least "
            + HotKeyOptions.MIN_MEMORY + " bytes (16 counters) and at most "
            + HotKeyRouter.MAX_MEMORY + " bytes (64 MiB)");
      }
    }
    long window = -1;
    if (c.has(HOTKEY_WINDOW)) {
      window = Values.parseLong(c.get(HOTKEY_WINDOW), 1);
      if (window == Values.INVALID) {
        c.problem(HOTKEY_WINDOW, c.get(HOTKEY_WINDOW), "must be a positive number of messages");
      }
    }
    int sample = 1;
    if (c.has(HOTKEY_SAMPLE)) {
      sample = Values.parseInt(c.get(HOTKEY_SAMPLE), 1);
      if (!HotKeyRouter.isValidSample(sample)) {
        c.problem(HOTKEY_SAMPLE, c.get(HOTKEY_SAMPLE), HotKeyRouter.SAMPLE_RULE);
      }
    }
    int candidates = 8;
    if (c.has(HOTKEY_CANDIDATES)) {
      String v = c.get(HOTKEY_CANDIDATES);
      candidates = v.equals("all") ? HotKeyRouter.ALL : Values.parseInt(v, 2);
      if (candidates < 2) {
        c.problem(HOTKEY_CANDIDATES, v, "must be an integer of at least 2, or all");
      }
    }
    HotKeyRouter.Choice choice = HotKeyRouter.Choice.LEAST_LOADED;
    if (c.has(HOTKEY_CHOICE)) {
      try {
        choice = HotKeyRouter.Choice.fromId(c.get(HOTKEY_CHOICE), HOTKEY_CHOICE);
      } catch (RoutingConfigException e) {
        c.add(e);
      }
    }
    if (!detect) {
      c.requires(HOTKEY_DETECT + "=true", HOTKEY_THRESHOLD, HOTKEY_MEMORY, HOTKEY_WINDOW,
          HOTKEY_SAMPLE);
    }
    boolean enabled = c.has(HOTKEY_KEYS) || detect;
    if (!enabled) {
      c.requires(HOTKEY_KEYS + " is set or " + HOTKEY_DETECT + "=true", HOTKEY_CANDIDATES,
          HOTKEY_CHOICE);
      return null;
    }
    if (c.problemCount() > before) {
      return null;
    }
    long effectiveWindow = window > 0 ? window : HotKeyRouter.defaultWindow(threshold, sample);
    String windowRule = HotKeyOptions.windowRule(threshold, sample, effectiveWindow);
    if (detect && windowRule != null) {
      c.problem(HOTKEY_WINDOW, c.getOrDefault(HOTKEY_WINDOW, String.valueOf(effectiveWindow)),
          windowRule);
      return null;
    }
    return new HotKeyOptions(keys, detect, threshold, memory, effectiveWindow, candidates,
        choice, sample); // every rule is checked above
  }
}
