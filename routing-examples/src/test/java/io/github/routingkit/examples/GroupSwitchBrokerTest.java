package io.github.routingkit.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.switching.SwitchPlan;
import io.github.routingkit.testbrokers.EmbeddedKafka;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.admin.NewPartitions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A router change across a real producer fleet and consumer group, on the in-process Kafka
 * broker: four producer instances follow a canary schedule 5 % &rarr; 25 % &rarr; 100 % (old spec
 * murmur2, new spec jump placement) and restart at different moments of the steps; a marker
 * sender sends each step's markers at its settle instant; three to five group members run the
 * usual poll loop with a {@code GroupSwitchBarrier}, commit after every poll, are killed without
 * committing, restarted and added, one of them in the middle of a step. Every record is counted:
 * produced = handed to business code, none lost, per-key order group-wide, duplicates only in a
 * later ownership of their partition (replays after a kill or rebalance). Once with the classic
 * protocol and {@code RoutingAssignor}, once with KIP-848 and {@code RoutingGroupAssignor}, and a
 * growth 12 &rarr; 16 partitions under jump placement through the same barrier.
 *
 * <p>The same runs with {@code -Droutingkit.switch.barrier=single-consumer} (the deprecated
 * {@code SwitchBarrier} per member) or {@code none} fail: records are lost or out of order.
 */
@Tag("broker")
class GroupSwitchBrokerTest {
  private static final int KEYS = 400;
  private static final long STEP_MILLIS = 10_000;
  private static EmbeddedKafka kafka;

  @BeforeAll
  static void start() {
    kafka = TrackedConsumerGroup.startBroker();
  }

  @AfterAll
  static void stop() {
    if (kafka != null) {
      kafka.close();
    }
  }

  private static Map<String, String> canary(long... instants) {
    Map<String, String> r = new HashMap<>();
    r.put("routing.canary.next.placement", "jump");
    String[] shares = {"5%", "25%", "100%"};
    StringBuilder schedule = new StringBuilder();
    for (int i = 0; i < instants.length; i++) {
      schedule.append(i == 0 ? "" : ",").append(instants.length == 1 ? "100%" : shares[i])
          .append('@').append(Instant.ofEpochMilli(instants[i]));
    }
    r.put(RoutingSpec.CANARY_SCHEDULE, schedule.toString());
    r.put(RoutingSpec.CANARY_MAX_CLOCK_SKEW, "250ms");
    r.put(RoutingSpec.CANARY_DELIVERY_TIMEOUT, "20s");
    return r;
  }

  @Test
  void classicGroupWithRoutingAssignorThroughThreeCanarySteps() throws Exception {
    canarySteps("switch-classic", TrackedConsumerGroup.classicWithRoutingAssignor());
  }

  @Test
  void kip848GroupWithRoutingGroupAssignorThroughThreeCanarySteps() throws Exception {
    canarySteps("switch-kip848", TrackedConsumerGroup.consumerProtocolWithRoutingGroupAssignor());
  }

  private void canarySteps(String topic, Map<String, Object> protocol) throws Exception {
    kafka.createTopic(topic, 12);
    long t0 = System.currentTimeMillis() + 8_000;
    long t1 = t0 + STEP_MILLIS;
    long t2 = t1 + STEP_MILLIS;
    try (KafkaSwitchRun run = new KafkaSwitchRun(kafka, topic, protocol, canary(t0, t1, t2), 12,
        KafkaSwitchRun.barrierFromSystemProperty())) {
      run.startMember("a");
      run.startMember("b");
      run.startMember("c");
      SwitchRunBase.until(t0 - 5_000);
      run.startProducers(4, KEYS, 200);
      run.startMarkerSender();
      // step 1 (5 %): a crash and a producer restart before the step's markers
      SwitchRunBase.until(t0 + 1_000);
      run.kill("a");
      SwitchRunBase.until(t0 + 2_500);
      run.restartProducer(3, 1_000);
      SwitchRunBase.until(t0 + 5_000);
      run.startMember("a");
      // step 2 (25 %): a member lags, producers restart across the step, a member joins
      // mid-step, one crashes
      SwitchRunBase.until(t1 - 2_000);
      run.slow("c", 3);
      SwitchRunBase.until(t1 - 1_000);
      run.restartProducer(0, 1_500);
      SwitchRunBase.until(t1 + 1_500);
      run.startMember("d");
      run.restartProducer(1, 500);
      SwitchRunBase.until(t1 + 4_000);
      run.slow("c", 0);
      SwitchRunBase.until(t1 + 5_000);
      run.kill("b");
      SwitchRunBase.until(t1 + 6_000);
      run.restartProducer(2, 800);
      // step 3 (100 %): restarts, a crash, a fifth member
      SwitchRunBase.until(t2 + 1_000);
      run.startMember("b");
      SwitchRunBase.until(t2 + 2_000);
      run.kill("c");
      run.startMember("e");
      SwitchRunBase.until(t2 + 8_000);
      run.stopProducers();
      finish(run, "canary 5 -> 25 -> 100 %, " + topic);
    }
  }

  @Test
  void growthFrom12To16PartitionsUnderJumpThroughTheSameBarrier() throws Exception {
    String topic = "switch-growth";
    kafka.createTopic(topic, 12);
    long t0 = System.currentTimeMillis() + 12_000;
    Map<String, String> routing = canary(t0);
    routing.remove("routing.canary.next.placement");
    routing.put(RoutingSpec.VERSION_GENERATIONS, "g12:kafka-murmur2:jump:12");
    routing.put(RoutingSpec.VERSION_DEFAULT, "g12");
    routing.put("routing.canary.next.version.generations", "g16:kafka-murmur2:jump:16");
    routing.put("routing.canary.next.version.default", "g16");
    try (KafkaSwitchRun run = new KafkaSwitchRun(kafka, topic,
        TrackedConsumerGroup.classicWithRoutingAssignor(), routing, 16,
        KafkaSwitchRun.barrierFromSystemProperty())) {
      assertMovesOnlyToNewPartitions(run.plan);
      run.startMember("a");
      run.startMember("b");
      run.startMember("c");
      SwitchRunBase.until(t0 - 9_000);
      run.startProducers(3, KEYS, 200);
      run.startMarkerSender();
      SwitchRunBase.until(t0 - 6_000);
      // grown before the step: producers keep routing onto 12 until the step's instant
      kafka.admin().createPartitions(Map.of(topic, NewPartitions.increaseTo(16))).all().get();
      SwitchRunBase.until(t0 - 2_000);
      run.slow("a", 3);
      SwitchRunBase.until(t0 + 1_000);
      run.kill("b");
      run.restartProducer(0, 1_000);
      SwitchRunBase.until(t0 + 2_500);
      run.startMember("d");
      SwitchRunBase.until(t0 + 5_000);
      run.slow("a", 0);
      run.restartProducer(1, 500);
      run.startMember("b");
      // on past the step's markers (its settle instant, t0 + 20.5 s)
      SwitchRunBase.until(t0 + 24_000);
      run.stopProducers();
      finish(run, "growth 12 -> 16 under jump");
    }
  }

  /** Under jump, growing 12 to 16 moves a quarter of the keys, each to one of the new four. */
  private static void assertMovesOnlyToNewPartitions(SwitchPlan plan) {
    int moved = 0;
    for (int k = 0; k < KEYS; k++) {
      SwitchPlan.Move m = plan.moveOf(("key-" + k).getBytes(StandardCharsets.UTF_8));
      if (m != null) {
        moved++;
        assertThat(m.from()).isLessThan(12);
        assertThat(m.to()).isGreaterThanOrEqualTo(12);
      }
    }
    assertThat(moved).isBetween(KEYS / 4 - 40, KEYS / 4 + 40);
  }

  private static void finish(KafkaSwitchRun run, String what) throws InterruptedException {
    run.check.awaitDelivered(60_000);
    SwitchRunCheck.Result r = run.check.result();
    String line = "SWITCH-RUN kafka " + what + " [" + run.barrier + "]: " + r + "; members started "
        + run.memberStarts + ", killed " + run.kills + ", producer restarts " + run.producerRestarts
        + ", most records waiting in one member " + run.maxWaiting + ", rewinds " + run.rewinds
        + ", markers ignored " + run.ignoredMarkers;
    System.out.println(line);
    assertThat(r.clean()).as(line).isTrue();
    assertThat(r.keys()).isEqualTo(KEYS);
    assertThat(r.acked()).as("records produced").isGreaterThan(20_000);
  }
}
