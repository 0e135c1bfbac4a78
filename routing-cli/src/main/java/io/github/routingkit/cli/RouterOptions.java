package io.github.routingkit.cli;

import io.github.routingkit.router.HashRouter;
import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.KeyRouter;
import io.github.routingkit.KeylessPolicy;
import io.github.routingkit.RoutingConfigException;
import io.github.routingkit.KeyFormat;
import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.router.KeyFormatRouter;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Properties;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * Which router to analyze: a scheme (and placement) by id, or a routing spec file.
 *
 * <p>One placement vocabulary, the spec's: {@code --placement} takes exactly what
 * {@code routing.placement} takes ({@link RoutingSpec#placementValues()}: the aliases
 * {@code native} and {@code modulo}, relative to the scheme, and the concrete placements), resolved
 * by the spec itself; {@link #echo} says what the value resolved to.
 */
final class RouterOptions {
  @Option(names = "--scheme", paramLabel = "ID",
      description = "Hash scheme id (default kafka-murmur2): one of ${COMPLETION-CANDIDATES}.",
      completionCandidates = SchemeIds.class)
  String scheme;

  @Option(names = "--placement", paramLabel = "ID",
      description = "Placement, as routing.placement: native (default: the scheme's own) or"
          + " modulo (the scheme's client's modulo), or a placement by name: jump, jump-back,"
          + " floor-mod, to-positive, unsigned-mod, abs-remainder. Echoed with what it resolved"
          + " to, e.g. native (floor-mod for pulsar-murmur3).",
      completionCandidates = PlacementIds.class)
  String placement;

  @Option(names = "--spec", paramLabel = "FILE",
      description = "A properties file with routing.* keys (as in a producer config).")
  Path spec;

  @Option(names = "--key-format", paramLabel = "ID",
      description = "As routing.key.format: raw (default) or a schema-registry wire format whose"
          + " header is not hashed: confluent, confluent-protobuf, apicurio-protobuf,"
          + " apicurio-legacy, apicurio-legacy-protobuf. With --spec, overrides the file's.")
  String keyFormat;

  /** Whether any of --scheme, --placement, --spec was given. */
  boolean given() {
    return scheme != null || placement != null || spec != null;
  }

  /** The key format: --key-format, else the --spec file's routing.key.format, else raw. */
  KeyFormat keyFormat(CommandLine cmd) {
    if (keyFormat != null) {
      try {
        return KeyFormat.fromId(keyFormat);
      } catch (IllegalArgumentException e) {
        throw new ParameterException(cmd, "--key-format " + e.getMessage());
      }
    }
    return spec == null ? KeyFormat.RAW : parse(loadProperties(spec, "--spec"), spec, "--spec")
        .keyFormat();
  }

  /**
   * A short name of the configuration: the spec file, or scheme / placement with what an alias
   * resolved to, e.g. {@code pulsar-murmur3 / native (floor-mod)}.
   */
  String describe(CommandLine cmd) {
    if (spec != null) {
      return "--spec " + spec;
    }
    RoutingSpec s = schemeAndPlacement(cmd);
    String setting = s.placementSetting();
    String resolved = s.placement().id();
    return s.scheme().id() + " / " + (setting.equals(resolved) ? setting
        : setting + " (" + resolved + ")");
  }

  /**
   * What {@code --placement} resolved to, e.g. {@code --placement native: native (floor-mod for
   * pulsar-murmur3)}, or for a concrete placement the alias that also selects it for the scheme;
   * null when {@code --placement} was not given.
   */
  String echo(CommandLine cmd) {
    if (placement == null) {
      return null;
    }
    return "--placement " + placement + ": " + resolvedPlacement(schemeAndPlacement(cmd));
  }

  /**
   * The spec's placement as the echoes print it: an alias with what it resolved to
   * ({@link RoutingSpec#describePlacement()}, e.g. {@code native (floor-mod for pulsar-murmur3)}),
   * a concrete placement with the alias that also selects it for the scheme, e.g.
   * {@code floor-mod (what native selects for pulsar-murmur3)}.
   */
  static String resolvedPlacement(RoutingSpec s) {
    if (!s.placementSetting().equals(s.placement().id())) {
      return s.describePlacement();
    }
    RoutingSpec asNative = s.withPlacement("native");
    RoutingSpec asModulo = s.withPlacement("modulo");
    String same = asNative.placement() == s.placement() ? "native"
        : asModulo.placement() == s.placement() ? "modulo" : null;
    return s.describePlacement()
        + (same == null ? " (no alias selects it for " + s.scheme().id() + ")"
            : " (what " + same + " selects for " + s.scheme().id() + ")");
  }

  /** --scheme and --placement as a spec, so the spec alone resolves the vocabulary. */
  private RoutingSpec schemeAndPlacement(CommandLine cmd) {
    HashScheme s;
    try {
      s = scheme == null ? HashScheme.KAFKA_MURMUR2 : HashScheme.fromId(scheme);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(cmd, "--scheme " + e.getMessage());
    }
    RoutingSpec spec = RoutingSpec.defaults().withScheme(s);
    try {
      return placement == null ? spec : spec.withPlacement(placement);
    } catch (RoutingConfigException e) {
      throw new ParameterException(cmd, "--placement was '" + placement + "', " + e.rule());
    }
  }

  KeyRouter router(CommandLine cmd) {
    if (spec != null) {
      if (scheme != null || placement != null) {
        throw new ParameterException(cmd, "give either --spec or --scheme/--placement, not both");
      }
      Properties raw = loadProperties(spec, "--spec");
      RoutingSpec parsed = parse(raw, spec, "--spec");
      // the file, not the spec, says whether routing.placement was set: toMap() leaves out native
      if (raw.getProperty(RoutingSpec.PLACEMENT) != null) { // say what it resolved to
        cmd.getErr().println("routing: --spec " + spec + ": " + RoutingSpec.PLACEMENT + "="
            + resolvedPlacement(parsed));
        cmd.getErr().flush();
      }
      try {
        return new SpecRouter(parsed.withKeyFormat(keyFormat(cmd)).keyRouter(), "--spec " + spec);
      } catch (RuntimeException e) {
        throw new KeyInput.InputException("bad --spec " + spec + ": " + e.getMessage());
      }
    }
    RoutingSpec s = schemeAndPlacement(cmd);
    String echo = echo(cmd);
    if (echo != null) {
      cmd.getErr().println("routing: " + echo);
      cmd.getErr().flush();
    }
    return KeyFormatRouter.of(keyFormat(cmd),
        HashRouter.of(s.scheme(), s.placement(), KeylessPolicy.ROUND_ROBIN));
  }

  /**
   * Reads a properties file of {@code routing.*} keys into a spec; any problem (unreadable, not
   * UTF-8, a bad escape, a bad spec) is bad input (exit 2) naming {@code option} and the file.
   */
  static RoutingSpec loadSpec(Path file, String option) {
    return parse(loadProperties(file, option), file, option);
  }

  /** Reads the properties file as {@link #loadSpec} does, without parsing it as a spec. */
  static Properties loadProperties(Path file, String option) {
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(r);
    } catch (java.nio.charset.CharacterCodingException e) {
      throw new KeyInput.InputException("cannot read " + option + " " + file + ": not UTF-8 text");
    } catch (java.nio.file.NoSuchFileException e) {
      throw new KeyInput.InputException("cannot read " + option + " " + file + ": no such file");
    } catch (IOException e) {
      throw new KeyInput.InputException("cannot read " + option + " " + file + ": " + e.getMessage());
    } catch (IllegalArgumentException e) { // Properties.load: a malformed unicode escape
      throw new KeyInput.InputException("bad " + option + " " + file + ": " + e.getMessage());
    }
    return p;
  }

  /** Parses properties read from {@code file} as a spec; a bad spec is bad input (exit 2). */
  static RoutingSpec parse(Properties p, Path file, String option) {
    try {
      return RoutingSpec.parse(p);
    } catch (RuntimeException e) {
      throw new KeyInput.InputException("bad " + option + " " + file + ": " + e.getMessage());
    }
  }

  /**
   * A router built from the user's spec: an exception while routing (a generation that needs more
   * partitions than the topic has, a layer the spec left unusable) is the spec's fault, so it
   * becomes bad input (exit 2) naming the spec and the partition count, not an internal error.
   */
  static final class SpecRouter implements KeyRouter {
    private static final long serialVersionUID = 1L;
    private final KeyRouter delegate;
    private final String name;

    SpecRouter(KeyRouter delegate, String name) {
      this.delegate = delegate;
      this.name = name;
    }

    private KeyInput.InputException bad(RuntimeException e, int n) {
      return new KeyInput.InputException(name + " cannot route on " + n + " partition(s): "
          + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
    }

    @Override
    public int partition(byte[] key, int numPartitions) {
      try {
        return delegate.partition(key, numPartitions);
      } catch (RuntimeException e) {
        throw bad(e, numPartitions);
      }
    }

    @Override
    public int partition(byte[] key, int offset, int length, int numPartitions) {
      try {
        return delegate.partition(key, offset, length, numPartitions);
      } catch (RuntimeException e) {
        throw bad(e, numPartitions);
      }
    }

    @Override
    public int partition(CharSequence key, int numPartitions) {
      try {
        return delegate.partition(key, numPartitions);
      } catch (RuntimeException e) {
        throw bad(e, numPartitions);
      }
    }

    @Override
    public int keylessPartition(int numPartitions) {
      try {
        return delegate.keylessPartition(numPartitions);
      } catch (RuntimeException e) {
        throw bad(e, numPartitions);
      }
    }

    @Override
    public KeylessPolicy keylessPolicy() {
      return delegate.keylessPolicy();
    }

    @Override
    public String toString() {
      return delegate.toString();
    }
  }

  /** The scheme ids, for help and errors. */
  static final class SchemeIds extends java.util.ArrayList<String> {
    private static final long serialVersionUID = 1L;

    SchemeIds() {
      super(Arrays.stream(HashScheme.values()).map(HashScheme::id).collect(Collectors.toList()));
    }
  }

  /** The placement values, as {@code routing.placement} takes them, for help and completion. */
  static final class PlacementIds extends java.util.ArrayList<String> {
    private static final long serialVersionUID = 1L;

    PlacementIds() {
      super(RoutingSpec.placementValues());
    }
  }
}
