package io.github.routingkit.config;

import io.github.routingkit.KeyFormat;
import io.github.routingkit.KeyRouter;
import io.github.routingkit.KeylessPolicy;
import io.github.routingkit.RoutingConfigException;
import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.placement.Placement;
import io.github.routingkit.router.HashRouter;
import io.github.routingkit.router.canary.CanaryRouter;
import io.github.routingkit.router.version.VersionedRouter;

import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;

/**
 * The whole routing configuration as one immutable value, read from {@code routing.*} properties
 * (a Kafka producer's configs, a {@link Properties} file) or built in code, and turned into a
 * {@link KeyRouter} by {@link #keyRouter()}.
 *
 * <h2>Composition</h2>
 * One fixed order, each layer optional: <b>canary &rarr; version &rarr; segment &rarr; hot key
 * &rarr; scheme/placement</b>, i.e. {@code CanaryRouter(VersionedRouter(SegmentRouter(
 * HotKeyRouter(HashRouter))), new spec's router)}, one segment/hot-key chain per generation. A
 * generation fixes the scheme, placement and partition count; a segment narrows the partitions to
 * the tenant's range; hot keys spread over candidates within it. With a canary the other
 * properties are the <em>old</em> spec and the {@value #CANARY_NEXT_PREFIX}{@code *} ones the
 * <em>new</em> one; a key goes through the new spec iff its {@link CanaryRouter#point canary
 * point} is below the share, so raising the share only moves keys from old to new; keyless
 * messages follow the old spec.
 *
 * <h2>Properties</h2>
 * Every key, with its type, default, example and meaning, is an entry of the
 * {@link RoutingProperty} catalogue (which docs/configuration.md's reference tables render, and
 * whose Javadoc states the rules a spec is checked by); each has a constant here, e.g.
 * {@value #SCHEME}. The typed queries ({@link #hasSegments()}, {@link #hasHotKeys()},
 * {@link #hasVersions()}, {@link #versionSource()}, {@link #hasCanary()},
 * {@link #layerProperties(RoutingProperty.Layer)}) tell which layers a spec configures, so
 * adapters never read key names. Every bad key, value or combination throws a
 * {@link RoutingConfigException} naming the property, the value and the rule, at parse time.
 *
 * <p>Immutable, thread-safe and {@link Serializable} through its string form
 * ({@link #toParsableString()}), which {@link #parse(String)} reads back into an equal spec.
 */
public final class RoutingSpec implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Prefix of every RoutingKit property. */
  public static final String PREFIX = "routing.";
  /** Prefix of the consumer-side assignor's properties, which the write-side spec ignores. */
  public static final String ASSIGNOR_PREFIX = "routing.assignor.";
  /** The hash scheme: {@code kafka-murmur2} (default) or another {@link HashScheme#id()}. */
  public static final String SCHEME = "routing.scheme";
  /** The keyless policy: {@code round-robin} (default), {@code sticky}, {@code random}, {@code kafka-sticky}. */
  public static final String KEYLESS = "routing.keyless";
  /** The placement: {@code native} (default), {@code modulo} or a placement id ({@link #placementValues()}). */
  public static final String PLACEMENT = "routing.placement";
  /** The key format: {@code raw} (default: the whole key is hashed) or a {@link KeyFormat} id. */
  public static final String KEY_FORMAT = "routing.key.format";
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
  /** The canary share: a decimal in [0, 1] ({@code 0.05}) or a percentage in [0%, 100%] ({@code 5%}). */
  public static final String CANARY_SHARE = "routing.canary.share";
  /** Prefix of a canary's new spec: {@code routing.canary.next.X} is its {@code routing.X}. */
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
   * Returns the values {@value #PLACEMENT} (and the CLI's {@code --placement}) accepts: the aliases
   * {@code native}, {@code modulo} (relative to the scheme), then each concrete {@link Placement#id()}.
   */
  public static List<String> placementValues() {
    return PlacementMode.ID_LIST;
  }

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
    return SpecText.parse(properties);
  }

  /**
   * Parses the string form, the inverse of {@link #toParsableString()}: {@code key=value} pairs
   * separated by commas (whitespace around keys, values and commas is ignored; an empty string is
   * the default spec). A comma-separated part that does not start with {@code name.name=}
   * continues the previous value, so {@code routing.segment.ranges=order:0-5,payment:6-8} reads as
   * written.
   *
   * @throws RoutingConfigException for a spec not starting with a {@code key=value} pair, a repeated
   *     key, an unknown key (any key here must start with {@code routing.}), a bad value or an
   *     illegal combination
   */
  public static RoutingSpec parse(String spec) {
    return SpecText.parse(spec);
  }

  /**
   * The name among {@code known} within edit distance 2 of {@code name} (a letter missing, extra,
   * swapped or wrong), the closest (ties: the first in iteration order), or null: the "did you
   * mean" hint of every {@code routing.*} property error, {@code routing.assignor.*} included.
   *
   * @throws NullPointerException if an argument is null
   */
  public static String nearest(String name, Collection<String> known) {
    return DidYouMean.nearest(Objects.requireNonNull(name, "name"),
        Objects.requireNonNull(known, "known"));
  }

  /**
   * Returns whether this spec (the old spec, with a canary: {@link #canaryNext()} answers for the
   * new one) has a segment layer: {@value #SEGMENT_RANGES} or {@value #SEGMENT_WEIGHTS} is set.
   */
  public boolean hasSegments() {
    return typed.segments() != null;
  }

  /** Returns whether this (old) spec has a hot-key layer: {@value #HOTKEY_KEYS} or detection. */
  public boolean hasHotKeys() {
    return typed.hotKeys() != null;
  }

  /** Returns whether this (old) spec routes by generations: {@value #VERSION_GENERATIONS} is set. */
  public boolean hasVersions() {
    return typed.generations() != null;
  }

  /**
   * Returns where messages name their generation ({@value #VERSION_SOURCE}), or null without
   * generations ({@link #hasVersions()}).
   */
  public VersionedRouter.Source versionSource() {
    return typed.generations() == null ? null : typed.source();
  }

  /**
   * Returns whether any layer is configured (a key format other than {@code raw}, segment, hot
   * key, version or canary): false means {@link #keyRouter()} is a plain {@link HashRouter}.
   */
  public boolean hasLayers() {
    return keyFormat().hasHeader() || hasSegments() || hasHotKeys() || hasVersions() || hasCanary();
  }

  /** Returns whether a canary is configured: {@value #CANARY_SHARE} with its new spec. */
  public boolean hasCanary() {
    return typed.canaryNext() != null;
  }

  /**
   * Returns the properties of one layer set anywhere in the composed spec, as written: this
   * spec's own and, with a canary, the new spec's under their {@value #CANARY_NEXT_PREFIX} names
   * (the canary's own {@value #CANARY_SHARE} is a {@link RoutingProperty.Layer#CANARY} property).
   * Values are normalized as {@link #toMap()} gives them; keys sorted; empty if no part of the
   * spec configures the layer.
   */
  public Map<String, String> layerProperties(RoutingProperty.Layer layer) {
    return RoutingProperty.ofLayer(toMap(), layer);
  }

  /**
   * Returns the property that makes messages name their generation in a header (message
   * property): {@value #VERSION_SOURCE}, or {@value #CANARY_NEXT_PREFIX}{@code version.source};
   * null if none does. A partitioner that sees no headers (Kafka) cannot route such a spec.
   */
  public String versionFromHeaderProperty() {
    return VersionCheck.headerProperty(versionSource(), typed.canaryNext());
  }

  /** Returns whether any part of the spec reads versions from a header: {@link #versionFromHeaderProperty()} is set. */
  public boolean readsVersionFromHeader() {
    return versionFromHeaderProperty() != null;
  }

  /**
   * Returns the key format ({@value #KEY_FORMAT}): {@link KeyFormat#RAW} unless set. Routers built
   * from this spec hash a byte key's payload behind that format's header.
   */
  public KeyFormat keyFormat() {
    return typed.keyFormat();
  }

  /**
   * Returns a copy with the given key format ({@link KeyFormat#RAW} removes {@value #KEY_FORMAT}).
   *
   * @throws NullPointerException if {@code format} is null
   */
  public RoutingSpec withKeyFormat(KeyFormat format) {
    return with(KEY_FORMAT, Objects.requireNonNull(format, "format") == KeyFormat.RAW ? null
        : format.id());
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

  /** Returns the canary's new spec ({@value #CANARY_NEXT_PREFIX}{@code *} as {@code routing.*}, this keyless policy), or null. */
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
    return ScheduleCheck.plan(this, typed.schedule(), numPartitions);
  }

  /**
   * Returns this spec without its canary: the old spec, whose router routes the keys outside the
   * canary and every keyless message (this spec itself if it has no canary).
   */
  public RoutingSpec withoutCanary() {
    Map<String, String> copy = new TreeMap<>(layers);
    return copy.keySet().removeAll(SpecKeys.CANARY)
        ? new RoutingSpec(scheme, placementMode, keyless, copy) : this;
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
   * Returns a copy with a layer property set ({@code value} null: removed), checked like parsed input.
   *
   * @throws RoutingConfigException if {@code key} is not a layer property ({@code routing.segment.*},
   *     {@code routing.hotkey.*}, {@code routing.version.*}, {@code routing.canary.*}), or for a bad
   *     value or combination
   */
  public RoutingSpec with(String key, String value) {
    return new RoutingSpec(scheme, placementMode, keyless, SpecText.with(layers, key, value));
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
   * Returns {@value #PLACEMENT} as written ({@code native} when unset), e.g. {@code floor-mod}:
   * what {@link #toMap()} keeps (leaving out {@code native}), so a spec round-trips as written.
   */
  public String placementSetting() {
    return placementMode.id;
  }

  /**
   * Returns {@value #PLACEMENT} with what it resolved to, for reports: an alias with the concrete
   * placement and the scheme, e.g. {@code native (floor-mod for pulsar-murmur3)}; a concrete value
   * as it is, e.g. {@code jump-back}.
   */
  public String describePlacement() {
    return placementMode.describe(scheme);
  }

  /** Returns the keyless policy ({@value #KEYLESS}). */
  public KeylessPolicy keyless() {
    return keyless;
  }

  /** Returns the {@code routing.metrics.*} options: what the adapters publish ({@link MetricsOptions}). */
  public MetricsOptions metricsOptions() {
    return MetricsCheck.options(layers);
  }

  /**
   * Builds a new router for this spec, composed as the class documentation says (with no layer a
   * {@link HashRouter}). Each call returns a new instance with its own keyless and hot-key state;
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
      map.put(PLACEMENT, placementMode.id); // omitted at its default, as the string form does
    }
    return map;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof RoutingSpec)) {
      return false;
    }
    RoutingSpec r = (RoutingSpec) o;
    return r.scheme == scheme && r.placementMode == placementMode && r.keyless == keyless
        && r.layers.equals(layers);
  }

  @Override
  public int hashCode() {
    return Objects.hash(scheme, placementMode, keyless, layers);
  }

  /**
   * Returns the parsable string form, e.g. {@code routing.keyless=round-robin, routing.scheme=kafka-murmur2}:
   * the {@link #toMap()} entries as {@code key=value} pairs joined by {@code ", "}, a value that
   * the comma rule would cut in double quotes; {@link #parse(String)} reads it back.
   */
  public String toParsableString() {
    return SpecText.write(toMap());
  }

  /** Returns {@link #toParsableString()}. */
  @Override
  public String toString() {
    return toParsableString();
  }

  private Object writeReplace() {
    return new Proxy(toParsableString(), new TreeMap<>(toMap()));
  }

  private void readObject(ObjectInputStream in) throws InvalidObjectException {
    throw new InvalidObjectException("RoutingSpec is deserialized through its proxy");
  }

  /**
   * Serialized form: the string form and the properties, re-parsed (and so re-validated) by
   * {@link SpecText#deserialized}, which prefers the properties.
   */
  private static final class Proxy implements Serializable {
    private static final long serialVersionUID = 1L;
    private final String spec;
    private final TreeMap<String, String> properties;

    Proxy(String spec, TreeMap<String, String> properties) {
      this.spec = spec; // a list value holding ", a.b=" reads as two pairs here
      this.properties = properties;
    }

    private Object readResolve() throws InvalidObjectException {
      return SpecText.deserialized(spec, properties);
    }
  }
}
