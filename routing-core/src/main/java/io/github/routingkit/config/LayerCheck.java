package io.github.routingkit.config;

import static io.github.routingkit.config.RoutingSpec.*;

import io.github.routingkit.RoutingConfigException;
import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.internal.Values;
import io.github.routingkit.router.hotkey.HotKeyOptions;
import io.github.routingkit.router.hotkey.HotKeyRouter;
import io.github.routingkit.router.segment.SegmentDefinition;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Decides whether the layer properties of one spec (segment, hot key, version, canary) hold
 * together with its scheme and placement, and types them: every layer is checked, also after an
 * earlier one failed, so that one {@link RoutingConfigException} reports every problem at once.
 * It validates without building a router (no detector is allocated, no layout computed).
 */
final class LayerCheck {
  private LayerCheck() {}

  /** The layers of a spec, typed and checked; null fields are layers that are not configured. */
  record Layers(SegmentDefinition segments, HotKeyOptions hotKeys, List<Generation> generations,
      String defaultVersion, String source, String separator, String header, double canaryShare,
      RoutingSpec canaryNext) {}

  /** The old spec's detector memory: one detector per generation (one without generations). */
  static long claimed(Layers typed) {
    if (typed.hotKeys() == null) {
      return 0;
    }
    int chains = typed.generations() == null ? 1 : typed.generations().size();
    return (long) chains * typed.hotKeys().detectorMemoryBytes();
  }

  /** One parsed entry of {@value RoutingSpec#VERSION_GENERATIONS}; count 0 follows the topic. */
  record Generation(String name, HashScheme scheme, PlacementMode placement, int count) {}

  /**
   * Checks normalized layer properties against the scheme and placement and returns the typed
   * layers.
   *
   * @throws RoutingConfigException reporting every problem found
   */
  static Layers check(HashScheme scheme, PlacementMode placementMode, Map<String, String> layers) {
    Check c = new Check(layers);
    SegmentDefinition segments = c.segments();
    HotKeyOptions hotKeys = c.hotKeys();
    List<Generation> generations = c.versions(scheme, placementMode);
    if (hotKeys != null && generations != null) {
      long total = (long) generations.size() * hotKeys.detectorMemoryBytes();
      if (total > HotKeyRouter.MAX_MEMORY) {
        c.problem(HOTKEY_MEMORY, layers.get(HOTKEY_MEMORY), "gives each of the "
            + generations.size() + " generations a detector of " + hotKeys.detectorMemoryBytes()
            + " bytes, " + total + " in all; the total must be at most " + HotKeyRouter.MAX_MEMORY
            + " bytes (64 MiB)");
      }
    }
    double share = c.canaryShare();
    RoutingSpec next = c.canaryNext(share);
    if (next != null && hotKeys != null) {
      long old = (generations == null ? 1L : generations.size()) * hotKeys.detectorMemoryBytes();
      long total = old + next.claimedMemoryBytes();
      if (total > HotKeyRouter.MAX_MEMORY) {
        c.problem(CANARY_NEXT_PREFIX + "hotkey.memory", layers.get(CANARY_NEXT_PREFIX
            + "hotkey.memory"), "gives the new spec " + next.claimedMemoryBytes()
            + " bytes of detector memory next to the old spec's " + old + ", " + total
            + " in all; the total must be at most " + HotKeyRouter.MAX_MEMORY + " bytes (64 MiB)");
      }
    }
    if (!c.problems.isEmpty()) {
      throw RoutingConfigException.of(c.problems);
    }
    return new Layers(segments, hotKeys, generations, layers.get(VERSION_DEFAULT),
        layers.getOrDefault(VERSION_SOURCE, "key-prefix"), layers.getOrDefault(VERSION_SEPARATOR, "|"),
        layers.getOrDefault(VERSION_HEADER, "routing-version"), share, next);
  }

  /** The rule of {@value RoutingSpec#CANARY_SHARE}. */
  static final String SHARE_RULE =
      "must be a decimal share in [0, 1] (0.05) or a percentage in [0%, 100%] (5%)";

  /**
   * Parses a canary share: a plain decimal in [0, 1] or a plain decimal percentage in [0, 100]
   * followed by {@code %} (divided by 100 exactly, then rounded once to a double); NaN if neither.
   */
  static double parseShare(String text) {
    if (text == null) {
      return Double.NaN;
    }
    String t = text.trim();
    boolean percent = t.endsWith("%");
    if (percent) {
      t = t.substring(0, t.length() - 1).trim();
    }
    if (Double.isNaN(Values.parseDecimal(t))) {
      return Double.NaN;
    }
    double v = percent ? new java.math.BigDecimal(t).movePointLeft(2).doubleValue()
        : Values.parseDecimal(t);
    return v >= 0 && v <= 1 ? v : Double.NaN;
  }

  /** One check of one spec: the layer properties and the problems found so far. */
  private static final class Check {
    final Map<String, String> layers;
    final List<RoutingConfigException> problems = new ArrayList<>();

    Check(Map<String, String> layers) {
      this.layers = layers;
    }

    void problem(String key, Object value, String rule) {
      problems.add(new RoutingConfigException(key, value, rule));
    }

    boolean has(String key) {
      return layers.containsKey(key);
    }

    String get(String key) {
      return layers.get(key);
    }

    void requires(String rule, String... options) {
      for (String o : options) {
        if (has(o)) {
          problem(o, get(o), "has no effect unless " + rule);
        }
      }
    }

    SegmentDefinition segments() {
      boolean enabled = has(SEGMENT_RANGES) || has(SEGMENT_WEIGHTS);
      if (!enabled) {
        requires(SEGMENT_RANGES + " or " + SEGMENT_WEIGHTS + " is set",
            SEGMENT_EXCLUSIVE, SEGMENT_SEPARATOR, SEGMENT_REGEX);
        return null;
      }
      try {
        return SegmentNotation.parse(get(SEGMENT_RANGES), get(SEGMENT_WEIGHTS),
            get(SEGMENT_EXCLUSIVE), get(SEGMENT_SEPARATOR), get(SEGMENT_REGEX));
      } catch (RoutingConfigException e) {
        problems.add(e);
        return null;
      }
    }

    HotKeyOptions hotKeys() {
      int before = problems.size();
      List<String> keys = List.of();
      if (has(HOTKEY_KEYS)) {
        Set<String> set = new LinkedHashSet<>();
        for (String k : Values.items(get(HOTKEY_KEYS))) {
          if (k.isEmpty()) {
            problem(HOTKEY_KEYS, get(HOTKEY_KEYS), "must be a comma-separated list of non-empty keys");
            break;
          }
          if (!set.add(k)) {
            problem(HOTKEY_KEYS, get(HOTKEY_KEYS), "key '" + k + "' is listed twice");
            break;
          }
        }
        keys = List.copyOf(set);
      }
      boolean detect = false;
      if (has(HOTKEY_DETECT)) {
        detect = "true".equals(get(HOTKEY_DETECT));
        if (!detect && !"false".equals(get(HOTKEY_DETECT))) {
          problem(HOTKEY_DETECT, get(HOTKEY_DETECT), "must be true or false");
        }
      }
      // every value is checked, also where its layer is off: a disabled option's own error
      // is reported next to "has no effect"
      double threshold = 0.01;
      if (has(HOTKEY_THRESHOLD)) {
        threshold = Values.parseDecimal(get(HOTKEY_THRESHOLD));
        if (!(threshold > 0 && threshold <= 1)) {
          problem(HOTKEY_THRESHOLD, get(HOTKEY_THRESHOLD), "must be a decimal share in (0, 1]");
        }
      }
      int memory = 65536;
      if (has(HOTKEY_MEMORY)) {
        memory = Values.parseInt(get(HOTKEY_MEMORY), 1);
        if (memory < 1) {
          problem(HOTKEY_MEMORY, get(HOTKEY_MEMORY), "must be a positive number of bytes");
        } else if (memory < HotKeyOptions.MIN_MEMORY || memory > HotKeyRouter.MAX_MEMORY) {
          problem(HOTKEY_MEMORY, get(HOTKEY_MEMORY), "must be at least " + HotKeyOptions.MIN_MEMORY
              + " bytes (16 counters) and at most " + HotKeyRouter.MAX_MEMORY + " bytes (64 MiB)");
        }
      }
      long window = -1;
      if (has(HOTKEY_WINDOW)) {
        window = Values.parseLong(get(HOTKEY_WINDOW), 1);
        if (window == Values.INVALID) {
          problem(HOTKEY_WINDOW, get(HOTKEY_WINDOW), "must be a positive number of messages");
        }
      }
      int sample = 1;
      if (has(HOTKEY_SAMPLE)) {
        sample = Values.parseInt(get(HOTKEY_SAMPLE), 1);
        if (!HotKeyRouter.isValidSample(sample)) {
          problem(HOTKEY_SAMPLE, get(HOTKEY_SAMPLE), HotKeyRouter.SAMPLE_RULE);
        }
      }
      int candidates = 8;
      if (has(HOTKEY_CANDIDATES)) {
        String v = get(HOTKEY_CANDIDATES);
        candidates = v.equals("all") ? HotKeyRouter.ALL : Values.parseInt(v, 2);
        if (candidates < 2) {
          problem(HOTKEY_CANDIDATES, v, "must be an integer of at least 2, or all");
        }
      }
      HotKeyRouter.Choice choice = HotKeyRouter.Choice.LEAST_LOADED;
      if (has(HOTKEY_CHOICE)) {
        try {
          choice = HotKeyRouter.Choice.fromId(get(HOTKEY_CHOICE), HOTKEY_CHOICE);
        } catch (RoutingConfigException e) {
          problems.add(e);
        }
      }
      if (!detect) {
        requires(HOTKEY_DETECT + "=true", HOTKEY_THRESHOLD, HOTKEY_MEMORY, HOTKEY_WINDOW,
            HOTKEY_SAMPLE);
      }
      boolean enabled = has(HOTKEY_KEYS) || detect;
      if (!enabled) {
        requires(HOTKEY_KEYS + " is set or " + HOTKEY_DETECT + "=true", HOTKEY_CANDIDATES,
            HOTKEY_CHOICE);
        return null;
      }
      if (problems.size() > before) {
        return null;
      }
      long effectiveWindow = window > 0 ? window : HotKeyRouter.defaultWindow(threshold, sample);
      String windowRule = HotKeyOptions.windowRule(threshold, sample, effectiveWindow);
      if (detect && windowRule != null) {
        problem(HOTKEY_WINDOW, layers.getOrDefault(HOTKEY_WINDOW, String.valueOf(effectiveWindow)),
            windowRule);
        return null;
      }
      return new HotKeyOptions(keys, detect, threshold, memory, effectiveWindow, candidates,
          choice, sample); // every rule is checked above
    }

    /** The canary share, NaN when it is not set or bad (a bad one is a problem). */
    double canaryShare() {
      if (!has(CANARY_SHARE)) {
        return Double.NaN;
      }
      double share = parseShare(get(CANARY_SHARE));
      if (Double.isNaN(share)) {
        problem(CANARY_SHARE, get(CANARY_SHARE), SHARE_RULE);
      }
      return share;
    }

    /**
     * The canary's new spec: the {@code routing.canary.next.*} properties read as a spec of their
     * own, its problems reported under their canary names; null without a canary or with a
     * problem.
     */
    RoutingSpec canaryNext(double share) {
      Map<String, String> inner = new TreeMap<>();
      List<String> nextKeys = new ArrayList<>();
      for (Map.Entry<String, String> e : layers.entrySet()) {
        if (e.getKey().startsWith(CANARY_NEXT_PREFIX)) {
          nextKeys.add(e.getKey());
          inner.put(PREFIX + e.getKey().substring(CANARY_NEXT_PREFIX.length()), e.getValue());
        }
      }
      if (!has(CANARY_SHARE)) {
        requires(CANARY_SHARE + " is set", nextKeys.toArray(new String[0]));
        return null;
      }
      if (inner.isEmpty()) {
        problem(CANARY_SHARE, get(CANARY_SHARE), "has no effect unless a " + CANARY_NEXT_PREFIX
            + "* property names the new spec (e.g. " + CANARY_NEXT_PREFIX + "placement=jump)");
        return null;
      }
      try {
        RoutingSpec next = SpecText.parse(inner);
        return Double.isNaN(share) ? null : next;
      } catch (RoutingConfigException e) {
        for (RoutingConfigException p : e.problems()) {
          String name = p.property() != null && p.property().startsWith(PREFIX)
              ? CANARY_NEXT_PREFIX + p.property().substring(PREFIX.length()) : p.property();
          problem(name, p.value(), p.rule() + " (in the canary's new spec)");
        }
        return null;
      }
    }

    List<Generation> versions(HashScheme scheme, PlacementMode placementMode) {
      if (!has(VERSION_GENERATIONS)) {
        requires(VERSION_GENERATIONS + " is set", VERSION_DEFAULT, VERSION_SOURCE,
            VERSION_SEPARATOR, VERSION_HEADER);
        return null;
      }
      String source = layers.getOrDefault(VERSION_SOURCE, "key-prefix");
      if (!source.equals("key-prefix") && !source.equals("header")) {
        problem(VERSION_SOURCE, source, "must be one of [key-prefix, header]");
      }
      // the key prefix and the header are alternatives: each one's option is inert for the other
      if ("header".equals(source)) {
        requires(VERSION_SOURCE + "=key-prefix", VERSION_SEPARATOR);
      } else {
        requires(VERSION_SOURCE + "=header", VERSION_HEADER);
      }
      if (scheme != HashScheme.KAFKA_MURMUR2) {
        problem(SCHEME, scheme.id(), "cannot be combined with " + VERSION_GENERATIONS
            + ", where each generation names its scheme");
      }
      if (placementMode != PlacementMode.NATIVE) {
        problem(PLACEMENT, placementMode.id, "cannot be combined with " + VERSION_GENERATIONS
            + ", where each generation names its placement");
      }
      String separator = layers.getOrDefault(VERSION_SEPARATOR, "|");
      String spec = get(VERSION_GENERATIONS);
      List<Generation> out = new ArrayList<>();
      for (String item : Values.items(spec)) {
        String[] f = item.split(":", -1);
        if (f.length < 2 || f.length > 4 || f[0].isEmpty()) {
          problem(VERSION_GENERATIONS, spec, "entry '" + item
              + "' must be written name:scheme[:placement[:partitions|*]]");
          continue;
        }
        String name = f[0];
        HashScheme s;
        try {
          s = HashScheme.fromId(f[1]);
        } catch (IllegalArgumentException e) {
          problem(VERSION_GENERATIONS, spec, "generation '" + name + "' scheme '" + f[1]
              + "' must be one of " + HashScheme.ids());
          continue;
        }
        PlacementMode mode = PlacementMode.NATIVE;
        if (f.length > 2) {
          try {
            mode = PlacementMode.parse(VERSION_GENERATIONS, f[2], spec);
          } catch (RoutingConfigException e) {
            problem(VERSION_GENERATIONS, spec, "generation '" + name + "' placement '" + f[2]
                + "' must be one of " + PlacementMode.IDS);
            continue;
          }
        }
        int count = 0;
        if (f.length > 3 && !f[3].equals("*")) {
          count = Values.parseInt(f[3], 1);
          if (count < 1) {
            problem(VERSION_GENERATIONS, f[3], "generation '" + name + "' partition count '"
                + f[3] + "' must be a positive integer or *");
            continue;
          }
        }
        if (out.stream().anyMatch(g -> g.name().equals(name))) {
          problem(VERSION_GENERATIONS, name, "generation '" + name + "' is listed twice");
          continue;
        }
        if (!separator.isEmpty() && name.contains(separator)) {
          problem(VERSION_GENERATIONS, name, "generation '" + name
              + "' must not contain the separator '" + separator + "'");
          continue;
        }
        out.add(new Generation(name, s, mode, count));
      }
      String def = get(VERSION_DEFAULT);
      if (def == null) {
        problem(VERSION_DEFAULT, null, "must be set (to a generation name) when "
            + VERSION_GENERATIONS + " is set");
      } else if (out.stream().noneMatch(g -> g.name().equals(def))
          && problems.stream().noneMatch(p -> p.property().equals(VERSION_GENERATIONS))) {
        List<String> names = out.stream().map(Generation::name).toList();
        problem(VERSION_DEFAULT, def, "must name one of the generations " + names);
      }
      return out;
    }
  }
}
