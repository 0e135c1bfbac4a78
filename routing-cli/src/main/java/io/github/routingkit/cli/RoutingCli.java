package io.github.routingkit.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;

/**
 * The {@code routing} command: answers "is my key hot?" ({@code analyze}), "what moves if I add
 * partitions?" ({@code resize}), "how many partitions do I need?" ({@code plan}) and "where would
 * each client put this key?" ({@code compare}) and "where did per-key order break, and which
 * layer broke it?" ({@code audit}) and "what does each step of my canary rollout move?"
 * ({@code rollout}) and "where is this key now, and who reads it?" ({@code locate}).
 *
 * <p>Exit codes, the same for every subcommand: 0 success; 1 a check failed ({@code analyze
 * --fail-above} exceeded, {@code plan} finds no partition count enough while the hot key stays on
 * one partition, {@code audit} found out-of-order pairs,
 * {@code lint} found an error, a {@code rollout} step moves more than {@code --max-moved}, a {@code locate
 * --agree-with} scheme puts the key elsewhere); 2 bad input (arguments, an unreadable or empty key file, an invalid {@code --spec}
 * or one that cannot route on the partition count given, an argument the JVM could not decode,
 * a live topic that cannot be read: unreachable broker, missing topic, missing ACL);
 * 3 internal error (a bug: please report it). Errors are one line on stderr, never a stack trace
 * (set {@code ROUTING_DEBUG=1} to get the trace of an internal error as well).
 */
@Command(name = "routing", mixinStandardHelpOptions = true,
    versionProvider = RoutingCli.Version.class,
    description = "Key-routing analysis for Kafka and Pulsar topics.",
    subcommands = {AnalyzeCommand.class, ResizeCommand.class, PlanCommand.class,
        CompareCommand.class, LocateCommand.class, AuditCommand.class, LintCommand.class,
        RolloutCommand.class,
        CommandLine.HelpCommand.class},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:success", "1:check failed (analyze --fail-above exceeded; plan: no"
        + " partition count is enough while the hot key stays on one partition; audit found out-of-order pairs; lint errors; a rollout step above --max-moved; locate --agree-with disagrees)",
        "2:bad input (arguments, key file, --spec, a live topic that cannot be read)", "3:internal error (please report)"})
public final class RoutingCli implements Runnable {
  /** Exit code of a failed check: {@code analyze --fail-above}, {@code plan}'s hot-key verdict. */
  public static final int EXIT_CHECK_FAILED = 1;
  /** Another name of {@link #EXIT_CHECK_FAILED}. */
  public static final int EXIT_THRESHOLD = EXIT_CHECK_FAILED;
  /** Exit code of bad input: an argument, an unreadable or empty file, an invalid spec. */
  public static final int EXIT_USAGE = 2;
  /** Exit code of an internal error (a bug in the tool or the library). */
  public static final int EXIT_INTERNAL = 3;

  @Spec
  CommandLine.Model.CommandSpec spec;

  /** Runs the command and exits the JVM with its exit code. */
  public static void main(String[] args) {
    System.setProperty("java.awt.headless", "true");
    if (System.getProperty("slf4j.provider") == null && System.getenv("ROUTING_DEBUG") == null) {
      // the Kafka and Pulsar clients of live analyze log through SLF4J, which the distribution ships
      // without a binding: errors reach the user as routing's one-line messages, not as logs
      System.setProperty("slf4j.provider", "org.slf4j.helpers.NOP_FallbackServiceProvider");
      System.setProperty("slf4j.internal.verbosity", "WARN");
    }
    System.exit(run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
  }

  /**
   * Runs the command with the given output streams and returns its exit code (for tests and
   * embedding; never calls {@code System.exit}).
   */
  public static int run(PrintWriter out, PrintWriter err, String... args) {
    String undecodable = undecodable(args);
    if (undecodable != null) {
      err.println("routing: " + undecodable);
      err.flush();
      return EXIT_USAGE;
    }
    return run(new CommandLine(new RoutingCli()), out, err, args);
  }

  /** Runs {@code cmd} with the routing command's error handling (tests give other commands). */
  static int run(CommandLine cmd, PrintWriter out, PrintWriter err, String... args) {
    cmd.setOut(out);
    cmd.setErr(err);
    cmd.setParameterExceptionHandler((ex, a) -> {
      err.println("routing: " + oneLine(ex.getMessage()) + " (see: routing "
          + commandName(ex.getCommandLine()) + "--help)");
      err.flush();
      return EXIT_USAGE;
    });
    cmd.setExecutionExceptionHandler((ex, c, parsed) -> {
      if (ex instanceof KeyInput.InputException || ex instanceof IllegalArgumentException) {
        err.println("routing: " + oneLine(ex.getMessage()));
        err.flush();
        return EXIT_USAGE;
      }
      if (ex instanceof java.io.UncheckedIOException) {
        err.println("routing: " + oneLine(ex.getMessage()));
        err.flush();
        return EXIT_USAGE;
      }
      err.println("routing: internal error: " + ex.getClass().getName() + ": "
          + oneLine(ex.getMessage()) + " (please report it; ROUTING_DEBUG=1 prints the trace)");
      if (System.getenv("ROUTING_DEBUG") != null) {
        ex.printStackTrace(err);
      }
      err.flush();
      return EXIT_INTERNAL;
    });
    if (args.length > 0 && args[0] != null && !args[0].startsWith("-")
        && !cmd.getSubcommands().isEmpty() && !cmd.getSubcommands().containsKey(args[0])) {
      // picocli would answer "routing frobnicate --help" with the top-level help and exit 0
      String near = io.github.routingkit.config.RoutingSpec.nearest(args[0],
          cmd.getSubcommands().keySet());
      err.println("routing: unknown command '" + oneLine(args[0]) + "'"
          + (near == null ? "" : " (did you mean " + near + "?)") + ", the commands are "
          + String.join(", ", cmd.getSubcommands().keySet()) + " (see: routing --help)");
      err.flush();
      return EXIT_USAGE;
    }
    int code;
    try {
      code = cmd.execute(args);
    } catch (OutOfMemoryError e) {
      err.println("routing: out of memory (a huge line or sample?); give the JVM more heap with"
          + " -Xmx" + outOfMemoryHint(cmd));
      err.flush();
      return EXIT_USAGE;
    } catch (StackOverflowError | RuntimeException e) {
      err.println("routing: internal error: " + e.getClass().getName() + ": "
          + oneLine(e.getMessage()) + " (please report it)");
      err.flush();
      return EXIT_INTERNAL;
    }
    out.flush();
    err.flush();
    return code;
  }

  /**
   * The option of the command that ran which bounds its memory, as {@code " or lower --X"}, or
   * nothing for a command without one: the hint never names an option the command lacks.
   */
  static String outOfMemoryHint(CommandLine cmd) {
    CommandLine.ParseResult parsed = cmd.getParseResult();
    CommandLine.ParseResult sub = parsed == null ? null : parsed.subcommand();
    String name = sub == null ? cmd.getCommandName() : sub.commandSpec().name();
    for (String option : new String[] {"--exact-keys", "--max-keys"}) {
      CommandLine c = cmd.getSubcommands().get(name);
      CommandLine.Model.CommandSpec spec = c == null ? cmd.getCommandSpec() : c.getCommandSpec();
      if (spec.findOption(option) != null) {
        return " or lower " + option;
      }
    }
    return "";
  }

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(),
        "missing a command: analyze, resize, plan, compare, locate, audit, lint or rollout");
  }

  /**
   * Returns a one-line refusal if an argument holds U+FFFD, the replacement character the JVM puts
   * where it could not decode the command line in the current locale (e.g. {@code LC_ALL=C} and a
   * UTF-8 key): answering for such an argument would answer for another key. Else null.
   */
  static String undecodable(String... args) {
    if (args == null) {
      return null;
    }
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a != null && a.indexOf('\uFFFD') >= 0) {
        return "argument " + (i + 1) + " ('" + a + "') holds U+FFFD: the JVM could not decode it"
            + " in this locale (sun.jnu.encoding=" + System.getProperty("sun.jnu.encoding")
            + "); run under a UTF-8 locale (e.g. LC_ALL=C.UTF-8), or pass the key as bytes:"
            + " compare --key-hex \"$(printf %s KEY | xxd -p)\" or --key-file FILE, the other"
            + " commands read keys from --keys FILE";
      }
    }
    return null;
  }

  private static String commandName(CommandLine c) {
    return c.getCommandName().equals("routing") ? "" : c.getCommandName() + " ";
  }

  private static String oneLine(String s) {
    return s == null ? "error" : s.replace('\n', ' ').replace('\r', ' ');
  }

  /**
   * The project version, from {@code version.properties} beside this class (written by the build
   * with resource filtering, so it is there in the jar, in the distribution's {@code lib/} and in
   * {@code target/classes} alike), else from the jar manifest.
   */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"routing " + version()};
    }

    static String version() {
      try (java.io.InputStream in = RoutingCli.class.getResourceAsStream("version.properties")) {
        if (in != null) {
          java.util.Properties p = new java.util.Properties();
          p.load(in);
          String v = p.getProperty("version", "");
          if (!v.isBlank() && !v.startsWith("${")) {
            return v;
          }
        }
      } catch (java.io.IOException e) {
        // fall back on the manifest
      }
      String v = RoutingCli.class.getPackage().getImplementationVersion();
      return v == null ? "(version unknown)" : v;
    }
  }
}
