package io.github.routingkit;

import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.util.LinkedHashMap;
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
 * <h2>Properties</h2>
 * <table>
 *   <caption>routing.* properties</caption>
 *   <tr><th>key</th><th>type</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@value #SCHEME}</td><td>{@code kafka-murmur2 | pulsar-java-string | pulsar-murmur3}</td>
 *       <td>{@code kafka-murmur2}</td><td>the {@link HashScheme} (by {@link HashScheme#id()}), placed
 *       with its native {@link Placement}</td></tr>
 *   <tr><td>{@value #KEYLESS}</td><td>{@code round-robin | random}</td><td>{@code round-robin}</td>
 *       <td>the {@link KeylessPolicy} for messages without a key</td></tr>
 * </table>
 *
 * <h2>Rules</h2>
 * <ul>
 *   <li>Keys outside the {@code routing.} prefix are ignored, so a whole producer config can be
 *       passed in. Every key inside it must be one of the above.</li>
 *   <li>Values are strings (any object is read through {@code toString()}); surrounding whitespace
 *       is trimmed; identifiers are case-sensitive.</li>
 *   <li>Any bad key or value throws {@link RoutingConfigException} (an
 *       {@link IllegalArgumentException}) naming the property, the value and the rule, at parse
 *       time, never while routing.</li>
 * </ul>
 *
 * <p>The string form ({@link #toString()}), e.g.
 * {@code routing.scheme=pulsar-murmur3, routing.keyless=random}, lists every property and is read
 * back by {@link #parse(String)} into an equal spec. Immutable, thread-safe and
 * {@link Serializable} through that string form.
 */
public final class RoutingSpec implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Prefix of every RoutingKit property. */
  public static final String PREFIX = "routing.";
  /** The hash scheme: {@code kafka-murmur2} (default), {@code pulsar-java-string}, {@code pulsar-murmur3}. */
  public static final String SCHEME = "routing.scheme";
  /** The keyless policy: {@code round-robin} (default) or {@code random}. */
  public static final String KEYLESS = "routing.keyless";
  /** The placement: {@code native} (default), {@code modulo} or {@code jump}. */
  public static final String PLACEMENT = "routing.placement";

  private static final Set<String> KEYS = Set.of(SCHEME, KEYLESS, PLACEMENT);
  private static final RoutingSpec DEFAULTS =
      new RoutingSpec(HashScheme.KAFKA_MURMUR2, PlacementMode.NATIVE, KeylessPolicy.ROUND_ROBIN);

  private final HashScheme scheme;
  private final PlacementMode placementMode;
  private final KeylessPolicy keyless;

  private RoutingSpec(HashScheme scheme, PlacementMode placementMode, KeylessPolicy keyless) {
    this.scheme = Objects.requireNonNull(scheme, "scheme");
    this.placementMode = Objects.requireNonNull(placementMode, "placementMode");
    this.keyless = Objects.requireNonNull(keyless, "keyless");
  }

  /** How {@value #PLACEMENT} selects the placement for the scheme. */
  enum PlacementMode {
    NATIVE("native"), MODULO("modulo"), JUMP("jump");

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
        default:
          return scheme.nativePlacement();
      }
    }
  }

  /** Returns the default spec: {@code kafka-murmur2}, {@code round-robin}. */
  public static RoutingSpec defaults() {
    return DEFAULTS;
  }

  /**
   * Parses the {@code routing.*} entries of {@code config}; other keys are ignored.
   *
   * @throws RoutingConfigException for an unknown {@code routing.*} key or a bad value
   * @throws NullPointerException if {@code config} is null
   */
  public static RoutingSpec parse(Map<String, ?> config) {
    HashScheme scheme = DEFAULTS.scheme;
    PlacementMode placementMode = DEFAULTS.placementMode;
    KeylessPolicy keyless = DEFAULTS.keyless;
    for (Map.Entry<String, ?> e : new TreeMap<String, Object>(config).entrySet()) {
      String key = e.getKey();
      if (!key.startsWith(PREFIX)) {
        continue;
      }
      Object raw = e.getValue();
      String value = raw == null ? null : raw.toString().trim();
      switch (key) {
        case SCHEME:
          scheme = parseScheme(value, raw);
          break;
        case KEYLESS:
          keyless = parseKeyless(value, raw);
          break;
        case PLACEMENT:
          placementMode = parsePlacement(value, raw);
          break;
        default:
          throw new RoutingConfigException(key, raw,
              "unknown property, known routing properties are " + new java.util.TreeSet<>(KEYS));
      }
    }
    return new RoutingSpec(scheme, placementMode, keyless);
  }

  /**
   * Parses the {@code routing.*} entries of {@code properties} (including defaults chained into
   * it); other keys are ignored.
   *
   * @throws RoutingConfigException for an unknown {@code routing.*} key or a bad value
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
   * values and commas is ignored; an empty string is the default spec). The inverse of
   * {@link #toString()}.
   *
   * @throws RoutingConfigException for a pair without {@code =}, a repeated key, an unknown
   *     key (any key here must start with {@code routing.}) or a bad value
   */
  public static RoutingSpec parse(String spec) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (String pair : spec.split(",")) {
      if (pair.isBlank()) {
        continue;
      }
      int eq = pair.indexOf('=');
      if (eq < 0) {
        throw new RoutingConfigException(pair.trim(), null, "must be written key=value");
      }
      String key = pair.substring(0, eq).trim();
      if (!key.startsWith(PREFIX)) {
        throw new RoutingConfigException(key, pair.substring(eq + 1).trim(),
            "unknown property, keys in a spec string must start with " + PREFIX);
      }
      if (map.put(key, pair.substring(eq + 1).trim()) != null) {
        throw new RoutingConfigException(key, pair.substring(eq + 1).trim(),
            "was already set earlier in the spec string");
      }
    }
    return parse(map);
  }

  private static HashScheme parseScheme(String value, Object raw) {
    for (HashScheme s : HashScheme.values()) {
      if (s.id().equals(value)) {
        return s;
      }
    }
    throw new RoutingConfigException(SCHEME, raw, "must be one of " + HashScheme.ids());
  }

  private static PlacementMode parsePlacement(String value, Object raw) {
    for (PlacementMode m : PlacementMode.values()) {
      if (m.id.equals(value)) {
        return m;
      }
    }
    throw new RoutingConfigException(PLACEMENT, raw, "must be one of [native, modulo, jump]");
  }

  private static KeylessPolicy parseKeyless(String value, Object raw) {
    for (KeylessPolicy p : KeylessPolicy.values()) {
      if (p.id().equals(value)) {
        return p;
      }
    }
    throw new RoutingConfigException(KEYLESS, raw, "must be one of " + KeylessPolicy.ids());
  }

  /** Returns a copy with the given hash scheme. */
  public RoutingSpec withScheme(HashScheme scheme) {
    return new RoutingSpec(scheme, placementMode, keyless);
  }

  /**
   * Returns a copy with the given placement for the current scheme: {@code native},
   * {@code modulo} or {@code jump} ({@value #PLACEMENT}).
   *
   * @throws RoutingConfigException if {@code placement} is not one of those
   */
  public RoutingSpec withPlacement(String placement) {
    return new RoutingSpec(scheme, parsePlacement(placement, placement), keyless);
  }

  /** Returns a copy with the given keyless policy. */
  public RoutingSpec withKeyless(KeylessPolicy keyless) {
    return new RoutingSpec(scheme, placementMode, keyless);
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
   * Builds a new router for this spec. Each call returns a new instance with its own keyless state;
   * keyed routing is identical across instances.
   */
  public KeyRouter keyRouter() {
    return HashRouter.of(scheme, placement(), keyless);
  }

  /** Returns every property of this spec, defaults included, in key order. */
  public Map<String, String> toMap() {
    Map<String, String> map = new TreeMap<>();
    map.put(SCHEME, scheme.id());
    map.put(KEYLESS, keyless.id());
    map.put(PLACEMENT, placementMode.id);
    return map;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RoutingSpec
        && ((RoutingSpec) o).scheme == scheme
        && ((RoutingSpec) o).placementMode == placementMode
        && ((RoutingSpec) o).keyless == keyless;
  }

  @Override
  public int hashCode() {
    return Objects.hash(scheme, placementMode, keyless);
  }

  /** Returns the parsable string form, e.g. {@code routing.keyless=round-robin, routing.scheme=kafka-murmur2}. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    toMap().forEach((k, v) -> sb.append(sb.length() == 0 ? "" : ", ").append(k).append('=').append(v));
    return sb.toString();
  }

  private Object writeReplace() {
    return new Proxy(toString());
  }

  private void readObject(ObjectInputStream in) throws InvalidObjectException {
    throw new InvalidObjectException("RoutingSpec is deserialized through its proxy");
  }

  /** Serialized form: the string form, re-parsed (and so re-validated) on deserialization. */
  private static final class Proxy implements Serializable {
    private static final long serialVersionUID = 1L;
    private final String spec;

    Proxy(String spec) {
      this.spec = spec;
    }

    private Object readResolve() throws InvalidObjectException {
      try {
        return parse(spec);
      } catch (RuntimeException e) {
        InvalidObjectException ex = new InvalidObjectException("corrupt RoutingSpec: " + e.getMessage());
        ex.initCause(e);
        throw ex;
      }
    }
  }
}
