package io.github.routingkit.cli;

import static io.github.routingkit.cli.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.routingkit.KeyRouter;
import io.github.routingkit.KeylessPolicy;
import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.placement.Placement;
import io.github.routingkit.router.HashRouter;
import io.github.routingkit.router.canary.CanaryRouter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command that reads a key file ({@code plan}, {@code resize}, {@code rollout}; {@code
 * analyze} in {@link AnalyzeBinaryKeyLinesTest}) routes a {@code 0x<hex>} line by the bytes it
 * spells and every other line, malformed hex included, by its UTF-8 bytes: each report equals what
 * the core schemes give those bytes directly, and differs from what the lines' text gives (so each
 * test fails if a command reads the lines as text). Distinct keys, fixed seed.
 */
class KeyFileBinaryLinesTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  static Path dir;
  static Path keys;

  /** Each line of the key file with the key bytes a producer sends for it, in file order. */
  static final Map<String, byte[]> LINES = new LinkedHashMap<>();

  @BeforeAll
  static void files() throws IOException {
    Random random = new Random(20_261_206L);
    while (LINES.size() < 3_000) { // binary keys, most not UTF-8
      byte[] b = new byte[4 + random.nextInt(13)];
      random.nextBytes(b);
      LINES.put("0x" + HexFormat.of().formatHex(b), b);
    }
    int onZero = 0;
    while (onZero < 600) { // and as many more on partition 0 of 12 by their bytes: a skew
      byte[] b = new byte[8];
      random.nextBytes(b);
      if (kafka(b, 12) == 0 && LINES.put("0x" + HexFormat.of().formatHex(b), b) == null) {
        onZero++;
      }
    }
    byte[] upper = {(byte) 0xab, (byte) 0xcd, 0x01};
    LINES.put("0xAbCd01", upper); // upper-case digits are hex digits
    for (int i = 0; i < 200; i++) {
      text("order-" + i);
    }
    // malformed hex lines are text keys: odd length, no byte, not hex, upper-case X, and
    // digits that are not ASCII
    for (String t : new String[] {"0x", "0xabc", "0xZZ", "0X12", "0x12 ", "0x\u0661\u0662"}) {
      text(t);
    }
    keys = Files.write(dir.resolve("keys.txt"), LINES.keySet(), StandardCharsets.UTF_8);
  }

  private static void text(String line) {
    LINES.put(line, line.getBytes(StandardCharsets.UTF_8));
  }

  /** The key bytes of every line: binary lines by the bytes they spell. */
  private static List<byte[]> byBytes() {
    return new ArrayList<>(LINES.values());
  }

  /** What reading every line as text would route: its UTF-8 bytes. */
  private static List<byte[]> byText() {
    List<byte[]> out = new ArrayList<>();
    for (String line : LINES.keySet()) {
      out.add(line.getBytes(StandardCharsets.UTF_8));
    }
    return out;
  }

  /** kafka-murmur2 under its native placement, from the core scheme and placement. */
  private static int kafka(byte[] key, int n) {
    HashScheme s = HashScheme.KAFKA_MURMUR2;
    return s.nativePlacement().place(s.hash(key), n);
  }

  private static long moved(Function<byte[], int[]> fromTo, List<byte[]> keys) {
    long moved = 0;
    for (byte[] k : keys) {
      int[] p = fromTo.apply(k);
      moved += p[0] != p[1] ? 1 : 0;
    }
    return moved;
  }

  private static long moved(KeyRouter r, List<byte[]> keys, int from, int to) {
    return moved(k -> new int[] {r.partition(k, from), r.partition(k, to)}, keys);
  }

  private static JsonNode json(CliRun.Result r) throws IOException {
    assertThat(r.code()).as(r.err()).isZero();
    return JSON.readTree(r.out());
  }

  @Test
  void theRuleOfAKeyLine() {
    assertThat(BinaryKeyLines.bytesOf("0x00ff")).containsExactly(0x00, 0xff);
    assertThat(BinaryKeyLines.bytesOf("0xAbCd01")).containsExactly(upperBytes());
    for (String text : new String[] {"", "0x", "0x0", "0xabc", "0xZZ", "0X12", "0x12 ", " 0x12",
        "0x\u0661\u0662", "0x\uff21\uff22", "order-1"}) {
      assertThat(BinaryKeyLines.bytesOf(text)).as(text).isNull();
    }
  }

  private static byte[] upperBytes() {
    return LINES.get("0xAbCd01");
  }

  @Test
  void resizeMovesBinaryLinesByTheirBytes() throws IOException {
    JsonNode rows = json(run("resize", "--keys", keys.toString(), "--from", "12", "--to", "16",
        "--scheme", "kafka-murmur2", "--format", "json", "--quiet")).get("rows");
    long expected = moved(k -> new int[] {kafka(k, 12), kafka(k, 16)}, byBytes());
    assertThat(expected)
        .isNotEqualTo(moved(k -> new int[] {kafka(k, 12), kafka(k, 16)}, byText()));
    assertThat(rows).hasSize(1);
    assertThat(rows.get(0).get("moved").asLong()).isEqualTo(expected);
    assertThat(rows.get(0).get("total").asLong()).isEqualTo(LINES.size());
  }

  @Test
  void resizeRoutesBinaryLinesByTheirBytesInEveryDefaultRowAndAfterAll() throws IOException {
    JsonNode every = json(run("resize", "--keys", keys.toString(), "--from", "7", "--to", "9",
        "--format", "json", "--quiet")).get("rows");
    JsonNode all = json(run("resize", "--keys", keys.toString(), "--from", "7", "--to", "9",
        "--scheme", "kafka-murmur2", "--all", "--format", "json", "--quiet")).get("rows");
    assertThat(every).hasSize(HashScheme.values().length * Placement.values().length);
    assertThat(all).hasSize(every.size() + 1);
    int differ = 0;
    for (int i = 0; i < every.size(); i++) {
      String name = every.get(i).get("router").asText();
      String[] ids = name.split(" / ");
      KeyRouter r = HashRouter.of(HashScheme.fromId(ids[0]), Placement.fromId(ids[1]),
          KeylessPolicy.ROUND_ROBIN);
      long expected = moved(r, byBytes(), 7, 9);
      differ += expected != moved(r, byText(), 7, 9) ? 1 : 0;
      assertThat(every.get(i).get("moved").asLong()).as(name).isEqualTo(expected);
      assertThat(all.get(i + 1).get("router").asText()).isEqualTo(name);
      assertThat(all.get(i + 1).get("moved").asLong()).as(name).isEqualTo(expected);
    }
    // moved counts tell bytes from text in almost every row (two can agree by chance)
    assertThat(differ).isGreaterThan(every.size() * 9 / 10);
  }

  @Test
  void planMeasuresTheSkewOfTheBinaryLinesBytes() {
    // 1,200 msg/s at 100 per partition, no headroom: 12 partitions, then what the skew asks
    CliRun.Result r = run("plan", "--peak-write", "1200", "--partition-write", "100",
        "--headroom", "1", "--keys", keys.toString(), "--quiet");
    assertThat(r.code()).as(r.err()).isZero();
    Matcher m = Pattern.compile("skew +at (\\d+) partitions the sample \\(([\\d,]+) messages,"
        + " ([\\d,]+) keys\\) has max/mean (\\S+)").matcher(r.out());
    int lines = 0;
    while (m.find()) {
      int n = Integer.parseInt(m.group(1));
      assertThat(m.group(2).replace(",", "")).isEqualTo(String.valueOf(LINES.size()));
      String expected = maxOverMean(byBytes(), n);
      assertThat(expected).as("at %d", n).isNotEqualTo(maxOverMean(byText(), n));
      assertThat(m.group(4)).as(r.out()).isEqualTo(expected);
      lines++;
    }
    assertThat(lines).as(r.out()).isPositive();
  }

  private static String maxOverMean(List<byte[]> keys, int n) {
    long[] counts = new long[n];
    for (byte[] k : keys) {
      counts[kafka(k, n)]++;
    }
    long max = 0;
    for (long c : counts) {
      max = Math.max(max, c);
    }
    return String.format(Locale.ROOT, "%.4f", max / ((double) keys.size() / n));
  }

  @Test
  void rolloutSwitchesAndMovesBinaryLinesByTheirBytes() throws IOException {
    Path old = Files.writeString(dir.resolve("old.properties"), "routing.scheme=kafka-murmur2\n");
    Path next = Files.writeString(dir.resolve("next.properties"), "routing.scheme=xxh3-64\n");
    Path canary = Files.writeString(dir.resolve("canary.properties"), "routing.scheme=kafka-murmur2"
        + "\nrouting.canary.share=1%\nrouting.canary.next.scheme=xxh3-64\n");
    double[] plan = {0, 0.1, 0.5, 1};
    long[][] expected = rollout(byBytes(), plan);
    assertThat(expected).isNotEqualTo(rollout(byText(), plan));
    for (String[] form : new String[][] {{"--spec", old.toString(), "--next", next.toString()},
        {"--spec", canary.toString()}}) {
      List<String> args = new ArrayList<>(List.of("rollout", "--keys", keys.toString(), "--plan",
          "10,50,100", "--partitions", "12", "--format", "json", "--quiet"));
      args.addAll(List.of(form));
      JsonNode steps = json(run(args.toArray(new String[0]))).get("steps");
      assertThat(steps).hasSize(3);
      for (int i = 0; i < 3; i++) {
        assertThat(steps.get(i).get("switchedKeys").asLong()).as("step %d", i)
            .isEqualTo(expected[i][0]);
        assertThat(steps.get(i).get("movedKeys").asLong()).as("step %d", i)
            .isEqualTo(expected[i][1]);
        assertThat(steps.get(i).get("movedMessages").asLong()).as("step %d", i)
            .isEqualTo(expected[i][1]);
      }
    }
  }

  /** Per step: the keys that switch to the new router, and those of them that change partition. */
  private static long[][] rollout(List<byte[]> keys, double[] plan) {
    KeyRouter next = HashRouter.of(HashScheme.XXH3_64, HashScheme.XXH3_64.nativePlacement(),
        KeylessPolicy.ROUND_ROBIN);
    long[][] out = new long[plan.length - 1][2];
    for (byte[] k : keys) {
      double point = CanaryRouter.point(k);
      for (int i = 1; i < plan.length; i++) {
        if (point >= plan[i - 1] && point < plan[i]) {
          out[i - 1][0]++;
          out[i - 1][1] += kafka(k, 12) != next.partition(k, 12) ? 1 : 0;
        }
      }
    }
    return out;
  }
}
