package io.github.routingkit;

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
import java.util.TreeSet;
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
 * <h2>Properties</h2>
 * <table>
 *   <caption>routing.* properties</caption>
 *   <tr><th>key</th><th>type</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@value #SCHEME}</td><td>{@code kafka-murmur2 | pulsar-java-string | pulsar-murmur3 |
 *       librdkafka-crc32 | librdkafka-fnv1a | sarama-fnv1a | sarama-fnv1a-reference |
 *       pulsar-go-java-string | kafkajs-legacy | xxh3-64}</td>
 *       <td>{@code kafka-murmur2}</td><td>the {@link HashScheme} (by {@link HashScheme#id()})</td></tr>
 *   <tr><td>{@value #PLACEMENT}</td><td>{@code native | modulo | jump | jump-back}</td><td>{@code native}</td>
 *       <td>the scheme's native {@link Placement}, its modulo placement
 *       ({@link HashScheme#moduloPlacement()}), {@link Placement#JUMP} or
 *       {@link Placement#JUMP_BACK}</td></tr>
 *   <tr><td>{@value #KEYLESS}</td><td>{@code round-robin | sticky | random}</td><td>{@code round-robin}</td>
 *       <td>the {@link KeylessPolicy} for messages without a key</td></tr>
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
 *       default together with {@code routing.version.generations} (each generation names its own).</li>
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
  /** The keyless policy: {@code round-robin} (default), {@code sticky} or {@code random}. */
  public static final String KEYLESS = "routing.keyless";
  /** The placement: {@code native} (default), {@code modulo}, {@code jump} or {@code jump-back}. */
  public static final String PLACEMENT = "routing.placement";
  /** Explicit segment ranges, e.g. {@code order:0-5,payment:6-8}. */
  public static final String SEGMENT_RANGES = SegmentRouter.RANGES;
  /** Segment weights, e.g. {@code order:3,payment:1,*:2}. */
  public static final String SEGMENT_WEIGHTS = SegmentRouter.WEIGHTS;
  /** Exclusive segment names, e.g. {@code payment}. */
  public static final String SEGMENT_EXCLUSIVE = SegmentRouter.EXCLUSIVE;
  /** The tenant separator in keys (default {@code :}). */
  public static final String SEGMENT_SEPARATOR = SegmentRouter.SEPARATOR;
  /** A regex whose group 1 is the tenant. */
  public static final String SEGMENT_REGEX = SegmentRouter.REGEX;
  /** Configured hot keys, comma-separated. */
  public static final String HOTKEY_KEYS = HotKeyRouter.KEYS;
  /** Online hot-key detection: {@code true} or {@code false} (default). */
  public static final String HOTKEY_DETECT = HotKeyRouter.DETECT;
  /** Detection share threshold (default {@code 0.01}). */
  public static final String HOTKEY_THRESHOLD = HotKeyRouter.THRESHOLD;
  /** Detection memory cap in bytes (default {@code 65536}). */
  public static final String HOTKEY_MEMORY = HotKeyRouter.MEMORY;
  /** Detection decay window in messages (default {@code max(100000, 200 * sample / threshold)}). */
  public static final String HOTKEY_WINDOW = HotKeyRouter.WINDOW;
  /** Detection sampling: count one message in this many, a power of two (default {@code 1}). */
  public static final String HOTKEY_SAMPLE = HotKeyRouter.SAMPLE;
  /** Candidates per hot key: at least 2 or {@code all} (default {@code 8}). */
  public static final String HOTKEY_CANDIDATES = HotKeyRouter.CANDIDATES;
  /** Candidate choice: {@code least-loaded} (default), {@code round-robin}, {@code value-hash}. */
  public static final String HOTKEY_CHOICE = HotKeyRouter.CHOICE;
  /** Routing generations, e.g. {@code v1:kafka-murmur2:native:12,v2:xxh3-64:jump:*}. */
  public static final String VERSION_GENERATIONS = VersionedRouter.GENERATIONS;
  /** The default generation's name. */
  public static final String VERSION_DEFAULT = VersionedRouter.DEFAULT;
  /** Where the version is read: {@code key-prefix} (default) or {@code header}. */
  public static final String VERSION_SOURCE = VersionedRouter.SOURCE;
  /** The separator after a key's version prefix (default {@code |}). */
  public static final String VERSION_SEPARATOR = VersionedRouter.SEPARATOR;
  /** The message property carrying the version (default {@code routing-version}). */
  public static final String VERSION_HEADER = VersionedRouter.HEADER;

  private static final Set<String> LAYER_KEYS = Set.of(SEGMENT_RANGES, SEGMENT_WEIGHTS,
      SEGMENT_EXCLUSIVE, SEGMENT_SEPARATOR, SEGMENT_REGEX, HOTKEY_KEYS, HOTKEY_DETECT,
      HOTKEY_THRESHOLD, HOTKEY_MEMORY, HOTKEY_WINDOW, HOTKEY_SAMPLE, HOTKEY_CANDIDATES,
      HOTKEY_CHOICE,
      VERSION_GENERATIONS, VERSION_DEFAULT, VERSION_SOURCE, VERSION_SEPARATOR, VERSION_HEADER);
  private static final Set<String> KEYS;

  static {
    Set<String> keys = new TreeSet<>(LAYER_KEYS);
    keys.add(SCHEME);
    keys.add(KEYLESS);
    keys.add(PLACEMENT);
    KEYS = Collections.unmodifiableSet(keys);
  }

  // a new key=value pair starts with a dotted key (every routing.* key, and typos of one);
  // "user=2" in "routing.hotkey.keys=user=1,user=2" continues the list value
  private static final Pattern PAIR_START =
      Pattern.compile("^\\s*[A-Za-z0-9_\\-]*\\.[A-Za-z0-9_.\\-]*\\s*=.*", Pattern.DOTALL);
  private static final RoutingSpec DEFAULTS = new RoutingSpec(HashScheme.KAFKA_MURMUR2,
      PlacementMode.NATIVE, KeylessPolicy.ROUND_ROBIN, new TreeMap<>());

  private final HashScheme scheme;
  private final PlacementMode placementMode;
  private final KeylessPolicy keyless;
  private final Map<String, String> layers; // set layer properties, normalized, sorted

  private RoutingSpec(HashScheme scheme, PlacementMode placementMode, KeylessPolicy keyless,
      Map<String, String> layers) {
    this.scheme = Objects.requireNonNull(scheme, "scheme");
    this.placementMode = Objects.requireNonNull(placementMode, "placementMode");
    this.keyless = Objects.requireNonNull(keyless, "keyless");
    this.layers = Collections.unmodifiableMap(new TreeMap<>(layers));
    validateLayers();
  }

  /** How {@value #PLACEMENT} selects the placement for the scheme. */
  enum PlacementMode {
    NATIVE("native"), MODULO("modulo"), JUMP("jump"), JUMP_BACK("jump-back");

    /** The accepted values, for error messages: {@code [native, modulo, jump, jump-back]}. */
    static final String IDS = Arrays.stream(values()).map(m -> m.id)
        .collect(Collectors.joining(", ", "[", "]"));

    final String id;

    PlacementMode(String id) {
      this.id = id;
    }

    Placement resolve(HashScheme scheme) {
      switch (this) {
        case MODULO:
          return scheme.moduloPlacement();
        case JUMP:
          return Placement.JUMP;
        case JUMP_BACK:
          return Placement.JUMP_BACK;
        default:
          return scheme.nativePlacement();
      }
    }

    static PlacementMode parse(String property, String value, Object raw) {
      for (PlacementMode m : values()) {
        if (m.id.equals(value)) {
          return m;
        }
      }
      throw new RoutingConfigException(property, raw, "must be one of " + IDS);
    }
  }

  /** Returns the names of every {@code routing.*} property this version understands, sorted. */
  public static Set<String> knownProperties() {
    return KEYS;
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
    HashScheme scheme = DEFAULTS.scheme;
    PlacementMode placementMode = DEFAULTS.placementMode;
    KeylessPolicy keyless = DEFAULTS.keyless;
    Map<String, String> layers = new TreeMap<>();
    Map<String, Object> sorted = new TreeMap<>();
    for (Map.Entry<String, ?> e : config.entrySet()) {
      if (e.getKey() != null) { // a null key is no routing.* key: ignored like any other
        sorted.put(e.getKey(), e.getValue());
      }
    }
    for (Map.Entry<String, ?> e : sorted.entrySet()) {
      String key = e.getKey();
      if (!key.startsWith(PREFIX) || key.startsWith(ASSIGNOR_PREFIX)) {
        continue;
      }
      Object raw = e.getValue();
      // a Collection (Kafka's LIST config style) is a list value: [a, b] would be read as the
      // items "[a" and "b]"
      String value = raw == null ? null : raw instanceof java.util.Collection<?> c
          ? String.join(",", c.stream().map(String::valueOf).toList()) : raw.toString().trim();
      switch (key) {
        case SCHEME:
          scheme = parseScheme(SCHEME, value, raw);
          break;
        case KEYLESS:
          keyless = parseKeyless(value, raw);
          break;
        case PLACEMENT:
          placementMode = PlacementMode.parse(PLACEMENT, value, raw);
          break;
        default:
          if (!LAYER_KEYS.contains(key)) {
            String near = nearestKnown(key);
            throw new RoutingConfigException(key, raw, "unknown property"
                + (near == null ? "" : " (did you mean " + near + "?)")
                + ", known routing properties are " + KEYS);
          }
          if (value == null || value.isEmpty()) {
            throw new RoutingConfigException(key, raw, "must not be empty");
          }
          layers.put(key, normalizeList(key, value));
      }
    }
    return new RoutingSpec(scheme, placementMode, keyless, layers);
  }

  /** Trims list items of list-valued properties, so equal specs print equally. */
  private static String normalizeList(String key, String value) {
    if (key.equals(SEGMENT_REGEX) || key.equals(SEGMENT_SEPARATOR)
        || key.equals(VERSION_SEPARATOR) || key.equals(VERSION_HEADER)) {
      return value;
    }
    List<String> items = new ArrayList<>();
    for (String item : value.split(",", -1)) {
      items.add(item.trim());
    }
    return String.join(",", items);
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
   * does not start with {@code name=} continues the previous value, so list values such as
   * {@code routing.segment.ranges=order:0-5,payment:6-8} can be written as they are. The inverse of
   * {@link #toString()}.
   *
   * @throws RoutingConfigException for a spec not starting with a {@code key=value} pair, a repeated
   *     key, an unknown key (any key here must start with {@code routing.}), a bad value or an
   *     illegal combination
   */
  public static RoutingSpec parse(String spec) {
    Map<String, Object> map = new LinkedHashMap<>();
    String key = null;
    StringBuilder value = null;
    for (String part : spec.split(",", -1)) {
      if (part.isBlank()) {
        continue;
      }
      if (key != null && !PAIR_START.matcher(part).matches()) {
        value.append(',').append(part);
        continue;
      }
      if (key != null) {
        put(map, key, value.toString().trim());
      }
      int eq = part.indexOf('=');
      if (eq < 0) {
        throw new RoutingConfigException(part.trim(), null, "must be written key=value");
      }
      key = part.substring(0, eq).trim();
      value = new StringBuilder(part.substring(eq + 1));
      if (!key.startsWith(PREFIX)) {
        throw new RoutingConfigException(key, value.toString().trim(),
            "unknown property, keys in a spec string must start with " + PREFIX);
      }
    }
    if (key != null) {
      put(map, key, value.toString().trim());
    }
    return parse(map);
  }

  private static void put(Map<String, Object> map, String key, String value) {
    if (map.put(key, value) != null) {
      throw new RoutingConfigException(key, value, "was already set earlier in the spec string");
    }
  }

  private static HashScheme parseScheme(String property, String value, Object raw) {
    try {
      return HashScheme.fromId(value);
    } catch (IllegalArgumentException e) {
      throw new RoutingConfigException(property, raw, "must be one of " + HashScheme.ids());
    }
  }

  private static KeylessPolicy parseKeyless(String value, Object raw) {
    try {
      return KeylessPolicy.fromId(value);
    } catch (IllegalArgumentException e) {
      throw new RoutingConfigException(KEYLESS, raw, "must be one of " + KeylessPolicy.ids());
    }
  }

  // --- layer validation and construction ---------------------------------------------------------

  private boolean has(String key) {
    return layers.containsKey(key);
  }

  private void requires(String rule, String... options) {
    for (String o : options) {
      if (has(o)) {
        throw new RoutingConfigException(o, layers.get(o), "has no effect unless " + rule);
      }
    }
  }

  private boolean segmentsEnabled() {
    return has(SEGMENT_RANGES) || has(SEGMENT_WEIGHTS);
  }

  private boolean detect() {
    return "true".equals(layers.get(HOTKEY_DETECT));
  }

  private boolean hotKeysEnabled() {
    return has(HOTKEY_KEYS) || detect();
  }

  private boolean versionsEnabled() {
    return has(VERSION_GENERATIONS);
  }

  private void validateLayers() {
    if (!segmentsEnabled()) {
      requires(SEGMENT_RANGES + " or " + SEGMENT_WEIGHTS + " is set",
          SEGMENT_EXCLUSIVE, SEGMENT_SEPARATOR, SEGMENT_REGEX);
    }
    if (has(HOTKEY_DETECT) && !detect() && !"false".equals(layers.get(HOTKEY_DETECT))) {
      throw new RoutingConfigException(HOTKEY_DETECT, layers.get(HOTKEY_DETECT),
          "must be true or false");
    }
    if (!detect()) {
      requires(HOTKEY_DETECT + "=true", HOTKEY_THRESHOLD, HOTKEY_MEMORY,
          HOTKEY_WINDOW, HOTKEY_SAMPLE);
    }
    if (!hotKeysEnabled()) {
      requires(HOTKEY_KEYS + " is set or " + HOTKEY_DETECT + "=true",
          HOTKEY_CANDIDATES, HOTKEY_CHOICE);
    }
    if (!versionsEnabled()) {
      requires(VERSION_GENERATIONS + " is set", VERSION_DEFAULT,
          VERSION_SOURCE, VERSION_SEPARATOR, VERSION_HEADER);
    } else {
      // the key prefix and the header are alternatives: each one's option is inert for the other
      if ("header".equals(layers.get(VERSION_SOURCE))) {
        requires(VERSION_SOURCE + "=key-prefix", VERSION_SEPARATOR);
      } else {
        requires(VERSION_SOURCE + "=header", VERSION_HEADER);
      }
      if (scheme != DEFAULTS.scheme) {
        throw new RoutingConfigException(SCHEME, scheme.id(), "cannot be combined with "
            + VERSION_GENERATIONS + ", where each generation names its scheme");
      }
      if (placementMode != DEFAULTS.placementMode) {
        throw new RoutingConfigException(PLACEMENT, placementMode.id, "cannot be combined with "
            + VERSION_GENERATIONS + ", where each generation names its placement");
      }
      if (!has(VERSION_DEFAULT)) {
        throw new RoutingConfigException(VERSION_DEFAULT, null, "must be set (to a generation"
            + " name) when " + VERSION_GENERATIONS + " is set");
      }
    }
    keyRouter(); // builds every layer once: each builder checks its values
  }

  /** Integers in property values: ASCII digits only (Integer.parseInt also takes '+' and other scripts' digits). */
  private static final Pattern ASCII_DIGITS = Pattern.compile("[0-9]+");
  /** Decimals in property values: no hex, no d/f suffix, no NaN or Infinity. */
  private static final Pattern DECIMAL =
      Pattern.compile("[0-9]+(\\.[0-9]*)?([eE][+-]?[0-9]+)?|\\.[0-9]+([eE][+-]?[0-9]+)?");

  /**
   * The known property within edit distance 2 of {@code key} (a typo: a letter missing, extra,
   * swapped or wrong), the closest first; null if none is that close.
   */
  private static String nearestKnown(String key) {
    return nearest(key, KEYS);
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
    String key = java.util.Objects.requireNonNull(name, "name");
    String best = null;
    int bestDistance = 3;
    for (String candidate : known) {
      String k = candidate;
      int d = editDistance(key, k, bestDistance);
      if (d < bestDistance) {
        best = k;
        bestDistance = d;
      }
    }
    return best;
  }

  /** Optimal-string-alignment distance, or {@code limit} if it is at least that. */
  private static int editDistance(String a, String b, int limit) {
    if (Math.abs(a.length() - b.length()) >= limit) {
      return limit;
    }
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        int v = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          v = Math.min(v, d[i - 2][j - 2] + 1); // two neighbours swapped
        }
        d[i][j] = v;
      }
    }
    return Math.min(d[a.length()][b.length()], limit);
  }

  private static int parseInt(String property, String value, int min, String rule) {
    if (!ASCII_DIGITS.matcher(value).matches()) {
      throw new RoutingConfigException(property, value, rule);
    }
    try {
      int v = Integer.parseInt(value);
      if (v >= min) {
        return v;
      }
    } catch (NumberFormatException e) {
      // fall through
    }
    throw new RoutingConfigException(property, value, rule);
  }

  private HotKeyRouter.Builder hotKeyBuilder(KeyRouter inner) {
    HotKeyRouter.Builder b = HotKeyRouter.builder(inner);
    if (has(HOTKEY_KEYS)) {
      List<String> keys = new ArrayList<>();
      for (String k : layers.get(HOTKEY_KEYS).split(",")) {
        if (k.isEmpty()) {
          throw new RoutingConfigException(HOTKEY_KEYS, layers.get(HOTKEY_KEYS),
              "must be a comma-separated list of non-empty keys");
        }
        if (keys.contains(k)) {
          throw new RoutingConfigException(HOTKEY_KEYS, layers.get(HOTKEY_KEYS),
              "key '" + k + "' is listed twice");
        }
        keys.add(k);
      }
      b.hotKeys(keys);
    }
    b.detect(detect());
    if (has(HOTKEY_THRESHOLD)) {
      String v = layers.get(HOTKEY_THRESHOLD);
      double t;
      try {
        t = DECIMAL.matcher(v).matches() ? Double.parseDouble(v) : Double.NaN;
      } catch (NumberFormatException e) {
        t = Double.NaN;
      }
      if (!(t > 0 && t <= 1)) {
        throw new RoutingConfigException(HOTKEY_THRESHOLD, v, "must be a decimal share in (0, 1]");
      }
      b.threshold(t);
    }
    if (has(HOTKEY_MEMORY)) {
      b.memoryBytes(parseInt(HOTKEY_MEMORY, layers.get(HOTKEY_MEMORY), 1,
          "must be a positive number of bytes"));
    }
    if (has(HOTKEY_WINDOW)) {
      String v = layers.get(HOTKEY_WINDOW);
      try {
        if (!ASCII_DIGITS.matcher(v).matches()) {
          throw new NumberFormatException();
        }
        long w = Long.parseLong(v);
        if (w < 1) {
          throw new NumberFormatException();
        }
        b.window(w);
      } catch (NumberFormatException e) {
        throw new RoutingConfigException(HOTKEY_WINDOW, v, "must be a positive number of messages");
      }
    }
    if (has(HOTKEY_SAMPLE)) {
      String v = layers.get(HOTKEY_SAMPLE);
      int sample = parseInt(HOTKEY_SAMPLE, v, 1, HotKeyRouter.SAMPLE_RULE);
      if (!HotKeyRouter.isValidSample(sample)) {
        throw new RoutingConfigException(HOTKEY_SAMPLE, v, HotKeyRouter.SAMPLE_RULE);
      }
      b.sample(sample);
    }
    if (has(HOTKEY_CANDIDATES)) {
      String v = layers.get(HOTKEY_CANDIDATES);
      b.candidates(v.equals("all") ? HotKeyRouter.ALL
          : parseInt(HOTKEY_CANDIDATES, v, 2, "must be an integer of at least 2, or all"));
    }
    if (has(HOTKEY_CHOICE)) {
      b.choice(HotKeyRouter.Choice.fromId(layers.get(HOTKEY_CHOICE), HOTKEY_CHOICE));
    }
    return b;
  }

  /** Builds segment &rarr; hot key &rarr; hash for one scheme and placement. */
  private KeyRouter chain(HashScheme s, Placement p) {
    KeyRouter router = HashRouter.of(s, p, keyless);
    if (hotKeysEnabled()) {
      router = hotKeyBuilder(router).build();
    }
    if (segmentsEnabled()) {
      SegmentRouter.Builder b = SegmentRouter.builder(router)
          .ranges(layers.get(SEGMENT_RANGES)).weights(layers.get(SEGMENT_WEIGHTS))
          .exclusive(layers.get(SEGMENT_EXCLUSIVE)).regex(layers.get(SEGMENT_REGEX));
      if (has(SEGMENT_SEPARATOR)) {
        b.separator(layers.get(SEGMENT_SEPARATOR));
      }
      router = b.build();
    }
    return router;
  }

  private VersionedRouter versioned() {
    String spec = layers.get(VERSION_GENERATIONS);
    VersionedRouter.Builder b = VersionedRouter.builder();
    for (String item : spec.split(",")) {
      String[] f = item.split(":", -1);
      if (f.length < 2 || f.length > 4 || f[0].isEmpty()) {
        throw new RoutingConfigException(VERSION_GENERATIONS, spec, "entry '" + item
            + "' must be written name:scheme[:placement[:partitions|*]]");
      }
      String name = f[0];
      HashScheme s;
      try {
        s = HashScheme.fromId(f[1]);
      } catch (IllegalArgumentException e) {
        throw new RoutingConfigException(VERSION_GENERATIONS, spec, "generation '" + name
            + "' scheme '" + f[1] + "' must be one of " + HashScheme.ids());
      }
      PlacementMode mode = PlacementMode.NATIVE;
      if (f.length > 2) {
        try {
          mode = PlacementMode.parse(VERSION_GENERATIONS, f[2], spec);
        } catch (RoutingConfigException e) {
          throw new RoutingConfigException(VERSION_GENERATIONS, spec, "generation '" + name
              + "' placement '" + f[2] + "' must be one of " + PlacementMode.IDS);
        }
      }
      int count = 0;
      if (f.length > 3 && !f[3].equals("*")) {
        count = parseInt(VERSION_GENERATIONS, f[3], 1, "generation '" + name
            + "' partition count '" + f[3] + "' must be a positive integer or *");
      }
      b.generation(name, chain(s, mode.resolve(s)), count);
    }
    b.defaultVersion(layers.get(VERSION_DEFAULT));
    if (has(VERSION_SOURCE)) {
      String v = layers.get(VERSION_SOURCE);
      if (v.equals("key-prefix")) {
        b.source(VersionedRouter.Source.KEY_PREFIX);
      } else if (v.equals("header")) {
        b.source(VersionedRouter.Source.HEADER);
      } else {
        throw new RoutingConfigException(VERSION_SOURCE, v, "must be one of [key-prefix, header]");
      }
    }
    if (has(VERSION_SEPARATOR)) {
      b.separator(layers.get(VERSION_SEPARATOR));
    }
    if (has(VERSION_HEADER)) {
      b.header(layers.get(VERSION_HEADER));
    }
    return b.build();
  }

  /** Returns a copy with the given hash scheme. */
  public RoutingSpec withScheme(HashScheme scheme) {
    return new RoutingSpec(scheme, placementMode, keyless, layers);
  }

  /**
   * Returns a copy with the given placement for the current scheme: {@code native},
   * {@code modulo}, {@code jump} or {@code jump-back} ({@value #PLACEMENT}).
   *
   * @throws RoutingConfigException if {@code placement} is not one of those
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
   *     {@code routing.hotkey.*}, {@code routing.version.*}), or for a bad value or combination
   */
  public RoutingSpec with(String key, String value) {
    if (!LAYER_KEYS.contains(key)) {
      throw new RoutingConfigException(key, value, "must be one of " + new TreeSet<>(LAYER_KEYS)
          + " (use withScheme, withPlacement, withKeyless for the others)");
    }
    Map<String, String> copy = new TreeMap<>(layers);
    if (value == null) {
      copy.remove(key);
    } else {
      if (value.trim().isEmpty()) {
        throw new RoutingConfigException(key, value, "must not be empty");
      }
      copy.put(key, normalizeList(key, value.trim()));
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

  /** Returns the keyless policy ({@value #KEYLESS}). */
  public KeylessPolicy keyless() {
    return keyless;
  }

  /**
   * Builds a new router for this spec, composed version &rarr; segment &rarr; hot key &rarr;
   * scheme/placement (layers that are not configured are left out; with no layer it is a
   * {@link HashRouter}). Each call returns a new instance with its own keyless and hot-key state;
   * keyed routing of pure layers is identical across instances.
   */
  public KeyRouter keyRouter() {
    return versionsEnabled() ? versioned() : chain(scheme, placement());
  }

  /**
   * Returns the properties of this spec in key order: {@value #SCHEME} and {@value #KEYLESS}
   * (defaults included), {@value #PLACEMENT} unless it is {@code native}, and every layer property
   * that is set.
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
    toMap().forEach((k, v) -> sb.append(sb.length() == 0 ? "" : ", ").append(k).append('=').append(v));
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
