package io.github.routingkit.config;

import static io.github.routingkit.config.RoutingSpec.*;

import io.github.routingkit.KeylessPolicy;
import io.github.routingkit.RoutingConfigException;
import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.internal.Values;
import java.io.InvalidObjectException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The one place that reads {@code routing.*} text: it turns properties or the string form into a
 * scheme, a placement, a keyless policy and normalized layer properties, naming the property, the
 * value and the rule of every problem, and writes values back in the string form. The layers
 * themselves are checked by {@link LayerCheck}, whose problems join this reader's in one report.
 */
final class SpecText {
  private SpecText() {}

  /**
   * In the string form a new key=value pair starts with a dotted key (every routing.* key, and
   * typos of one); "user=2" in "routing.hotkey.keys=user=1,user=2" continues the list value. A
   * value that this rule would cut is written in double quotes ({@link #quote}).
   */
  static final Pattern PAIR_START =
      Pattern.compile("^\\s*[A-Za-z0-9_\\-]*\\.[A-Za-z0-9_.\\-]*\\s*=.*", Pattern.DOTALL);

  static RoutingSpec parse(Map<String, ?> config) {
    List<RoutingConfigException> problems = new ArrayList<>();
    HashScheme scheme = HashScheme.KAFKA_MURMUR2;
    PlacementMode placementMode = PlacementMode.NATIVE;
    KeylessPolicy keyless = KeylessPolicy.ROUND_ROBIN;
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
      String value = text(raw);
      try {
        switch (key) {
          case SCHEME:
            scheme = parseScheme(value, raw);
            break;
          case KEYLESS:
            keyless = parseKeyless(value, raw);
            break;
          case PLACEMENT:
            placementMode = PlacementMode.parse(PLACEMENT, value, raw);
            break;
          default:
            if (key.equals(CANARY_NEXT_PREFIX + "keyless")) {
              throw new RoutingConfigException(key, raw, "is not a property of the new spec:"
                  + " keyless messages follow the old spec's " + KEYLESS);
            }
            if (key.startsWith(CANARY_NEXT_PREFIX + "canary.")) {
              throw new RoutingConfigException(key, raw, "is not a property of the new spec:"
                  + " a canary's new spec cannot hold another canary");
            }
            if (!SpecKeys.LAYERS.contains(key)) {
              String near = DidYouMean.nearest(key, knownProperties());
              // with a suggestion, the full list (over 40 names) would only bury it
              throw new RoutingConfigException(key, raw, "unknown property" + (near == null
                  ? ", known routing properties are " + knownProperties()
                  : " (did you mean " + near + "?), docs/configuration.md lists every routing"
                      + " property"));
            }
            if (value == null || value.isEmpty()) {
              throw new RoutingConfigException(key, raw, "must not be empty");
            }
            layers.put(key, normalize(key, value));
        }
      } catch (RoutingConfigException ex) {
        problems.add(ex);
      }
    }
    if (!problems.isEmpty()) {
      // the layers' own checks still run, so that one report lists every problem
      try {
        LayerCheck.check(scheme, placementMode, layers);
      } catch (RoutingConfigException ex) {
        problems.addAll(ex.problems());
      }
      throw RoutingConfigException.of(problems);
    }
    return RoutingSpec.of(scheme, placementMode, keyless, layers);
  }

  /**
   * A value as text: a Collection (Kafka's LIST config style) is a list value whose items are
   * trimmed and joined by commas ([a, b] would otherwise be read as the items "[a" and "b]"); any
   * other object its trimmed {@code toString()}.
   */
  private static String text(Object raw) {
    if (raw == null) {
      return null;
    }
    if (raw instanceof Collection<?>) {
      Collection<?> c = (Collection<?>) raw;
      List<String> items = new ArrayList<>();
      for (Object o : c) {
        items.add(String.valueOf(o).trim());
      }
      return String.join(",", items).trim();
    }
    return raw.toString().trim();
  }

  /** Trims list items of list-valued properties, so equal specs print equally. */
  static String normalize(String key, String value) {
    RoutingProperty p = RoutingProperty.of(key);
    return p == null || !p.isList() ? value : String.join(",", Values.items(value));
  }

  static RoutingSpec parse(Properties properties) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (String name : properties.stringPropertyNames()) {
      map.put(name, properties.getProperty(name));
    }
    return parse(map);
  }

  /** {@code layers} with {@code key} set to {@code value} (null: removed), for {@link RoutingSpec#with}. */
  static Map<String, String> with(Map<String, String> layers, String key, String value) {
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
      copy.put(key, normalize(key, value.trim()));
    }
    return copy;
  }

  static RoutingSpec parse(String spec) {
    Map<String, Object> map = new LinkedHashMap<>();
    String key = null;
    StringBuilder value = null;
    StringBuilder quoted = null; // an open double-quoted value
    for (String part : spec.split(",", -1)) {
      if (quoted != null) {
        quoted.append(',').append(part);
        if (closes(quoted)) {
          put(map, key, unquote(key, quoted.toString().trim()));
          key = null;
          quoted = null;
        }
        continue;
      }
      if (part.isBlank()) {
        continue;
      }
      if (value != null && !PAIR_START.matcher(part).matches()) {
        value.append(',').append(part);
        continue;
      }
      if (value != null) {
        put(map, key, value.toString().trim());
        value = null;
      }
      int eq = part.indexOf('=');
      if (eq < 0) {
        throw new RoutingConfigException(part.trim(), null, "must be written key=value");
      }
      key = part.substring(0, eq).trim();
      String rest = part.substring(eq + 1);
      if (!key.startsWith(PREFIX)) {
        String near = DidYouMean.nearest(PREFIX + key, knownProperties());
        throw new RoutingConfigException(key, rest.trim(),
            "unknown property, keys in a spec string must start with " + PREFIX
                + (near == null ? "" : " (did you mean " + near + "?)"));
      }
      if (rest.trim().startsWith("\"")) {
        quoted = new StringBuilder(rest.stripLeading()); // blanks before a comma are the value's
        if (closes(quoted)) {
          put(map, key, unquote(key, quoted.toString().trim()));
          quoted = null;
        }
        continue;
      }
      value = new StringBuilder(rest);
    }
    if (quoted != null) {
      throw new RoutingConfigException(key, quoted.toString().trim(),
          "must end its double-quoted value with an unescaped \"");
    }
    if (value != null) {
      put(map, key, value.toString().trim());
    }
    return parse(map);
  }

  /** Whether trimmed {@code text}, which starts with a quote, ends with an unescaped closing one. */
  private static boolean closes(CharSequence text) {
    String t = text.toString().trim();
    if (t.length() < 2 || t.charAt(t.length() - 1) != '"') {
      return false;
    }
    int backslashes = 0;
    for (int i = t.length() - 2; i >= 1 && t.charAt(i) == '\\'; i--) {
      backslashes++;
    }
    return backslashes % 2 == 0;
  }

  private static String unquote(String key, String text) {
    StringBuilder sb = new StringBuilder(text.length());
    for (int i = 1; i < text.length() - 1; i++) {
      char c = text.charAt(i);
      if (c == '\\') {
        char next = i + 1 < text.length() - 1 ? text.charAt(i + 1) : 0;
        if (next != '\\' && next != '"') {
          throw new RoutingConfigException(key, text,
              "must escape only \\ and \" inside a double-quoted value");
        }
        sb.append(next);
        i++;
      } else if (c == '"') {
        throw new RoutingConfigException(key, text,
            "must escape a \" inside a double-quoted value as \\\"");
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }

  /**
   * Returns {@code value} as the string form writes it: as it is, or in double quotes (with
   * {@code \\} and {@code \"} escaped) when the comma rule would read it differently: a comma
   * followed by nothing, blanks, or text of the form {@code name.name=}, or a leading quote.
   */
  static String quote(String value) {
    boolean plain = !value.startsWith("\"");
    String[] parts = value.split(",", -1);
    for (int i = 1; plain && i < parts.length; i++) {
      plain = !parts[i].isBlank() && !PAIR_START.matcher(parts[i]).matches();
    }
    if (plain) {
      return value;
    }
    return '"' + value.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
  }

  /** The string form of {@code properties}: {@code key=value} pairs joined by {@code ", "}. */
  static String write(Map<String, String> properties) {
    StringBuilder sb = new StringBuilder();
    properties.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : ", ").append(k).append('=')
        .append(quote(v)));
    return sb.toString();
  }

  /**
   * The spec a serialized {@code RoutingSpec} holds, re-parsed and so re-checked: from its
   * properties (which the string form must match), or from the string form alone (streams written
   * before the properties field existed).
   *
   * @throws InvalidObjectException if either does not parse or they differ
   */
  static RoutingSpec deserialized(String spec, Map<String, String> properties)
      throws InvalidObjectException {
    try {
      if (properties == null) {
        return parse(spec);
      }
      RoutingSpec parsed = parse(properties);
      if (!parsed.toParsableString().equals(spec)) {
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

  private static void put(Map<String, Object> map, String key, String value) {
    if (map.put(key, value) != null) {
      throw new RoutingConfigException(key, value, "was already set earlier in the spec string");
    }
  }

  private static HashScheme parseScheme(String value, Object raw) {
    try {
      return HashScheme.fromId(value);
    } catch (IllegalArgumentException e) {
      throw new RoutingConfigException(SCHEME, raw, "must be one of " + HashScheme.ids());
    }
  }

  private static KeylessPolicy parseKeyless(String value, Object raw) {
    try {
      return KeylessPolicy.fromId(value);
    } catch (IllegalArgumentException e) {
      throw new RoutingConfigException(KEYLESS, raw, "must be one of " + KeylessPolicy.ids());
    }
  }
}
