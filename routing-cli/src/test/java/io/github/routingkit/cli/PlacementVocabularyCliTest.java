package io.github.routingkit.cli;

import static io.github.routingkit.cli.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.KeylessPolicy;
import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.placement.Placement;
import io.github.routingkit.router.HashRouter;
import io.github.routingkit.cli.CliRun.Result;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --placement} takes exactly the values {@code routing.placement} takes,
 * each one routes like the spec with that value, the aliases are echoed with what they resolved
 * to, and a bad value lists the accepted names.
 */
class PlacementVocabularyCliTest {
  private static final List<String> ALL = List.of("native", "modulo", "jump", "jump-back",
      "floor-mod", "to-positive", "unsigned-mod", "abs-remainder");

  @TempDir
  static Path dir;
  static Path keys;
  static final List<String> KEYS = new ArrayList<>();

  @BeforeAll
  static void files() throws IOException {
    for (int i = 0; i < 3000; i++) {
      KEYS.add("user-" + i);
    }
    keys = Files.write(dir.resolve("keys.txt"), KEYS, StandardCharsets.UTF_8);
  }

  @Test
  void theCliAcceptsEveryValueOfTheSpecAndNoOther() {
    assertThat(RoutingSpec.placementValues()).containsExactlyElementsOf(ALL);
    assertThat(new RouterOptions.PlacementIds()).containsExactlyElementsOf(ALL);
  }

  @Test
  void everyValueRoutesLikeTheSpecWithThatValueForEveryScheme() {
    int n = 7;
    for (HashScheme scheme : List.of(HashScheme.KAFKA_MURMUR2, HashScheme.PULSAR_MURMUR3,
        HashScheme.SARAMA_FNV1A, HashScheme.XXH3_64)) {
      for (String p : ALL) {
        Placement expected = RoutingSpec.defaults().withScheme(scheme).withPlacement(p).placement();
        HashRouter router = HashRouter.of(scheme, expected, KeylessPolicy.ROUND_ROBIN);
        long[] counts = new long[n];
        KEYS.forEach(k -> counts[router.partition(k, n)]++);
        Result r = run("analyze", "--keys", keys.toString(), "--partitions", "" + n,
            "--scheme", scheme.id(), "--placement", p, "--format", "csv");
        assertThat(r.code()).as(scheme + " " + p + ": " + r.err()).isZero();
        List<String> rows = r.out().lines().skip(1).toList();
        for (int i = 0; i < n; i++) {
          assertThat(rows.get(i)).as(scheme + " " + p).startsWith(i + "," + counts[i] + ",");
        }
      }
    }
  }

  @Test
  void aliasesAreEchoedWithWhatTheyResolvedTo() {
    Result nat = run("analyze", "--keys", keys.toString(), "--partitions", "6",
        "--scheme", "pulsar-murmur3", "--placement", "native");
    assertThat(nat.code()).isZero();
    assertThat(nat.err()).contains("--placement native: native (floor-mod for pulsar-murmur3)");
    Result mod = run("analyze", "--keys", keys.toString(), "--partitions", "6",
        "--scheme", "xxh3-64", "--placement", "modulo");
    assertThat(mod.err()).contains("--placement modulo: modulo (unsigned-mod for xxh3-64)");
    Result concrete = run("analyze", "--keys", keys.toString(), "--partitions", "6",
        "--scheme", "pulsar-murmur3", "--placement", "floor-mod");
    assertThat(concrete.err()).contains("--placement floor-mod: floor-mod (what native selects"
        + " for pulsar-murmur3)");
    Result none = run("analyze", "--keys", keys.toString(), "--partitions", "6",
        "--placement", "abs-remainder");
    assertThat(none.err()).contains("abs-remainder (no alias selects it for kafka-murmur2)");
    Result jump = run("analyze", "--keys", keys.toString(), "--partitions", "6",
        "--scheme", "xxh3-64", "--placement", "jump");
    assertThat(jump.err()).contains("jump (what native selects for xxh3-64)");
  }

  @Test
  void resizeRowsNameTheResolution() {
    Result nat = run("resize", "--keys", keys.toString(), "--from", "3", "--to", "4",
        "--placement", "native", "--format", "csv");
    assertThat(nat.code()).isZero();
    assertThat(nat.out()).contains("kafka-murmur2 / native (to-positive),3,4,");
    Result mod = run("resize", "--keys", keys.toString(), "--from", "3", "--to", "4",
        "--scheme", "xxh3-64", "--placement", "modulo", "--format", "csv");
    assertThat(mod.out()).contains("xxh3-64 / modulo (unsigned-mod),3,4,");
    Result concrete = run("resize", "--keys", keys.toString(), "--from", "3", "--to", "4",
        "--scheme", "pulsar-murmur3", "--placement", "floor-mod", "--format", "csv");
    assertThat(concrete.out()).contains("pulsar-murmur3 / floor-mod,3,4,");
  }

  @Test
  void aSpecFileTakesTheConcreteNamesAndIsEchoed() throws IOException {
    Path spec = Files.writeString(dir.resolve("floor.properties"),
        "routing.scheme=kafka-murmur2\nrouting.placement=floor-mod\n");
    Result r = run("analyze", "--keys", keys.toString(), "--partitions", "6",
        "--spec", spec.toString(), "--format", "csv");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.err()).contains("routing.placement=floor-mod");
    Path alias = Files.writeString(dir.resolve("native.properties"),
        "routing.scheme=pulsar-java-string\nrouting.placement=modulo\n");
    Result a = run("analyze", "--keys", keys.toString(), "--partitions", "6",
        "--spec", alias.toString(), "--format", "csv");
    assertThat(a.err()).contains("routing.placement=modulo (floor-mod for pulsar-java-string)");
  }

  /**
   * docs/cli.md: a spec file that sets routing.placement is echoed as --placement is, native
   * included (which toMap() leaves out as the default), a concrete value with its alias; a file
   * that does not set it prints nothing.
   */
  @Test
  void aSpecFileIsEchoedInTheFormOfPlacementWheneverItSetsThePlacement() throws IOException {
    Path nat = Files.writeString(dir.resolve("producer.properties"),
        "routing.scheme=kafka-murmur2\nrouting.placement=native\n");
    Result n = run("analyze", "--keys", keys.toString(), "--partitions", "6",
        "--spec", nat.toString(), "--format", "csv");
    assertThat(n.code()).as(n.err()).isZero();
    assertThat(n.err()).contains("routing: --spec " + nat + ": routing.placement=native"
        + " (to-positive for kafka-murmur2)");
    Path floor = Files.writeString(dir.resolve("floor2.properties"),
        "routing.scheme=pulsar-murmur3\nrouting.placement=floor-mod\n");
    Result f = run("analyze", "--keys", keys.toString(), "--partitions", "6",
        "--spec", floor.toString(), "--format", "csv");
    assertThat(f.err()).contains("routing: --spec " + floor + ": routing.placement=floor-mod"
        + " (what native selects for pulsar-murmur3)");
    Path jump = Files.writeString(dir.resolve("jump.properties"), "routing.placement=jump\n");
    Result j = run("analyze", "--keys", keys.toString(), "--partitions", "6",
        "--spec", jump.toString(), "--format", "csv");
    assertThat(j.err()).contains("routing: --spec " + jump + ": routing.placement=jump"
        + " (no alias selects it for kafka-murmur2)");
    Path unset = Files.writeString(dir.resolve("unset.properties"), "routing.scheme=kafka-murmur2\n");
    Result u = run("analyze", "--keys", keys.toString(), "--partitions", "6",
        "--spec", unset.toString(), "--format", "csv");
    assertThat(u.code()).isZero();
    assertThat(u.err()).doesNotContain("routing.placement");
  }

  @Test
  void badValuesListTheAcceptedNamesInTheCliAndInASpec() throws IOException {
    String list = "[native, modulo, jump, jump-back, floor-mod, to-positive, unsigned-mod,"
        + " abs-remainder]";
    Result bad = run("analyze", "--keys", keys.toString(), "--partitions", "6",
        "--placement", "nope");
    assertThat(bad.code()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(bad.err()).contains("--placement was 'nope', must be one of " + list);
    Path spec = Files.writeString(dir.resolve("bad.properties"), "routing.placement=floormod\n");
    Result badSpec = run("analyze", "--keys", keys.toString(), "--partitions", "6",
        "--spec", spec.toString());
    assertThat(badSpec.code()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(badSpec.err()).contains("routing.placement value was 'floormod', must be one of "
        + list);
  }
}
