package com.example.orders;

import io.github.routingkit.Routers;

import static io.github.routingkit.testkit.RoutingAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.kafka.RoutingAssignor;
import io.github.routingkit.testkit.AssignmentAssertions;
import io.github.routingkit.testkit.DistributionReport;
import io.github.routingkit.testkit.Keys;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * How a user checks a routing setup in CI with the test kit ({@code routing-testkit}, test scope;
 * for the assignor check also {@code routing-kafka} and {@code kafka-clients}, with JUnit Jupiter
 * and AssertJ) and a few lines per guarantee. Written against the public API only, from a package
 * outside RoutingKit.
 */
class UserStyleRoutingTest {
  /** The producer's routing configuration, exactly as it is deployed. */
  private static final KeyRouter ROUTER =
      RoutingSpec.parse("routing.scheme=kafka-murmur2, routing.keyless=round-robin").keyRouter();

  /** Our order ids: a sample of what the topic carries. */
  private static List<String> orderIds() {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 100_000; i++) {
      ids.add("order-" + (7_000_000 + i));
    }
    return ids;
  }

  @Test
  void routerIsSafeToDeploy() {
    assertThat(ROUTER)
        .isDeterministic()
        .staysInRange(64)
        .isThreadSafe()
        .survivesSerialization()
        // consumers and other producers use the Kafka default: we must agree with it
        .agreesWith(Routers.kafkaDefault());
  }

  @Test
  void ourKeysSpreadEvenlyOverTwentyFourPartitions() {
    assertThat(ROUTER).isBalancedOn(orderIds(), 24, 1.05);
  }

  @Test
  void theDistributionReportHasNoSkewVerdict() {
    DistributionReport report = DistributionReport.of(ROUTER, 24, orderIds());
    System.out.println(report.toText()); // lands in the CI log
    assertThat(report.verdict()).isEqualTo(io.github.routingkit.stats.SkewVerdict.WITHIN_PERFECT_HASH_BOUND);
  }

  @Test
  void growingFromTwelveToSixteenPartitionsMovesWhatModuloMoves() {
    // modulo placement moves 75 % of keys from 12 to 16; fail if a change makes it worse
    assertThat(ROUTER).movesAtMost(0.76, 12, 16, orderIds());
  }

  @Test
  void ourConsumerAssignorIsBalancedAndSticky() {
    AssignmentAssertions.assertThat(new RoutingAssignor())
        .withTopic("orders", 24)
        .withMembers("orders-consumer-1", "orders-consumer-2", "orders-consumer-3")
        .isBalanced()
        .isDeterministicUnderMemberOrder()
        .isStickyAcross(List.of(
            List.of("orders-consumer-1", "orders-consumer-2", "orders-consumer-3"),
            List.of("orders-consumer-1", "orders-consumer-3"),
            List.of("orders-consumer-1", "orders-consumer-3", "orders-consumer-4")));
  }

  @Test
  void theVipTenantsPartitionsCarryNoOtherTenantsKeys() {
    // tenant = key prefix before ':'; "vip" owns partitions 0-3 alone, everyone else shares 4-23
    KeyRouter tenants = RoutingSpec.parse(
        "routing.segment.ranges=vip:0-3, routing.segment.exclusive=vip").keyRouter();
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      keys.add((i % 10 == 0 ? "vip" : "tenant-" + (i % 97)) + ":order-" + i);
    }
    assertThat(tenants).isolatesTenants(keys, 24,
        key -> key.substring(0, key.indexOf(':')),
        Map.of("vip", Set.of(0, 1, 2, 3)));
  }

  /** A fresh seed per run, printed on failure; {@code -Droutingkit.seed=<seed>} replays a run. */
  private static final long SEED = Long.getLong("routingkit.seed", System.nanoTime());

  /**
   * The test kit's edge keys at 1 and 10,000 partitions, then 500 seeded random keys that break
   * routers at random partition counts: plain Java streams, fed to JUnit's {@code @MethodSource}.
   */
  static Stream<Arguments> breakers() {
    SplittableRandom random = new SplittableRandom(SEED);
    Stream<Arguments> edges = Keys.edgeCases().stream()
        .flatMap(k -> Stream.of(Arguments.of(k, 1), Arguments.of(k, 10_000)));
    Stream<Arguments> randomKeys = Keys.routerBreakers().stream(SEED).limit(500)
        .map(k -> Arguments.of(k, 1 + random.nextInt(10_000)));
    return Stream.concat(edges, randomKeys);
  }

  @ParameterizedTest(name = "[{index}] key={0}, partitions={1}")
  @MethodSource("breakers")
  void keysThatBreakRoutersStayInRange(String key, int partitions) {
    int p = ROUTER.partition(key, partitions);
    assertThat(p).as("seed %d (replay: -Droutingkit.seed=%d)", SEED, SEED)
        .isBetween(0, partitions - 1);
    assertThat(ROUTER.partition(key, partitions)).isEqualTo(p);
  }
}
