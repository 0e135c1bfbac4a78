package io.github.routingkit.cli;

import io.github.routingkit.audit.AuditCause;
import io.github.routingkit.audit.AuditLogException;
import io.github.routingkit.audit.AuditReport;
import io.github.routingkit.audit.OrderingAudit;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code routing audit LOG...}: the per-key ordering audit of interceptor logs; with
 * {@code --follow}, the continuous audit of a topic of audit events ({@link AuditFollow}).
 *
 * <p>Exit codes: 0 per-key order kept; 1 out-of-order pairs found (check failed); 2 bad input
 * (bad arguments, an unreadable file, a bad line unless {@code --skip-bad-lines}); 3 internal error.
 */
@Command(name = "audit", mixinStandardHelpOptions = true,
    description = {"Per-key ordering audit of audit logs (JSON lines written by the RoutingKit"
        + " interceptors): out-of-order pairs per key, each with the cause and the routing layer"
        + " at fault, and a table of causes.",
        "With --follow: the same audit, continuously, as a Kafka Streams application reading the"
        + " topic the interceptors ship audit events to (routingkit.audit.topic); each pair goes"
        + " to the pairs topic (and stdout), totals to the metrics (and stderr). Run several to"
        + " share the work; stop with Ctrl-C or SIGTERM."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:per-key order kept", "1:out-of-order pairs found (check failed)",
        "2:bad arguments or bad input (unreadable file, bad line)", "3:internal error"})
final class AuditCommand implements Callable<Integer> {
  /** Exit code of an internal error. */
  static final int EXIT_INTERNAL = RoutingCli.EXIT_INTERNAL;

  @Spec
  CommandLine.Model.CommandSpec spec;

  @Parameters(paramLabel = "LOG", arity = "0..*",
      description = "Audit logs (.jsonl, or .gz); several are merged by observation time.")
  List<Path> logs = List.of();

  @Option(names = "--follow", description = "Audit the events topic continuously (Kafka Streams)"
      + " instead of log files.")
  boolean follow;

  @Option(names = "--bootstrap-server", paramLabel = "HOST:PORT",
      description = "--follow: the Kafka cluster of the events topic.")
  String bootstrapServer;

  @Option(names = "--events-topic", paramLabel = "TOPIC", defaultValue = "routingkit-audit-events",
      description = "--follow: the topic of audit events (default: ${DEFAULT-VALUE}).")
  String eventsTopic;

  @Option(names = "--pairs-topic", paramLabel = "TOPIC", defaultValue = "routingkit-audit-pairs",
      description = "--follow: where out-of-order pairs go (default: ${DEFAULT-VALUE}).")
  String pairsTopic;

  @Option(names = "--application-id", paramLabel = "ID", defaultValue = "routingkit-audit",
      description = "--follow: the Streams application id, the same on every instance of one"
          + " audit (default: ${DEFAULT-VALUE}).")
  String applicationId;

  @Option(names = "--state-dir", paramLabel = "DIR",
      description = "--follow: where the per-key state lives (default: Kafka Streams').")
  Path stateDir;

  @Option(names = "--config", paramLabel = "FILE",
      description = "--follow: Kafka Streams properties (security settings, say).")
  Path config;

  @Option(names = "--at-least-once", description = "--follow: at-least-once instead of"
      + " exactly-once (faster; a crash may repeat pairs or report false ones).")
  boolean atLeastOnce;

  @Option(names = "--grace", paramLabel = "DURATION", defaultValue = "5s",
      description = "--follow: how long events wait for earlier ones of other consumers"
          + " (default: ${DEFAULT-VALUE}; 0 for none).")
  String grace;

  @Option(names = "--retention", paramLabel = "DURATION", defaultValue = "7d",
      description = "--follow: how long a key stream is kept after its last event"
          + " (default: ${DEFAULT-VALUE}).")
  String retention;

  @Option(names = "--threads", paramLabel = "N", defaultValue = "1",
      description = "--follow: stream threads (default: ${DEFAULT-VALUE}).")
  int threads;

  @Option(names = "--status-every", paramLabel = "MS", defaultValue = "60000", hidden = true)
  long statusEvery;

  @Option(names = "--max-keys", paramLabel = "N", defaultValue = "1000000",
      description = "Key streams (topic, producer instance, key) tracked at once; the least"
          + " recently seen are forgotten beyond it (default: ${DEFAULT-VALUE}; measured: about"
          + " 280 bytes of heap per stream of a short key, so 1,000,000 take about 280 MB).")
  int maxKeys;

  @Option(names = "--show", paramLabel = "N", defaultValue = "20",
      description = "Out-of-order pairs printed with their evidence (default: ${DEFAULT-VALUE}).")
  int show;

  @Option(names = "--skip-bad-lines",
      description = "Count and skip lines that are not audit records instead of failing; a log"
          + " cut short (a truncated .gz) is audited up to the damage. The report and the"
          + " verdict say what was skipped.")
  boolean skipBadLines;

  @Option(names = "--ignore", paramLabel = "CAUSE", split = ",",
      description = "Causes that do not fail the check (exit 0), e.g. REDELIVERY.")
  List<AuditCause> ignore = List.of();

  @Option(names = "--quiet", description = "No progress lines on stderr.")
  boolean quiet;

  @Option(names = "--progress-every", paramLabel = "N", defaultValue = "1000000", hidden = true)
  long progressEvery;

  @Override
  public Integer call() {
    CommandLine cmd = spec.commandLine();
    if (follow) {
      if (!logs.isEmpty()) {
        throw new ParameterException(cmd, "--follow reads the events topic: give no LOG files");
      }
      AuditFollow.Options o = new AuditFollow.Options();
      o.bootstrapServer = bootstrapServer;
      o.eventsTopic = eventsTopic;
      o.pairsTopic = pairsTopic;
      o.applicationId = applicationId;
      o.stateDir = stateDir;
      o.config = config;
      o.atLeastOnce = atLeastOnce;
      o.grace = grace;
      o.retention = retention;
      o.threads = threads;
      o.quiet = quiet;
      o.statusEveryMillis = Math.max(1, statusEvery);
      return AuditFollow.run(cmd, o);
    }
    if (logs.isEmpty()) {
      throw new ParameterException(cmd, "give at least one LOG file, or --follow");
    }
    if (maxKeys < 1) {
      throw new ParameterException(cmd, "--max-keys was " + maxKeys + ", must be >= 1");
    }
    if (show < 0) {
      throw new ParameterException(cmd, "--show was " + show + ", must be >= 0");
    }
    if (progressEvery < 1) {
      throw new ParameterException(cmd, "--progress-every must be >= 1");
    }
    for (Path log : logs) {
      if (!Files.isRegularFile(log) || !Files.isReadable(log)) {
        throw new ParameterException(cmd, "LOG " + log + " is not a readable file");
      }
    }
    PrintWriter out = cmd.getOut();
    PrintWriter err = cmd.getErr();
    try {
      OrderingAudit audit = OrderingAudit.builder().maxKeys(maxKeys)
          .maxFindings(Math.max(show, 0)).build();
      long start = System.nanoTime();
      AuditReport report = audit.auditFiles(logs, skipBadLines, n -> {
        if (!quiet) {
          err.printf("audit: %,d records, %,d out-of-order pairs so far (%.0f s)%n", n,
              audit.pairs(), (System.nanoTime() - start) / 1e9);
          err.flush();
        }
      }, progressEvery);
      if (report.records() == 0) {
        throw new ParameterException(cmd, "the logs hold no audit records ("
            + (report.skippedLines() > 0 ? report.skippedLines() + " bad lines skipped"
            : "empty") + "): nothing to audit");
      }
      long failing = 0;
      List<AuditCause> ignoredFound = new ArrayList<>();
      List<AuditCause> failingFound = new ArrayList<>();
      for (AuditCause c : report.causesFound()) {
        (ignore.contains(c) ? ignoredFound : failingFound).add(c);
        if (!ignore.contains(c)) {
          failing += report.count(c);
        }
      }
      String text = report.toText(show);
      if (!ignoredFound.isEmpty()) {
        // the verdict line is the last: say which causes --ignore let through, so a BROKEN
        // verdict on a green step is not a mystery in the CI log
        String nl = System.lineSeparator();
        text = text.substring(0, text.length() - nl.length()) + (failingFound.isEmpty()
            ? " (ignored by --ignore: exit 0)" : " (" + ignoredFound + " ignored by --ignore; "
            + failingFound + " fail the check: exit 1)") + nl;
      }
      out.print(text);
      out.flush();
      return failing > 0 ? RoutingCli.EXIT_THRESHOLD : 0;
    } catch (AuditLogException | ParameterException e) {
      throw e; // bad input: exit 2, one line on stderr (RoutingCli)
    } catch (OutOfMemoryError e) {
      err.println("routing audit: out of memory: lower --max-keys or give the JVM more heap (-Xmx)");
      err.flush();
      return RoutingCli.EXIT_USAGE;
    } catch (RuntimeException e) {
      err.println("routing audit: internal error: " + e);
      err.flush();
      return EXIT_INTERNAL;
    }
  }
}
