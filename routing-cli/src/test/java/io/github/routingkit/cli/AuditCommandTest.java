package io.github.routingkit.cli;

import static io.github.routingkit.cli.CliRun.run;

import io.github.routingkit.cli.CliRun.Result;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.audit.AuditLog;
import io.github.routingkit.audit.AuditRecord;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuditCommandTest {
  @TempDir
  Path dir;

  static AuditRecord rec(String key, long seq, String consumer, String sub, long observedAt) {
    return new AuditRecord(key, "p1", seq, 0, null, true, "orders", 0, consumer, sub, 0, null,
        observedAt);
  }

  Path write(String name, List<String> lines) throws IOException {
    return Files.write(dir.resolve(name), lines, StandardCharsets.UTF_8);
  }

  static List<String> lines(AuditRecord... records) {
    List<String> out = new ArrayList<>();
    for (AuditRecord r : records) {
      out.add(AuditLog.line(r));
    }
    return out;
  }

  @Test
  void cleanLogExitsZeroAndBrokenOrderExitsOneWithTheCauseTable() throws IOException {
    Path clean = write("clean.jsonl", lines(rec("a", 1, "c1", "Key_Shared", 1),
        rec("a", 2, "c1", "Key_Shared", 2)));
    Result ok = run("audit", clean.toString());
    assertThat(ok.code()).as(ok.err()).isZero();
    assertThat(ok.out()).contains("2 records", "0 out-of-order pairs", "per-key order kept");

    Path broken = write("broken.jsonl", lines(rec("a", 2, "c1", "Shared", 1),
        rec("a", 1, "c2", "Shared", 2)));
    Result bad = run("audit", broken.toString());
    assertThat(bad.code()).isEqualTo(1);
    assertThat(bad.out()).containsPattern("WRONG_SUBSCRIPTION_TYPE +read side +1")
        .contains("KEYLESS_SEND", "BROKER_SUSPECT", "consumer c1", "consumer c2",
            "per-key order BROKEN");
    assertThat(run("audit", "--ignore", "WRONG_SUBSCRIPTION_TYPE", broken.toString()).code())
        .isZero();
  }

  @Test
  void theVerdictSaysWhichCausesIgnoreLetThrough() throws IOException {
    // guards against: the ignored run printed the same "BROKEN" verdict as the failing one, with exit 0
    Path broken = write("ignored.jsonl", lines(rec("a", 2, "c1", "Shared", 1),
        rec("a", 1, "c2", "Shared", 2)));
    Result ignored = run("audit", "--ignore", "WRONG_SUBSCRIPTION_TYPE", broken.toString());
    assertThat(ignored.code()).isZero();
    assertThat(ignored.out()).endsWith("verdict: per-key order BROKEN, causes:"
        + " [WRONG_SUBSCRIPTION_TYPE] (ignored by --ignore: exit 0)" + System.lineSeparator());
    Result other = run("audit", "--ignore", "REDELIVERY", broken.toString());
    assertThat(other.code()).isEqualTo(1);
    assertThat(other.out()).endsWith("verdict: per-key order BROKEN, causes:"
        + " [WRONG_SUBSCRIPTION_TYPE]" + System.lineSeparator());
    List<String> two = new ArrayList<>(lines(rec("a", 2, "c1", "Shared", 1),
        rec("a", 1, "c2", "Shared", 2)));
    two.addAll(lines(new AuditRecord("b", "p1", 2, 0, null, false, "orders", 5, "c1", "Key_Shared",
        0, null, 3), new AuditRecord("b", "p1", 1, 0, null, false, "orders", 4, "c1", "Key_Shared",
        0, null, 4)));
    Result mixed = run("audit", "--ignore", "WRONG_SUBSCRIPTION_TYPE", write("mixed.jsonl", two)
        .toString());
    assertThat(mixed.code()).isEqualTo(1);
    assertThat(mixed.out()).endsWith(" ([WRONG_SUBSCRIPTION_TYPE] ignored by --ignore;"
        + " [KEYLESS_SEND] fail the check: exit 1)" + System.lineSeparator());
    Path clean = write("clean-ignored.jsonl", lines(rec("a", 1, "c1", "Key_Shared", 1),
        rec("a", 2, "c1", "Key_Shared", 2)));
    assertThat(run("audit", "--ignore", "REDELIVERY", clean.toString()).out())
        .endsWith("verdict: per-key order kept" + System.lineSeparator());
  }

  @Test
  void logsAreMergedByObservationTimeAndGzipIsRead() throws IOException {
    Path first = write("c1.jsonl", lines(rec("a", 1, "c1", "Key_Shared", 10),
        rec("a", 3, "c1", "Key_Shared", 30)));
    Path second;
    second = dir.resolve("c2.jsonl.gz");
    try (OutputStream o = new GZIPOutputStream(Files.newOutputStream(second))) {
      o.write((String.join("\n", lines(rec("a", 2, "c2", "Key_Shared", 20))) + "\n")
          .getBytes(StandardCharsets.UTF_8));
    }
    Result r = run("audit", first.toString(), second.toString());
    assertThat(r.code()).as(r.err() + r.out()).isZero();
    assertThat(r.out()).contains("3 records");
  }

  @Test
  void badInputExitsTwoWithOneLineNamingFileAndLine() throws IOException {
    Path log = write("bad.jsonl", List.of(AuditLog.line(rec("a", 1, "c", "S", 1)), "{\"k\":"));
    Result r = run("audit", log.toString());
    assertThat(r.code()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(r.err().strip()).startsWith("routing: ").contains("bad.jsonl:2:")
        .doesNotContain("\n", "\tat ");
    Result skipped = run("audit", "--skip-bad-lines", log.toString());
    assertThat(skipped.code()).isZero();
    assertThat(skipped.out()).contains("1 bad lines skipped; first: " + log + ":2:");

    Path empty = write("empty.jsonl", List.of());
    assertThat(run("audit", empty.toString()).err()).contains("no audit records");
    assertThat(run("audit", empty.toString()).code()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(run("audit", dir.resolve("missing").toString()).code())
        .isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(run("audit").code()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(run("audit", "--max-keys", "0", log.toString()).code())
        .isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(run("audit", "--ignore", "NOPE", log.toString()).code())
        .isEqualTo(RoutingCli.EXIT_USAGE);
  }

  @Test
  void hostileFilesNeverCrash() throws IOException {
    Path huge = dir.resolve("huge.jsonl");
    try (OutputStream o = Files.newOutputStream(huge)) {
      byte[] chunk = "x".repeat(1 << 20).getBytes(StandardCharsets.US_ASCII);
      for (int i = 0; i < 64; i++) { // one 64 MiB line
        o.write(chunk);
      }
    }
    Result r = run("audit", huge.toString());
    assertThat(r.code()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(r.err()).contains("huge.jsonl:1: line longer than 65536 characters");
    Path binary = Files.write(dir.resolve("bin.jsonl"), new byte[] {0, (byte) 0xc3, 0x28, '\n'});
    assertThat(run("audit", binary.toString()).err()).contains("not UTF-8");
    Path notGzip = write("fake.gz", List.of("hello"));
    assertThat(run("audit", notGzip.toString()).code()).isEqualTo(RoutingCli.EXIT_USAGE);
  }

  @Test
  void progressGoesToStderr() throws IOException {
    List<String> many = new ArrayList<>();
    for (int i = 1; i <= 10; i++) {
      many.add(AuditLog.line(rec("a", i, "c", "Key_Shared", i)));
    }
    Result r = run("audit", "--progress-every", "4", write("many.jsonl", many).toString());
    assertThat(r.code()).isZero();
    assertThat(r.err()).contains("audit: 4 records", "audit: 8 records");
    assertThat(r.out()).doesNotContain("audit: 4 records");
    assertThat(run("audit", "--quiet", "--progress-every", "4", dir.resolve("many.jsonl")
        .toString()).err()).isEmpty();
  }

  @Test
  void badUtf8IsReportedWithItsLineNumberAndSkippedLinesShowInTheVerdict() throws IOException {
    List<String> good = new ArrayList<>();
    for (int i = 1; i <= 1000; i++) {
      good.add(AuditLog.line(rec("k" + (i % 7), i, "c", "Key_Shared", i)));
    }
    Path log = dir.resolve("utf8.jsonl");
    try (OutputStream o = Files.newOutputStream(log)) {
      o.write((String.join("\n", good) + "\n").getBytes(StandardCharsets.UTF_8));
      o.write(new byte[] {'{', (byte) 0xc3, 0x28, '}', '\n'});
    }
    Result r = run("audit", log.toString());
    assertThat(r.code()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(r.err()).contains("utf8.jsonl:1001: not UTF-8");
    Result skipped = run("audit", "--skip-bad-lines", log.toString());
    assertThat(skipped.code()).isZero();
    assertThat(skipped.out()).contains("1000 records", "1 bad lines skipped; first: " + log
        + ":1001:").endsWith("verdict: per-key order kept (on the records read: 1 bad lines"
        + " skipped)" + System.lineSeparator());
  }

  @Test
  void aTruncatedGzipIsAuditedUpToTheDamageWhenSkippingAndExitsTwoOtherwise()
      throws IOException {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    try (OutputStream o = new GZIPOutputStream(bytes)) {
      for (int i = 1; i <= 20_000; i++) {
        o.write((AuditLog.line(rec("k" + (i % 50), i, "c", "Key_Shared", i)) + "\n")
            .getBytes(StandardCharsets.UTF_8));
      }
    }
    byte[] all = bytes.toByteArray();
    Path cut = Files.write(dir.resolve("cut.jsonl.gz"),
        java.util.Arrays.copyOf(all, all.length / 2));
    Result strict = run("audit", cut.toString());
    assertThat(strict.code()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(strict.err()).contains("cut.jsonl.gz: read error after line ",
        "--skip-bad-lines audits the ");
    Result skipped = run("audit", "--skip-bad-lines", cut.toString());
    assertThat(skipped.code()).as(skipped.err()).isZero();
    assertThat(skipped.out()).containsPattern("ordering audit: [1-9][0-9]+ records")
        .contains("cut.jsonl.gz: read error after line ", "the rest of the file is not read",
            "verdict: per-key order kept (on the records read: 1 log(s) cut short by a read"
            + " error)");
  }

  @Test
  void helpStatesTheMeasuredMemoryPerKeyStream() {
    Result help = run("audit", "--help");
    assertThat(help.code()).isZero();
    assertThat(help.out().replaceAll("\\s+", " ")).contains("measured: about 280 bytes of heap"
        + " per stream of a short key, so 1,000,000 take about 280 MB");
  }

  @Test
  void followNeedsABootstrapServerAndNoLogFiles() throws IOException {
    Path log = write("one.jsonl", lines(rec("a", 1, "c1", "Key_Shared", 1)));
    Result noServer = run("audit", "--follow");
    assertThat(noServer.code()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(noServer.err()).contains("--follow needs --bootstrap-server");
    Result withLog = run("audit", "--follow", "--bootstrap-server", "127.0.0.1:1",
        log.toString());
    assertThat(withLog.code()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(withLog.err()).contains("give no LOG files");
    Result badGrace = run("audit", "--follow", "--bootstrap-server", "127.0.0.1:1", "--grace",
        "soon");
    assertThat(badGrace.code()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(badGrace.err()).contains("--grace was 'soon'");
    Result nothing = run("audit");
    assertThat(nothing.code()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(nothing.err()).contains("give at least one LOG file, or --follow");
  }
}
