package io.github.routingkit.cli;

import static io.github.routingkit.cli.CliRun.run;

import io.github.routingkit.cli.CliRun.Result;

import io.github.routingkit.Routers;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.router.HashRouter;
import io.github.routingkit.hash.HashScheme;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RoutingCliTest {
  @TempDir
  static Path dir;
  static Path text;
  static Path tsvGz;
  static Path csv;

  @BeforeAll
  static void files() throws IOException {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 5000; i++) {
      lines.add("user-" + i);
    }
    lines.add("");
    text = Files.write(dir.resolve("keys.txt"), lines, StandardCharsets.UTF_8);
    tsvGz = dir.resolve("cities.tsv.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(tsvGz))) {
      StringBuilder sb = new StringBuilder("country\tadmin1\tname\n");
      for (int i = 0; i < 3000; i++) {
        sb.append(i % 3 == 0 ? "US" : "C" + (i % 50)).append('\t').append("A").append(i % 7)
            .append('\t').append("Zürich ").append(i).append('\n');
      }
      out.write(sb.toString().getBytes(StandardCharsets.UTF_8));
    }
    csv = Files.writeString(dir.resolve("k.csv"),
        "id,name\n1,\"a,b\"\n2,\"say \"\"hi\"\"\"\n3,plain\n", StandardCharsets.UTF_8);
  }

  /** A typo in a --spec file: the did-you-mean, on one short line (it listed all 42 keys). */
  @Test
  void aTypoInASpecFileSuggestsTheKeyOnAShortLine() throws IOException {
    Path spec = Files.writeString(dir.resolve("typo.properties"), "routing.shceme=xxh3-64\n");
    Result r = run("analyze", "--keys", text.toString(), "--partitions", "12", "--spec",
        spec.toString());
    assertThat(r.code()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(r.err()).contains("routing.shceme", "did you mean routing.scheme?",
        "docs/configuration.md").doesNotContain("known routing properties are");
    assertThat(r.err().strip().lines()).hasSize(1);
    assertThat(r.err().strip().length()).as(r.err()).isLessThan(300);
  }

  @Test
  void analyzeTextReportsEveryKey() {
    Result r = run("analyze", "--keys", text.toString(), "--partitions", "12");
    assertThat(r.code()).isZero();
    assertThat(r.out()).contains("messages          5,000").contains("distinct keys     5,000")
        .contains("WITHIN_PERFECT_HASH_BOUND").contains("partition   messages");
    assertThat(r.err()).contains("skipped 1 blank");
  }

  @Test
  void analyzeGzipTsvByFieldNameAndFailAbove() {
    Result r = run("analyze", "--keys", tsvGz.toString(), "--tsv-field", "country",
        "--partitions", "8", "--format", "json", "--fail-above", "1.5");
    assertThat(r.code()).isEqualTo(RoutingCli.EXIT_THRESHOLD);
    assertThat(r.out()).startsWith("{").contains("\"messages\":3000")
        .contains("\"verdict\":\"FIX_KEY_DESIGN\"").contains("{\"key\":\"US\",\"count\":1000");
    assertThat(r.err()).contains("exceeds --fail-above 1.5");
  }

  @Test
  void joinedColumnsAndCsvFormat() {
    Result r = run("analyze", "--keys", tsvGz.toString(), "--column", "1,3", "--partitions", "4",
        "--format", "csv", "--top", "1");
    assertThat(r.code()).isZero();
    assertThat(r.out().lines()).hasSize(5).first().isEqualTo("partition,messages,share,ratio_to_mean");
    Result csvInput = run("analyze", "--keys", csv.toString(), "--column", "2", "--partitions",
        "2", "--format", "json", "--top", "3");
    assertThat(csvInput.out()).contains("\"key\":\"a,b\"").contains("\"key\":\"say \\\"hi\\\"\"");
  }

  @Test
  void analyzeAgreesWithTheLibrary() {
    HashRouter pulsar = Routers.pulsarMurmur3();
    long[] expected = new long[7];
    for (int i = 0; i < 5000; i++) {
      expected[pulsar.partition("user-" + i, 7)]++;
    }
    Result r = run("analyze", "--keys", text.toString(), "--partitions", "7", "--scheme",
        "pulsar-murmur3", "--format", "csv");
    List<String> rows = r.out().lines().skip(1).toList();
    for (int p = 0; p < 7; p++) {
      assertThat(rows.get(p)).startsWith(p + "," + expected[p] + ",");
    }
  }

  @Test
  void placementJumpBackIsSelectableAndAgreesWithTheLibrary() {
    HashRouter jumpBack = Routers.consistentJumpBack();
    long[] expected = new long[7];
    for (int i = 0; i < 5000; i++) {
      expected[jumpBack.partition("user-" + i, 7)]++;
    }
    Result r = run("analyze", "--keys", text.toString(), "--partitions", "7", "--scheme",
        "xxh3-64", "--placement", "jump-back", "--format", "csv");
    assertThat(r.code()).isZero();
    List<String> rows = r.out().lines().skip(1).toList();
    for (int p = 0; p < 7; p++) {
      assertThat(rows.get(p)).startsWith(p + "," + expected[p] + ",");
    }
    Result bad = run("analyze", "--keys", text.toString(), "--partitions", "7", "--placement",
        "jumpback");
    assertThat(bad.code()).isEqualTo(2);
    assertThat(bad.err()).contains("jump-back");
  }

  @Test
  void chartsAreWrittenAsSvgAndPng() throws IOException {
    Path svg = dir.resolve("load.svg");
    Path png = dir.resolve("load.png");
    assertThat(run("analyze", "--keys", text.toString(), "--partitions", "6", "--chart",
        svg.toString(), "--quiet").code()).isZero();
    assertThat(run("analyze", "--keys", text.toString(), "--partitions", "6", "--chart",
        png.toString(), "--quiet").code()).isZero();
    assertThat(Files.readString(svg)).contains("<svg");
    byte[] head = Files.readAllBytes(png);
    assertThat(head).startsWith(0x89, 'P', 'N', 'G');
  }

  @Test
  void theChartIsSmallZoomedAndLabelsTheHottestPartitions() throws IOException {
    // 24 balanced bars: a small SVG (text as text, not glyphs as paths), the axis not from 0
    Path keys = dir.resolve("many.txt");
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 100_000; i++) {
      sb.append("user-").append(i).append('\n');
    }
    Files.writeString(keys, sb);
    Path svg = dir.resolve("zoom.svg");
    assertThat(run("analyze", "--keys", keys.toString(), "--partitions", "24", "--chart",
        svg.toString(), "--quiet").code()).isZero();
    String doc = Files.readString(svg);
    assertThat(Files.size(svg)).isLessThan(100_000);
    assertThat(doc).contains("keys from many.txt").contains("perfect-hash band")
        .contains("mean 4,167").contains("verdict WITHIN_PERFECT_HASH_BOUND");
    assertThat(doc.split("x</text>", -1).length - 1).as("labelled hottest partitions").isEqualTo(3);
    // the y-axis does not start at 0: its lowest tick is far above 0 for bars near 4,167
    java.util.regex.Matcher m = java.util.regex.Pattern.compile(">([0-9,]+)</text>").matcher(doc);
    java.util.List<Integer> ticks = new java.util.ArrayList<>();
    while (m.find()) {
      ticks.add(Integer.parseInt(m.group(1).replace(",", "")));
    }
    // (numbers up to 23 are the partitions' labels; every other number is a y tick)
    assertThat(ticks).filteredOn(t -> t > 23).hasSizeGreaterThan(3)
        .allMatch(t -> t > 3500 && t < 5000);
  }

  @Test
  void aChartOfStandardInputIsTitledSo() throws IOException {
    Path svg = dir.resolve("stdin.svg");
    java.io.InputStream old = System.in;
    try {
      System.setIn(new java.io.ByteArrayInputStream("a\nb\nc\n".getBytes(StandardCharsets.UTF_8)));
      assertThat(run("analyze", "--keys", "-", "--partitions", "2", "--chart", svg.toString(),
          "--quiet").code()).isZero();
    } finally {
      System.setIn(old);
    }
    assertThat(Files.readString(svg)).contains("keys from standard input").doesNotContain(">-<");
  }

  @Test
  void specFileSelectsTheRouter() throws IOException {
    Path spec = Files.writeString(dir.resolve("routing.properties"),
        "routing.scheme=pulsar-java-string\nbootstrap.servers=ignored:9092\n");
    Result r = run("analyze", "--keys", text.toString(), "--partitions", "3", "--spec",
        spec.toString());
    assertThat(r.out()).contains("scheme=pulsar-java-string");
    Path bad = Files.writeString(dir.resolve("bad.properties"), "routing.scheme=md5\n");
    Result b = run("analyze", "--keys", text.toString(), "--partitions", "3", "--spec", bad.toString());
    assertThat(b.code()).isEqualTo(2);
    assertThat(b.err()).contains("routing.scheme").contains("md5");
  }

  @Test
  void badArgumentsAndUnreadableFilesExitTwoWithOneLine() {
    for (String[] args : new String[][] {
        {"analyze", "--keys", dir.resolve("missing.txt").toString(), "--partitions", "3"},
        {"analyze", "--keys", text.toString(), "--partitions", "0"},
        {"analyze", "--keys", text.toString(), "--partitions", "x"},
        {"analyze", "--keys", text.toString()},
        {"analyze", "--keys", text.toString(), "--partitions", "3", "--scheme", "nope"},
        {"analyze", "--keys", text.toString(), "--partitions", "3", "--chart", "x.gif"},
        {"analyze", "--keys", tsvGz.toString(), "--partitions", "3", "--tsv-field", "nope"},
        {"analyze", "--keys", dir.toString(), "--partitions", "3"},
        {"resize", "--keys", text.toString(), "--from", "3"},
        {"plan", "--peak-write", "-5", "--partition-write", "10"},
        {"plan", "--peak-write", "5", "--partition-write", "10", "--peak-consume", "3"},
        {"compare", "--key", "a", "--partitions", "-1"},
        {"frobnicate"},
        {}}) {
      Result r = run(args);
      assertThat(r.code()).as(String.join(" ", args)).isEqualTo(RoutingCli.EXIT_USAGE);
      assertThat(r.err().strip().lines()).as(String.join(" ", args) + ": " + r.err()).hasSize(1);
      assertThat(r.err()).startsWith("routing: ");
    }
  }

  @Test
  void readsStandardInputButPlanNeedsAFile() {
    java.io.InputStream stdin = System.in;
    try {
      System.setIn(new java.io.ByteArrayInputStream(
          "a\nb\nc\na\n".getBytes(StandardCharsets.UTF_8)));
      Result r = run("analyze", "--keys", "-", "--partitions", "2", "--format", "json");
      assertThat(r.code()).isZero();
      assertThat(r.out()).contains("\"messages\":4").contains("\"distinctKeys\":3");
    } finally {
      System.setIn(stdin);
    }
    Result plan = run("plan", "--peak-write", "10", "--partition-write", "1", "--keys", "-");
    assertThat(plan.code()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(plan.err()).contains("needs a file");
  }

  @Test
  void resizeShowsEverySchemeAgainstTheMinimum() {
    Result r = run("resize", "--keys", text.toString(), "--from", "12", "--to", "16");
    assertThat(r.code()).isZero();
    assertThat(r.out()).contains("minimum for uniform keys      25.00%")
        .contains("plain modulo, uniform hash    75.00%");
    for (HashScheme s : HashScheme.values()) {
      assertThat(r.out()).contains(s.id() + " / ");
    }
    assertThat(r.out()).contains("xxh3-64 / jump-back");
    assertThat(run("resize", "--keys", text.toString(), "--from", "12", "--to", "16",
        "--format", "json").out()).contains("\"minimumFraction\":0.25");
  }

  @Test
  void compareListsEverySchemeWithItsPartition() {
    Result r = run("compare", "--key", "polygenelubricants", "--partitions", "24");
    assertThat(r.code()).isZero();
    for (HashScheme s : HashScheme.values()) {
      int p = HashRouter.of(s, io.github.routingkit.KeylessPolicy.ROUND_ROBIN)
          .partition("polygenelubricants", 24);
      assertThat(CompareCommand.CLIENTS).as("client label of " + s).containsKey(s.name());
      assertThat(r.out()).containsPattern(s.id() + "\\s+-?\\d+\\s+" + s.nativePlacement().id()
          + "\\s+" + p + "\\s");
    }
    assertThat(r.out()).contains("Kafka Java client default")
        .contains("Pulsar C++ 3.5+ / Python 3.6+ / Node.js 1.11+ default")
        .contains("kafka-go Writer default (no Balancer set: RoundRobin) ignores keys");
  }

  @Test
  void planAppliesHeadroomAndSkew() throws IOException {
    Result plain = run("plan", "--peak-write", "50000", "--partition-write", "5000",
        "--peak-consume", "40000", "--partition-consume", "2000");
    assertThat(plain.code()).isZero();
    // max(10, 20) x 1.3 = 26
    assertThat(plain.out()).contains("= 20.00 partitions at perfect balance")
        .contains("recommendation: 26 partitions");
    Result uniform = run("plan", "--peak-write", "10000", "--partition-write", "1000",
        "--keys", text.toString());
    assertThat(uniform.out()).contains("within chance, no adjustment")
        .contains("recommendation: 13 partitions");
    Result hot = run("plan", "--peak-write", "10000", "--partition-write", "1000",
        "--keys", tsvGz.toString(), "--tsv-field", "country");
    assertThat(hot.out()).contains("hot key   'US' carries 33.33%")
        .contains("no partition count fixes this");
    // 40 equally hot keys (2.5 % each, below the 7.7 % a partition takes): uneven on 13 partitions
    List<String> few = new ArrayList<>();
    for (int i = 0; i < 4000; i++) {
      few.add("tenant-" + (i % 40));
    }
    Path fewKeys = Files.write(dir.resolve("few.txt"), few);
    Result skewed = run("plan", "--peak-write", "10000", "--partition-write", "1000",
        "--keys", fewKeys.toString());
    assertThat(skewed.out()).contains("-> 13 partitions").contains("adjust")
        .doesNotContain("hot key").doesNotContain("recommendation: 13 partitions");
  }

  /**
   * Skew is not monotonic in the count: on the GeoNames admin1 codes the adjustments go 6, 9,
   * 10, 12, and 11, which they jump over, is enough (max/mean 1.5391: 4 x 1.3 x 1.5391 = 8.0).
   * plan measures the skipped counts and recommends the smallest that is enough.
   */
  @Test
  void planRecommendsTheSmallestCountThatIsEnough() throws IOException {
    Path cities = dir.resolve("geonames-sample.tsv.gz");
    try (var in = getClass().getClassLoader()
        .getResourceAsStream("samples/geonames-cities-120k.tsv.gz")) {
      assertThat(in).as("the GeoNames sample of routing-core's test jar").isNotNull();
      Files.copy(in, cities);
    }
    Result r = run("plan", "--peak-write", "20000", "--partition-write", "5000",
        "--keys", cities.toString(), "--tsv-field", "admin1");
    assertThat(r.code()).isZero();
    assertThat(r.out()).contains("-> 12 partitions").contains("scan ")
        .contains("at 11 partitions the sample").contains("enough    4.00 x 1.30 x 1.5391")
        .contains("recommendation: 11 partitions");
  }

  @Test
  void helpAndVersion() {
    Result help = run("--help");
    assertThat(help.code()).isZero();
    assertThat(help.out()).contains("analyze").contains("resize").contains("plan").contains("compare");
    assertThat(run("analyze", "--help").out()).contains("--fail-above").contains("--chart");
    Result version = run("--version");
    assertThat(version.code()).isZero();
    // The build's own version, passed in by surefire (see the pom), not a placeholder.
    assertThat(version.out().strip())
        .isEqualTo("routing " + System.getProperty("routingkit.project.version"));
  }
}
