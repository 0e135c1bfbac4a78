package io.github.routingkit.testkit.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;

/**
 * The {@code routing} command: answers "is my key hot?" ({@code analyze}), "what moves if I add
 * partitions?" ({@code resize}), "how many partitions do I need?" ({@code plan}) and "where would
 * each client put this key?" ({@code compare}) and "where did per-key order break, and which
 * layer broke it?" ({@code audit}).
 *
 * <p>Exit codes: 0 success; 1 a check failed ({@code analyze --fail-above} exceeded,
 * {@code audit} found out-of-order pairs); 2 bad arguments or an unreadable input (one line on
 * stderr); 3 internal error ({@code audit}).
 */
@Command(name = "routing", mixinStandardHelpOptions = true,
    versionProvider = RoutingCli.Version.class,
    description = "Key-routing analysis for Kafka and Pulsar topics.",
    subcommands = {AnalyzeCommand.class, ResizeCommand.class, PlanCommand.class,
        CompareCommand.class, AuditCommand.class, CommandLine.HelpCommand.class},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:success", "1:analyze --fail-above exceeded, audit found out-of-order pairs",
        "2:bad arguments or unreadable input", "3:internal error (audit)"})
public final class RoutingCli implements Runnable {
  /** Exit code of {@code --fail-above}. */
  public static final int EXIT_THRESHOLD = 1;
  /** Exit code of a bad argument or an unreadable file. */
  public static final int EXIT_USAGE = 2;
  /** Exit code of an internal error ({@code audit}). */
  public static final int EXIT_INTERNAL = 3;

  @Spec
  CommandLine.Model.CommandSpec spec;

  /** Runs the command and exits the JVM with its exit code. */
  public static void main(String[] args) {
    System.setProperty("java.awt.headless", "true");
    System.exit(run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
  }

  /**
   * Runs the command with the given output streams and returns its exit code (for tests and
   * embedding; never calls {@code System.exit}).
   */
  public static int run(PrintWriter out, PrintWriter err, String... args) {
    CommandLine cmd = new CommandLine(new RoutingCli());
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
      throw ex;
    });
    int code;
    try {
      code = cmd.execute(args);
    } catch (OutOfMemoryError e) {
      err.println("routing: out of memory (a huge line or sample?); give the JVM more heap with"
          + " -Xmx or lower --exact-keys");
      err.flush();
      return EXIT_USAGE;
    }
    out.flush();
    err.flush();
    return code;
  }

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(),
        "missing a command: analyze, resize, plan, compare or audit");
  }

  private static String commandName(CommandLine c) {
    return c.getCommandName().equals("routing") ? "" : c.getCommandName() + " ";
  }

  private static String oneLine(String s) {
    return s == null ? "error" : s.replace('\n', ' ').replace('\r', ' ');
  }

  /**
   * The project version, from {@code version.properties} beside this class (written by the build
   * with resource filtering, so it is there in the library jar, in {@code routing.jar} and in
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
