package io.github.routingkit.cli;

import io.github.routingkit.audit.AuditLog;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code routing lint}: reads the producer and consumer configuration files of one topic (any
 * number of each, in any client) and flags the routing and ordering pitfalls they show
 * ({@link LintRule}), each with the file, the line and the fix. Exit 1 if an error (or, with
 * {@code --strict}, a warning) was found, 2 for bad input (an unreadable, empty or binary file, a
 * bad directive, files of Kafka and Pulsar clients mixed, bad options).
 */
@Command(name = "lint", mixinStandardHelpOptions = true,
    description = {"Flags the routing and ordering pitfalls in real client config files of one"
        + " topic, each with its file, line and fix: rules " + LintRule.RANGE + " (see docs/cli.md),"
        + " each naming the audit cause it prevents.",
        "Producers of any client are compared with each other: kafka-java, librdkafka"
        + " (confluent-kafka-*, node-rdkafka), sarama, kafkajs, kafka-go, pulsar-java, pulsar-go,"
        + " pulsar-client-cpp (Python, Node.js). A file names its client with"
        + " '# routing-lint: client=<client>' or is told by its keys; '# routing-lint:"
        + " disable=RK015 reason=\"...\"' silences a rule in that file."})
final class LintCommand implements Callable<Integer> {
  @Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--producer", paramLabel = "FILE",
      description = "A producer's config file; repeat it for every producer of the topic.")
  List<Path> producers = new ArrayList<>();

  @Option(names = "--consumer", paramLabel = "FILE",
      description = "A consumer's config file; repeatable.")
  List<Path> consumers = new ArrayList<>();

  @Option(names = "--flavor", paramLabel = "FLAVOR",
      description = "kafka or pulsar (default: detected from the keys).")
  String flavor;

  @Option(names = "--require-key-order", description = "The application needs per-key order.")
  boolean requireKeyOrder;

  @Option(names = "--require-keyless-order", description = "Messages sent without a key must"
      + " keep their send order too (consecutive keyless messages, or a key's messages some of"
      + " which are sent without it).")
  boolean requireKeylessOrder;

  @Option(names = "--partitions", paramLabel = "N", defaultValue = "0",
      description = "The topic's partition count, 1 to 65536 (producers are compared at it;"
          + " default: at 2 to 1,024).")
  int partitions;

  @Option(names = "--grow-to", paramLabel = "M", defaultValue = "0",
      description = "A planned partition count (with --partitions): flags keys that move.")
  int growTo;

  @Option(names = "--switch-markers", description = "Producers send switch markers at a routing"
      + " change and consumers read through a SwitchBarrier: key moves keep their order.")
  boolean switchMarkers;

  @Option(names = "--strict", description = "Warnings fail the lint too (exit 1).")
  boolean strict;

  @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
      description = "text or json (one object: files, findings, counts).")
  String format;

  @Override
  public Integer call() {
    CommandLine cmd = spec.commandLine();
    if (producers.isEmpty() && consumers.isEmpty()) {
      throw new ParameterException(cmd, "give at least one --producer or --consumer file");
    }
    if (flavor != null && !flavor.equals("kafka") && !flavor.equals("pulsar")) {
      throw new ParameterException(cmd, "--flavor was '" + flavor + "', must be kafka or pulsar");
    }
    if (!format.equals("text") && !format.equals("json")) {
      throw new ParameterException(cmd, "--format was '" + format + "', must be text or json");
    }
    if (partitions < 0 || partitions > 65_536 || growTo < 0 || growTo > 65_536) {
      throw new ParameterException(cmd, "--partitions and --grow-to must be 1 to 65536");
    }
    if (growTo > 0 && partitions == 0) {
      throw new ParameterException(cmd, "--grow-to needs --partitions (the count now)");
    }
    List<LintFile> p = new ArrayList<>();
    for (Path f : producers) {
      p.add(LintFile.read(f, "--producer"));
    }
    List<LintFile> c = new ArrayList<>();
    for (Path f : consumers) {
      c.add(LintFile.read(f, "--consumer"));
    }
    ConfigLint.Needs needs = new ConfigLint.Needs(requireKeyOrder, requireKeylessOrder,
        partitions, growTo, switchMarkers);
    ConfigLint.Result result = ConfigLint.run(p, c, flavor, needs);
    List<LintFinding> findings = result.findings();
    long errors = findings.stream().filter(x -> x.silenced() == null
        && x.severity() == LintFinding.Severity.ERROR).count();
    long silenced = findings.stream().filter(x -> x.silenced() != null).count();
    long warnings = findings.size() - errors - silenced;
    PrintWriter out = cmd.getOut();
    if (format.equals("json")) {
      out.println(json(result, errors, warnings, silenced));
    } else {
      for (LintFinding x : findings) {
        out.println(x.toLine());
      }
      List<String> declared = new ArrayList<>();
      if (requireKeyOrder) {
        declared.add("per-key order required");
      }
      if (requireKeylessOrder) {
        declared.add("keyless order required");
      }
      out.printf("lint (%s%s): %d error(s), %d warning(s)%s%n", result.flavor(),
          declared.isEmpty() ? "" : ", " + String.join(", ", declared), errors, warnings,
          silenced == 0 ? "" : ", " + silenced + " silenced");
    }
    out.flush();
    return errors > 0 || (strict && warnings > 0) ? RoutingCli.EXIT_CHECK_FAILED : 0;
  }

  private String json(ConfigLint.Result result, long errors, long warnings, long silenced) {
    StringBuilder sb = new StringBuilder("{\"flavor\":\"").append(result.flavor())
        .append("\",\"requireKeyOrder\":").append(requireKeyOrder)
        .append(",\"requireKeylessOrder\":").append(requireKeylessOrder)
        .append(",\"files\":[");
    for (int i = 0; i < result.files().size(); i++) {
      ConfigLint.FileRole f = result.files().get(i);
      sb.append(i == 0 ? "" : ",").append("{\"file\":");
      AuditLog.appendJsonString(f.file().name, sb);
      sb.append(",\"role\":\"").append(f.role()).append("\",\"client\":\"").append(f.client().id)
          .append('"');
      if (f.keyed() != null) {
        sb.append(",\"setting\":");
        AuditLog.appendJsonString(f.keyed().setting(), sb);
      }
      sb.append('}');
    }
    sb.append("],\"findings\":[");
    for (int i = 0; i < result.findings().size(); i++) {
      sb.append(i == 0 ? "" : ",").append(result.findings().get(i).toJson());
    }
    return sb.append("],\"errors\":").append(errors).append(",\"warnings\":").append(warnings)
        .append(",\"silenced\":").append(silenced).append('}').toString();
  }
}
