package io.github.routingkit.cli;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.testkit.RolloutReport;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code routing rollout}: for a canary rollout by key ({@code routing.canary.*}) and a plan of
 * shares, what each step moves on a key sample and which partitions gain or lose load.
 */
@Command(name = "rollout", mixinStandardHelpOptions = true,
    description = "What each step of a canary rollout by key moves: for a plan such as"
        + " 1,5,25,100 (percent of keys through the new spec), the keys and the traffic that"
        + " change partition at each step and cumulatively, and the partitions that gain or lose"
        + " the most. The old spec and its canary come from --spec (routing.canary.next.*), or the"
        + " old from --spec and the new from --next.")
final class RolloutCommand implements Callable<Integer> {
  @Spec
  CommandLine.Model.CommandSpec spec;

  @Mixin
  KeyInput input;

  @Option(names = "--spec", paramLabel = "FILE", required = true,
      description = "A properties file with routing.* keys: the old spec with its canary"
          + " (routing.canary.next.*; its routing.canary.share is not used), or the old spec alone"
          + " with --next.")
  Path specFile;

  @Option(names = "--next", paramLabel = "FILE",
      description = "The new spec as a properties file of plain routing.* keys (instead of"
          + " routing.canary.next.* in --spec).")
  Path nextFile;

  @Option(names = "--plan", paramLabel = "PCT", required = true, split = ",",
      description = "The shares of keys through the new spec at each step, in percent, strictly"
          + " increasing from above 0 to at most 100, e.g. 1,5,25,100 (a trailing %% is allowed)."
          + " The rollout starts at 0.")
  List<String> plan;

  @Option(names = "--partitions", paramLabel = "N", required = true,
      description = "Partition count, 1 to 65536 (the report keeps a load change per step and"
          + " partition).")
  int partitions;

  @Option(names = "--top", paramLabel = "K", defaultValue = "5",
      description = "Partitions gaining and losing the most listed per step (default: ${DEFAULT-VALUE}).")
  int top;

  @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
      description = "text or json (default: ${DEFAULT-VALUE}).")
  String format;

  @Option(names = "--max-moved", paramLabel = "PCT",
      description = "Exit with code 1 if a step moves more than PCT percent of the traffic (for CI).")
  Double maxMoved;

  @Override
  public Integer call() {
    CommandLine cmd = spec.commandLine();
    input.validate(cmd);
    if (partitions < 1 || partitions > RolloutReport.MAX_PARTITIONS) {
      throw new ParameterException(cmd, "--partitions was " + partitions + ", must be in [1, "
          + RolloutReport.MAX_PARTITIONS + "]");
    }
    if (!format.equals("text") && !format.equals("json")) {
      throw new ParameterException(cmd, "--format was '" + format + "', must be text or json");
    }
    if (top < 0) {
      throw new ParameterException(cmd, "--top was " + top + ", must be >= 0");
    }
    if (maxMoved != null && !(maxMoved >= 0 && maxMoved <= 100)) {
      throw new ParameterException(cmd, "--max-moved was " + maxMoved + ", must be a percentage"
          + " in [0, 100]");
    }
    double[] shares = shares(cmd);
    RoutingSpec old = RouterOptions.loadSpec(specFile, "--spec");
    KeyRouter oldRouter;
    KeyRouter newRouter;
    if (nextFile != null) {
      if (old.canaryNext() != null) {
        throw new ParameterException(cmd, "--spec " + specFile + " has a canary"
            + " (routing.canary.next.*) and --next gives another new spec: give one of them");
      }
      RoutingSpec next = RouterOptions.loadSpec(nextFile, "--next");
      if (next.canaryNext() != null) {
        throw new ParameterException(cmd, "--next " + nextFile + " has a canary of its own"
            + " (routing.canary.*): give the new spec's plain routing.* keys");
      }
      oldRouter = old.keyRouter();
      newRouter = next.keyRouter();
    } else {
      if (old.canaryNext() == null) {
        throw new ParameterException(cmd, "--spec " + specFile + " has no canary: add"
            + " routing.canary.share and routing.canary.next.* keys for the new spec, or give the"
            + " new spec with --next");
      }
      oldRouter = old.withoutCanary().keyRouter();
      newRouter = old.canaryNext().keyRouter();
    }
    RolloutReport.Builder builder = RolloutReport.builder(
        new RouterOptions.SpecRouter(oldRouter, "--spec " + specFile),
        new RouterOptions.SpecRouter(newRouter, nextFile != null ? "--next " + nextFile
            : "--spec " + specFile + " (routing.canary.next.*)"), partitions, shares)
        // the key lines by the rule of every key file: a 0x<hex> line is routed, and placed in
        // the canary, by its bytes
        .keyBytes(BinaryKeyLines::bytesOf);
    KeyInput.Stats stats = input.forEachKey(builder::add, cmd.getErr());
    if (stats.skipped() > 0 && !input.quiet) {
      cmd.getErr().printf(Locale.ROOT, "routing: skipped %,d blank or short lines%n",
          stats.skipped());
    }
    RolloutReport report = builder.build();
    if (format.equals("json")) {
      cmd.getOut().println(report.toJson(top));
    } else {
      cmd.getOut().println("keys              " + input.displayName());
      cmd.getOut().print(report.toText(top));
    }
    cmd.getOut().flush();
    if (maxMoved != null) {
      for (RolloutReport.Step s : report.steps()) {
        double moved = 100.0 * s.movedMessages() / report.messages();
        if (moved > maxMoved) {
          cmd.getErr().printf(Locale.ROOT, "routing: step to %s%% moves %s of the traffic,"
              + " more than --max-moved %s%n", trim(100 * s.toShare()),
              RolloutReport.percent(s.movedMessages(), report.messages()), maxMoved);
          cmd.getErr().flush();
          return RoutingCli.EXIT_CHECK_FAILED;
        }
      }
    }
    return 0;
  }

  private static String trim(double v) {
    return new java.math.BigDecimal(v).round(new java.math.MathContext(6)).stripTrailingZeros()
        .toPlainString();
  }

  private double[] shares(CommandLine cmd) {
    if (plan.size() > RolloutReport.MAX_STEPS) {
      throw new ParameterException(cmd, "--plan has " + plan.size() + " steps, at most "
          + RolloutReport.MAX_STEPS);
    }
    double[] out = new double[plan.size()];
    double previous = 0;
    for (int i = 0; i < out.length; i++) {
      String raw = plan.get(i).trim();
      String t = raw.endsWith("%") ? raw.substring(0, raw.length() - 1).trim() : raw;
      double pct;
      try {
        pct = t.matches("[0-9]+(\\.[0-9]+)?") ? new java.math.BigDecimal(t).doubleValue()
            : Double.NaN;
      } catch (NumberFormatException e) {
        pct = Double.NaN;
      }
      if (!(pct > previous && pct <= 100)) {
        throw new ParameterException(cmd, "--plan step " + (i + 1) + " was '" + raw + "', each"
            + " step must be a percentage above the previous one (the rollout starts at 0) and at"
            + " most 100, e.g. --plan 1,5,25,100");
      }
      previous = pct;
      out[i] = new java.math.BigDecimal(t).movePointLeft(2).doubleValue();
    }
    return out;
  }
}
