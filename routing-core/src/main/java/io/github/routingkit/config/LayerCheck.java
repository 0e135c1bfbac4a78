package io.github.routingkit.config;

import static io.github.routingkit.config.RoutingSpec.*;

import io.github.routingkit.RoutingConfigException;
import io.github.routingkit.router.canary.CanarySchedule;
import io.github.routingkit.KeyFormat;
import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.router.hotkey.HotKeyOptions;
import io.github.routingkit.router.hotkey.HotKeyRouter;
import io.github.routingkit.router.segment.SegmentDefinition;
import io.github.routingkit.router.version.VersionedRouter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Decides whether the layer properties of one spec (segment, hot key, version, canary) hold
 * together with its scheme and placement, and types them: every layer is checked, also after an
 * earlier one failed, so that one {@link RoutingConfigException} reports every problem at once.
 * It validates without building a router (no detector is allocated, no layout computed).
 *
 * <p>Each layer's own rules sit in {@link HotKeyCheck}, {@link VersionCheck} and
 * {@link CanaryCheck} and {@link ScheduleCheck} (the segment layer's in {@link SegmentDefinition#parse}); this class runs them in
 * turn, holds the problems they find, and checks what spans layers: the detector memory of every
 * generation and of the canary's new spec together.
 */
final class LayerCheck {
  /** The layers of a spec, typed and checked; null fields are layers that are not configured. */
  static final class Layers {
    private final KeyFormat keyFormat;
    private final SegmentDefinition segments;
    private final HotKeyOptions hotKeys;
    private final List<Generation> generations;
    private final String defaultVersion;
    private final VersionedRouter.Source source;
    private final String separator;
    private final String header;
    private final double canaryShare;
    private final RoutingSpec canaryNext;
    private final CanarySchedule schedule;

    Layers(
        KeyFormat keyFormat,
        SegmentDefinition segments,
        HotKeyOptions hotKeys,
        List<Generation> generations,
        String defaultVersion,
        VersionedRouter.Source source,
        String separator,
        String header,
        double canaryShare,
        RoutingSpec canaryNext,
        CanarySchedule schedule) {
      this.keyFormat = keyFormat;
      this.segments = segments;
      this.hotKeys = hotKeys;
      this.generations = generations;
      this.defaultVersion = defaultVersion;
      this.source = source;
      this.separator = separator;
      this.header = header;
      this.canaryShare = canaryShare;
      this.canaryNext = canaryNext;
      this.schedule = schedule;
    }

    public KeyFormat keyFormat() {
      return keyFormat;
    }

    public SegmentDefinition segments() {
      return segments;
    }

    public HotKeyOptions hotKeys() {
      return hotKeys;
    }

    public List<Generation> generations() {
      return generations;
    }

    public String defaultVersion() {
      return defaultVersion;
    }

    public VersionedRouter.Source source() {
      return source;
    }

    public String separator() {
      return separator;
    }

    public String header() {
      return header;
    }

    public double canaryShare() {
      return canaryShare;
    }

    public RoutingSpec canaryNext() {
      return canaryNext;
    }

    public CanarySchedule schedule() {
      return schedule;
    }

    @Override
    public boolean equals(Object o) {
      if (this == o) {
        return true;
      }
      if (!(o instanceof Layers)) {
        return false;
      }
      Layers other = (Layers) o;
      return keyFormat == other.keyFormat
          && Objects.equals(segments, other.segments)
          && Objects.equals(hotKeys, other.hotKeys)
          && Objects.equals(generations, other.generations)
          && Objects.equals(defaultVersion, other.defaultVersion)
          && Objects.equals(source, other.source)
          && Objects.equals(separator, other.separator)
          && Objects.equals(header, other.header)
          && Double.compare(canaryShare, other.canaryShare) == 0
          && Objects.equals(canaryNext, other.canaryNext)
          && Objects.equals(schedule, other.schedule);
    }

    @Override
    public int hashCode() {
      int h = Objects.hashCode(keyFormat);
      h = 31 * h + Objects.hashCode(segments);
      h = 31 * h + Objects.hashCode(hotKeys);
      h = 31 * h + Objects.hashCode(generations);
      h = 31 * h + Objects.hashCode(defaultVersion);
      h = 31 * h + Objects.hashCode(source);
      h = 31 * h + Objects.hashCode(separator);
      h = 31 * h + Objects.hashCode(header);
      h = 31 * h + Double.hashCode(canaryShare);
      h = 31 * h + Objects.hashCode(canaryNext);
      h = 31 * h + Objects.hashCode(schedule);
      return h;
    }

    @Override
    public String toString() {
      return "Layers[keyFormat=" + keyFormat + ", segments=" + segments + ", hotKeys=" + hotKeys + ", generations="
          + generations + ", defaultVersion=" + defaultVersion + ", source=" + source
          + ", separator=" + separator + ", header=" + header + ", canaryShare=" + canaryShare
          + ", canaryNext=" + canaryNext + ", schedule=" + schedule + "]";
    }
  }

  /** The old spec's detector memory: one detector per generation (one without generations). */
  static long claimed(Layers typed) {
    if (typed.hotKeys() == null) {
      return 0;
    }
    int chains = typed.generations() == null ? 1 : typed.generations().size();
    return (long) chains * typed.hotKeys().detectorMemoryBytes();
  }

  /** One parsed entry of {@value RoutingSpec#VERSION_GENERATIONS}; count 0 follows the topic. */
  static final class Generation {
    private final String name;
    private final HashScheme scheme;
    private final PlacementMode placement;
    private final int count;

    Generation(String name, HashScheme scheme, PlacementMode placement, int count) {
      this.name = name;
      this.scheme = scheme;
      this.placement = placement;
      this.count = count;
    }

    public String name() {
      return name;
    }

    public HashScheme scheme() {
      return scheme;
    }

    public PlacementMode placement() {
      return placement;
    }

    public int count() {
      return count;
    }

    @Override
    public boolean equals(Object o) {
      if (this == o) {
        return true;
      }
      if (!(o instanceof Generation)) {
        return false;
      }
      Generation other = (Generation) o;
      return Objects.equals(name, other.name)
          && Objects.equals(scheme, other.scheme)
          && Objects.equals(placement, other.placement)
          && count == other.count;
    }

    @Override
    public int hashCode() {
      int h = 0;
      h = 31 * h + Objects.hashCode(name);
      h = 31 * h + Objects.hashCode(scheme);
      h = 31 * h + Objects.hashCode(placement);
      h = 31 * h + Integer.hashCode(count);
      return h;
    }

    @Override
    public String toString() {
      return "Generation[name=" + name + ", scheme=" + scheme + ", placement=" + placement
          + ", count=" + count + "]";
    }
  }

  /**
   * Checks normalized layer properties against the scheme and placement and returns the typed
   * layers.
   *
   * @throws RoutingConfigException reporting every problem found
   */
  static Layers check(HashScheme scheme, PlacementMode placementMode, Map<String, String> layers) {
    LayerCheck c = new LayerCheck(layers);
    KeyFormat keyFormat = c.keyFormat();
    SegmentDefinition segments = c.segments();
    HotKeyOptions hotKeys = HotKeyCheck.options(c);
    List<Generation> generations = VersionCheck.generations(c, scheme, placementMode);
    if (hotKeys != null && generations != null) {
      long total = (long) generations.size() * hotKeys.detectorMemoryBytes();
      if (total > HotKeyRouter.MAX_MEMORY) {
        c.problem(HOTKEY_MEMORY, layers.get(HOTKEY_MEMORY), "gives each of the "
            + generations.size() + " generations a detector of " + hotKeys.detectorMemoryBytes()
            + " bytes, " + total + " in all; the total must be at most " + HotKeyRouter.MAX_MEMORY
            + " bytes (64 MiB)");
      }
    }
    double share = CanaryCheck.share(c);
    RoutingSpec next = CanaryCheck.next(c, share);
    CanarySchedule schedule = ScheduleCheck.schedule(c, share);
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
    return new Layers(keyFormat, segments, hotKeys, generations, layers.get(VERSION_DEFAULT),
        VersionCheck.source(layers.get(VERSION_SOURCE)), layers.getOrDefault(VERSION_SEPARATOR, "|"),
        layers.getOrDefault(VERSION_HEADER, "routing-version"), share, next,
        next == null ? null : schedule);
  }

  // --- the state of one check, shared by the layers' checks --------------------------------

  private final Map<String, String> layers;
  private final List<RoutingConfigException> problems = new ArrayList<>();

  private LayerCheck(Map<String, String> layers) {
    this.layers = layers;
  }

  /** The spec's layer properties, normalized and sorted. */
  Map<String, String> properties() {
    return layers;
  }

  boolean has(String key) {
    return layers.containsKey(key);
  }

  String get(String key) {
    return layers.get(key);
  }

  String getOrDefault(String key, String otherwise) {
    return layers.getOrDefault(key, otherwise);
  }

  void problem(String key, Object value, String rule) {
    problems.add(new RoutingConfigException(key, value, rule));
  }

  void add(RoutingConfigException problem) {
    problems.add(problem);
  }

  int problemCount() {
    return problems.size();
  }

  /** Whether a problem was found with {@code key}. */
  boolean hasProblem(String key) {
    return problems.stream().anyMatch(p -> p.property().equals(key));
  }

  /** A problem for each of {@code options} that is set: it has no effect unless {@code rule}. */
  void requires(String rule, String... options) {
    for (String o : options) {
      if (has(o)) {
        problem(o, get(o), "has no effect unless " + rule);
      }
    }
  }

  /** The key format; {@link KeyFormat#RAW} when it is not set or has a problem. */
  private KeyFormat keyFormat() {
    String value = get(KEY_FORMAT);
    if (value == null) {
      return KeyFormat.RAW;
    }
    try {
      return KeyFormat.fromId(value);
    } catch (IllegalArgumentException e) {
      problem(KEY_FORMAT, value, "must be one of " + KeyFormat.ids());
      return KeyFormat.RAW;
    }
  }

  /** The segment layer, read by {@link SegmentDefinition#parse}; null when it is off or has a problem. */
  private SegmentDefinition segments() {
    boolean enabled = has(SEGMENT_RANGES) || has(SEGMENT_WEIGHTS);
    if (!enabled) {
      requires(SEGMENT_RANGES + " or " + SEGMENT_WEIGHTS + " is set",
          SEGMENT_EXCLUSIVE, SEGMENT_SEPARATOR, SEGMENT_REGEX);
      return null;
    }
    try {
      return SegmentDefinition.parse(get(SEGMENT_RANGES), get(SEGMENT_WEIGHTS),
          get(SEGMENT_EXCLUSIVE), get(SEGMENT_SEPARATOR), get(SEGMENT_REGEX));
    } catch (RoutingConfigException e) {
      problems.add(e);
      return null;
    }
  }
}
