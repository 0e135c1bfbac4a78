package io.github.routingkit.cli;

import static io.github.routingkit.cli.LintCommandTest.file;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.cli.CliRun.Result;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The rules that predict an audit cause from configuration (RK013-RK019), and the cross-client
 * producer comparison, on real config files under {@code src/test/resources/lint/}.
 */
class LintOrderRulesTest {
  /** Runs lint with {@code --producer}/{@code --consumer} files ({@code p:} / {@code c:} prefix). */
  static Result lint(String... args) {
    List<String> a = new ArrayList<>(List.of("lint"));
    for (String s : args) {
      if (s.startsWith("p:")) {
        a.add("--producer");
        a.add(file(s.substring(2)).toString());
      } else if (s.startsWith("c:")) {
        a.add("--consumer");
        a.add(file(s.substring(2)).toString());
      } else {
        a.add(s);
      }
    }
    return CliRun.run(a.toArray(new String[0]));
  }

  static List<String> findings(Result r) {
    return r.out().lines().filter(l -> l.startsWith("ERROR ") || l.startsWith("WARNING ")
        || l.startsWith("silenced ")).toList();
  }

  @Test
  void rk013ProducersOfDifferentClientsThatDisagreeAreAnErrorWithAKeyAndTheFix() {
    Result r = lint("p:clients/java-default.properties", "p:clients/librdkafka-default.conf");
    assertThat(r.code()).as(r.out() + r.err()).isEqualTo(RoutingCli.EXIT_CHECK_FAILED);
    assertThat(findings(r)).singleElement().asString()
        .startsWith("ERROR RK013 producers-disagree (")
        .contains("librdkafka-default.conf)")
        .contains("partitioner=consistent_random (the default)")
        .contains("the built-in partitioner (no partitioner.class)")
        .containsPattern("key '[^']+' at \\d+ partitions: partition \\d+ \\(")
        .containsPattern("fix: in [^ ]+librdkafka-default.conf: partitioner=murmur2_random, or in"
            + " [^ ]+java-default.properties: partitioner.class="
            + "io.github.routingkit.kafka.RoutingPartitioner with routing.scheme=librdkafka-crc32");
    // the librdkafka setting that matches the Java client: no finding
    Result agree = lint("p:clients/java-default.properties",
        "p:clients/librdkafka-murmur2_random.conf", "--strict");
    assertThat(findings(agree)).as(agree.out()).isEmpty();
    assertThat(agree.code()).isZero();
  }

  @Test
  void rk013SameKeyedPlacementWrittenTwoWaysAgrees() {
    // librdkafka's fnv1a and Sarama's default: different arithmetic, every key on one partition
    Result r = lint("p:clients/librdkafka-fnv1a.conf", "p:clients/sarama-NewHashPartitioner"
        + ".properties", "p:clients/kafka-go-Hash.properties", "--strict");
    assertThat(findings(r)).as(r.out()).isEmpty();
    // KafkaJS 1.x DefaultPartitioner is 2.x LegacyPartitioner
    Result js = lint("p:clients/kafkajs-1.16.0-DefaultPartitioner.properties",
        "p:clients/kafkajs-2.2.4-LegacyPartitioner.properties", "--strict");
    assertThat(findings(js)).as(js.out()).isEmpty();
  }

  @Test
  void rk013PulsarJavaAndGoDefaultsDisagreeAndMurmur3MakesThemAgree() {
    Result r = lint("p:clients/pulsar-java-JavaStringHash.properties",
        "p:clients/pulsar-go-JavaStringHash.properties");
    assertThat(r.code()).isEqualTo(RoutingCli.EXIT_CHECK_FAILED);
    assertThat(findings(r)).singleElement().asString().startsWith("ERROR RK013")
        .contains("pulsar-go producer")
        .containsPattern("fix: in [^ ]+pulsar-go-JavaStringHash.properties: HashingScheme="
            + "Murmur3_32Hash and in [^ ]+pulsar-java-JavaStringHash.properties: hashingScheme="
            + "Murmur3_32Hash, or in ");
    Result agree = lint("p:clients/pulsar-java-Murmur3_32Hash.properties",
        "p:clients/pulsar-go-Murmur3_32Hash.properties",
        "p:clients/pulsar-cpp-Murmur3_32Hash.properties", "--strict");
    assertThat(findings(agree)).as(agree.out()).isEmpty();
  }

  /** With boostVersion, BoostHash is the matching scheme: a Java producer can agree, or not. */
  @Test
  void rk013PulsarCppBoostHashWithItsBoostVersion() {
    Result agree = lint("p:clients/java-pulsar-cpp-boost.properties",
        "p:clients/pulsar-cpp-boost-1.83.properties");
    assertThat(findings(agree)).noneMatch(l -> l.contains("RK013"));
    Result differ = lint("p:clients/pulsar-java-Murmur3_32Hash.properties",
        "p:clients/pulsar-cpp-boost-1.83.properties");
    assertThat(findings(differ)).filteredOn(l -> l.contains("RK013")).singleElement().asString()
        .startsWith("ERROR RK013");
    assertThat(LintClient.boostScheme("1.74.0")).isEqualTo("pulsar-cpp-boost-pre-1.81");
    assertThat(LintClient.boostScheme("1.81")).isEqualTo("pulsar-cpp-boost-1.81");
    assertThat(LintClient.boostScheme("1.90")).isEqualTo("pulsar-cpp-boost-from-1.82");
    assertThat(LintClient.boostScheme("2.0")).isNull();
  }

  @Test
  void rk013AProducerThatIgnoresKeysOrCannotBeToldIsFlagged() {
    Result spread = lint("p:clients/java-default.properties",
        "p:clients/kafka-go-RoundRobin.properties");
    assertThat(findings(spread)).singleElement().asString().startsWith("ERROR RK013")
        .contains("Balancer=RoundRobin ignores the key")
        .containsPattern("kafka-go-RoundRobin.properties: Balancer=Murmur2Balancer");
    Result unknown = lint("p:clients/pulsar-java-Murmur3_32Hash.properties",
        "p:clients/pulsar-cpp-default.properties");
    assertThat(findings(unknown)).singleElement().asString().startsWith("WARNING RK013")
        .contains("BoostHash depends on the Boost the client was built with");
    assertThat(unknown.code()).isZero();
  }

  @Test
  void rk014HotKeyScatterUnderKeyOrder() {
    Result r = lint("p:kafka/hot-key-producer.properties", "--require-key-order");
    assertThat(r.code()).isEqualTo(RoutingCli.EXIT_CHECK_FAILED);
    assertThat(findings(r)).singleElement().asString()
        .startsWith("ERROR RK014 hot-key-scatter (")
        .contains("hot-key-producer.properties:7)")
        .contains("routing.hotkey.choice=least-loaded (the default)")
        .contains("over 4 candidate partitions by local load");
    Result valueHash = lint("p:kafka/hot-key-value-hash-producer.properties",
        "--require-key-order");
    assertThat(findings(valueHash)).singleElement().asString().startsWith("WARNING RK014")
        .contains("keeps each (key, value) on one partition")
        .contains("records of the key with different values go to different partitions");
    assertThat(valueHash.code()).isZero();
    assertThat(findings(lint("p:kafka/hot-key-producer.properties"))).isEmpty();
  }

  @Test
  void rk015RetriesWithSeveralRequestsInFlightAndNoIdempotence() {
    Result r = lint("p:kafka/no-idempotence-producer.properties", "--require-key-order");
    assertThat(r.code()).isEqualTo(RoutingCli.EXIT_CHECK_FAILED);
    assertThat(findings(r)).singleElement().asString()
        .startsWith("ERROR RK015 retry-reorder (")
        .contains("no-idempotence-producer.properties:5)")
        .contains("enable.idempotence=false; with retries=10 and"
            + " max.in.flight.requests.per.connection=5");
    Result acks = lint("p:kafka/acks-one-producer.properties", "--require-key-order");
    assertThat(findings(acks)).singleElement().asString().startsWith("ERROR RK015")
        .contains("kafka-clients turns its default (true) off because of acks=1");
    Result refused = lint("p:kafka/idempotence-conflict-producer.properties");
    assertThat(findings(refused)).singleElement().asString().startsWith("ERROR RK015")
        .contains("refuses the producer with a ConfigException");
    Result rdk = lint("p:clients/librdkafka-default.conf", "--require-key-order");
    assertThat(findings(rdk)).singleElement().asString().startsWith("ERROR RK015")
        .contains("enable.idempotence=false (the default)")
        .contains("message.send.max.retries=2147483647 (the default)");
    for (String clean : List.of("kafka/single-in-flight-producer.properties",
        "kafka/clean-producer.properties", "clients/java-default.properties",
        "clients/librdkafka-murmur2_random.conf", "clients/sarama-NewHashPartitioner.properties",
        "clients/kafkajs-2.2.4-DefaultPartitioner.properties")) {
      Result c = lint("p:" + clean, "--require-key-order", "--strict");
      assertThat(findings(c)).as(clean + ": " + c.out()).isEmpty();
    }
  }

  @Test
  void rk016KeylessSpreadWhereKeylessOrderIsRequired() {
    Result r = lint("p:pulsar/batching-round-robin-producer.properties",
        "--require-keyless-order");
    assertThat(r.code()).isEqualTo(RoutingCli.EXIT_CHECK_FAILED);
    assertThat(findings(r)).singleElement().asString().startsWith("ERROR RK016 keyless-spread (")
        .contains("messageRoutingMode=RoundRobinPartition with batching (batchingEnabled=true)")
        .contains("fix: messageRoutingMode=SinglePartition");
    assertThat(findings(lint("p:pulsar/single-partition-keyless-producer.properties",
        "--require-keyless-order", "--strict"))).isEmpty();
    Result kafka = lint("p:kafka/readme-producer.properties", "--require-keyless-order");
    assertThat(findings(kafka)).singleElement().asString().startsWith("ERROR RK016")
        .contains("routing.keyless=kafka-sticky");
    assertThat(findings(lint("p:pulsar/batching-round-robin-producer.properties"))).isEmpty();
  }

  @Test
  void rk017PartitionGrowthOrACanaryMovesKeysWithoutSwitchMarkers() {
    Result grow = lint("p:clients/java-default.properties", "--require-key-order",
        "--partitions", "12", "--grow-to", "16");
    assertThat(grow.code()).isEqualTo(RoutingCli.EXIT_CHECK_FAILED);
    assertThat(findings(grow)).singleElement().asString()
        .startsWith("ERROR RK017 key-moving-change (")
        .containsPattern("growing from 12 to 16 partitions, .* moves 7\\d\\.\\d % of the sampled"
            + " keys");
    // markers declared, or the old keys pinned to a 12-partition generation: nothing moves
    assertThat(findings(lint("p:clients/java-default.properties", "--require-key-order",
        "--partitions", "12", "--grow-to", "16", "--switch-markers"))).isEmpty();
    assertThat(findings(lint("p:kafka/pinned-generation-producer.properties",
        "--require-key-order", "--partitions", "12", "--grow-to", "16", "--strict")))
        .isEmpty();
    Result canary = lint("p:kafka/canary-producer.properties", "--require-key-order");
    assertThat(findings(canary)).singleElement().asString().startsWith("ERROR RK017")
        .contains("canary-producer.properties:6)").contains("routing.canary.share=5%");
    Result noGrowth = lint("p:clients/java-default.properties", "--grow-to", "16");
    assertThat(noGrowth.code()).isEqualTo(RoutingCli.EXIT_USAGE);
  }

  @Test
  void rk018SettingsACustomPartitionerSilentlyDisables() {
    Result r = lint("p:kafka/adaptive-custom-producer.properties");
    assertThat(findings(r)).hasSize(3).allMatch(l -> l.startsWith("WARNING RK018"));
    assertThat(r.out()).contains("adaptive-custom-producer.properties:6)"
        + ": partitioner.adaptive.partitioning.enable=true with partitioner.class=")
        .contains("partitioner.availability.timeout.ms=500")
        .contains("partitioner.ignore.keys=true");
    // partitioner.ignore.keys with a custom partitioner is not RK006: the key still counts
    assertThat(lint("p:kafka/adaptive-custom-producer.properties", "--require-key-order").out())
        .doesNotContain("RK006");
  }

  @Test
  void rk019AutoCommitInAGroupThatRebalancesAtEveryRestart() {
    Result r = lint("c:kafka/auto-commit-consumer.properties", "--require-key-order");
    assertThat(r.code()).isZero();
    assertThat(findings(r)).singleElement().asString()
        .startsWith("WARNING RK019 auto-commit-redelivery (")
        .contains("enable.auto.commit=true (the default)")
        .contains("group.instance.id is not set");
    assertThat(findings(lint("c:kafka/clean-consumer.properties", "--require-key-order",
        "--strict"))).isEmpty();
  }

  @Test
  void rk004InTheWordsOfEachPulsarClient() {
    Result cpp = lint("c:pulsar/cpp-shared-consumer.properties", "--require-key-order");
    assertThat(findings(cpp)).singleElement().asString().startsWith("ERROR RK004")
        .contains("cpp-shared-consumer.properties:3): consumerType=ConsumerShared");
    assertThat(findings(lint("c:pulsar/go-key-shared-consumer.properties",
        "--require-key-order", "--strict"))).isEmpty();
    // keyless messages whose order matters are no better off on a Shared subscription
    assertThat(findings(lint("c:pulsar/shared-consumer.properties", "--require-keyless-order")))
        .singleElement().asString().startsWith("ERROR RK004").contains("keyless order");
  }

  @Test
  void rk004AKafkaShareGroupUnderKeyOrder() {
    Result r = lint("c:kafka/share-consumer.properties", "--require-key-order");
    assertThat(r.code()).isEqualTo(RoutingCli.EXIT_CHECK_FAILED);
    assertThat(findings(r)).singleElement().asString()
        .startsWith("ERROR RK004 key-order-shared-subscription (")
        .contains("share-consumer.properties:6)").contains("a share group");
  }

  @Test
  void rk021DefaultBatchingForAKeySharedSubscription() {
    Result java = lint("p:pulsar/default-batching-producer.properties",
        "c:pulsar/clean-consumer.properties", "--require-key-order");
    assertThat(java.code()).as(java.out() + java.err()).isEqualTo(RoutingCli.EXIT_CHECK_FAILED);
    assertThat(findings(java)).singleElement().asString()
        .startsWith("ERROR RK021 key-shared-default-batching (")
        .contains("default-batching-producer.properties:5): batchingEnabled=true with"
            + " batcherBuilder=the default batcher (not set), and ")
        .contains("clean-consumer.properties reads through Key_Shared")
        .contains("REDELIVERY").contains("fix: ProducerBuilder.batcherBuilder(BatcherBuilder.KEY_BASED)");
    // without a declared key-order need it is a warning
    Result warn = lint("p:pulsar/default-batching-producer.properties",
        "c:pulsar/clean-consumer.properties");
    assertThat(warn.code()).isZero();
    assertThat(findings(warn)).singleElement().asString().startsWith("WARNING RK021");
    Result go = lint("p:pulsar/go-default-batching-producer.properties",
        "c:pulsar/go-key-shared-consumer.properties", "--require-key-order");
    assertThat(findings(go)).singleElement().asString().startsWith("ERROR RK021")
        .contains("DisableBatching=false (the default)")
        .contains("fix: BatcherBuilderType=KeyBasedBatchBuilder");
    Result cpp = lint("p:pulsar/cpp-default-batching-producer.properties",
        "c:pulsar/clean-consumer.properties", "--require-key-order");
    assertThat(findings(cpp)).anyMatch(l -> l.startsWith("ERROR RK021")
        && l.contains("cpp-default-batching-producer.properties:5): batchingEnabled=true with"
            + " batchingType=DefaultBatching"));
    // key-based batching, no batching, or no Key_Shared consumer: nothing to say
    assertThat(findings(lint("p:pulsar/clean-producer.properties",
        "c:pulsar/clean-consumer.properties", "--require-key-order", "--strict"))).isEmpty();
    assertThat(findings(lint("p:pulsar/go-key-based-batching-producer.properties",
        "c:pulsar/go-key-shared-consumer.properties", "--require-key-order", "--strict")))
        .isEmpty();
    assertThat(lint("p:pulsar/default-batching-producer.properties",
        "--require-key-order").out()).doesNotContain("RK021");
    assertThat(lint("p:pulsar/default-batching-producer.properties",
        "c:pulsar/shared-consumer.properties", "--require-key-order").out())
        .doesNotContain("RK021");
  }
}
