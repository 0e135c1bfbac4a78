package io.github.routingkit.config;

import static io.github.routingkit.config.RoutingSpec.*;

import io.github.routingkit.RoutingConfigException;
import io.github.routingkit.config.LayerCheck.Generation;
import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.internal.Values;
import io.github.routingkit.router.version.VersionedRouter.Source;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Decides whether the {@code routing.version.*} properties of one spec make routing generations:
 * each {@value RoutingSpec#VERSION_GENERATIONS} entry ({@code name:scheme[:placement[:count|*]]}),
 * the default generation, the version's source and its option, and that the spec's own scheme
 * and placement stay at their defaults (each generation names its own). Part of
 * {@link LayerCheck}.
 */
final class VersionCheck {
  private VersionCheck() {}

  /**
   * The property, as written, that reads versions from a header in a spec whose own source is
   * {@code own} and whose canary's new spec is {@code canaryNext} (null without a canary); null
   * if neither does, for {@link RoutingSpec#versionFromHeaderProperty()}.
   */
  static String headerProperty(Source own, RoutingSpec canaryNext) {
    if (own == Source.HEADER) {
      return VERSION_SOURCE;
    }
    if (canaryNext != null && canaryNext.versionSource() == Source.HEADER) {
      return CANARY_NEXT_PREFIX + VERSION_SOURCE.substring(PREFIX.length());
    }
    return null;
  }

  /** The source {@code text} names ({@code key-prefix} when null), or null if it names none. */
  static Source source(String text) {
    for (Source s : Source.values()) {
      if (s.id().equals(text == null ? Source.KEY_PREFIX.id() : text)) {
        return s;
      }
    }
    return null;
  }

  /**
   * The generations in the order listed, or null without {@value RoutingSpec#VERSION_GENERATIONS};
   * problems go to {@code c} (a bad entry is left out of the list).
   */
  static List<Generation> generations(LayerCheck c, HashScheme scheme,
      PlacementMode placementMode) {
    if (!c.has(VERSION_GENERATIONS)) {
      c.requires(VERSION_GENERATIONS + " is set", VERSION_DEFAULT, VERSION_SOURCE,
          VERSION_SEPARATOR, VERSION_HEADER);
      return null;
    }
    String sourceText = c.getOrDefault(VERSION_SOURCE, "key-prefix");
    Source source = source(sourceText);
    if (source == null) {
      c.problem(VERSION_SOURCE, sourceText, "must be one of " + Arrays.stream(Source.values())
          .map(Source::id).collect(Collectors.toUnmodifiableList()).toString());
    }
    // the key prefix and the header are alternatives: each one's option is inert for the other
    if (source == Source.HEADER) {
      c.requires(VERSION_SOURCE + "=key-prefix", VERSION_SEPARATOR);
    } else {
      c.requires(VERSION_SOURCE + "=header", VERSION_HEADER);
    }
    if (scheme != HashScheme.KAFKA_MURMUR2) {
      c.problem(SCHEME, scheme.id(), "cannot be combined with " + VERSION_GENERATIONS
          + ", where each generation names its scheme");
    }
    if (placementMode != PlacementMode.NATIVE) {
      c.problem(PLACEMENT, placementMode.id, "cannot be combined with " + VERSION_GENERATIONS
          + ", where each generation names its placement");
    }
    String separator = c.getOrDefault(VERSION_SEPARATOR, "|");
    String spec = c.get(VERSION_GENERATIONS);
    List<Generation> out = new ArrayList<>();
    Set<String> seen = new HashSet<>(); // the names in out
    for (String item : Values.items(spec)) {
      String[] f = item.split(":", -1);
      if (f.length < 2 || f.length > 4 || f[0].isEmpty()) {
        c.problem(VERSION_GENERATIONS, spec, "entry '" + item
            + "' must be written name:scheme[:placement[:partitions|*]]");
        continue;
      }
      String name = f[0];
      HashScheme s;
      try {
        s = HashScheme.fromId(f[1]);
      } catch (IllegalArgumentException e) {
        c.problem(VERSION_GENERATIONS, spec, "generation '" + name + "' scheme '" + f[1]
            + "' must be one of " + HashScheme.ids());
        continue;
      }
      PlacementMode mode = PlacementMode.NATIVE;
      if (f.length > 2) {
        try {
          mode = PlacementMode.parse(VERSION_GENERATIONS, f[2], spec);
        } catch (RoutingConfigException e) {
          c.problem(VERSION_GENERATIONS, spec, "generation '" + name + "' placement '" + f[2]
              + "' must be one of " + PlacementMode.IDS);
          continue;
        }
      }
      int count = 0;
      if (f.length > 3 && !f[3].equals("*")) {
        count = Values.parseInt(f[3], 1);
        if (count < 1) {
          c.problem(VERSION_GENERATIONS, f[3], "generation '" + name + "' partition count '"
              + f[3] + "' must be a positive integer or *");
          continue;
        }
      }
      if (seen.contains(name)) {
        c.problem(VERSION_GENERATIONS, name, "generation '" + name + "' is listed twice");
        continue;
      }
      if (!separator.isEmpty() && name.contains(separator)) {
        c.problem(VERSION_GENERATIONS, name, "generation '" + name
            + "' must not contain the separator '" + separator + "'");
        continue;
      }
      out.add(new Generation(name, s, mode, count));
      seen.add(name);
    }
    String def = c.get(VERSION_DEFAULT);
    if (def == null) {
      c.add(RoutingConfigException.notSet(VERSION_DEFAULT, "must name a generation (the one for"
          + " keys without a version tag) when " + VERSION_GENERATIONS + " is set"));
    } else if (out.stream().noneMatch(g -> g.name().equals(def))
        && !c.hasProblem(VERSION_GENERATIONS)) {
      List<String> names =
          out.stream().map(Generation::name).collect(Collectors.toUnmodifiableList());
      c.problem(VERSION_DEFAULT, def, "must name one of the generations " + names);
    }
    return out;
  }
}
