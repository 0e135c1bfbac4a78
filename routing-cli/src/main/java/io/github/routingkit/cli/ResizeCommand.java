package io.github.routingkit.cli;

import io.github.routingkit.KeylessPolicy;
import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.placement.Placement;
import io.github.routingkit.router.HashRouter;
import io.github.routingkit.testkit.ResizeReport;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code routing resize}: what moves from N to M partitions under the user's configuration
 * ({@code --spec}, or {@code --scheme}/{@code --placement}), or under each scheme and placement.
 */
@Command(name = "resize", mixinStandardHelpOptions = true,
    description = "Fraction of a key sample that changes partition going from N to M partitions,"
        + " next to the (M-N)/M minimum: under your configuration (--spec, or --scheme and"
        + " --placement) if given, with --all also every hash scheme and placement after it;"
        + " else every hash scheme and placement.")
final class ResizeCommand implements Callable<Integer> {
  @Spec
  CommandLine.Model.CommandSpec spec;

  @Mixin
  KeyInput input;

  @Option(names = "--from", paramLabel = "N", required = true, description = "Partitions now.")
  int from;

  @Option(names = "--to", paramLabel = "M", required = true, description = "Partitions after.")
  int to;

  @Mixin
  RouterOptions routerOptions;

  @Option(names = "--all", description = "With --spec/--scheme/--placement: also list every"
      + " scheme and placement after your configuration.")
  boolean all;

  @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
      description = "text, csv or json (default: ${DEFAULT-VALUE}).")
  String format;

  @Override
  public Integer call() {
    CommandLine cmd = spec.commandLine();
    input.validate(cmd);
    if (from < 1 || to < 1) {
      throw new ParameterException(cmd, "--from and --to were " + from + " and " + to
          + ", both must be at least 1");
    }
    if (!format.equals("text") && !format.equals("csv") && !format.equals("json")) {
      throw new ParameterException(cmd, "--format was '" + format + "', must be text, csv or json");
    }
    ResizeReport.Builder builder = ResizeReport.builder(from, to);
    // every router reads the key lines by the one rule: a 0x<hex> line is routed by its bytes
    if (routerOptions.given()) {
      builder.router(routerOptions.describe(cmd), new BinaryKeyLines(routerOptions.router(cmd)));
      if (all) {
        everyScheme(builder);
      }
    } else if (all) {
      throw new ParameterException(cmd, "--all lists every scheme after your configuration: give"
          + " --spec, --scheme or --placement (without them every scheme is listed anyway)");
    } else {
      everyScheme(builder);
    }
    input.forEachKey(builder::add, cmd.getErr());
    ResizeReport report = builder.build();
    switch (format) {
      case "csv":
        cmd.getOut().print(report.toCsv());
        break;
      case "json":
        cmd.getOut().println(report.toJson());
        break;
      default:
        cmd.getOut().print(report.toText());
    }
    cmd.getOut().flush();
    return 0;
  }

  /** Adds a row for every hash scheme under every placement, in the report's default order. */
  private static void everyScheme(ResizeReport.Builder builder) {
    for (HashScheme s : HashScheme.values()) {
      for (Placement p : Placement.values()) {
        builder.router(s.id() + " / " + p.id(),
            new BinaryKeyLines(HashRouter.of(s, p, KeylessPolicy.ROUND_ROBIN)));
      }
    }
  }
}
