package io.github.routingkit.cli;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.config.RoutingProperty;
import io.github.routingkit.config.RoutingSpec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Whether two routing specs put keys on the same partitions, decided by what they route rather
 * than by how they are written. Two steps:
 * <ol>
 *   <li>{@link #canonical canonical forms}: the spec's properties with every placement resolved to
 *       the placement it names ({@code native} and {@code modulo} against their scheme, in the spec,
 *       its canary's new spec and each version generation) and without {@code routing.keyless},
 *       which moves no key. Equal canonical forms route every key alike by construction.</li>
 *   <li>otherwise a {@link Witness}: a key and a partition count on which the two routers differ,
 *       searched on a fixed sample ({@link #SAMPLE}, with keys tagged for each generation and
 *       segment the specs name) at every count of {@link #COUNTS} (or the count given). Found, it is
 *       the proof of a disagreement; not found, the specs are taken to agree (for example
 *       {@code librdkafka-fnv1a} and {@code sarama-fnv1a}, different placements that place every key
 *       alike, as the cross-client vectors show).</li>
 * </ol>
 * Hot keys are compared apart: a hot key spreads over candidates by load, so its partition is no
 * function of the key; a key that is hot in one spec and not in the other is a witness.
 * Pure and stateless; thread-safe.
 */
final class RoutingAgreement {
  private RoutingAgreement() {}

  /** The partition counts searched when none is given. */
  static final int[] COUNTS = {2, 3, 5, 7, 8, 12, 16, 24, 32, 64, 100, 997, 1024};

  /** The keys searched: ASCII ids, numbers, non-ASCII text and MIN_VALUE hash codes; never empty. */
  static final List<String> SAMPLE = sample();

  /** A key that two specs route to different partitions at {@code partitions}. */
  record Witness(String key, int partitions, String first, String second) {
    /** Returns e.g. {@code key 'order-17' at 12 partitions: partition 3 vs partition 7}. */
    String describe(String firstName, String secondName) {
      return "key '" + shown(key) + "' at " + partitions + " partitions: " + first + " ("
          + firstName + ") vs " + second + " (" + secondName + ")";
    }
  }

  private static List<String> sample() {
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 1500; i++) {
      keys.add("key-" + i);
    }
    for (int i = 0; i < 300; i++) {
      keys.add(Integer.toString(i * 7919));
      keys.add("user:" + (1_000_000 + i * 31));
    }
    String[] words = {"ключ", "キー", "clé", "🔑", "Schlüssel", "مفتاح"};
    for (int i = 0; i < 120; i++) {
      keys.add(words[i % words.length] + "-" + i);
    }
    keys.addAll(List.of("polygenelubricants", "GydZG_", "DESIGNING WORKHOUSES"));
    keys.add("x".repeat(1000));
    return Collections.unmodifiableList(keys);
  }

  /** Returns the canonical form of {@code spec} (see the class comment). */
  static Map<String, String> canonical(RoutingSpec spec) {
    Map<String, String> m = new TreeMap<>(spec.toMap());
    m.remove(RoutingSpec.KEYLESS);
    m.keySet().removeIf(k -> k.startsWith(RoutingSpec.CANARY_NEXT_PREFIX));
    String generations = m.get(RoutingSpec.VERSION_GENERATIONS);
    if (generations == null) {
      m.put(RoutingSpec.PLACEMENT, spec.placement().id());
    } else {
      m.put(RoutingSpec.VERSION_GENERATIONS, canonicalGenerations(generations));
    }
    RoutingSpec next = spec.canaryNext();
    if (next != null) {
      canonical(next).forEach((k, v) -> m.put(RoutingSpec.CANARY_NEXT_PREFIX
          + k.substring(RoutingSpec.PREFIX.length()), v));
    }
    return m;
  }

  /** {@code name:scheme[:placement[:count]]} items with the placement resolved and the count. */
  private static String canonicalGenerations(String list) {
    StringBuilder sb = new StringBuilder();
    for (String item : list.split(",")) {
      String[] f = item.trim().split(":", -1);
      String placement = f.length > 2 ? f[2] : "native";
      String resolved = RoutingSpec.parse(Map.of(RoutingSpec.SCHEME, f[1],
          RoutingSpec.PLACEMENT, placement)).placement().id();
      sb.append(sb.length() == 0 ? "" : ",").append(f[0]).append(':').append(f[1]).append(':')
          .append(resolved).append(':').append(f.length > 3 ? f[3] : "*");
    }
    return sb.toString();
  }

  /**
   * Returns a key on which {@code a} and {@code b} differ at one of {@code counts}, or null if
   * their canonical forms are equal or no key of the sample differs.
   */
  static Witness witness(RoutingSpec a, RoutingSpec b, int[] counts) {
    if (canonical(a).equals(canonical(b))) {
      return null;
    }
    Set<String> hotA = hotKeys(a);
    Set<String> hotB = hotKeys(b);
    for (String k : hotA) {
      if (!hotB.contains(k)) {
        return new Witness(k, counts[0], "spread over hot-key candidates",
            "partition " + withoutHotKeys(b).keyRouter().partition(k, counts[0]));
      }
    }
    for (String k : hotB) {
      if (!hotA.contains(k)) {
        return new Witness(k, counts[0], "partition "
            + withoutHotKeys(a).keyRouter().partition(k, counts[0]),
            "spread over hot-key candidates");
      }
    }
    RoutingSpec pa = withoutHotKeys(a);
    RoutingSpec pb = withoutHotKeys(b);
    List<String> keys = new ArrayList<>(taggedKeys(a, b));
    keys.addAll(SAMPLE);
    for (int n : counts) {
      KeyRouter ra = pa.keyRouter();
      KeyRouter rb = pb.keyRouter();
      for (String key : keys) {
        if (hotA.contains(key)) {
          continue;
        }
        byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
        int x;
        int y;
        try {
          x = ra.partition(bytes, n);
          y = rb.partition(bytes, n);
        } catch (RuntimeException e) {
          continue; // a layer that cannot route this count (a segment range beyond it)
        }
        if (x != y) {
          return new Witness(key, n, "partition " + x, "partition " + y);
        }
      }
    }
    return null;
  }

  /**
   * Returns the share of the sample's keys that {@code spec} routes to another partition at
   * {@code to} partitions than at {@code from} (hot keys aside), in [0, 1], and one such key.
   */
  static Moved moved(RoutingSpec spec, int from, int to) {
    RoutingSpec pure = withoutHotKeys(spec);
    KeyRouter before = pure.keyRouter();
    KeyRouter after = pure.keyRouter();
    int moved = 0;
    int routed = 0;
    String example = null;
    for (String key : SAMPLE) {
      byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
      try {
        int x = before.partition(bytes, from);
        int y = after.partition(bytes, to);
        routed++;
        if (x != y) {
          moved++;
          if (example == null) {
            example = "key '" + shown(key) + "' moves from partition " + x + " to " + y;
          }
        }
      } catch (RuntimeException e) {
        // a count this spec cannot route: not a move
      }
    }
    return new Moved(routed == 0 ? 0 : (double) moved / routed, example);
  }

  /** {@code s} for a terminal: control characters as '?', at most 80 characters. */
  static String shown(String s) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < Math.min(s.length(), 80); i++) {
      char c = s.charAt(i);
      b.append(Character.isISOControl(c) || c == 0x2028 || c == 0x2029 ? '?' : c);
    }
    return s.length() > 80 ? b.append("... (" + s.length() + " chars)").toString() : b.toString();
  }

  /** The share of keys a change moves and one key that moves (null if none does). */
  record Moved(double share, String example) {}

  /** The configured hot keys of the spec and of its canary's new spec. */
  static Set<String> hotKeys(RoutingSpec spec) {
    Set<String> out = new LinkedHashSet<>();
    spec.layerProperties(RoutingProperty.Layer.HOTKEY).forEach((k, v) -> {
      if (k.endsWith(".hotkey.keys")) {
        for (String key : v.split(",")) {
          if (!key.trim().isEmpty()) {
            out.add(key.trim());
          }
        }
      }
    });
    return out;
  }

  /** The spec without its hot-key layers (the canary's new spec keeps at least its scheme). */
  static RoutingSpec withoutHotKeys(RoutingSpec spec) {
    Map<String, String> hot = spec.layerProperties(RoutingProperty.Layer.HOTKEY);
    if (hot.isEmpty()) {
      return spec;
    }
    Map<String, String> m = new TreeMap<>(spec.toMap());
    m.keySet().removeAll(hot.keySet());
    if (spec.hasCanary()
        && m.keySet().stream().noneMatch(k -> k.startsWith(RoutingSpec.CANARY_NEXT_PREFIX))) {
      m.put(RoutingSpec.CANARY_NEXT_PREFIX + "scheme", RoutingSpec.defaults().scheme().id());
    }
    return RoutingSpec.parse(m);
  }

  /** Keys tagged with each generation and segment the specs name, so those layers are searched. */
  private static List<String> taggedKeys(RoutingSpec a, RoutingSpec b) {
    Set<String> out = new LinkedHashSet<>();
    for (RoutingSpec s : List.of(a, b)) {
      Map<String, String> m = s.toMap();
      String separator = m.getOrDefault(RoutingSpec.VERSION_SEPARATOR, "|");
      String generations = m.get(RoutingSpec.VERSION_GENERATIONS);
      if (generations != null && !"header".equals(m.get(RoutingSpec.VERSION_SOURCE))) {
        for (String item : generations.split(",")) {
          String name = item.trim().split(":", -1)[0];
          for (int i = 0; i < 200; i++) {
            out.add(name + separator + "key-" + i);
          }
        }
      }
      String segments = m.getOrDefault(RoutingSpec.SEGMENT_RANGES,
          m.get(RoutingSpec.SEGMENT_WEIGHTS));
      if (segments != null && !m.containsKey(RoutingSpec.SEGMENT_REGEX)) {
        String sep = m.getOrDefault(RoutingSpec.SEGMENT_SEPARATOR, ":");
        for (String item : segments.split(",")) {
          String name = item.trim().split(":", -1)[0];
          for (int i = 0; i < 200; i++) {
            out.add(name + sep + "key-" + i);
          }
        }
      }
    }
    return new ArrayList<>(out);
  }
}
