package io.github.routingkit.cli;

import static io.github.routingkit.cli.CliRun.run;

import io.github.routingkit.cli.CliRun.Result;


import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Careless and hostile command lines: bad arguments and unreadable or useless input exit 2 with
 * one line on stderr, never a stack trace, never a silent "success" on no data. Each case here
 * failed (exit 0 with 0 keys, exit 1 with an OutOfMemoryError stack trace, or an unclear message)
 * before its fix.
 */
class HostileCliTest {
  @TempDir
  static Path dir;
  static Path csv;
  static Path empty;
  static Path shortRows;

  @BeforeAll
  static void files() throws IOException {
    csv = Files.writeString(dir.resolve("k.csv"), "id,name\n1,a\n2,b\n", StandardCharsets.UTF_8);
    empty = Files.writeString(dir.resolve("empty.txt"), "");
    shortRows = Files.writeString(dir.resolve("short.tsv"), "a\tb\nc\n", StandardCharsets.UTF_8);
  }

  private static void usageError(Result r, String... fragments) {
    assertThat(r.code()).as(r.err()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(r.err().strip()).startsWith("routing: ").doesNotContain("\n")
        .doesNotContain("Exception", "\tat ").contains(fragments);
  }

  @Test
  void emptySampleIsRefusedNotAnalyzed() {
    // guards against: exit 0, "0 keys", max/mean 1.0: any --fail-above gate passed on no data
    usageError(run("analyze", "--keys", empty.toString(), "--partitions", "4",
        "--fail-above", "1.1"), "holds no keys");
    usageError(run("resize", "--keys", empty.toString(), "--from", "4", "--to", "5"),
        "holds no keys");
    usageError(run("analyze", "--keys", empty.toString(), "--partitions", "4",
        "--input-format", "csv"), "holds no keys");
  }

  @Test
  void binaryFilesAreRefused() throws IOException {
    // guards against: a zip read as text "analyzed" its bytes as keys, exit 0
    Path zip = dir.resolve("keys.zip");
    try (java.util.zip.ZipOutputStream out =
        new java.util.zip.ZipOutputStream(Files.newOutputStream(zip))) {
      out.putNextEntry(new java.util.zip.ZipEntry("keys.txt"));
      out.write("a\nb\nc\n".getBytes(StandardCharsets.UTF_8));
      out.closeEntry();
    }
    usageError(run("analyze", "--keys", zip.toString(), "--partitions", "4"), "looks binary");
    usageError(run("resize", "--keys", zip.toString(), "--from", "4", "--to", "5"),
        "looks binary");
  }

  @Test
  void columnBeyondTheHeaderOrEveryRowIsAnError() {
    // guards against: exit 0 with 0 keys (every row silently skipped)
    usageError(run("analyze", "--keys", csv.toString(), "--partitions", "4", "--column", "9"),
        "--column 9", "2 column(s)");
    usageError(run("analyze", "--keys", shortRows.toString(), "--partitions", "4",
        "--no-header", "--column", "3"), "holds no keys", "--column 3");
  }

  @Test
  void hugePartitionCountIsAnArgumentErrorNotOutOfMemory() {
    // guards against: java.lang.OutOfMemoryError stack trace, exit 1
    usageError(run("analyze", "--keys", csv.toString(), "--partitions",
        String.valueOf(Integer.MAX_VALUE)), "--partitions", "1048576");
  }

  @Test
  void planRefusesRatesBeyondWhatItPlansForInsteadOfCappingSilently() {
    // guards against: "recommendation: 100000 partitions" for rates that need 1e616 (a units mistake)
    Result r = run("plan", "--peak-write", "1e308", "--partition-write", "1e-308");
    usageError(r, "more than the 100,000", "units");
    assertThat(r.out()).isEmpty();
    Result ok = run("plan", "--peak-write", "1000", "--partition-write", "100");
    assertThat(ok.code()).isZero();
    assertThat(ok.out()).contains("recommendation: 13 partitions");
  }

  @Test
  void reportBuilderRejectsHugePartitionCountsInsteadOfRunningOutOfMemory() {
    // guards against: OutOfMemoryError (Requested array size exceeds VM limit)
    org.assertj.core.api.Assertions.assertThatThrownBy(() ->
        io.github.routingkit.testkit.DistributionReport.builder(
            io.github.routingkit.Routers.kafkaDefault(), Integer.MAX_VALUE))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("2147483647");
  }

  @Test
  void unwritableChartFailsBeforeReadingTheSample() {
    // guards against: the whole report was printed, then "cannot write --chart X: X"
    Result r = run("analyze", "--keys", csv.toString(), "--partitions", "4", "--chart",
        dir.resolve("no-such-dir").resolve("c.png").toString());
    usageError(r, "directory does not exist");
    assertThat(r.out()).isEmpty();
  }

  @Test
  void badSpecFilesGetAReadableMessage() throws IOException {
    Path binary = Files.write(dir.resolve("bin.properties"),
        new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1, (byte) 0xc3, '\n'});
    usageError(run("analyze", "--keys", csv.toString(), "--partitions", "4", "--spec",
        binary.toString()), "not UTF-8 text"); // guards against: "Input length = 1"
    Path escape = Files.writeString(dir.resolve("esc.properties"), "a\\u00zz=1\n");
    usageError(run("analyze", "--keys", csv.toString(), "--partitions", "4", "--spec",
        escape.toString()), "bad --spec");
    usageError(run("analyze", "--keys", csv.toString(), "--partitions", "4", "--spec",
        dir.resolve("missing.properties").toString()), "no such file");
  }
}
