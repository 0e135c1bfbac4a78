package io.github.routingkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every {@code --help} prints its usage on stdout and nothing on stderr. picocli reports a
 * description it cannot format (an unescaped {@code %}) as {@code [picocli WARN]} through a
 * tracer that binds {@code System.err} once per JVM, so the check runs the help of every
 * command in a fresh JVM and reads that JVM's real stderr.
 */
class HelpStderrTest {
  /** Prints {@code routing --help} and each subcommand's {@code --help}; exits 0 if all exit 0. */
  public static void main(String[] args) {
    List<List<String>> runs = new ArrayList<>();
    runs.add(List.of("--help"));
    for (String name : new CommandLine(new RoutingCli()).getSubcommands().keySet()) {
      runs.add(name.equals("help") ? List.of("help") : List.of(name, "--help"));
    }
    int worst = 0;
    for (List<String> a : runs) {
      StringWriter out = new StringWriter();
      int code = RoutingCli.run(new PrintWriter(out), new PrintWriter(System.err, true),
          a.toArray(String[]::new));
      System.out.println("== " + String.join(" ", a) + " -> " + code + " ("
          + out.toString().length() + " chars)");
      worst = Math.max(worst, code);
    }
    System.out.flush();
    System.err.flush();
    System.exit(worst);
  }

  @Test
  void everyHelpPrintsNothingOnStderr() throws IOException, InterruptedException {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process p = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
        HelpStderrTest.class.getName()).start();
    byte[] out = p.getInputStream().readAllBytes();
    byte[] err = p.getErrorStream().readAllBytes();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String stdout = new String(out, StandardCharsets.UTF_8);
    assertThat(stdout).contains("== rollout --help -> 0").contains("== analyze --help -> 0");
    assertThat(new String(err, StandardCharsets.UTF_8)).as("stderr of every --help").isEmpty();
    assertThat(p.exitValue()).as(stdout).isZero();
  }
}
