package io.github.routingkit.config;

import io.github.routingkit.KeyFormat;
import io.github.routingkit.KeylessPolicy;
import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.router.version.VersionedRouter;
import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The catalogue of every {@code routing.*} property: its key, the layer it belongs to, whether its
 * value is a comma-separated list, whether a canary's new spec takes it, and its documentation
 * (type, default, example and meaning, as Markdown). It is the one source of the key sets
 * {@link RoutingSpec} parses ({@link RoutingSpec#knownProperties()}), of the
 * {@code routing.canary.next.*} names, of which values are lists, and of the reference tables in
 * {@code docs/configuration.md}, which a test compares with {@link #markdownTable(Layer)} so the
 * two cannot drift. Entries are listed in the order the tables show them.
 *
 * <h2>Layers</h2>
 * The scheme ({@value RoutingSpec#SCHEME}), placement ({@value RoutingSpec#PLACEMENT}) and
 * keyless policy ({@value RoutingSpec#KEYLESS}); the key format
 * ({@value RoutingSpec#KEY_FORMAT}); the segment layer ({@code routing.segment.*},
 * {@link io.github.routingkit.router.segment.SegmentRouter}), the hot-key layer
 * ({@code routing.hotkey.*}, {@link io.github.routingkit.router.hotkey.HotKeyRouter}), the
 * version layer ({@code routing.version.*}, {@link VersionedRouter}) and the canary
 * ({@value RoutingSpec#CANARY_SHARE} and {@value RoutingSpec#CANARY_NEXT_PREFIX}{@code X},
 * {@link io.github.routingkit.router.canary.CanaryRouter}).
 *
 * <h2>Rules</h2>
 * {@link RoutingSpec} ignores keys outside {@value RoutingSpec#PREFIX} (a whole producer config
 * can be passed in), and the Kafka assignors' {@value RoutingSpec#ASSIGNOR_PREFIX}{@code *};
 * every other {@code routing.*} key must be in this catalogue. Values are strings
 * ({@code toString()} of any object; a {@code Collection} is joined by commas), trimmed, also
 * around list items; identifiers are case-sensitive. Illegal combinations: a layer's options
 * without the property that enables the layer (e.g. {@code routing.hotkey.threshold} without
 * {@code routing.hotkey.detect=true}), the version source's option for the other source, both
 * segment ranges and weights, both segment separator and regex, a scheme or placement other than
 * the default with generations, canary properties without the share or the share without them,
 * {@code routing.canary.next.keyless}, a canary in a canary (the new spec's problems are named
 * {@code routing.canary.next.*}), and detectors of more than 64 MiB in all
 * ({@link RoutingSpec#claimedMemoryBytes()}). Every bad key, value or combination throws a
 * {@link io.github.routingkit.RoutingConfigException} (an {@link IllegalArgumentException})
 * naming the property, the value and the rule, at parse time, all problems in one; only the
 * checks that need the topic's partition count run when a message is routed (see
 * {@link io.github.routingkit.router.segment.SegmentRouter}, {@link VersionedRouter}), never
 * giving an out-of-range partition.
 *
 * <p>In the string form ({@link RoutingSpec#toParsableString()}), e.g.
 * {@code routing.keyless=random, routing.placement=jump, routing.scheme=pulsar-murmur3}, a list
 * value keeps its commas: a comma-separated part that does not start a {@code routing.key=} pair
 * continues the previous value.
 *
 * <h2>Adding a property</h2>
 * <ol>
 *   <li>Give its key a {@code public static final String} constant in {@link RoutingSpec} (in
 *       {@code RoutingAssignorConfig} for a {@code routing.assignor.*} key, in
 *       {@link MetricsOptions} for a {@code routing.metrics.*} key): users and the
 *       Javadoc's {@code {@value}} links name it there.</li>
 *   <li>Add one entry here: key, {@link Layer}, {@link Value list or single value}, whether the
 *       canary's new spec takes it ({@link Canary#COPIED}), and its type, default, example and
 *       meaning as they should read in the reference table. A new layer gets a {@link Layer}
 *       constant (its table is rendered on its own).</li>
 *   <li>Write its check where its layer is checked ({@code LayerCheck} runs {@code HotKeyCheck},
 *       {@code VersionCheck}, {@code CanaryCheck}; a new layer gets its own {@code XCheck}): a bad
 *       value is a {@code RoutingConfigException(property, value, rule)}, collected with the
 *       others; then a typed query on {@link RoutingSpec} if adapters need to know about it.</li>
 *   <li>Regenerate the table and check it: {@code ./mvnw -q -pl routing-core test
 *       -Dtest=ConfigurationDocTest -Drouting.docs.update=true} rewrites the marked tables in
 *       {@code docs/configuration.md}; without the flag the test fails while they differ.</li>
 * </ol>
 * Keys are stable once released: users write them in configs.
 *
 * <p>Immutable and thread-safe.
 */
public enum RoutingProperty {
  /** {@value RoutingSpec#SCHEME}: the key hash, a {@link HashScheme} by its id. */
  SCHEME(RoutingSpec.SCHEME, Layer.HASH, Value.SINGLE, Canary.COPIED,
      choices(Arrays.stream(HashScheme.values()).map(HashScheme::id)), "`kafka-murmur2`",
      "`routing.scheme=librdkafka-crc32`",
      "the key hash; see [compatibility.md](compatibility.md) for which client each one matches"),
  /** {@value RoutingSpec#PLACEMENT}: hash to partition, relative to the scheme or by name. */
  PLACEMENT(RoutingSpec.PLACEMENT, Layer.HASH, Value.SINGLE, Canary.COPIED,
      choices(Arrays.stream(PlacementMode.values()).map(m -> m.id)), "`native`",
      "`routing.placement=jump`",
      "`native`: the scheme's own arithmetic (`jump` for `xxh3-64`, the client's modulo for the"
          + " others); `modulo`: the client's modulo (`unsigned-mod` for `xxh3-64`); `jump`: jump"
          + " consistent hash of the scheme's hash; `jump-back`: JumpBackHash of the scheme's hash"
          + " (as consistent as `jump`, `O(1)`, but a different mapping: see"
          + " [strategies.md](strategies.md#jumpbackhash-placement)); `floor-mod` (Pulsar's"
          + " `signSafeMod`), `to-positive` (Kafka's `toPositive(h) % n`), `unsigned-mod`"
          + " (librdkafka's `uint32 % n`), `abs-remainder` (Sarama's `\\|h % n\\|`): that modulo"
          + " whatever the scheme"),
  /** {@value RoutingSpec#KEYLESS}: the {@link KeylessPolicy} of messages without a key. */
  KEYLESS(RoutingSpec.KEYLESS, Layer.HASH, Value.SINGLE, Canary.OLD_SPEC_ONLY,
      choices(Arrays.stream(KeylessPolicy.values()).map(KeylessPolicy::id)),
      "`round-robin` (Kafka adapter: `kafka-sticky`)", "`routing.keyless=sticky`",
      "messages without a key: one partition per message in turn, 64 consecutive messages per"
          + " partition in turn, or uniformly random; `kafka-sticky` is accepted everywhere (so"
          + " one producer config parses in `RoutingSpec.parse`, `routing lint` and `routing …"
          + " --spec`): outside RoutingPartitioner (a core `KeyRouter` from"
          + " `RoutingSpec.keyRouter()`, the Pulsar adapter, the CLI) it runs as the nearest core"
          + " policy, `sticky`; in RoutingPartitioner (`BatchStickyKeyless`) it sticks to a"
          + " partition until `batch.size` bytes went to it and its batch is full or sent, as"
          + " kafka-clients' built-in does (reads `batch.size` and `linger.ms`) (see"
          + " [kafka.md](kafka.md#producer-side-keyless-records))"),

  /** {@value RoutingSpec#KEY_FORMAT}: how the key bytes are laid out; a {@link KeyFormat}. */
  KEY_FORMAT(RoutingSpec.KEY_FORMAT, Layer.KEY, Value.SINGLE, Canary.OLD_SPEC_ONLY,
      choices(Arrays.stream(KeyFormat.values()).map(KeyFormat::id)), "`raw`",
      "`routing.key.format=confluent`",
      "`raw`: hash the whole key; the others hash a schema-registry key without its header, so a"
          + " new schema id keeps every key on its partition: `confluent` (magic byte, 4-byte id:"
          + " Confluent Avro / JSON Schema, Apicurio 3, Apicurio 2 with `as-confluent`),"
          + " `confluent-protobuf` (plus the message indexes), `apicurio-protobuf` (4-byte id, type"
          + " `Ref`), `apicurio-legacy` (8-byte global or content id: Apicurio 2 with"
          + " `apicurio.registry.headers.enabled=false`; its default puts the id in a record header"
          + " and leaves the key bare: `raw`), `apicurio-legacy-protobuf`; a key without a valid"
          + " header is hashed whole,"
          + " as with `raw` (see [compatibility.md](compatibility.md#schema-registry-keys)); applies"
          + " to both specs of a canary"),

  /** {@value RoutingSpec#SEGMENT_RANGES}: explicit segment ranges. */
  SEGMENT_RANGES(RoutingSpec.SEGMENT_RANGES, Layer.SEGMENT, Value.LIST, Canary.COPIED,
      "list of `name:from-to` or `name:p`", "—", "`order:0-5,payment:6-8`",
      "explicit inclusive partition ranges; must not overlap"),
  /** {@value RoutingSpec#SEGMENT_WEIGHTS}: segment weights, laid out per partition count. */
  SEGMENT_WEIGHTS(RoutingSpec.SEGMENT_WEIGHTS, Layer.SEGMENT, Value.LIST, Canary.COPIED,
      "list of `name:weight`, optional `*:weight`", "—", "`order:3,payment:1,*:2`",
      "ranges derived per partition count by largest remainder; `*` reserves a share for the"
          + " shared range only"),
  /** {@value RoutingSpec#SEGMENT_EXCLUSIVE}: segments whose partitions take no other tenant. */
  SEGMENT_EXCLUSIVE(RoutingSpec.SEGMENT_EXCLUSIVE, Layer.SEGMENT, Value.LIST, Canary.COPIED,
      "list of segment names", "none", "`payment`",
      "segments whose partitions receive no other tenant's keys"),
  /** {@value RoutingSpec#SEGMENT_SEPARATOR}: the tenant is the key before it. */
  SEGMENT_SEPARATOR(RoutingSpec.SEGMENT_SEPARATOR, Layer.SEGMENT, Value.SINGLE, Canary.COPIED,
      "string", "`:`", "`routing.segment.separator=/`",
      "tenant = key bytes before the first separator"),
  /** {@value RoutingSpec#SEGMENT_REGEX}: the tenant is its group 1. */
  SEGMENT_REGEX(RoutingSpec.SEGMENT_REGEX, Layer.SEGMENT, Value.SINGLE, Canary.COPIED,
      "Java regex with group 1", "—", "`^@([^/]+)/`",
      "tenant = group 1 found in the key (instead of the separator; allocates per message)"),

  /** {@value RoutingSpec#HOTKEY_KEYS}: configured hot keys. */
  HOTKEY_KEYS(RoutingSpec.HOTKEY_KEYS, Layer.HOTKEY, Value.LIST, Canary.COPIED,
      "list of keys (UTF-8 text)", "none", "`customer-1,customer-2`", "configured hot keys"),
  /** {@value RoutingSpec#HOTKEY_DETECT}: online heavy-hitter detection. */
  HOTKEY_DETECT(RoutingSpec.HOTKEY_DETECT, Layer.HOTKEY, Value.SINGLE, Canary.COPIED,
      "`true` \\| `false`", "`false`", "`true`", "online heavy-hitter detection"),
  /** {@value RoutingSpec#HOTKEY_THRESHOLD}: the share from which a detected key is hot. */
  HOTKEY_THRESHOLD(RoutingSpec.HOTKEY_THRESHOLD, Layer.HOTKEY, Value.SINGLE, Canary.COPIED,
      "decimal in (0, 1]", "`0.01`", "`0.005`",
      "share of recent messages from which a detected key is hot (needs `detect=true`)"),
  /** {@value RoutingSpec#HOTKEY_MEMORY}: the detector's memory cap. */
  HOTKEY_MEMORY(RoutingSpec.HOTKEY_MEMORY, Layer.HOTKEY, Value.SINGLE, Canary.COPIED,
      "int, bytes (800 to 67108864 = 64 MiB)", "`65536`", "`16384`",
      "detector memory cap; 1024 counters = 41,120 bytes at the default (needs `detect=true`)"),
  /** {@value RoutingSpec#HOTKEY_WINDOW}: messages after which detector counts halve. */
  HOTKEY_WINDOW(RoutingSpec.HOTKEY_WINDOW, Layer.HOTKEY, Value.SINGLE, Canary.COPIED,
      "long, messages (≥ 200 × sample / threshold)", "`max(100000, 200 × sample / threshold)`",
      "`1000000`", "detector counts halve every window (needs `detect=true`)"),
  /** {@value RoutingSpec#HOTKEY_SAMPLE}: detection counts one message in this many. */
  HOTKEY_SAMPLE(RoutingSpec.HOTKEY_SAMPLE, Layer.HOTKEY, Value.SINGLE, Canary.COPIED,
      "power of two, 1 to 1024", "`1`", "`8`",
      "detection counts one message in this many: cheaper per message, `sample` times slower"
          + " to react, shares noisier (needs `detect=true`; see"
          + " [strategies.md](strategies.md#hot-keys))"),
  /** {@value RoutingSpec#HOTKEY_CANDIDATES}: candidate partitions per hot key. */
  HOTKEY_CANDIDATES(RoutingSpec.HOTKEY_CANDIDATES, Layer.HOTKEY, Value.SINGLE, Canary.COPIED,
      "int ≥ 2 or `all`", "`8`", "`all`", "candidate partitions per hot key"),
  /** {@value RoutingSpec#HOTKEY_CHOICE}: how a hot key's message picks a candidate. */
  HOTKEY_CHOICE(RoutingSpec.HOTKEY_CHOICE, Layer.HOTKEY, Value.SINGLE, Canary.COPIED,
      "`least-loaded` \\| `round-robin` \\| `value-hash`", "`least-loaded`", "`value-hash`",
      "how each message of a hot key picks a candidate"),

  /** {@value RoutingSpec#VERSION_GENERATIONS}: the routing generations. */
  VERSION_GENERATIONS(RoutingSpec.VERSION_GENERATIONS, Layer.VERSION, Value.LIST, Canary.COPIED,
      "list of `name:scheme[:placement[:partitions\\|*]]`", "—",
      "`v1:kafka-murmur2:native:12,v2:xxh3-64:jump:*`",
      "routing generations; placement is any `routing.placement` value; `*` (default) follows"
          + " the topic's partition count. `routing.scheme`/`routing.placement` must then stay at"
          + " their defaults"),
  /** {@value RoutingSpec#VERSION_DEFAULT}: the generation of untagged messages. */
  VERSION_DEFAULT(RoutingSpec.VERSION_DEFAULT, Layer.VERSION, Value.SINGLE, Canary.COPIED,
      "generation name", "— (required)", "`v1`", "generation of untagged messages"),
  /** {@value RoutingSpec#VERSION_SOURCE}: where a message's version is read. */
  VERSION_SOURCE(RoutingSpec.VERSION_SOURCE, Layer.VERSION, Value.SINGLE, Canary.COPIED,
      choices(Arrays.stream(VersionedRouter.Source.values()).map(VersionedRouter.Source::id)), "`key-prefix`",
      "`header`", "where the version is read (`header`: Pulsar message property; Kafka's"
          + " partitioner sees no headers)"),
  /** {@value RoutingSpec#VERSION_SEPARATOR}: the separator after a key's version prefix. */
  VERSION_SEPARATOR(RoutingSpec.VERSION_SEPARATOR, Layer.VERSION, Value.SINGLE, Canary.COPIED,
      "string", "`\\|`", "`#`",
      "separator after the version prefix: `v2\\|order-17` (only with `source=key-prefix`)"),
  /** {@value RoutingSpec#VERSION_HEADER}: the message property carrying the version. */
  VERSION_HEADER(RoutingSpec.VERSION_HEADER, Layer.VERSION, Value.SINGLE, Canary.COPIED,
      "string", "`routing-version`", "`x-routing-version`",
      "message property carrying the version (only with `source=header`)"),

  /** {@value RoutingSpec#CANARY_SHARE}: the share of keys routed by the new spec. */
  CANARY_SHARE(RoutingSpec.CANARY_SHARE, Layer.CANARY, Value.SINGLE, Canary.OLD_SPEC_ONLY,
      "decimal in [0, 1] or percentage in [0 %, 100 %]", "—", "`5%` (= `0.05`)",
      "share of keys routed by the new spec: a key whose canary point (its own XXH3 hash, not"
          + " the routers') is below the share"),
  /**
   * {@value RoutingSpec#CANARY_NEXT_PREFIX}{@code X}: the new spec's {@code routing.X}, for every
   * entry that is {@link Canary#COPIED}. A prefix, not a key of its own ({@link #isPrefix()}).
   */
  CANARY_NEXT(RoutingSpec.CANARY_NEXT_PREFIX, Layer.CANARY, Value.SINGLE, Canary.OLD_SPEC_ONLY,
      "as `routing.X`", "—", "`routing.canary.next.placement=jump`",
      "the new spec's `routing.X`: `scheme`, `placement` and every `segment.*`, `hotkey.*`,"
          + " `version.*` key; not `keyless` (keyless messages follow the old spec) and no nested"
          + " canary"),

  /** {@value RoutingSpec#CANARY_SCHEDULE}: when the share grows, the same instant fleet-wide. */
  CANARY_SCHEDULE(RoutingSpec.CANARY_SCHEDULE, Layer.CANARY, Value.LIST, Canary.OLD_SPEC_ONLY,
      "`share@instant,...`: shares as `routing.canary.share`, increasing; ISO-8601 instants,"
          + " increasing; at most 63 steps", "—", "`5%@2026-12-02T10:00:00Z,25%@2026-12-02T11:00:00Z`",
      "from each instant on, every producer routes at that step's share by its own clock"
          + " (`routing.canary.share`, default 0, before the first); the step's switch markers go"
          + " out at its settle instant, the instant plus twice the clock skew plus the delivery"
          + " timeout (see [rollout.md](rollout.md#one-step-fleet-wide))"),
  /** {@value RoutingSpec#CANARY_MAX_CLOCK_SKEW}: the bound on producers' clock error. */
  CANARY_MAX_CLOCK_SKEW(RoutingSpec.CANARY_MAX_CLOCK_SKEW, Layer.CANARY, Value.SINGLE,
      Canary.OLD_SPEC_ONLY, "duration: `500ms`, `2s`, `1m`; at most 1 hour", "`1s`", "`250ms`",
      "the most any producer's clock may be off true time (only with a schedule); consumers count"
          + " and log records that show a larger skew"),
  /** {@value RoutingSpec#CANARY_DELIVERY_TIMEOUT}: the bound on producers' send-to-ack time. */
  CANARY_DELIVERY_TIMEOUT(RoutingSpec.CANARY_DELIVERY_TIMEOUT, Layer.CANARY, Value.SINGLE,
      Canary.OLD_SPEC_ONLY, "duration, as above", "`120s`", "`30s`",
      "the longest a record may take from send to ack or failure (only with a schedule): Kafka's"
          + " `RoutingPartitioner` rejects a larger `delivery.timeout.ms`, Pulsar's"
          + " `PulsarRouting.customPartition` sets the producer's `sendTimeout` to it"),
  /** {@value MetricsOptions#ENABLED}: whether the adapters publish metrics. */
  METRICS_ENABLED(MetricsOptions.ENABLED, Layer.METRICS, Value.SINGLE, Canary.OLD_SPEC_ONLY,
      "`true` \\| `false`", "`true`", "`false`",
      "whether RoutingPartitioner, RoutingAssignor and RoutingMessageRouter publish their metrics"
          + " (JMX through the client's `metric.reporters`, OpenTelemetry, Micrometer; see"
          + " [metrics.md](metrics.md)); `false` leaves the routing path exactly as without"
          + " metrics"),
  /** {@value MetricsOptions#WINDOW_MS}: the skew metrics' sliding window. */
  METRICS_WINDOW_MS(MetricsOptions.WINDOW_MS, Layer.METRICS, Value.SINGLE,
      Canary.OLD_SPEC_ONLY, "int milliseconds in [1000, 86400000]", "`60000`", "`300000`",
      "the sliding window of the skew metrics (max/mean and verdict): between one and 1.25"
          + " windows of the most recent records"),
  /** {@value MetricsOptions#HOTKEY_SAMPLE}: the metrics' own hot-key tracker. */
  METRICS_HOTKEY_SAMPLE(MetricsOptions.HOTKEY_SAMPLE, Layer.METRICS, Value.SINGLE,
      Canary.OLD_SPEC_ONLY, "`0`, or a power of two in [1, 1024]", "`0` (off)", "`64`",
      "for routers without hot-key detection: count one keyed record in this many in a"
          + " heavy-hitter sketch of 64 KiB, so the hot-key metrics name the hot keys; `0`: no"
          + " sketch (a spec with `routing.hotkey.detect=true` reports its own detector's keys)"),
  /** {@value MetricsOptions#HOTKEY_THRESHOLD}: from which share the tracker reports a key. */
  METRICS_HOTKEY_THRESHOLD(MetricsOptions.HOTKEY_THRESHOLD, Layer.METRICS, Value.SINGLE,
      Canary.OLD_SPEC_ONLY, "decimal share in (0, 1]", "`0.01`", "`0.05`",
      "the share of the sampled records from which the metrics' hot-key sketch reports a key"),

  /** {@code routing.assignor.weight}: a classic consumer's relative capacity. */
  ASSIGNOR_WEIGHT("routing.assignor.weight", Layer.ASSIGNOR, Value.SINGLE, Canary.OLD_SPEC_ONLY,
      "int in [1, 1000000]", "1", "`4`",
      "classic consumer (`RoutingAssignor`): this member's relative capacity, sent in its"
          + " userData"),
  /** {@code routing.assignor.topic.weights}: the load one partition of a topic counts for. */
  ASSIGNOR_TOPIC_WEIGHTS("routing.assignor.topic.weights", Layer.ASSIGNOR, Value.LIST,
      Canary.OLD_SPEC_ONLY, "`topic:weight,...`, weights in [1, 1000], none of them empty",
      "every topic 1", "`orders:3,audit:1`",
      "classic consumer (the group leader's value counts): the load one partition of a topic"
          + " counts for"),
  /** {@code routing.assignor.rebalance.protocol}: the rebalance protocols supported. */
  ASSIGNOR_REBALANCE_PROTOCOL("routing.assignor.rebalance.protocol", Layer.ASSIGNOR,
      Value.SINGLE, Canary.OLD_SPEC_ONLY, "`cooperative` or `eager`, in any case",
      "`cooperative`", "`eager`",
      "classic consumer: `cooperative` supports COOPERATIVE and EAGER (Kafka picks COOPERATIVE);"
          + " `eager` only EAGER"),
  /** {@code routing.assignor.instance.weights}: weights of static members, broker side. */
  ASSIGNOR_INSTANCE_WEIGHTS("routing.assignor.instance.weights", Layer.ASSIGNOR, Value.LIST,
      Canary.OLD_SPEC_ONLY,
      "`group.instance.id:weight,...`, weights in [1, 1000000], none of them empty",
      "everyone 1", "`checkout-1:2`",
      "broker (`RoutingGroupAssignor`, KIP-848): weights of static members");

  /** The routing layer a property belongs to; each has its own table in the reference. */
  public enum Layer {
    /** Scheme, placement and keyless policy: the base router. */
    HASH,
    /** {@code routing.key.*}: which bytes of the key are hashed. */
    KEY,
    /** {@code routing.segment.*}: tenants to partition ranges. */
    SEGMENT,
    /** {@code routing.hotkey.*}: hot keys spread over candidates. */
    HOTKEY,
    /** {@code routing.version.*}: routing generations. */
    VERSION,
    /** {@code routing.canary.*}: the share of keys routed by a new spec. */
    CANARY,
    /** {@code routing.metrics.*}: what the adapters publish; no effect on routing. */
    METRICS,
    /** {@code routing.assignor.*}: read by the Kafka assignors, skipped by {@link RoutingSpec}. */
    ASSIGNOR
  }

  /** Whether a value is one string or a comma-separated list (items trimmed). */
  public enum Value {
    /** One string, kept as written (trimmed). */
    SINGLE,
    /** A comma-separated list; each item is trimmed, and no item may be empty. */
    LIST
  }

  /** Whether a canary's new spec takes the property as {@code routing.canary.next.X}. */
  public enum Canary {
    /** The new spec takes it: {@code routing.canary.next.X} is its {@code routing.X}. */
    COPIED,
    /** Only the old (or only) spec has it. */
    OLD_SPEC_ONLY
  }

  private final String key;
  private final Layer layer;
  private final Value value;
  private final Canary canary;
  private final String type;
  private final String defaultValue;
  private final String example;
  private final String meaning;

  RoutingProperty(String key, Layer layer, Value value, Canary canary, String type,
      String defaultValue, String example, String meaning) {
    this.key = key;
    this.layer = layer;
    this.value = value;
    this.canary = canary;
    this.type = type;
    this.defaultValue = defaultValue;
    this.example = example;
    this.meaning = meaning;
  }

  /** Returns the key, e.g. {@code routing.scheme} (for {@link #CANARY_NEXT} the prefix). */
  public String key() {
    return key;
  }

  /** Returns the layer. */
  public Layer layer() {
    return layer;
  }

  /** Returns whether the value is a comma-separated list. */
  public boolean isList() {
    return value == Value.LIST;
  }

  /** Returns whether a canary's new spec takes this property as {@code routing.canary.next.X}. */
  public boolean isCopiedIntoCanary() {
    return canary == Canary.COPIED;
  }

  /** Returns whether the key is a prefix of keys ({@link #CANARY_NEXT}), not a key itself. */
  public boolean isPrefix() {
    return key.endsWith(".");
  }

  /** Returns the accepted values, as Markdown for the reference table. */
  public String type() {
    return type;
  }

  /** Returns the default, as Markdown for the reference table ({@code —}: none). */
  public String defaultValue() {
    return defaultValue;
  }

  /** Returns an example value, as Markdown for the reference table. */
  public String example() {
    return example;
  }

  /** Returns what the property does, as Markdown for the reference table. */
  public String meaning() {
    return meaning;
  }

  /**
   * Returns the property with this key (a {@code routing.canary.next.X} key: the entry of
   * {@code routing.X}, if it is {@link #isCopiedIntoCanary() copied}), or null if none.
   */
  public static RoutingProperty of(String key) {
    if (key == null) {
      return null;
    }
    String plain = key.startsWith(RoutingSpec.CANARY_NEXT_PREFIX)
        ? RoutingSpec.PREFIX + key.substring(RoutingSpec.CANARY_NEXT_PREFIX.length()) : null;
    for (RoutingProperty p : values()) {
      if (!p.isPrefix() && p.key.equals(key)) {
        return p;
      }
      if (plain != null && p.isCopiedIntoCanary() && p.key.equals(plain)) {
        return p;
      }
    }
    return null;
  }

  /**
   * Returns the entries of {@code properties} whose key is a property of {@code layer} (a
   * {@code routing.canary.next.X} key counts as {@code routing.X}'s), sorted by key, unmodifiable.
   */
  static Map<String, String> ofLayer(Map<String, String> properties, Layer layer) {
    Map<String, String> out = new TreeMap<>();
    properties.forEach((key, value) -> {
      RoutingProperty p = of(key);
      if (p != null && p.layer == layer) {
        out.put(key, value);
      }
    });
    return Collections.unmodifiableMap(out);
  }

  /** Returns the keys of the layer's properties (prefixes left out), sorted. */
  public static Set<String> keys(Layer layer) {
    return sorted(Arrays.stream(values()).filter(p -> p.layer == layer && !p.isPrefix())
        .map(RoutingProperty::key));
  }

  /** The {@code routing.canary.next.X} key of every copied property, sorted. */
  static Set<String> canaryNextKeys() {
    return sorted(Arrays.stream(values()).filter(RoutingProperty::isCopiedIntoCanary)
        .map(p -> RoutingSpec.CANARY_NEXT_PREFIX + p.key.substring(RoutingSpec.PREFIX.length())));
  }

  /**
   * Returns the reference table of one layer as {@code docs/configuration.md} shows it: a Markdown
   * table with the columns property, type, default, example and meaning, one row per entry in
   * catalogue order, ending with a line break.
   */
  static String markdownTable(Layer layer) {
    StringBuilder sb = new StringBuilder("| property | type | default | example | meaning |\n"
        + "|---|---|---|---|---|\n");
    for (RoutingProperty p : values()) {
      if (p.layer == layer) {
        sb.append("| `").append(p.isPrefix() ? p.key + "X" : p.key).append("` | ").append(p.type)
            .append(" | ").append(p.defaultValue).append(" | ").append(p.example).append(" | ")
            .append(p.meaning).append(" |\n");
      }
    }
    return sb.toString();
  }

  private static String choices(Stream<String> ids) {
    return ids.map(id -> "`" + id + "`").collect(Collectors.joining(" \\| "));
  }

  private static Set<String> sorted(Stream<String> keys) {
    Set<String> set = keys.collect(Collectors.toCollection(TreeSet::new));
    return Collections.unmodifiableSet(set);
  }
}
