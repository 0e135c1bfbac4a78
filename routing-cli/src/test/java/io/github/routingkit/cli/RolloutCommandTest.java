package io.github.routingkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code routing rollout}: text and JSON reports, the --max-moved check, and bad input (exit 2). */
class RolloutCommandTest {
  @TempDir
  static Path dir;
  static Path keys;
  static Path canary;
  static Path old;
  static Path next;

  @BeforeAll
  static void files() throws IOException {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      lines.add("order-" + i);
      if (i % 10 == 0) {
        lines.add("hot"); // a hot key: 2,000 of the 22,000 messages
      }
    }
    keys = Files.write(dir.resolve("keys.txt"), lines, StandardCharsets.UTF_8);
    canary = Files.writeString(dir.resolve("canary.properties"),
        "routing.scheme=kafka-murmur2\nrouting.canary.share=1%\nrouting.canary.next.scheme=xxh3-64\n");
    old = Files.writeString(dir.resolve("old.properties"), "routing.scheme=kafka-murmur2\n");
    next = Files.writeString(dir.resolve("next.properties"), "routing.placement=jump\n");
  }

  @Test
  void reportsEveryStep() {
    CliRun.Result r = CliRun.run("rollout", "--keys", keys.toString(), "--spec",
        canary.toString(), "--plan", "1,5,25,100", "--partitions", "12", "--quiet");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("rollout on 12 partitions, 22,000 messages, 20,001 keys",
        "0% -> 1%", "1% -> 5%", "5% -> 25%", "25% -> 100%", "gain  p", "lose  p", "of mean");
  }

  @Test
  void jsonAndTheOldNewForm() {
    CliRun.Result r = CliRun.run("rollout", "--keys", keys.toString(), "--spec", old.toString(),
        "--next", next.toString(), "--plan", "50%,100%", "--partitions", "8", "--format", "json",
        "--quiet");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).startsWith("{\"partitions\":8,\"messages\":22000,\"distinctKeys\":20001,")
        .contains("\"toShare\":0.5", "\"toShare\":1.0", "\"cumulativeMovedMessageFraction\":");
  }

  @Test
  void maxMovedFailsTheCheck() {
    CliRun.Result r = CliRun.run("rollout", "--keys", keys.toString(), "--spec",
        canary.toString(), "--plan", "1,100", "--partitions", "12", "--max-moved", "10",
        "--quiet");
    assertThat(r.code()).isEqualTo(RoutingCli.EXIT_CHECK_FAILED);
    assertThat(r.err()).contains("step to 100%", "--max-moved 10");
    // the message and the table format the step's moved traffic through the same helper
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("moves (\\S+%) of the traffic")
        .matcher(r.err());
    assertThat(m.find()).as(r.err()).isTrue();
    String row = r.out().lines().filter(l -> l.startsWith("1% -> 100%")).findFirst().orElseThrow();
    assertThat(row.trim().split(" +")[5]).as(row).isEqualTo(m.group(1));
    CliRun.Result ok = CliRun.run("rollout", "--keys", keys.toString(), "--spec",
        canary.toString(), "--plan", "1,2", "--partitions", "12", "--max-moved", "10", "--quiet");
    assertThat(ok.code()).as(ok.err()).isZero();
  }

  @Test
  void badInputIsExitTwo() throws IOException {
    Path bad = Files.writeString(dir.resolve("bad.properties"), "routing.canary.share=lots\n"
        + "routing.canary.next.placement=jump\n");
    String[][] cases = {
        {"--spec", canary.toString(), "--plan", "5,1", "--partitions", "12"},
        {"--spec", canary.toString(), "--plan", "0,5", "--partitions", "12"},
        {"--spec", canary.toString(), "--plan", "5,x", "--partitions", "12"},
        {"--spec", canary.toString(), "--plan", "5,101", "--partitions", "12"},
        {"--spec", canary.toString(), "--plan", "5", "--partitions", "0"},
        {"--spec", canary.toString(), "--plan", "5", "--partitions", "12", "--format", "csv"},
        {"--spec", old.toString(), "--plan", "5", "--partitions", "12"},
        {"--spec", canary.toString(), "--next", next.toString(), "--plan", "5", "--partitions", "12"},
        {"--spec", bad.toString(), "--plan", "5", "--partitions", "12"},
        {"--spec", dir.resolve("missing.properties").toString(), "--plan", "5", "--partitions", "12"},
        {"--spec", canary.toString(), "--plan", "5", "--partitions", "12", "--max-moved", "200"},
    };
    for (String[] c : cases) {
      List<String> args = new ArrayList<>(List.of("rollout", "--keys", keys.toString(), "--quiet"));
      args.addAll(List.of(c));
      CliRun.Result r = CliRun.run(args.toArray(new String[0]));
      assertThat(r.code()).as("%s: %s", args, r.err()).isEqualTo(RoutingCli.EXIT_USAGE);
      assertThat(r.err()).startsWith("routing: ").doesNotContain("internal error")
          .doesNotContain("\tat ");
    }
    assertThat(CliRun.run("rollout", "--keys", keys.toString(), "--spec", bad.toString(),
        "--plan", "5", "--partitions", "12").err()).contains("routing.canary.share", "lots");
    // docs/rollout.md: the limit is 65,536 partitions (analyze's 1,048,576 would not be bounded)
    CliRun.Result big = CliRun.run("rollout", "--keys", keys.toString(), "--spec",
        canary.toString(), "--plan", "5", "--partitions", "65537");
    assertThat(big.code()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(big.err()).contains("--partitions was 65537, must be in [1, 65536]");
    assertThat(CliRun.run("rollout", "--keys", keys.toString(), "--spec", canary.toString(),
        "--plan", "5", "--partitions", "65536", "--quiet").code()).isZero();
    Path empty = Files.writeString(dir.resolve("empty.txt"), "");
    assertThat(CliRun.run("rollout", "--keys", empty.toString(), "--spec", canary.toString(),
        "--plan", "5", "--partitions", "12").code()).isEqualTo(RoutingCli.EXIT_USAGE);
    // a spec that cannot route on the count given is bad input too (segment beyond 4 partitions)
    Path seg = Files.writeString(dir.resolve("seg.properties"), "routing.canary.share=0\n"
        + "routing.canary.next.segment.ranges=a:0-9\n");
    CliRun.Result r = CliRun.run("rollout", "--keys", keys.toString(), "--spec", seg.toString(),
        "--plan", "5", "--partitions", "4", "--quiet");
    assertThat(r.code()).as(r.err()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(r.err()).contains("cannot route on 4 partition(s)");
  }
}
