package io.github.routingkit.config;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.KeylessPolicy;
import io.github.routingkit.RoutingConfigException;
import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.placement.Placement;
import io.github.routingkit.router.HashRouter;
import io.github.routingkit.router.canary.CanaryRouter;
import io.github.routingkit.router.hotkey.HotKeyRouter;
import io.github.routingkit.router.segment.SegmentRouter;
import io.github.routingkit.router.version.VersionedRouter;

import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The whole routing configuration as one immutable value, read from {@code routing.*} properties
 * (a Kafka producer's configs, a {@link Properties} file) or built in code, and turned into a
 * {@link KeyRouter} by {@link #keyRouter()}.
 *
 * <h2>Composition</h2>
 * One fixed order, each layer optional except the last: <b>version &rarr; segment &rarr; hot key
 * &rarr; scheme/placement</b>. The version (if {@code routing.version.generations} is set) picks a
 * generation, which fixes the scheme, placement and partition count; the segment (if
 * {@code routing.segment.ranges} or {@code .weights} is set) narrows the partitions to the tenant's
 * range; the hot-key layer (if {@code routing.hotkey.keys} is set or {@code .detect=true}) spreads
 * hot keys over candidates within that range; the scheme and placement hash the key within what is
 * left. In code: {@code VersionedRouter(SegmentRouter(HotKeyRouter(HashRouter)))}, one
 * segment/hot-key chain per generation.
 *
 * <p>A <b>canary</b> (if {@value #CANARY_SHARE} is set) sits above all of that: the spec's other
 * properties are the <em>old</em> spec, the {@value #CANARY_NEXT_PREFIX}{@code *} properties the
 * <em>new</em> one (itself composed in the same order), and a key goes through the new spec iff its
 * {@link CanaryRouter#point canary point} is below the share: {@code CanaryRouter(old, new, share)}.
 * Raising the share only moves keys from the old spec to the new one; keyless messages follow the
 * old spec.
 *
 * <h2>Properties</h2>
 * <table>
 *   <caption>routing.* properties</caption>
 *   <tr><th>key</th><th>type</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@value #SCHEME}</td><td>{@code kafka-murmur2 | pulsar-java-string | pulsar-murmur3 |
 *       librdkafka-crc32 | librdkafka-fnv1a | sarama-fnv1a | sarama-fnv1a-reference |
 *       pulsar-go-java-string | kafkajs-legacy | xxh3-64}</td>
 *       <td>{@code kafka-murmur2}</td><td>the {@link HashScheme} (by {@link HashScheme#id()})</td></tr>
 *   <tr><td>{@value #PLACEMENT}</td><td>{@code native | modulo | jump | jump-back | floor-mod |
 *       to-positive | unsigned-mod | abs-remainder}</td><td>{@code native}</td>
 *       <td>the scheme's native {@link Placement}, its modulo placement
 *       ({@link HashScheme#moduloPlacement()}), or the named {@link Placement} (by
 *       {@link Placement#id()}); kept as written, resolution in {@link #describePlacement()}</td></tr>
 *   <tr><td>{@value #KEYLESS}</td><td>{@code round-robin | sticky | random | kafka-sticky}</td>
 *       <td>{@code round-robin} (Kafka adapter: {@code kafka-sticky})</td>
 *       <td>the {@link KeylessPolicy} for messages without a key; {@code kafka-sticky} is the Kafka
 *       adapter's batch-aware sticky policy ({@code BatchStickyKeyless} in routing-kafka), and a
 *       router built by {@link #keyRouter()} runs it as the nearest core policy, {@code sticky}
 *       ({@link KeylessPolicy#KAFKA_STICKY})</td></tr>
 *   <tr><td>{@value #SEGMENT_RANGES}</td><td>{@code name:from-to,...}</td><td>none</td>
 *       <td>explicit segment ranges ({@link SegmentRouter}); exclusive with weights</td></tr>
 *   <tr><td>{@value #SEGMENT_WEIGHTS}</td><td>{@code name:weight,...[,*:weight]}</td><td>none</td>
 *       <td>segment weights, laid out per partition count by largest remainder</td></tr>
 *   <tr><td>{@value #SEGMENT_EXCLUSIVE}</td><td>{@code name,...}</td><td>none</td>
 *       <td>segments whose partitions take no other tenant's keys</td></tr>
 *   <tr><td>{@value #SEGMENT_SEPARATOR}</td><td>string</td><td>{@code :}</td>
 *       <td>the tenant is the key before its first separator</td></tr>
 *   <tr><td>{@value #SEGMENT_REGEX}</td><td>Java regex with group 1</td><td>none</td>
 *       <td>the tenant is group 1 found in the key (instead of the separator)</td></tr>
 *   <tr><td>{@value #HOTKEY_KEYS}</td><td>{@code key,...}</td><td>none</td>
 *       <td>configured hot keys ({@link HotKeyRouter})</td></tr>
 *   <tr><td>{@value #HOTKEY_DETECT}</td><td>{@code true | false}</td><td>{@code false}</td>
 *       <td>online heavy-hitter detection</td></tr>
 *   <tr><td>{@value #HOTKEY_THRESHOLD}</td><td>decimal in (0, 1]</td><td>{@code 0.01}</td>
 *       <td>share of recent messages from which a detected key is hot</td></tr>
 *   <tr><td>{@value #HOTKEY_MEMORY}</td><td>int, bytes</td><td>{@code 65536}</td>
 *       <td>detector memory cap (at least 800: 16 counters)</td></tr>
 *   <tr><td>{@value #HOTKEY_WINDOW}</td><td>long, messages</td><td>{@code max(100000, 200 &times; sample / threshold)}</td>
 *       <td>messages after which detector counts halve (at least 200 &times; sample / threshold)</td></tr>
 *   <tr><td>{@value #HOTKEY_SAMPLE}</td><td>power of two in [1, 1024]</td><td>{@code 1}</td>
 *       <td>detection counts one message in this many (cheaper, slower to react)</td></tr>
 *   <tr><td>{@value #HOTKEY_CANDIDATES}</td><td>int &ge; 2 or {@code all}</td><td>{@code 8}</td>
 *       <td>candidate partitions per hot key</td></tr>
 *   <tr><td>{@value #HOTKEY_CHOICE}</td><td>{@code least-loaded | round-robin | value-hash}</td>
 *       <td>{@code least-loaded}</td><td>how a hot key's message picks a candidate</td></tr>
 *   <tr><td>{@value #VERSION_GENERATIONS}</td><td>{@code name:scheme[:placement[:count|*]],...}</td>
 *       <td>none</td><td>routing generations ({@link VersionedRouter}); count {@code *} (default)
 *       follows the topic</td></tr>
 *   <tr><td>{@value #VERSION_DEFAULT}</td><td>generation name</td><td>none (required with
 *       generations)</td><td>the generation of untagged messages</td></tr>
 *   <tr><td>{@value #VERSION_SOURCE}</td><td>{@code key-prefix | header}</td>
 *       <td>{@code key-prefix}</td><td>where a message's version is read</td></tr>
 *   <tr><td>{@value #VERSION_SEPARATOR}</td><td>string</td><td>{@code |}</td>
 *       <td>separator after the version prefix ({@code v2|order-17})</td></tr>
 *   <tr><td>{@value #VERSION_HEADER}</td><td>string</td><td>{@code routing-version}</td>
 *       <td>message property carrying the version (Pulsar)</td></tr>
 *   <tr><td>{@value #CANARY_SHARE}</td><td>decimal in [0, 1] ({@code 0.05}) or percentage in
 *       [0%, 100%] ({@code 5%})</td><td>none</td><td>share of keys routed by the new spec
 *       ({@link CanaryRouter}); a percentage is divided by 100 exactly</td></tr>
 *   <tr><td>{@value #CANARY_NEXT_PREFIX}{@code X}</td><td>as {@code routing.X}</td><td>none</td>
 *       <td>the new spec's {@code routing.X}: {@code scheme}, {@code placement}, every
 *       {@code segment.*}, {@code hotkey.*} and {@code version.*} key (not {@code keyless}, not
 *       another canary)</td></tr>
 * </table>
 *
 * <h2>Rules</h2>
 * <ul>
 *   <li>Keys outside the {@code routing.} prefix are ignored, so a whole producer config can be
 *       passed in, and so are the consumer side's {@code routing.assignor.*} keys (read by the Kafka
 *       assignor), so one client config file may hold both. Every other key inside the prefix
 *       must be one of the above.</li>
 *   <li>Values are strings (any object is read through {@code toString()}); surrounding whitespace
 *       is trimmed (also around list items); identifiers are case-sensitive.</li>
 *   <li>Illegal combinations: a layer's options without the property that enables the layer (e.g.
 *       {@code routing.hotkey.threshold} without {@code routing.hotkey.detect=true},
 *       {@code routing.version.separator} with {@code routing.version.source=header},
 *       {@code routing.version.header} without it,
 *       {@code routing.segment.exclusive} without ranges or weights); both
 *       {@code routing.segment.ranges} and {@code .weights}; both {@code routing.segment.separator}
 *       and {@code .regex}; {@code routing.scheme} or {@code routing.placement} other than the
 *       default together with {@code routing.version.generations} (each generation names its own);
 *       {@value #CANARY_NEXT_PREFIX}{@code *} without {@value #CANARY_SHARE}, the share without a
 *       new-spec property, {@code routing.canary.next.keyless} (keyless messages follow the old
 *       spec) and a canary inside the new spec. The new spec's own problems are reported under
 *       their {@code routing.canary.next.*} names.</li>
 *   <li>Detector memory: the old spec's detectors (one per generation) and the new spec's together
 *       must fit 64 MiB ({@link #claimedMemoryBytes()}).</li>
 *   <li>Any bad key, value or combination throws {@link RoutingConfigException} (an
 *       {@link IllegalArgumentException}) naming the property, the value and the rule, at parse
 *       time. The only checks that need the topic's partition count (a segment range beyond it, an
 *       empty shared range, a weighted segment rounding to no partition, a generation needing more
 *       partitions) run when a message is routed and throw a clear exception then (see
 *       {@link SegmentRouter}, {@link VersionedRouter}); never an out-of-range partition.</li>
 * </ul>
 *
 * <p>The string form ({@link #toString()}), e.g.
 * {@code routing.keyless=random, routing.placement=jump, routing.scheme=pulsar-murmur3}, lists
 * the scheme and keyless policy, the placement unless it is {@code native}, and every layer
 * property that was set, and is read back by
 * {@link #parse(String)} into an equal spec. In the string form a list value keeps its commas: a
 * comma-separated part that does not start a {@code routing.key=} pair continues the previous
 * value. Immutable, thread-safe and {@link Serializable} through that string form.
 */
public final class RoutingSpec implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Prefix of every RoutingKit property. */
  public static final String PREFIX = "routing.";
  /** Prefix of the consumer-side assignor's properties, which the write-side spec ignores. */
  public static final String ASSIGNOR_PREFIX = "routing.assignor.";
  /** The hash scheme: {@code kafka-murmur2} (default) or another {@link HashScheme#id()}. */
  public static final String SCHEME = "routing.scheme";
  /**
   * The keyless policy: {@code round-robin} (default), {@code sticky}, {@code random} or
   * {@code kafka-sticky} (the Kafka adapter's default; {@code sticky} in a core router).
   */
  public static final String KEYLESS = "routing.keyless";
  /**
   * The placement: {@code native} (default) or {@code modulo}, relative to the scheme, or a
   * concrete placement id ({@code jump}, {@code jump-back}, {@code floor-mod}, {@code to-positive},
   * {@code unsigned-mod}, {@code abs-remainder}).
   */
  public static final String PLACEMENT = "routing.placement";
  /** Explicit segment ranges, e.g. {@code order:0-5,payment:6-8}. */
  public static final String SEGMENT_RANGES = "routing.segment.ranges";
  /** Segment weights, e.g. {@code order:3,payment:1,*:2}. */
  public static final String SEGMENT_WEIGHTS = "routing.segment.weights";
  /** Exclusive segment names, e.g. {@code payment}. */
  public static final String SEGMENT_EXCLUSIVE = "routing.segment.exclusive";
  /** The tenant separator in keys (default {@code :}). */
  public static final String SEGMENT_SEPARATOR = "routing.segment.separator";
  /** A regex whose group 1 is the tenant. */
  public static final String SEGMENT_REGEX = "routing.segment.regex";
  /** Configured hot keys, comma-separated. */
  public static final String HOTKEY_KEYS = "routing.hotkey.keys";
  /** Online hot-key detection: {@code true} or {@code false} (default). */
  public static final String HOTKEY_DETECT = "routing.hotkey.detect";
  /** Detection share threshold (default {@code 0.01}). */
  public static final String HOTKEY_THRESHOLD = "routing.hotkey.threshold";
  /** Detection memory cap in bytes (default {@code 65536}). */
  public static final String HOTKEY_MEMORY = "routing.hotkey.memory";
  /** Detection decay window in messages (default {@code max(100000, 200 * sample / threshold)}). */
  public static final String HOTKEY_WINDOW = "routing.hotkey.window";
  /** Detection sampling: count one message in this many, a power of two (default {@code 1}). */
  public static final String HOTKEY_SAMPLE = "routing.hotkey.sample";
  /** Candidates per hot key: at least 2 or {@code all} (default {@code 8}). */
  public static final String HOTKEY_CANDIDATES = "routing.hotkey.candidates";
  /** Candidate choice: {@code least-loaded} (default), {@code round-robin}, {@code value-hash}. */
  public static final String HOTKEY_CHOICE = "routing.hotkey.choice";
  /** Routing generations, e.g. {@code v1:kafka-murmur2:native:12,v2:xxh3-64:jump:*}. */
  public static final String VERSION_GENERATIONS = "routing.version.generations";
  /** The default generation's name. */
  public static final String VERSION_DEFAULT = "routing.version.default";
  /** Where the version is read: {@code key-prefix} (default) or {@code header}. */
  public static final String VERSION_SOURCE = "routing.version.source";
  /** The separator after a key's version prefix (default {@code |}). */
  public static final String VERSION_SEPARATOR = "routing.version.separator";
  /** The message property carrying the version (default {@code routing-version}). */
  public static final String VERSION_HEADER = "routing.version.header";
  /**
   * The canary share: a decimal in [0, 1] ({@code 0.05}) or a percentage in [0%, 100%]
   * ({@code 5%}); the keys whose {@link CanaryRouter#point canary point} is below it go through the
   * new spec given under {@value #CANARY_NEXT_PREFIX}.
   */
  public static final String CANARY_SHARE = "routing.canary.share";
  /**
   * Prefix of the new spec of a canary rollout: {@code routing.canary.next.X} is the new spec's
   * {@code routing.X} (every property but {@code routing.keyless} and the canary's own), e.g.
   * {@code routing.canary.next.placement=jump}.
   */
  public static final String CANARY_NEXT_PREFIX = "routing.canary.next.";
  /** When the canary's share grows, fleet-wide: {@code share@instant,...} (a {@code CanarySchedule}). */
  public static final String CANARY_SCHEDULE = "routing.canary.schedule";
  /** The bound on any producer's clock error under a schedule (default {@code 1s}). */
  public static final String CANARY_MAX_CLOCK_SKEW = "routing.canary.max-clock-skew";
  /** The bound on any producer's send-to-ack time under a schedule (default {@code 120s}). */
  public static final String CANARY_DELIVERY_TIMEOUT = "routing.canary.delivery-timeout";

  private static final RoutingSpec DEFAULTS = new RoutingSpec(HashScheme.KAFKA_MURMUR2,
      PlacementMode.NATIVE, KeylessPolicy.ROUND_ROBIN, new TreeMap<>());

  private final HashScheme scheme;
  private final PlacementMode placementMode;
  private final KeylessPolicy keyless;
  private final Map<String, String> layers; // set layer properties, normalized, sorted
  private final transient LayerCheck.Layers typed; // the same, parsed and checked

  private RoutingSpec(HashScheme scheme, PlacementMode placementMode, KeylessPolicy keyless,
      Map<String, String> layers) {
    this.scheme = Objects.requireNonNull(scheme, "scheme");
    this.placementMode = Objects.requireNonNull(placementMode, "placementMode");
    this.keyless = Objects.requireNonNull(keyless, "keyless");
    this.layers = Collections.unmodifiableMap(new TreeMap<>(layers));
    this.typed = LayerCheck.check(scheme, placementMode, this.layers);
  }

  /**
   * Returns the values {@value #PLACEMENT} (and the {@code routing} command's {@code --placement})
   * accepts, in this order: {@code native}, {@code modulo} (relative to the scheme), then the
   * concrete placements {@code jump}, {@code jump-back}, {@code floor-mod}, {@code to-positive},
   * {@code unsigned-mod}, {@code abs-remainder} ({@link Placement#id()}).
   */
  public static List<String> placementValues() {
    return PLACEMENT_VALUES;
  }

  private static final List<String> PLACEMENT_VALUES =
      Arrays.stream(PlacementMode.values()).map(m -> m.id).toList();

  /**
   * Returns the names of every {@code routing.*} property this version understands, sorted: the
   * {@link RoutingProperty} catalogue's keys but the Kafka assignors' ({@code routing.assignor.*}),
   * with a {@value #CANARY_NEXT_PREFIX} copy of each key the canary's new spec takes.
   */
  public static Set<String> knownProperties() {
    return SpecKeys.ALL;
  }

  /** Returns the default spec: {@code kafka-murmur2}, {@code native} placement, {@code round-robin}. */
  public static RoutingSpec defaults() {
    return DEFAULTS;
  }

  /**
   * Parses the {@code routing.*} entries of {@code config}; other keys are ignored.
   *
   * @throws RoutingConfigException for an unknown {@code routing.*} key, a bad value or an illegal
   *     combination
   * @throws NullPointerException if {@code config} is null
   */
  public static RoutingSpec parse(Map<String, ?> config) {
    return SpecText.parse(config);
  }

  /** A spec of normalized, not yet checked layer properties; checked here. */
  static RoutingSpec of(HashScheme scheme, PlacementMode placementMode, KeylessPolicy keyless,
      Map<String, String> layers) {
    return new RoutingSpec(scheme, placementMode, keyless, layers);
  }

  /**
   * Parses the {@code routing.*} entries of {@code properties} (including defaults chained into
   * it); other keys are ignored.
   *
   * @throws RoutingConfigException for an unknown {@code routing.*} key, a bad value or an illegal
   *     combination
   */
  public static RoutingSpec parse(Properties properties) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (String name : properties.stringPropertyNames()) {
      map.put(name, properties.getProperty(name));
    }
    return parse(map);
  }

  /**
   * Parses the string form: {@code key=value} pairs separated by commas (whitespace around keys,
   * values and commas is ignored; an empty string is the default spec). A comma-separated part that
   * does not start with {@code name.name=} continues the previous value, so list values such as
   * {@code routing.segment.ranges=order:0-5,payment:6-8} can be written as they are. The inverse of
   * {@link #toString()}.
   *
   * @throws RoutingConfigException for a spec not starting with a {@code key=value} pair, a repeated
   *     key, an unknown key (any key here must start with {@code routing.}), a bad value or an
   *     illegal combination
   */
  public static RoutingSpec parse(String spec) {
    return SpecText.parse(spec);
  }

  /**
   * The name among {@code known} within edit distance 2 of {@code name} (a typo: a letter missing,
   * extra, swapped or wrong), the closest first (ties: the first in iteration order); null if none
   * is that close. Used for the "did you mean" hint of every {@code routing.*} property error,
   * including the Kafka assignor's {@code routing.assignor.*} keys.
   *
   * @throws NullPointerException if an argument is null
   */
  public static String nearest(String name, java.util.Collection<String> known) {
    return DidYouMean.nearest(java.util.Objects.requireNonNull(name, "name"),
        java.util.Objects.requireNonNull(known, "known"));
  }

  /**
   * Returns whether messages name their routing generation in a header (message property):
   * {@value #VERSION_SOURCE}{@code =header}. A client whose partitioner sees no headers (Kafka)
   * cannot route such a spec.
   */
  public boolean readsVersionFromHeader() {
    return typed.generations() != null && typed.source().equals("header")
        || typed.canaryNext() != null && typed.canaryNext().readsVersionFromHeader();
  }

  /**
   * Returns the most memory routers built from this spec may claim for hot-key detection, in bytes:
   * one detector per generation, allocated when first used, plus the canary's new spec's; at most
   * 64 MiB in all ({@link KeyRouter#claimedMemoryBytes()}).
   */
  public long claimedMemoryBytes() {
    return LayerCheck.claimed(typed)
        + (typed.canaryNext() == null ? 0 : typed.canaryNext().claimedMemoryBytes());
  }

  /**
   * Returns the canary's new spec ({@value #CANARY_NEXT_PREFIX}{@code *} as plain
   * {@code routing.*} properties, its keyless policy this spec's), or null without a canary.
   */
  public RoutingSpec canaryNext() {
    return typed.canaryNext() == null ? null : typed.canaryNext().withKeyless(keyless);
  }

  /** Returns the canary share in [0, 1] ({@value #CANARY_SHARE}), or NaN without a canary. */
  public double canaryShare() {
    return typed.canaryNext() == null ? Double.NaN : typed.canaryShare();
  }

  /**
   * Returns the canary's schedule ({@value #CANARY_SCHEDULE}), or null without one. With a
   * schedule, {@link #keyRouter()} routes at the starting share ({@value #CANARY_SHARE}, default 0);
   * the Kafka and Pulsar adapters follow the schedule by their clock.
   */
  public io.github.routingkit.router.canary.CanarySchedule canarySchedule() {
    return typed.schedule();
  }

  /**
   * Returns the switch plan of a scheduled canary on {@code numPartitions} partitions: which keys
   * move at which step, the step's settle instants, and a generation every producer and consumer
   * with this spec names alike.
   *
   * @throws IllegalStateException if the spec has no {@value #CANARY_SCHEDULE}
   * @throws IllegalArgumentException if {@code numPartitions} is not in [1, 2^20]
   */
  public io.github.routingkit.switching.SwitchPlan switchPlan(int numPartitions) {
    if (typed.schedule() == null) {
      throw new IllegalStateException("the spec has no " + CANARY_SCHEDULE + ": " + this);
    }
    return ScheduleCheck.plan(this, typed.schedule(), numPartitions);
  }

  /**
   * Returns this spec without its canary: the old spec, whose router routes the keys outside the
   * canary and every keyless message (this spec itself if it has no canary).
   */
  public RoutingSpec withoutCanary() {
    Map<String, String> copy = new TreeMap<>(layers);
    copy.keySet().removeAll(SpecKeys.CANARY);
    return copy.size() == layers.size() ? this
        : new RoutingSpec(scheme, placementMode, keyless, copy);
  }

  /** Returns a copy with the given hash scheme. */
  public RoutingSpec withScheme(HashScheme scheme) {
    return new RoutingSpec(scheme, placementMode, keyless, layers);
  }

  /**
   * Returns a copy with the given placement ({@value #PLACEMENT}): {@code native} or
   * {@code modulo} for the current scheme, or a concrete placement by id (see
   * {@link #placementValues()}).
   *
   * @throws RoutingConfigException if {@code placement} is not one of {@link #placementValues()}
   */
  public RoutingSpec withPlacement(String placement) {
    return new RoutingSpec(scheme, PlacementMode.parse(PLACEMENT, placement, placement), keyless,
        layers);
  }

  /** Returns a copy with the given keyless policy. */
  public RoutingSpec withKeyless(KeylessPolicy keyless) {
    return new RoutingSpec(scheme, placementMode, keyless, layers);
  }

  /**
   * Returns a copy with a layer property set ({@code value} null: removed), validated like parsed
   * input.
   *
   * @throws RoutingConfigException if {@code key} is not a layer property ({@code routing.segment.*},
   *     {@code routing.hotkey.*}, {@code routing.version.*}, {@code routing.canary.*}), or for a bad
   *     value or combination
   */
  public RoutingSpec with(String key, String value) {
    if (!SpecKeys.LAYERS.contains(key)) {
      throw new RoutingConfigException(key, value, "must be one of " + SpecKeys.LAYERS
          + " (use withScheme, withPlacement, withKeyless for the others)");
    }
    Map<String, String> copy = new TreeMap<>(layers);
    if (value == null) {
      copy.remove(key);
    } else {
      if (value.trim().isEmpty()) {
        throw new RoutingConfigException(key, value, "must not be empty");
      }
      copy.put(key, SpecText.normalize(key, value.trim()));
    }
    return new RoutingSpec(scheme, placementMode, keyless, copy);
  }

  /** Returns the hash scheme ({@value #SCHEME}). */
  public HashScheme scheme() {
    return scheme;
  }

  /** Returns the placement in force: {@value #PLACEMENT} resolved against the scheme. */
  public Placement placement() {
    return placementMode.resolve(scheme);
  }

  /**
   * Returns {@value #PLACEMENT} as written ({@code native} when unset), e.g. {@code native} or
   * {@code floor-mod}: what {@link #toString()} and {@link #toMap()} keep (both leave out
   * {@code native}, the default), so a spec round-trips as the user wrote it.
   */
  public String placementSetting() {
    return placementMode.id;
  }

  /**
   * Returns {@value #PLACEMENT} with what it resolved to, for reports: for {@code native} and
   * {@code modulo} the concrete placement and the scheme, e.g.
   * {@code native (floor-mod for pulsar-murmur3)}; a concrete value as it is, e.g.
   * {@code jump-back}.
   */
  public String describePlacement() {
    return placementMode.isAlias()
        ? placementMode.id + " (" + placement().id() + " for " + scheme.id() + ")"
        : placementMode.id;
  }

  /** Returns the keyless policy ({@value #KEYLESS}). */
  public KeylessPolicy keyless() {
    return keyless;
  }

  /**
   * Builds a new router for this spec, composed canary &rarr; version &rarr; segment &rarr; hot key
   * &rarr; scheme/placement (layers that are not configured are left out; with no layer it is a
   * {@link HashRouter}; with a canary a {@link CanaryRouter} of this spec's other layers and the
   * new spec's router). Each call returns a new instance with its own keyless and hot-key state;
   * keyed routing of pure layers is identical across instances.
   */
  public KeyRouter keyRouter() {
    return RouterChain.of(scheme, placement(), keyless, typed);
  }

  /**
   * Returns the properties of this spec in key order: {@value #SCHEME} and {@value #KEYLESS}
   * (defaults included), {@value #PLACEMENT} unless it is {@code native}, and every layer property
   * that is set. The Kafka adapter's keyless default ({@code kafka-sticky}, used when
   * {@value #KEYLESS} is absent) is not this spec's ({@code round-robin}): copied into a producer
   * config, this map makes keyless records round-robin unless {@value #KEYLESS} is left out or set
   * to {@code kafka-sticky}.
   */
  public Map<String, String> toMap() {
    Map<String, String> map = new TreeMap<>(layers);
    map.put(SCHEME, scheme.id());
    map.put(KEYLESS, keyless.id());
    if (placementMode != PlacementMode.NATIVE) {
      map.put(PLACEMENT, placementMode.id); // omitted at its default: the pre-placement string form
    }
    return map;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RoutingSpec
        && ((RoutingSpec) o).scheme == scheme
        && ((RoutingSpec) o).placementMode == placementMode
        && ((RoutingSpec) o).keyless == keyless
        && ((RoutingSpec) o).layers.equals(layers);
  }

  @Override
  public int hashCode() {
    return Objects.hash(scheme, placementMode, keyless, layers);
  }

  /**
   * Returns the parsable string form, e.g.
   * {@code routing.keyless=round-robin, routing.scheme=kafka-murmur2}.
   */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    toMap().forEach((k, v) -> sb.append(sb.length() == 0 ? "" : ", ").append(k).append('=')
        .append(SpecText.quote(v)));
    return sb.toString();
  }

  private Object writeReplace() {
    return new Proxy(toString(), new TreeMap<>(toMap()));
  }

  private void readObject(ObjectInputStream in) throws InvalidObjectException {
    throw new InvalidObjectException("RoutingSpec is deserialized through its proxy");
  }

  /**
   * Serialized form: the string form and the properties, re-parsed (and so re-validated) on
   * deserialization. The properties are preferred: a list value holding {@code ", a.b="} cannot be
   * told apart from the next pair in the string form. (Streams written before the properties
   * field existed carry only the string form.)
   */
  private static final class Proxy implements Serializable {
    private static final long serialVersionUID = 1L;
    private final String spec;
    private final TreeMap<String, String> properties;

    Proxy(String spec, TreeMap<String, String> properties) {
      this.spec = spec;
      this.properties = properties;
    }

    private Object readResolve() throws InvalidObjectException {
      try {
        if (properties == null) {
          return parse(spec);
        }
        RoutingSpec parsed = parse(properties);
        if (!parsed.toString().equals(spec)) {
          throw new IllegalArgumentException("string form '" + spec + "' and properties "
              + properties + " differ");
        }
        return parsed;
      } catch (RuntimeException e) {
        InvalidObjectException ex = new InvalidObjectException("corrupt RoutingSpec: " + e.getMessage());
        ex.initCause(e);
        throw ex;
      }
    }
  }
}
