package io.github.routingkit.testkit.cli;

import io.github.routingkit.testkit.ResizeReport;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code routing resize}: what moves from N to M partitions under each scheme and placement. */
@Command(name = "resize", mixinStandardHelpOptions = true,
    description = "Fraction of a key sample that changes partition going from N to M partitions,"
        + " under every hash scheme and placement, next to the (M-N)/M minimum.")
final class ResizeCommand implements Callable<Integer> {
  @Spec
  CommandLine.Model.CommandSpec spec;

  @Mixin
  KeyInput input;

  @Option(names = "--from", paramLabel = "N", required = true, description = "Partitions now.")
  int from;

  @Option(names = "--to", paramLabel = "M", required = true, description = "Partitions after.")
  int to;

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
}
