package io.github.routingkit.cli;

import static io.github.routingkit.cli.CliRun.run;

import io.github.routingkit.cli.CliRun.Result;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Distinct exit codes and one-line errors, keys the
 * JVM could not decode, resize on the user's own configuration, one placement vocabulary, plan's
 * failed check and the name of standard input.
 */
class CliExitCodeTest {
  @TempDir
  static Path dir;
  static Path keys;
  static Path generations;
  static Path emptyWeights;
  static Path hot;

  @BeforeAll
  static void files() throws IOException {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      lines.add("user-" + i);
    }
    keys = Files.write(dir.resolve("keys.txt"), lines, StandardCharsets.UTF_8);
    generations = Files.writeString(dir.resolve("gen.properties"),
        "routing.version.generations=g1:kafka-murmur2:native:12,g2:kafka-murmur2:jump:24\n"
            + "routing.version.default=g2\n");
    emptyWeights = Files.writeString(dir.resolve("seg.properties"), "routing.segment.weights=,\n");
    List<String> h = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      h.add(i % 2 == 0 ? "hot" : "k" + i);
    }
    hot = Files.write(dir.resolve("hot.txt"), h, StandardCharsets.UTF_8);
  }

  private static void oneLineNoTrace(Result r) {
    assertThat(r.err().strip().lines().count()).as(r.err()).isEqualTo(1);
    assertThat(r.err()).doesNotContain("\tat ").doesNotContain("Exception:");
  }

  // ---- routing.keyless=kafka-sticky in a --spec file (the README's Kafka producer config)

  @Test
  void specWithKafkaStickyKeylessIsAccepted() {
    Path readme = LintCommandTest.file("kafka/readme-producer.properties");
    Result analyze = run("analyze", "--keys", keys.toString(), "--partitions", "12",
        "--spec", readme.toString());
    assertThat(analyze.code()).as(analyze.err()).isZero();
    Result resize = run("resize", "--keys", keys.toString(), "--from", "12", "--to", "16",
        "--spec", readme.toString());
    assertThat(resize.code()).as(resize.err()).isZero();
    Result rollout = run("rollout", "--keys", keys.toString(), "--spec", readme.toString(),
        "--next", generations.toString(), "--plan", "50,100", "--partitions", "24", "--quiet");
    assertThat(rollout.code()).as(rollout.err()).isZero();
  }

  // ---- item 12: exit codes

  @Test
  void specGenerationNeedingMorePartitionsIsBadInputNotCheckFailed() {
    Result r = run("analyze", "--keys", keys.toString(), "--partitions", "12",
        "--spec", generations.toString(), "--fail-above", "5");
    assertThat(r.code()).isEqualTo(RoutingCli.EXIT_USAGE);
    oneLineNoTrace(r);
    assertThat(r.err()).contains("--spec " + generations).contains("cannot route on 12")
        .contains("generation 'g2' routes over 24 partitions");
  }

  @Test
  void specGenerationMismatchInResizeAndPlanIsBadInputToo() {
    Result resize = run("resize", "--keys", keys.toString(), "--from", "12", "--to", "16",
        "--spec", generations.toString());
    assertThat(resize.code()).isEqualTo(RoutingCli.EXIT_USAGE);
    oneLineNoTrace(resize);
    Result plan = run("plan", "--peak-write", "1000", "--partition-write", "100",
        "--keys", keys.toString(), "--spec", generations.toString());
    assertThat(plan.code()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(plan.err()).doesNotContain("\tat ");
  }

  @Test
  void specThatBreaksAtRoutingTimeIsBadInput() {
    // finding 1: the spec passes parse and breaks every send; whichever layer catches it, the
    // CLI must call it bad input (2), in one line
    Result r = run("analyze", "--keys", keys.toString(), "--partitions", "12",
        "--spec", emptyWeights.toString());
    assertThat(r.code()).isEqualTo(RoutingCli.EXIT_USAGE);
    oneLineNoTrace(r);
    assertThat(r.err()).contains(emptyWeights.toString());
  }

  @CommandLine.Command(name = "boom")
  static final class Boom implements Callable<Integer> {
    @Override
    public Integer call() {
      throw new IllegalStateException("a bug\nover two lines");
    }
  }

  @Test
  void anInternalErrorIsExitThreeInOneLine() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = RoutingCli.run(new CommandLine(new Boom()), new PrintWriter(out),
        new PrintWriter(err));
    assertThat(code).isEqualTo(RoutingCli.EXIT_INTERNAL).isEqualTo(3);
    assertThat(err.toString()).startsWith("routing: internal error: java.lang.IllegalStateException:"
        + " a bug over two lines").contains("please report");
    assertThat(err.toString().strip().lines().count()).isEqualTo(1);
  }

  @Test
  void theThreeCodesAreDistinctAndInTheHelp() {
    assertThat(List.of(0, RoutingCli.EXIT_CHECK_FAILED, RoutingCli.EXIT_USAGE,
        RoutingCli.EXIT_INTERNAL)).doesNotHaveDuplicates();
    Result help = run("--help");
    assertThat(help.out()).contains("check failed").contains("bad input")
        .contains("internal error");
  }

  // ---- item 13: arguments the JVM could not decode

  @Test
  void replacementCharactersInAnArgumentAreRefusedWithTheWaysToPassTheKey() {
    Result r = run("compare", "--key", "\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD", "--partitions", "12");
    assertThat(r.code()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).contains("U+FFFD").contains("UTF-8 locale").contains("--key-hex")
        .contains("--key-file");
  }

  @Test
  void keyHexAndKeyFileAnswerAsTheTextKey() throws IOException {
    Result text = run("compare", "--key", "東京", "--partitions", "12");
    Result hex = run("compare", "--key-hex", "E69DB1E4BAAC", "--partitions", "12");
    Path f = Files.writeString(dir.resolve("key.txt"), "東京\n", StandardCharsets.UTF_8);
    Result file = run("compare", "--key-file", f.toString(), "--partitions", "12");
    assertThat(text.code()).isZero();
    assertThat(hex.code()).isZero();
    assertThat(file.code()).isZero();
    assertThat(hex.out()).isEqualTo(text.out()).contains("key '東京' (6 UTF-8 bytes)");
    assertThat(file.out()).isEqualTo(text.out());
  }

  @Test
  void badHexOrBytesThatAreNotUtf8AreBadInput() {
    assertThat(run("compare", "--key-hex", "E69", "--partitions", "12").code())
        .isEqualTo(RoutingCli.EXIT_USAGE);
    Result notUtf8 = run("compare", "--key-hex", "ff", "--partitions", "12");
    assertThat(notUtf8.code()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(notUtf8.err()).contains("not valid UTF-8");
    assertThat(run("compare", "--key", "a", "--key-hex", "61", "--partitions", "12").code())
        .isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(run("compare", "--partitions", "12").code()).isEqualTo(RoutingCli.EXIT_USAGE);
  }

  @Test
  void aRealJvmUnderLcAllCRefusesTheKey() throws Exception {
    // the real failure: a child JVM in the C locale decodes the UTF-8 argument to U+FFFD
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder pb = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
        RoutingCli.class.getName(), "compare", "--key", "東京", "--partitions", "12");
    pb.environment().put("LC_ALL", "C");
    pb.environment().remove("LANG");
    pb.redirectErrorStream(true);
    Process p = pb.start();
    String output;
    try (InputStream in = p.getInputStream()) {
      output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(output).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(output).contains("U+FFFD").doesNotContain("partition  client default");
  }

  // ---- item 15: resize on the user's configuration

  @Test
  void resizeShowsTheGivenSchemeAndPlacementInsteadOf54Rows() {
    Result r = run("resize", "--keys", keys.toString(), "--from", "12", "--to", "16",
        "--scheme", "pulsar-murmur3", "--placement", "jump", "--format", "csv");
    assertThat(r.code()).isZero();
    List<String> rows = r.out().lines().toList();
    assertThat(rows).hasSize(2);
    assertThat(rows.get(1)).startsWith("pulsar-murmur3 / jump,12,16,");
  }

  @Test
  void resizeTakesASpecAndAllAppendsEveryScheme() throws IOException {
    Path spec = Files.writeString(dir.resolve("jump.properties"),
        "routing.scheme=kafka-murmur2\nrouting.placement=jump\n");
    Result r = run("resize", "--keys", keys.toString(), "--from", "12", "--to", "16",
        "--spec", spec.toString(), "--all", "--format", "csv");
    assertThat(r.code()).isZero();
    List<String> rows = r.out().lines().toList();
    int every = io.github.routingkit.hash.HashScheme.values().length
        * io.github.routingkit.placement.Placement.values().length;
    assertThat(rows).hasSize(1 + 1 + every);
    assertThat(rows.get(1)).startsWith("--spec " + spec + ",12,16,");
    // the spec's jump row equals the kafka-murmur2 / jump row
    String mine = rows.get(1).substring(rows.get(1).indexOf(",12,16,"));
    assertThat(rows).anySatisfy(row -> assertThat(row).isEqualTo("kafka-murmur2 / jump" + mine));
    Result plain = run("resize", "--keys", keys.toString(), "--from", "12", "--to", "16",
        "--format", "csv");
    assertThat(plain.out().lines()).hasSize(1 + every);
    assertThat(run("resize", "--keys", keys.toString(), "--from", "12", "--to", "16", "--all")
        .code()).isEqualTo(RoutingCli.EXIT_USAGE);
  }

  // ---- item 17: one placement vocabulary: PlacementVocabularyCliTest

  // ---- item 18 (plan): failed check and the name of standard input

  @Test
  void planExitsCheckFailedWhenTheHotKeyAloneIsTooMuch() {
    Result r = run("plan", "--peak-write", "10000", "--partition-write", "2000",
        "--keys", hot.toString());
    assertThat(r.out()).contains("not enough while the hot key stays on one partition");
    assertThat(r.code()).isEqualTo(RoutingCli.EXIT_CHECK_FAILED);
    Result ok = run("plan", "--peak-write", "10000", "--partition-write", "2000",
        "--keys", keys.toString());
    assertThat(ok.code()).isZero();
  }

  @Test
  void standardInputIsNamedSo() {
    InputStream saved = System.in;
    try {
      System.setIn(new ByteArrayInputStream("a\nb\nc\n".getBytes(StandardCharsets.UTF_8)));
      Result r = run("analyze", "--keys", "-", "--partitions", "2");
      assertThat(r.code()).isZero();
      assertThat(r.out()).contains("keys              standard input (3 keys)");
      System.setIn(new ByteArrayInputStream(new byte[0]));
      Result empty = run("analyze", "--keys", "-", "--partitions", "2");
      assertThat(empty.err()).contains("standard input holds no keys");
    } finally {
      System.setIn(saved);
    }
  }
}
