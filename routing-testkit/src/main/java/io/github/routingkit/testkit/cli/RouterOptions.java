package io.github.routingkit.testkit.cli;

import io.github.routingkit.router.HashRouter;
import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.KeyRouter;
import io.github.routingkit.KeylessPolicy;
import io.github.routingkit.placement.Placement;
import io.github.routingkit.config.RoutingSpec;
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
 * <p>One placement vocabulary, the spec's: {@code --placement} takes what {@code routing.placement}
 * takes ({@code native}, {@code modulo}, {@code jump}, {@code jump-back}) and, as aliases, the
 * concrete placements those resolve to ({@code floor-mod}, {@code to-positive},
 * {@code unsigned-mod}, {@code abs-remainder}); {@link #echo()} says what an alias means.
 */
final class RouterOptions {
  @Option(names = "--scheme", paramLabel = "ID",
      description = "Hash scheme id (default kafka-murmur2): one of ${COMPLETION-CANDIDATES}.",
      completionCandidates = SchemeIds.class)
  String scheme;

  @Option(names = "--placement", paramLabel = "ID",
      description = "Placement, as routing.placement: native (default: the scheme's own), modulo,"
          + " jump or jump-back; the concrete placements are accepted as aliases: floor-mod,"
          + " to-positive, unsigned-mod, abs-remainder.",
      completionCandidates = PlacementIds.class)
  String placement;

  @Option(names = "--spec", paramLabel = "FILE",
      description = "A properties file with routing.* keys (as in a producer config).")
  Path spec;

  /** The spec vocabulary of {@code routing.placement}, then the concrete aliases. */
  static final java.util.List<String> SPEC_PLACEMENTS =
      java.util.List.of("native", "modulo", "jump", "jump-back");

  /** Whether any of --scheme, --placement, --spec was given. */
  boolean given() {
    return scheme != null || placement != null || spec != null;
  }

  /** A short name of the configuration: the spec file, or scheme / placement (resolved). */
  String describe(CommandLine cmd) {
    if (spec != null) {
      return "--spec " + spec;
    }
    HashScheme s = scheme(cmd);
    String mode = placement == null ? "native" : placement;
    Placement pl = placement(cmd, s);
    return s.id() + " / " + (mode.equals(pl.id()) ? mode : mode + " = " + pl.id());
  }

  /**
   * What a concrete {@code --placement} alias means in {@code routing.placement} terms, for the
   * given scheme; null when {@code --placement} was absent or already a spec value.
   */
  String echo(CommandLine cmd) {
    if (placement == null || SPEC_PLACEMENTS.contains(placement)) {
      return null;
    }
    HashScheme s = scheme(cmd);
    Placement pl = placement(cmd, s);
    String as = pl == s.nativePlacement() ? "native" : pl == s.moduloPlacement() ? "modulo" : null;
    return "--placement " + placement + " is an alias (a concrete placement); "
        + (as == null ? "for " + s.id() + " no routing.placement value selects it (use native,"
            + " modulo, jump or jump-back in a spec)"
            : "in a spec write routing.placement=" + as + " (with routing.scheme=" + s.id() + ")");
  }

  private HashScheme scheme(CommandLine cmd) {
    try {
      return scheme == null ? HashScheme.KAFKA_MURMUR2 : HashScheme.fromId(scheme);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(cmd, "--scheme " + e.getMessage());
    }
  }

  private Placement placement(CommandLine cmd, HashScheme s) {
    if (placement == null || placement.equals("native")) {
      return s.nativePlacement();
    }
    if (placement.equals("modulo")) {
      return s.moduloPlacement();
    }
    return Arrays.stream(Placement.values()).filter(x -> x.id().equals(placement)).findFirst()
        .orElseThrow(() -> new ParameterException(cmd, "--placement was '" + placement
            + "', must be one of " + new PlacementIds()));
  }

  KeyRouter router(CommandLine cmd) {
    if (spec != null) {
      if (scheme != null || placement != null) {
        throw new ParameterException(cmd, "give either --spec or --scheme/--placement, not both");
      }
      return new SpecRouter(loadSpec(spec, "--spec").keyRouter(), "--spec " + spec);
    }
    HashScheme s = scheme(cmd);
    Placement pl = placement(cmd, s);
    String echo = echo(cmd);
    if (echo != null) {
      cmd.getErr().println("routing: " + echo);
      cmd.getErr().flush();
    }
    return HashRouter.of(s, pl, KeylessPolicy.ROUND_ROBIN);
  }

  /**
   * Reads a properties file of {@code routing.*} keys into a spec; any problem (unreadable, not
   * UTF-8, a bad escape, a bad spec) is bad input (exit 2) naming {@code option} and the file.
   */
  static RoutingSpec loadSpec(Path file, String option) {
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

  /** The placement values (the spec's, then the concrete aliases), for help and errors. */
  static final class PlacementIds extends java.util.ArrayList<String> {
    private static final long serialVersionUID = 1L;

    PlacementIds() {
      super(SPEC_PLACEMENTS);
      Arrays.stream(Placement.values()).map(Placement::id).filter(id -> !contains(id))
          .forEach(this::add);
    }
  }
}
