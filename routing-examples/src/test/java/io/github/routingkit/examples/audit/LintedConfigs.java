package io.github.routingkit.examples.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.routingkit.cli.RoutingCli;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

/**
 * Lints the producer and consumer configuration a broker test ran its clients with: each config
 * is written as a properties file under {@code target/lint-configs/<scenario>/} (values as text,
 * as a config file would hold them) and checked by the {@code routing lint} command, so the test
 * can require the rule that predicts the audit cause it provoked, or a clean lint for a clean run.
 */
final class LintedConfigs {
  /** What lint said: its exit code, its text report, and the rules it flagged by severity. */
  record Lint(int exitCode, String text, Set<String> errors, Set<String> warnings) {
    /** Whether lint found nothing at all (no error, no warning). */
    boolean clean() {
      return errors.isEmpty() && warnings.isEmpty();
    }
  }

  private LintedConfigs() {}

  /**
   * Writes the configs and lints them with {@code options} (e.g. {@code --require-key-order}).
   * Prints lint's report, so the test log shows it beside the audit's.
   */
  static Lint lint(String scenario, List<? extends Map<String, ?>> producers,
      List<? extends Map<String, ?>> consumers, String... options) {
    Path dir = Path.of("target", "lint-configs", scenario).toAbsolutePath();
    List<String> args = new ArrayList<>(List.of("lint"));
    try {
      Files.createDirectories(dir);
      for (int i = 0; i < producers.size(); i++) {
        args.add("--producer");
        args.add(write(dir.resolve("producer-" + (i + 1) + ".properties"), producers.get(i),
            scenario).toString());
      }
      for (int i = 0; i < consumers.size(); i++) {
        args.add("--consumer");
        args.add(write(dir.resolve("consumer-" + (i + 1) + ".properties"), consumers.get(i),
            scenario).toString());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    args.addAll(List.of(options));
    String[] text = run(args);
    List<String> json = new ArrayList<>(args);
    json.addAll(List.of("--format", "json"));
    String[] out = run(json);
    Set<String> errors = new TreeSet<>();
    Set<String> warnings = new TreeSet<>();
    try {
      for (JsonNode f : new ObjectMapper().readTree(out[1]).get("findings")) {
        if (f.get("silenced").isNull()) {
          (f.get("severity").asText().equals("error") ? errors : warnings)
              .add(f.get("rule").asText());
        }
      }
    } catch (IOException | RuntimeException e) {
      throw new AssertionError("lint --format json printed no report: " + out[1] + out[2], e);
    }
    System.out.println("$ routing lint (" + scenario + ") " + String.join(" ", options));
    System.out.print(text[1]);
    return new Lint(Integer.parseInt(text[0]), text[1] + text[2], errors, warnings);
  }

  private static String[] run(List<String> args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = RoutingCli.run(new PrintWriter(out), new PrintWriter(err),
        args.toArray(new String[0]));
    return new String[] {Integer.toString(code), out.toString(), err.toString()};
  }

  private static Path write(Path file, Map<String, ?> config, String scenario)
      throws IOException {
    Properties p = new Properties();
    config.forEach((k, v) -> p.setProperty(k, String.valueOf(v)));
    try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      p.store(w, "the configuration the broker test scenario '" + scenario + "' ran with");
    }
    return file;
  }
}
