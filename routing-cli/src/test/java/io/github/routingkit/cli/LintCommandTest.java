package io.github.routingkit.cli;

import static io.github.routingkit.cli.CliRun.run;

import io.github.routingkit.cli.CliRun.Result;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code routing lint}, every rule on real config files under test resources. */
class LintCommandTest {
  static Path file(String name) {
    try {
      return Path.of(LintCommandTest.class.getResource("/lint/" + name).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  static Result lint(String producer, String consumer, String... more) {
    List<String> args = new ArrayList<>(List.of("lint", "--producer", file(producer).toString(),
        "--consumer", file(consumer).toString()));
    args.addAll(Arrays.asList(more));
    return run(args.toArray(new String[0]));
  }

  private static List<String> findings(Result r) {
    return r.out().lines().filter(l -> l.startsWith("ERROR ") || l.startsWith("WARNING ")).toList();
  }

  @Test
  void cleanKafkaAndPulsarPairsHaveNoFinding() {
    Result k = lint("kafka/clean-producer.properties", "kafka/clean-consumer.properties",
        "--require-key-order", "--strict");
    assertThat(k.code()).as(k.out() + k.err()).isZero();
    assertThat(k.out()).contains("lint (kafka, per-key order required): 0 error(s), 0 warning(s)");
    Result p = lint("pulsar/clean-producer.properties", "pulsar/clean-consumer.properties",
        "--require-key-order", "--strict");
    assertThat(p.code()).as(p.out() + p.err()).isZero();
    assertThat(p.out()).contains("lint (pulsar, per-key order required): 0 error(s)");
  }

  @Test
  void rk001UnknownRoutingKeysWithDidYouMean() {
    Result r = lint("kafka/typo-producer.properties", "kafka/typo-consumer.properties");
    assertThat(r.code()).isEqualTo(RoutingCli.EXIT_CHECK_FAILED);
    assertThat(r.out()).contains("ERROR RK001 unknown-routing-key")
        .contains("unknown key routing.shceme; fix: did you mean routing.scheme?")
        .contains("unknown key routing.assignor.wieght; fix: did you mean routing.assignor.weight?");
  }

  @Test
  void rk002InvalidProducerSpec() {
    Result r = lint("kafka/bad-spec-producer.properties", "kafka/clean-consumer.properties");
    assertThat(r.code()).isEqualTo(RoutingCli.EXIT_CHECK_FAILED);
    assertThat(r.out()).contains("ERROR RK002").contains("routing.scheme").contains("md5");
  }

  @Test
  void rk003PartitionerChangeWithoutAssignorReview() {
    Result warn = lint("kafka/clean-producer.properties", "kafka/default-consumer.properties");
    assertThat(findings(warn)).singleElement().asString().startsWith("WARNING RK003")
        .contains("partitioner.class=io.github.routingkit.kafka.RoutingPartitioner")
        .contains("partition.assignment.strategy is the default");
    assertThat(warn.code()).isZero();
    assertThat(lint("kafka/clean-producer.properties", "kafka/default-consumer.properties",
        "--strict").code()).isEqualTo(RoutingCli.EXIT_CHECK_FAILED);
    Result mismatch = lint("kafka/clean-producer.properties", "kafka/mismatch-consumer.properties");
    assertThat(mismatch.code()).isEqualTo(RoutingCli.EXIT_CHECK_FAILED);
    assertThat(mismatch.out()).contains("ERROR RK003").contains("routing.placement=native")
        .contains("routing.placement=jump");
    Result pulsar = lint("pulsar/clean-producer.properties",
        "pulsar/no-routing-consumer.properties");
    assertThat(findings(pulsar)).singleElement().asString().startsWith("WARNING RK003")
        .contains("messageRoutingMode=CustomPartition");
  }

  /** RoutingPartitioner with the default spec places keys as the built-in one: nothing to review. */
  @Test
  void rk003NoReviewForARoutingPartitionerThatPlacesKeysAsTheBuiltIn() {
    Result r = lint("kafka/readme-producer.properties", "kafka/default-consumer.properties",
        "--strict");
    assertThat(findings(r)).as(r.out()).isEmpty();
  }

  /** The README's quick-start pair: routing.keyless=kafka-sticky is a spec value (RK002). */
  @Test
  void theReadmeKafkaQuickStartPairIsClean() {
    Result r = lint("kafka/readme-producer.properties", "kafka/readme-consumer.properties",
        "--strict");
    assertThat(findings(r)).as(r.out() + r.err()).isEmpty();
    assertThat(r.code()).isZero();
  }

  /**
   * A consumer without group.id (partitions taken with assign()) joins no group: kafka-clients runs
   * no assignor for it, so there is no assignment to review.
   */
  @Test
  void rk003NoReviewForAManuallyAssignedConsumer() {
    Result r = lint("kafka/clean-producer.properties", "kafka/assign-consumer.properties",
        "--strict");
    assertThat(findings(r)).as(r.out()).isEmpty();
    assertThat(r.code()).isZero();
  }

  /** RK003 compares parsed specs, not key text. */
  @Test
  void rk003ComparesParsedSpecs() {
    // routing.scheme=kafka-murmur2 (+ keyless) and routing.placement=native are one spec
    Result same = lint("kafka/readme-producer.properties",
        "kafka/native-placement-consumer.properties", "--strict");
    assertThat(findings(same)).as(same.out()).isEmpty();
    // a RoutingAssignor consumer without routing.* keys runs the default spec, not jump
    Result defaults = lint("kafka/clean-producer.properties", "kafka/readme-consumer.properties");
    assertThat(defaults.code()).isEqualTo(RoutingCli.EXIT_CHECK_FAILED);
    assertThat(findings(defaults)).singleElement().asString().startsWith("ERROR RK003")
        .contains("(no routing.* keys: the default)").contains("routing.placement=jump");
  }

  /** RK011: RoutingPartitioner refuses routing.version.source=header at startup. */
  @Test
  void rk011HeaderVersionSourceWithRoutingPartitioner() {
    Result header = lint("kafka/header-version-producer.properties",
        "kafka/default-consumer.properties");
    assertThat(header.code()).isEqualTo(RoutingCli.EXIT_CHECK_FAILED);
    assertThat(header.out()).contains("ERROR RK011 kafka-header-version-source")
        .contains("routing.version.source=header").contains("ConfigException");
    Result canary = lint("kafka/header-canary-producer.properties",
        "kafka/default-consumer.properties");
    assertThat(canary.code()).isEqualTo(RoutingCli.EXIT_CHECK_FAILED);
    assertThat(canary.out()).contains("ERROR RK011")
        .contains("routing.canary.next.version.source=header");
    Result keyPrefix = lint("kafka/key-prefix-version-producer.properties",
        "kafka/default-consumer.properties");
    assertThat(keyPrefix.out()).doesNotContain("RK011");
    assertThat(keyPrefix.code()).isZero();
  }

  @Test
  void rk003Kip848ConsumersAreReviewedThroughTheBrokerSideAssignor() {
    // guards against: RK003 told a group.protocol=consumer client to set partition.assignment.strategy,
    // which kafka-clients refuses for that protocol
    Result routing = lint("kafka/clean-producer.properties", "kafka/kip848-consumer.properties");
    assertThat(routing.out()).doesNotContain("RK003")
        .doesNotContain("partition.assignment.strategy=io.github.routingkit.kafka.RoutingAssignor");
    Result broker = lint("kafka/clean-producer.properties",
        "kafka/kip848-default-consumer.properties");
    assertThat(findings(broker)).singleElement().asString().startsWith("WARNING RK003")
        .contains("group.protocol=consumer")
        .contains("group.remote.assignor is not set")
        .contains("fix: review the assignment with the new partitioner (e.g."
            + " group.remote.assignor=routing, with io.github.routingkit.kafka.RoutingGroupAssignor"
            + " in the brokers' group.consumer.assignors")
        .doesNotContain("partition.assignment.strategy=io.github");
    assertThat(broker.code()).isZero();
  }

  @Test
  void rk012AssignorSettingsTheGroupProtocolDoesNotUse() {
    Result weight = lint("kafka/clean-producer.properties", "kafka/kip848-consumer.properties");
    assertThat(findings(weight)).singleElement().asString()
        .startsWith("WARNING RK012 assignor-setting-wrong-protocol (")
        .contains("routing.assignor.weight=2 with group.protocol=consumer")
        .contains("does nothing")
        .contains("routing.assignor.instance.weights");
    assertThat(weight.code()).isZero();
    Result strategy = lint("kafka/clean-producer.properties",
        "kafka/kip848-strategy-consumer.properties");
    assertThat(strategy.code()).isEqualTo(RoutingCli.EXIT_CHECK_FAILED);
    assertThat(strategy.out()).contains("ERROR RK012")
        .contains("partition.assignment.strategy cannot be set when group.protocol=CONSUMER")
        .contains("fix: remove it; choose the broker-side assignor with"
            + " group.remote.assignor=routing");
    Result classic = lint("kafka/clean-producer.properties",
        "kafka/instance-weights-consumer.properties");
    assertThat(classic.code()).isEqualTo(RoutingCli.EXIT_CHECK_FAILED);
    assertThat(findings(classic)).singleElement().asString().startsWith("ERROR RK012")
        .contains("routing.assignor.instance.weights=c1:2")
        .contains("RoutingAssignor refuses it")
        .contains("routing.assignor.weight");
  }

  @Test
  void rk004SharedSubscriptionOnlyWhenKeyOrderIsRequired() {
    Result r = lint("pulsar/clean-producer.properties", "pulsar/shared-consumer.properties",
        "--require-key-order");
    assertThat(r.code()).isEqualTo(RoutingCli.EXIT_CHECK_FAILED);
    assertThat(r.out()).contains("ERROR RK004 key-order-shared-subscription")
        .contains("subscriptionType=Key_Shared");
    assertThat(lint("pulsar/clean-producer.properties", "pulsar/shared-consumer.properties")
        .out()).doesNotContain("RK004");
  }

  @Test
  void rk005SinglePartitionModeWithKeyOrder() {
    Result r = lint("pulsar/single-partition-producer.properties",
        "pulsar/clean-consumer.properties", "--require-key-order");
    assertThat(r.out()).contains("WARNING RK005 key-order-single-partition");
    assertThat(r.code()).isZero();
  }

  @Test
  void rk006KafkaPartitionerThatIgnoresKeys() {
    Result ignore = lint("kafka/ignore-keys-producer.properties",
        "kafka/default-consumer.properties", "--require-key-order");
    assertThat(ignore.code()).isEqualTo(RoutingCli.EXIT_CHECK_FAILED);
    assertThat(ignore.out()).contains("ERROR RK006").contains("partitioner.ignore.keys=true");
    Result rr = lint("kafka/round-robin-producer.properties",
        "kafka/default-consumer.properties", "--require-key-order");
    assertThat(rr.out()).contains("ERROR RK006").contains("RoundRobinPartitioner ignores the key");
  }

  @Test
  void rk007AndRk008KeySharedOutOfOrderAndLargeReceiverQueue() {
    Result r = lint("pulsar/clean-producer.properties", "pulsar/out-of-order-consumer.properties");
    assertThat(r.out()).contains("WARNING RK007 key-shared-out-of-order")
        .contains("WARNING RK008 key-shared-large-receiver-queue").contains("receiverQueueSize=5000");
    Result ordered = lint("pulsar/clean-producer.properties",
        "pulsar/out-of-order-consumer.properties", "--require-key-order");
    assertThat(ordered.out()).contains("ERROR RK007");
    assertThat(ordered.code()).isEqualTo(RoutingCli.EXIT_CHECK_FAILED);
  }

  @Test
  void rk009BlockIfQueueFullWithASmallQueue() {
    Result r = lint("pulsar/small-queue-producer.properties", "pulsar/clean-consumer.properties");
    assertThat(r.out()).contains("WARNING RK009 block-small-queue")
        .contains("maxPendingMessages=100").contains("routing plan --message-bytes");
  }

  @Test
  void rk010TransactionsWithAnImpureRouter() {
    Result kafka = lint("kafka/transactional-producer.properties",
        "kafka/clean-consumer.properties");
    assertThat(kafka.code()).isEqualTo(RoutingCli.EXIT_CHECK_FAILED);
    assertThat(kafka.out()).contains("ERROR RK010").contains("routing.keyless=random")
        .contains("routing.hotkey.choice=least-loaded")
        // the Kafka adapter's default keyless policy is kafka-sticky, not round-robin
        .contains("fix: routing.keyless=kafka-sticky (the Kafka adapter's default) or round-robin"
            + " instead of random")
        .doesNotContain("round-robin (the default)");
    Result pure = lint("kafka/transactional-pure-producer.properties",
        "kafka/clean-consumer.properties");
    assertThat(pure.out()).doesNotContain("RK010");
    // a canary's new spec counts too: its hot keys choose by load
    Result canary = lint("kafka/transactional-canary-producer.properties",
        "kafka/clean-consumer.properties");
    assertThat(canary.out()).contains("ERROR RK010")
        .contains("routing.canary.next.hotkey.choice=least-loaded")
        .doesNotContain("RK001"); // canary keys are known routing.* keys, no typo finding
    Result pulsar = lint("pulsar/transactional-producer.properties",
        "pulsar/clean-consumer.properties", "--flavor", "pulsar");
    assertThat(pulsar.out()).contains("ERROR RK010").contains("enableTransaction=true")
        .contains("fix: routing.keyless=round-robin (the default) instead of random");
  }

  @Test
  void rk020SchemaRegistryKeysWithoutKeyFormat() {
    Result confluent = lint("kafka/schema-registry-producer.properties",
        "kafka/default-consumer.properties");
    assertThat(findings(confluent)).filteredOn(l -> l.contains("RK020")).singleElement().asString()
        .startsWith("WARNING RK020 schema-id-in-key (")
        .contains("key.serializer=io.confluent.kafka.serializers.KafkaAvroSerializer with"
            + " auto.register.schemas=true (the default)")
        .contains("fix: partitioner.class=io.github.routingkit.kafka.RoutingPartitioner and"
            + " routing.key.format=confluent");
    Result apicurio = lint("kafka/apicurio-producer.properties", "kafka/default-consumer.properties");
    assertThat(findings(apicurio)).filteredOn(l -> l.contains("RK020")).singleElement().asString()
        .contains("apicurio.registry.auto-register=true and apicurio.registry.headers.enabled not"
            + " set (its default differs by release")
        .contains("fix: routing.key.format=apicurio-protobuf")
        .contains("apicurio.registry.headers.enabled=true (the id in a record header");
    // the id in a record header: the key bytes are the payload alone
    Result headers = lint("kafka/apicurio-headers-producer.properties",
        "kafka/default-consumer.properties", "--strict");
    assertThat(findings(headers)).as(headers.out()).isEmpty();
    Result fixed = lint("kafka/schema-registry-key-format-producer.properties",
        "kafka/default-consumer.properties");
    assertThat(findings(fixed)).noneMatch(l -> l.contains("RK020"));
    assertThat(findings(lint("kafka/clean-producer.properties", "kafka/clean-consumer.properties")))
        .noneMatch(l -> l.contains("RK020"));
  }

  @Test
  void everyRuleHasATestAndIsInTheDocs() throws Exception {
    String docs = java.nio.file.Files.readString(Path.of("..", "docs", "cli.md"));
    Path dir = Path.of("src", "test", "java", "io", "github", "routingkit", "cli");
    String self = java.nio.file.Files.readString(dir.resolve("LintCommandTest.java"))
        + java.nio.file.Files.readString(dir.resolve("LintOrderRulesTest.java"));
    for (LintRule rule : LintRule.values()) {
      assertThat(docs).as("docs/cli.md lists " + rule).contains("| " + rule + " | `" + rule.name
          + "` | " + (rule.cause == null ? "—" : "`" + rule.cause + "`") + " |");
      assertThat(self.contains("ERROR " + rule) || self.contains("WARNING " + rule))
          .as("a test for " + rule).isTrue();
    }
  }

  /** docs/cli.md maps every audit cause to exactly the rules that predict it. */
  @Test
  void everyAuditCauseIsMappedToItsRulesInTheDocs() throws Exception {
    String docs = java.nio.file.Files.readString(Path.of("..", "docs", "cli.md"));
    for (io.github.routingkit.audit.AuditCause cause
        : io.github.routingkit.audit.AuditCause.values()) {
      List<String> ids = LintRule.predicting(cause).stream().map(Enum::name).toList();
      assertThat(docs).as("docs/cli.md maps " + cause).contains("| `" + cause + "` | "
          + cause.layer() + " | " + (ids.isEmpty() ? "none" : String.join(", ", ids)) + " | ");
    }
  }

  @Test
  void badInputIsExitTwo() {
    StringWriter err = new StringWriter();
    int code = RoutingCli.run(new PrintWriter(new StringWriter()), new PrintWriter(err), "lint",
        "--producer", "/nope/p.properties", "--consumer", file("kafka/clean-consumer.properties")
            .toString());
    assertThat(code).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(err.toString()).contains("no such file");
    assertThat(lint("kafka/clean-producer.properties", "pulsar/clean-consumer.properties")
        .code()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(lint("kafka/clean-producer.properties", "kafka/clean-consumer.properties",
        "--flavor", "rabbitmq").code()).isEqualTo(RoutingCli.EXIT_USAGE);
  }
}
