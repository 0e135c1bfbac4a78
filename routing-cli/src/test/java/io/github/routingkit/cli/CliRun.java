package io.github.routingkit.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs the {@code routing} command in-process for the CLI tests and keeps what it printed. */
final class CliRun {
  private CliRun() {}

  /** The exit code and everything written to standard output and standard error. */
  record Result(int code, String out, String err) {}

  static Result run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = RoutingCli.run(new PrintWriter(out), new PrintWriter(err), args);
    return new Result(code, out.toString(), err.toString());
  }
}
