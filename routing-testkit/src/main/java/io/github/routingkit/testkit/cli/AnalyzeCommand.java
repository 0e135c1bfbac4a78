package io.github.routingkit.testkit.cli;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.testkit.DistributionReport;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code routing analyze}: the distribution report of a key sample. */
@Command(name = "analyze", mixinStandardHelpOptions = true,
    description = "How a router spreads a key sample over N partitions: max/mean, CV, chi-square,"
        + " hottest keys and a verdict against the perfect-hash bound.")
final class AnalyzeCommand implements Callable<Integer> {
  @Spec
  CommandLine.Model.CommandSpec spec;

  @Mixin
  KeyInput input;

  @Mixin
  RouterOptions routerOptions;

  /** The most partitions analyze lays out (per-partition tables; as the routers' 2^20 limit). */
  static final int MAX_PARTITIONS = 1 << 20;

  @Option(names = "--partitions", paramLabel = "N", required = true,
      description = "Partition count, 1 to 1048576.")
  int partitions;

  @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
      description = "text, csv (per-partition table) or json (default: ${DEFAULT-VALUE}).")
  String format;

  @Option(names = "--chart", paramLabel = "FILE",
      description = "Also draw per-partition load with the mean and the perfect-hash band to"
          + " FILE (.svg or .png).")
  Path chart;

  @Option(names = "--fail-above", paramLabel = "RATIO",
      description = "Exit with code 1 if max/mean exceeds RATIO (for CI).")
  Double failAbove;

  @Option(names = "--top", paramLabel = "K", defaultValue = "10",
      description = "How many hottest keys to list (default: ${DEFAULT-VALUE}).")
  int top;

  @Option(names = "--exact-keys", paramLabel = "N",
      description = "Distinct keys counted exactly (default: one per 512 bytes of max heap,"
          + " 10,000 to 2,000,000). Up to N keys every count, the distinct count and the"
          + " effective keys are exact; past N the report switches to bounded sketches:"
          + " distinct keys estimated (~0.8 %% error), hot keys' counts lower bounds (off by at"
          + " most messages/10,001), effective keys a lower bound; memory then stays flat."
          + " Per-partition counts, max/mean and chi-square are always exact. Exact counting"
          + " costs about 2 x key length + 30 bytes per distinct key and is no slower than the"
          + " sketches, so more heap never makes analyze slower.")
  int exactKeys = DistributionReport.Builder.defaultExactKeyLimit();

  @Override
  public Integer call() {
    CommandLine cmd = spec.commandLine();
    input.validate(cmd);
    if (partitions < 1 || partitions > MAX_PARTITIONS) {
      throw new ParameterException(cmd, "--partitions was " + partitions + ", must be in [1, "
          + MAX_PARTITIONS + "]");
    }
    if (!format.equals("text") && !format.equals("csv") && !format.equals("json")) {
      throw new ParameterException(cmd, "--format was '" + format + "', must be text, csv or json");
    }
    if (failAbove != null && !(failAbove >= 1)) {
      throw new ParameterException(cmd, "--fail-above was " + failAbove + ", must be >= 1");
    }
    if (top < 0 || exactKeys < 1) {
      throw new ParameterException(cmd, "--top must be >= 0 and --exact-keys >= 1");
    }
    if (chart != null) {
      LoadChart.checkFormat(cmd, chart);
    }
    KeyRouter router = routerOptions.router(cmd);
    PrintWriter err = cmd.getErr();
    DistributionReport.Builder builder =
        DistributionReport.builder(router, partitions).topK(top).exactKeyLimit(exactKeys);
    KeyInput.Stats stats = input.forEachKey(builder::add, err);
    if (stats.skipped() > 0 && !input.quiet) {
      err.printf(Locale.ROOT, "routing: skipped %,d blank or short lines%n", stats.skipped());
    }
    DistributionReport report = builder.build();
    PrintWriter out = cmd.getOut();
    switch (format) {
      case "csv":
        out.print(report.toCsv());
        break;
      case "json":
        out.println(report.toJson());
        break;
      default:
        out.println("keys              " + input.displayName() + " (" + String.format(Locale.ROOT, "%,d",
            stats.keys()) + " keys)");
        out.print(report.toText());
    }
    out.flush();
    if (chart != null) {
      LoadChart.write(report, chart, input.isStdin() ? "keys from standard input"
          : "keys from " + input.file.getFileName());
      if (!input.quiet) {
        err.println("routing: chart written to " + chart);
      }
    }
    if (failAbove != null && report.maxOverMean() > failAbove) {
      err.printf(Locale.ROOT, "routing: max/mean %.4f exceeds --fail-above %s%n",
          report.maxOverMean(), failAbove);
      err.flush();
      return RoutingCli.EXIT_THRESHOLD;
    }
    return 0;
  }
}
