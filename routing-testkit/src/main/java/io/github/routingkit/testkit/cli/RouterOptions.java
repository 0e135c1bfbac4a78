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

/** Which router to analyze: a scheme (and placement) by id, or a routing spec file. */
final class RouterOptions {
  @Option(names = "--scheme", paramLabel = "ID",
      description = "Hash scheme id (default kafka-murmur2): one of ${COMPLETION-CANDIDATES}.",
      completionCandidates = SchemeIds.class)
  String scheme;

  @Option(names = "--placement", paramLabel = "ID",
      description = "Placement id (default: the scheme's native one): one of ${COMPLETION-CANDIDATES}.",
      completionCandidates = PlacementIds.class)
  String placement;

  @Option(names = "--spec", paramLabel = "FILE",
      description = "A properties file with routing.* keys (as in a producer config).")
  Path spec;

  KeyRouter router(CommandLine cmd) {
    if (spec != null) {
      if (scheme != null || placement != null) {
        throw new ParameterException(cmd, "give either --spec or --scheme/--placement, not both");
      }
      Properties p = new Properties();
      try (Reader r = Files.newBufferedReader(spec, StandardCharsets.UTF_8)) {
        p.load(r);
      } catch (java.nio.charset.CharacterCodingException e) {
        throw new KeyInput.InputException("cannot read --spec " + spec + ": not UTF-8 text");
      } catch (java.nio.file.NoSuchFileException e) {
        throw new KeyInput.InputException("cannot read --spec " + spec + ": no such file");
      } catch (IOException e) {
        throw new KeyInput.InputException("cannot read --spec " + spec + ": " + e.getMessage());
      } catch (IllegalArgumentException e) { // Properties.load: a malformed unicode escape
        throw new KeyInput.InputException("bad --spec " + spec + ": " + e.getMessage());
      }
      try {
        return RoutingSpec.parse(p).keyRouter();
      } catch (IllegalArgumentException e) {
        throw new KeyInput.InputException("bad --spec " + spec + ": " + e.getMessage());
      }
    }
    HashScheme s;
    try {
      s = scheme == null ? HashScheme.KAFKA_MURMUR2 : HashScheme.fromId(scheme);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(cmd, "--scheme " + e.getMessage());
    }
    Placement pl = s.nativePlacement();
    if (placement != null) {
      pl = Arrays.stream(Placement.values()).filter(x -> x.id().equals(placement)).findFirst()
          .orElseThrow(() -> new ParameterException(cmd, "--placement was '" + placement
              + "', must be one of " + new PlacementIds()));
    }
    return HashRouter.of(s, pl, KeylessPolicy.ROUND_ROBIN);
  }

  /** The scheme ids, for help and errors. */
  static final class SchemeIds extends java.util.ArrayList<String> {
    private static final long serialVersionUID = 1L;

    SchemeIds() {
      super(Arrays.stream(HashScheme.values()).map(HashScheme::id).collect(Collectors.toList()));
    }
  }

  /** The placement ids, for help and errors. */
  static final class PlacementIds extends java.util.ArrayList<String> {
    private static final long serialVersionUID = 1L;

    PlacementIds() {
      super(Arrays.stream(Placement.values()).map(Placement::id).collect(Collectors.toList()));
    }
  }
}
