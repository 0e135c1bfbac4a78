package io.github.routingkit.cli;

import static io.github.routingkit.cli.LintCommandTest.file;
import static io.github.routingkit.cli.LintOrderRulesTest.findings;
import static io.github.routingkit.cli.LintOrderRulesTest.lint;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.routingkit.cli.CliRun.Result;
import io.github.routingkit.config.RoutingSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * What {@code routing lint} reads and prints: bad files are bad input, findings carry file and
 * line, JSON for CI, silencing directives, one file alone, the help text and the engines it shares
 * with the rest of the project.
 */
class LintInputTest {

  @Test
  void emptyBinaryAndCommentOnlyFilesAreBadInput(@TempDir Path dir) throws Exception {
    Result empty = lint("p:kafka/empty.properties");
    assertThat(empty.code()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(empty.err()).contains("holds no setting");
    assertThat(lint("p:kafka/comments-only.properties").code()).isEqualTo(RoutingCli.EXIT_USAGE);
    Path nul = dir.resolve("nul.properties");
    Files.write(nul, new byte[100 * 1024]);
    Result binary = CliRun.run("lint", "--producer", nul.toString());
    assertThat(binary.code()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(binary.err()).contains("NUL byte").contains("binary");
    Path latin1 = dir.resolve("latin1.properties");
    Files.write(latin1, "bootstrap.servers=h\u00e9:9092\n".getBytes(
        java.nio.charset.StandardCharsets.ISO_8859_1));
    assertThat(CliRun.run("lint", "--producer", latin1.toString()).err()).contains("not UTF-8");
  }

  @Test
  void aByteOrderMarkIsSkippedSoTheFirstKeyCounts() {
    // the first key is partitioner.class=...RoundRobinPartitioner: read, it is RK006
    Result r = lint("p:kafka/bom-producer.properties", "--require-key-order");
    assertThat(r.code()).as(r.out() + r.err()).isEqualTo(RoutingCli.EXIT_CHECK_FAILED);
    assertThat(findings(r)).anyMatch(l -> l.startsWith("ERROR RK006")
        && l.contains("bom-producer.properties:1)"));
  }

  @Test
  void aProducerOrAConsumerFileAlone() {
    Result producer = lint("p:kafka/no-idempotence-producer.properties", "--require-key-order");
    assertThat(producer.code()).isEqualTo(RoutingCli.EXIT_CHECK_FAILED);
    assertThat(producer.out()).contains("ERROR RK015");
    Result consumer = lint("c:pulsar/shared-consumer.properties", "--require-key-order");
    assertThat(consumer.out()).contains("ERROR RK004");
    Result none = CliRun.run("lint", "--require-key-order");
    assertThat(none.code()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(none.err()).contains("give at least one --producer or --consumer file");
  }

  @Test
  void findingsCarryTheLineTheKeyStartsOn() {
    Result r = lint("p:kafka/continued-lines-producer.properties", "--require-key-order");
    assertThat(findings(r)).singleElement().asString()
        .contains("continued-lines-producer.properties:5)");
  }

  @Test
  void jsonForCi() {
    Result r = lint("p:kafka/no-idempotence-producer.properties",
        "c:kafka/auto-commit-consumer.properties", "--require-key-order", "--format", "json");
    assertThat(r.code()).isEqualTo(RoutingCli.EXIT_CHECK_FAILED);
    String json = r.out().trim();
    assertThat(json.lines()).hasSize(1);
    assertThat(json).startsWith("{\"flavor\":\"kafka\",\"requireKeyOrder\":true")
        .contains("\"role\":\"producer\",\"client\":\"kafka-java\"")
        .contains("{\"rule\":\"RK015\",\"name\":\"retry-reorder\",\"severity\":\"error\","
            + "\"cause\":\"PRODUCER_RETRY\",\"file\":")
        .contains("\"line\":5,")
        .contains("{\"rule\":\"RK019\",\"name\":\"auto-commit-redelivery\","
            + "\"severity\":\"warning\",\"cause\":\"REDELIVERY\"")
        .endsWith("\"errors\":1,\"warnings\":1,\"silenced\":0}");
    assertThat(lint("p:kafka/clean-producer.properties", "--format", "xml").code())
        .isEqualTo(RoutingCli.EXIT_USAGE);
  }

  @Test
  void aRuleIsSilencedPerFileWithAReason() {
    Result r = lint("p:kafka/silenced-producer.properties", "--require-key-order");
    assertThat(r.code()).as(r.out()).isZero();
    assertThat(findings(r)).singleElement().asString().startsWith("silenced ERROR RK015")
        .endsWith("[silenced: the framework sets retries=0 in code]");
    assertThat(r.out()).contains("0 error(s), 0 warning(s), 1 silenced");
    // a directive without a reason, or naming no rule, is bad input
    Result noReason = lint("p:kafka/bad-directive-producer.properties");
    assertThat(noReason.code()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(noReason.err()).contains("line 1").contains("reason=");
    assertThat(lint("p:kafka/unknown-rule-directive-producer.properties").err())
        .contains("'RK099', which is no rule");
  }

  @Test
  void filesOfKafkaAndPulsarClientsAreNotMixed() {
    Result r = lint("p:clients/java-default.properties",
        "p:clients/pulsar-go-Murmur3_32Hash.properties");
    assertThat(r.code()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(r.err()).contains("lint the files of one topic");
  }

  @Test
  void theHelpNamesEveryRuleAndTheOutOfMemoryHintOnlyOptionsTheCommandHas() {
    LintRule[] rules = LintRule.values();
    assertThat(LintRule.RANGE).isEqualTo(rules[0] + "-" + rules[rules.length - 1]);
    Result help = CliRun.run("lint", "--help");
    assertThat(help.out().replaceAll("\\s+", " ")).contains("rules " + LintRule.RANGE);
    CommandLine lint = new CommandLine(new RoutingCli());
    lint.parseArgs("lint", "--producer", "p.properties");
    assertThat(RoutingCli.outOfMemoryHint(lint)).isEmpty();
    CommandLine analyze = new CommandLine(new RoutingCli());
    analyze.parseArgs("analyze", "--keys", "k.txt", "--partitions", "3");
    assertThat(RoutingCli.outOfMemoryHint(analyze)).isEqualTo(" or lower --exact-keys");
    CommandLine audit = new CommandLine(new RoutingCli());
    audit.parseArgs("audit", "a.jsonl");
    assertThat(RoutingCli.outOfMemoryHint(audit)).isEqualTo(" or lower --max-keys");
  }

  /** One "did you mean" engine: the lint suggests what RoutingSpec's own error suggests. */
  @Test
  void didYouMeanIsTheSpecsOwn() {
    Result r = lint("p:kafka/typo-transposed-producer.properties");
    assertThat(findings(r)).anyMatch(l -> l.startsWith("ERROR RK001")
        && l.contains("unknown key routing.hotkey.meoyr; fix: did you mean routing.hotkey.memory?"));
    assertThatThrownBy(() -> RoutingSpec.parse(Map.of("routing.hotkey.detect", "true",
        "routing.hotkey.meoyr", "1048576"))).hasMessageContaining("routing.hotkey.memory");
  }

  /** Routing compared by what it routes: a placement spelled out is its scheme's native one. */
  @Test
  void aSpelledOutNativePlacementIsTheDefault() {
    for (String[] pair : new String[][] {
        {"kafka/explicit-native-producer.properties", "kafka/murmur2-native-consumer.properties"},
        {"kafka/xxh3-jump-producer.properties", "kafka/xxh3-native-consumer.properties"},
        {"pulsar/murmur3-floor-mod-producer.properties", "pulsar/clean-consumer.properties"}}) {
      Result r = lint("p:" + pair[0], "c:" + pair[1]);
      assertThat(r.out()).as(pair[0]).doesNotContain("RK003");
      assertThat(r.code()).as(pair[0] + ": " + r.out()).isZero();
    }
    // and a real difference still is an error, with a key that shows it
    Result differ = lint("p:kafka/xxh3-jump-producer.properties",
        "c:kafka/murmur2-native-consumer.properties");
    assertThat(findings(differ)).singleElement().asString().startsWith("ERROR RK003")
        .containsPattern("key '[^']+' at \\d+ partitions");
  }

  @Test
  void canonicalFormsResolveEveryPlacement() {
    RoutingSpec a = RoutingSpec.parse("routing.version.generations=v1:kafka-murmur2:native:6,"
        + "v2:xxh3-64, routing.version.default=v1");
    RoutingSpec b = RoutingSpec.parse("routing.version.generations=v1:kafka-murmur2:to-positive:6,"
        + "v2:xxh3-64:jump:*, routing.version.default=v1");
    assertThat(RoutingAgreement.canonical(a)).isEqualTo(RoutingAgreement.canonical(b));
    RoutingSpec c = RoutingSpec.parse("routing.canary.share=5%, routing.canary.next.scheme=xxh3-64");
    RoutingSpec d = RoutingSpec.parse("routing.canary.share=5%, routing.canary.next.scheme=xxh3-64,"
        + " routing.canary.next.placement=jump, routing.placement=to-positive");
    assertThat(RoutingAgreement.canonical(c)).isEqualTo(RoutingAgreement.canonical(d));
    assertThat(RoutingAgreement.witness(c, d, RoutingAgreement.COUNTS)).isNull();
    assertThat(file("kafka/clean-producer.properties")).exists();
  }
}
