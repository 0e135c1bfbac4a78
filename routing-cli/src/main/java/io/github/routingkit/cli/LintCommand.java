package io.github.routingkit.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code routing lint}: reads a producer and a consumer configuration file and flags the known
 * routing pitfalls ({@link ConfigLint.Rule}), each with its fix. Exit 1 if an error (or, with
 * {@code --strict}, a warning) was found, 2 if a file cannot be read.
 */
@Command(name = "lint", mixinStandardHelpOptions = true,
    description = "Flags known routing pitfalls in real Kafka or Pulsar client config files, each"
        + " with its fix: rules RK001-RK011 (see docs/cli.md).")
final class LintCommand implements Callable<Integer> {
  @Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--producer", paramLabel = "FILE", required = true,
      description = "The producer's properties file.")
  Path producer;

  @Option(names = "--consumer", paramLabel = "FILE", required = true,
      description = "The consumer's properties file.")
  Path consumer;

  @Option(names = "--flavor", paramLabel = "FLAVOR",
      description = "kafka or pulsar (default: detected from the keys).")
  String flavor;

  @Option(names = "--require-key-order", description = "The application needs per-key order.")
  boolean requireKeyOrder;

  @Option(names = "--strict", description = "Warnings fail the lint too (exit 1).")
  boolean strict;

  @Override
  public Integer call() {
    CommandLine cmd = spec.commandLine();
    Properties p = load(producer, "--producer");
    Properties c = load(consumer, "--consumer");
    String f = flavor;
    if (f == null) {
      f = ConfigLint.detectFlavor(p, c);
      if (f == null) {
        throw new ParameterException(cmd, "cannot tell Kafka from Pulsar config by its keys:"
            + " give --flavor kafka or --flavor pulsar");
      }
    } else if (!f.equals("kafka") && !f.equals("pulsar")) {
      throw new ParameterException(cmd, "--flavor was '" + f + "', must be kafka or pulsar");
    }
    List<ConfigLint.Finding> findings = ConfigLint.lint(p, producer.toString(), c,
        consumer.toString(), f, requireKeyOrder);
    PrintWriter out = cmd.getOut();
    long errors = findings.stream().filter(x -> x.severity() == ConfigLint.Severity.ERROR).count();
    for (ConfigLint.Finding x : findings) {
      out.println(x.toLine());
    }
    out.printf("lint (%s%s): %d error(s), %d warning(s)%n", f, requireKeyOrder
        ? ", per-key order required" : "", errors, findings.size() - errors);
    out.flush();
    return errors > 0 || (strict && !findings.isEmpty()) ? RoutingCli.EXIT_CHECK_FAILED : 0;
  }

  private static Properties load(Path file, String option) {
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(r);
    } catch (java.nio.file.NoSuchFileException e) {
      throw new KeyInput.InputException("cannot read " + option + " " + file + ": no such file");
    } catch (java.nio.charset.CharacterCodingException e) {
      throw new KeyInput.InputException("cannot read " + option + " " + file + ": not UTF-8 text");
    } catch (IOException e) {
      throw new KeyInput.InputException("cannot read " + option + " " + file + ": " + e);
    } catch (IllegalArgumentException e) {
      throw new KeyInput.InputException("bad " + option + " " + file + ": " + e.getMessage());
    }
    return p;
  }
}
