package io.github.routingkit.cli;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.testkit.DistributionReport;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
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
    description = {"How a router spreads a key sample over N partitions: max/mean, CV, chi-square,"
        + " hottest keys and a verdict against the perfect-hash bound.",
        "Live: with --bootstrap-server (Kafka) or --service-url (Pulsar) and --topic, reads a"
        + " bounded sample of the topic's records without a group or a subscription, the"
        + " per-partition sizes from the admin API, and tells a key problem from a partitioner"
        + " problem."})
final class AnalyzeCommand implements Callable<Integer> {
  @Spec
  CommandLine.Model.CommandSpec spec;

  @Mixin
  KeyInput input;

  @Mixin
  RouterOptions routerOptions;

  /** The most partitions analyze lays out (per-partition tables; as the routers' 2^20 limit). */
  static final int MAX_PARTITIONS = 1 << 20;

  @Option(names = "--partitions", paramLabel = "N",
      description = "Partition count, 1 to 1048576 (required with --keys; a live topic's own"
          + " count is used).")
  Integer partitions;

  @Option(names = "--bootstrap-server", paramLabel = "HOST:PORT",
      description = "Live: read the Kafka topic --topic from this cluster (assign and seek: no"
          + " consumer group, nothing committed).")
  String bootstrapServer;

  @Option(names = "--command-config", paramLabel = "FILE",
      description = "Live Kafka: client properties (security.protocol, sasl.*, ssl.*) for the"
          + " admin client and the consumer.")
  Path commandConfig;

  @Option(names = "--service-url", paramLabel = "URL",
      description = "Live: read the Pulsar topic --topic from this broker (pulsar://HOST:PORT),"
          + " one Reader per partition: no subscription is left behind.")
  String serviceUrl;

  @Option(names = "--admin-url", paramLabel = "URL",
      description = "Live Pulsar: the admin REST API (http://HOST:8080) for per-partition"
          + " message counts, storage size, backlog and publish rate.")
  String adminUrl;

  @Option(names = "--topic", paramLabel = "TOPIC", description = "Live: the topic to analyze.")
  String topic;

  @Option(names = "--sample", paramLabel = "N", defaultValue = "1000000",
      description = "Live: read at most N records (default: ${DEFAULT-VALUE}), spread over the"
          + " partitions in proportion to their sizes on Kafka, at most N/partitions each on"
          + " Pulsar.")
  long sample;

  @Option(names = "--from-beginning",
      description = "Live: sample the oldest retained records (default on Kafka: the newest;"
          + " Pulsar always reads from the beginning unless --since is given).")
  boolean fromBeginning;

  @Option(names = "--since", paramLabel = "DURATION",
      description = "Live: sample the records published in the last DURATION (30s, 15m, 2h, 7d"
          + " or ISO-8601 such as PT1H).")
  String since;

  @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "30s",
      description = "Live: how long to wait for a broker (connect, each request, a partition"
          + " that stops returning records) before giving up with exit code 2 (default:"
          + " ${DEFAULT-VALUE}).")
  String timeout;

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
    if (bootstrapServer != null || serviceUrl != null || topic != null || adminUrl != null) {
      return live(cmd);
    }
    input.validate(cmd);
    if (partitions == null) {
      throw new ParameterException(cmd, "Missing required option: '--partitions=N' (or analyze"
          + " a live topic with --bootstrap-server/--service-url and --topic)");
    }
    if (partitions < 1 || partitions > MAX_PARTITIONS) {
      throw new ParameterException(cmd, "--partitions was " + partitions + ", must be in [1, "
          + MAX_PARTITIONS + "]");
    }
    if (!format.equals("text") && !format.equals("csv") && !format.equals("json")) {
      throw new ParameterException(cmd, "--format was '" + format + "', must be text, csv or json");
    }
    checkCommon(cmd);
    // a 0x<hex> line is a binary key: routed by its bytes everywhere in the report, as a
    // producer routes the record's key bytes (and so --key-format finds the header)
    KeyRouter router = new BinaryKeyLines(routerOptions.router(cmd));
    PrintWriter err = cmd.getErr();
    DistributionReport.Builder builder =
        DistributionReport.builder(router, partitions).topK(top).exactKeyLimit(exactKeys);
    // a router of its own for the schema-id scan, so stateful layers are not fed twice
    KeyRouter scanRouter = routerOptions.router(cmd);
    SchemaIdScan schemaIds = new SchemaIdScan(routerOptions.keyFormat(cmd));
    KeyInput.Stats stats = input.forEachKey(key -> {
      builder.add(key);
      byte[] bytes = BinaryKeyLines.bytesOf(key);
      if (bytes != null) {
        schemaIds.accept(bytes, scanRouter.partition(bytes, partitions));
      } else { // a text key: counted as keyed, never carries a header
        schemaIds.accept(key.getBytes(StandardCharsets.UTF_8), -1);
      }
    }, err);
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
        out.println(schemaIds.found() ? withSchemaRegistry(report.toJson(), schemaIds)
            : report.toJson());
        break;
      default:
        out.println("keys              " + input.displayName() + " (" + String.format(Locale.ROOT, "%,d",
            stats.keys()) + " keys)");
        out.print(schemaIds.toText());
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
    return failAbove(report, err);
  }

  private void checkCommon(CommandLine cmd) {
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
  }

  private int failAbove(DistributionReport report, PrintWriter err) {
    if (failAbove != null && report.maxOverMean() > failAbove) {
      err.printf(Locale.ROOT, "routing: max/mean %.4f exceeds --fail-above %s%n",
          report.maxOverMean(), failAbove);
      err.flush();
      return RoutingCli.EXIT_THRESHOLD;
    }
    return 0;
  }

  /** analyze of a live Kafka or Pulsar topic. */
  private int live(CommandLine cmd) {
    if (input.file != null) {
      throw new ParameterException(cmd, "give either --keys or a live topic"
          + " (--bootstrap-server/--service-url with --topic), not both");
    }
    if ((bootstrapServer == null) == (serviceUrl == null)) {
      throw new ParameterException(cmd, bootstrapServer == null
          ? "--topic needs --bootstrap-server (Kafka) or --service-url (Pulsar)"
          : "give either --bootstrap-server (Kafka) or --service-url (Pulsar), not both");
    }
    if (topic == null || topic.isBlank()) {
      throw new ParameterException(cmd, "Missing required option: '--topic=TOPIC'");
    }
    if (adminUrl != null && serviceUrl == null) {
      throw new ParameterException(cmd, "--admin-url is Pulsar's admin API; with Kafka the"
          + " admin API is reached through --bootstrap-server");
    }
    if (commandConfig != null && bootstrapServer == null) {
      throw new ParameterException(cmd, "--command-config holds Kafka client properties; it"
          + " needs --bootstrap-server");
    }
    if (partitions != null) {
      throw new ParameterException(cmd, "--partitions is read from the live topic; leave it out");
    }
    if (sample < 1) {
      throw new ParameterException(cmd, "--sample was " + sample + ", must be at least 1");
    }
    if (fromBeginning && since != null) {
      throw new ParameterException(cmd, "give either --from-beginning or --since, not both");
    }
    if (input.columns != null || input.fields != null || input.inputFormat != null
        || input.noHeader) {
      throw new ParameterException(cmd, "--column, --tsv-field, --input-format and --no-header"
          + " are for --keys files, not a live topic");
    }
    checkCommon(cmd);
    Duration wait = duration(cmd, "--timeout", timeout, MAX_TIMEOUT);
    Duration window = since == null ? null : duration(cmd, "--since", since, MAX_SINCE);
    PrintWriter err = cmd.getErr();
    boolean kafka = bootstrapServer != null;
    if (!kafka && !routerOptions.given()) {
      routerOptions.scheme = "pulsar-java-string"; // the Java client's default router hash
    }
    KeyRouter router = routerOptions.router(cmd);
    String routerName = routerOptions.describe(cmd);
    LiveTopic.Window mode = window != null ? LiveTopic.Window.SINCE
        : fromBeginning || !kafka ? LiveTopic.Window.FROM_BEGINNING : LiveTopic.Window.NEWEST;
    long started = System.nanoTime();
    try (LiveTopic t = kafka
        ? KafkaTopic.open(bootstrapServer, topic, mode, window, wait, clientConfig(cmd))
        : PulsarTopic.open(serviceUrl, adminUrl, topic, mode, window, wait)) {
      LiveReport live = new LiveReport(t, router, routerName, top, exactKeys);
      live.keyFormat(routerOptions.keyFormat(cmd));
      long[] lastPrint = {System.nanoTime()};
      LiveTopic.ReadResult read = t.read(sample, live, records -> {
        long now = System.nanoTime();
        if (!input.quiet && now - lastPrint[0] >= progressNanos) {
          lastPrint[0] = now;
          err.printf(Locale.ROOT, "routing: %,d records read from %s (%.0f s)%n", records,
              t.describe(), (now - started) / 1e9);
          err.flush();
        }
      });
      live.finish(read, (System.nanoTime() - started) / 1_000_000);
      PrintWriter out = cmd.getOut();
      switch (format) {
        case "csv":
          out.print(live.toCsv());
          break;
        case "json":
          out.println(live.toJson());
          break;
        default:
          out.print(live.toText());
      }
      out.flush();
      if (chart != null) {
        LoadChart.write(live.report(), chart, t.describe());
        if (!input.quiet) {
          err.println("routing: chart written to " + chart);
        }
      }
      return failAbove(live.report(), err);
    }
  }

  /** The report's JSON with a "schemaRegistry" object added. */
  private static String withSchemaRegistry(String json, SchemaIdScan schemaIds) {
    try {
      com.fasterxml.jackson.databind.ObjectMapper m = new com.fasterxml.jackson.databind.ObjectMapper();
      com.fasterxml.jackson.databind.node.ObjectNode o =
          (com.fasterxml.jackson.databind.node.ObjectNode) m.readTree(json);
      o.set("schemaRegistry", m.valueToTree(schemaIds.toMap()));
      return m.writeValueAsString(o);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** How often a long live read prints a progress line. */
  static final long PROGRESS_NANOS = 5_000_000_000L;
  /** {@link #PROGRESS_NANOS}; tests lower it to see the lines. */
  static volatile long progressNanos = PROGRESS_NANOS;

  private Properties clientConfig(CommandLine cmd) {
    Properties p = OptionValues.commandConfig(commandConfig);
    if (commandConfig != null) {
      for (String owned : new String[] {"group.id", "enable.auto.commit", "bootstrap.servers",
          "key.deserializer", "value.deserializer"}) {
        if (p.containsKey(owned)) {
          throw new KeyInput.InputException("--command-config " + commandConfig + " sets "
              + owned + ", which analyze sets itself (it reads without a group)");
        }
      }
    }
    return p;
  }

  /** The longest {@code --timeout}: 365 days (every wait is converted to milliseconds). */
  static final Duration MAX_TIMEOUT = Duration.ofDays(365);
  /** The longest {@code --since}: 36,525 days (100 years; a window from before 1970 reads all). */
  static final Duration MAX_SINCE = Duration.ofDays(36_525);

  /**
   * {@code 30s}, {@code 15m}, {@code 2h}, {@code 7d}, {@code 500ms} or ISO-8601 ({@code PT1H}),
   * positive and at most {@code max}; anything else is a usage error naming the option, the value
   * and the rule.
   */
  static Duration duration(CommandLine cmd, String option, String text, Duration max) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    Duration d = null;
    try {
      if (t.startsWith("p")) {
        d = Duration.parse(t.toUpperCase(Locale.ROOT));
      } else {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)(ms|s|m|min|h|d)")
            .matcher(t);
        if (m.matches()) {
          long v = Long.parseLong(m.group(1));
          switch (m.group(2)) {
            case "ms": d = Duration.ofMillis(v); break;
            case "s": d = Duration.ofSeconds(v); break;
            case "m": case "min": d = Duration.ofMinutes(v); break;
            case "h": d = Duration.ofHours(v); break;
            default: d = Duration.ofDays(v);
          }
        }
      }
    } catch (java.time.format.DateTimeParseException | ArithmeticException
        | NumberFormatException e) {
      d = null;
    }
    if (d == null || d.isNegative() || d.isZero()) {
      throw new ParameterException(cmd, option + " was '" + text + "', must be a positive"
          + " duration such as 30s, 15m, 2h, 7d or PT1H");
    }
    if (d.compareTo(max) > 0) {
      throw new ParameterException(cmd, option + " was '" + text + "', must be at most "
          + max.toDays() + "d");
    }
    return d;
  }
}
