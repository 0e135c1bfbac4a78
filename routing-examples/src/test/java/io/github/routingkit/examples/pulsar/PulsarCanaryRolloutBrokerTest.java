package io.github.routingkit.examples.pulsar;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.SwitchBarrier;
import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.examples.PerPartitionCounters;
import io.github.routingkit.pulsar.SwitchMarkers;
import io.github.routingkit.router.canary.CanaryRouter;
import io.github.routingkit.testbrokers.EmbeddedPulsar;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.pulsar.client.api.Message;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A canary step on a real in-process Pulsar standalone: {@code RoutingMessageRouter} with
 * {@code routing.canary.share=5%} (old spec Murmur3 with its native placement, new spec jump), a
 * switch marker to every partition, then 25 %. A consumer with per-partition per-key counters that
 * hands state over at each marker reads the partitions last first and stays exact and in order.
 */
@Tag("broker")
class PulsarCanaryRolloutBrokerTest {
  private static final int PARTITIONS = 6;
  private static final int KEYS = 300;
  private static final int PER_STEP = 4;
  private static EmbeddedPulsar pulsar;

  @BeforeAll
  static void start() {
    pulsar = EmbeddedPulsar.start();
  }

  @AfterAll
  static void stop() {
    if (pulsar != null) {
      pulsar.close();
    }
  }

  private static RoutingSpec spec(String share) {
    return RoutingSpec.parse(Map.of(RoutingSpec.SCHEME, "pulsar-murmur3",
        RoutingSpec.CANARY_SHARE, share, "routing.canary.next.placement", "jump"));
  }

  @Test
  void perKeyCountersStayCorrectAcrossACanaryStep() throws Exception {
    String topic = "persistent://public/default/canary-orders";
    pulsar.createPartitionedTopic(topic, PARTITIONS);
    List<Message<String>> worstOrder = PulsarRouterStep.produceAcrossStepAndReadWorstOrder(
        pulsar, topic, PARTITIONS, spec("5%"), spec("25%"), KEYS, PER_STEP, "canary-25", 2);
    Map<String, Set<Integer>> partitionsOf = new HashMap<>();
    for (Message<String> m : worstOrder) {
      if (SwitchMarkers.marker(m) == null) {
        partitionsOf.computeIfAbsent(m.getKey(), k -> new TreeSet<>())
            .add(SwitchMarkers.partitionOf(m.getTopicName()));
      }
    }
    int moved = 0;
    for (int k = 0; k < KEYS; k++) {
      double point = CanaryRouter.point("key-" + k);
      Set<Integer> ps = partitionsOf.get("key-" + k);
      if (point < 0.05 || point >= 0.25) {
        assertThat(ps).hasSize(1);
      } else {
        assertThat(ps).hasSizeLessThanOrEqualTo(2);
        moved += ps.size() - 1;
      }
    }
    assertThat(moved).isBetween(30, 75); // 300 x 0.2 x 5/6 = 50

    PerPartitionCounters naive = new PerPartitionCounters(PARTITIONS);
    for (Message<String> m : worstOrder) {
      if (SwitchMarkers.marker(m) == null) {
        naive.count(m.getKey(), SwitchMarkers.partitionOf(m.getTopicName()),
            Integer.parseInt(m.getValue()));
      }
    }
    assertThat(naive.errors).as("the test must be able to fail").isPositive();

    KeyRouter before = spec("5%").keyRouter();
    KeyRouter after = spec("25%").keyRouter();
    PerPartitionCounters counters = new PerPartitionCounters(PARTITIONS);
    Set<Integer> marked = new TreeSet<>();
    @SuppressWarnings("unchecked")
    SwitchBarrier<Message<String>>[] barrier = new SwitchBarrier[1];
    barrier[0] = new SwitchBarrier<>(before, after, PARTITIONS, (p, generation, step) -> {
      marked.add(p);
      counters.handOff(p, barrier[0]);
    });
    Set<String> delivered = new HashSet<>();
    // forEach hands each released message to business code before the next one is offered, so
    // the records before a marker are counted before its hand-off
    int handed = SwitchMarkers.forEach(worstOrder, barrier[0], m -> {
      assertThat(SwitchMarkers.marker(m)).isNull();
      assertThat(delivered.add(m.getKey() + "#" + m.getValue())).as("consumed once").isTrue();
      counters.count(m.getKey(), SwitchMarkers.partitionOf(m.getTopicName()),
          Integer.parseInt(m.getValue()));
    });
    assertThat(handed).isEqualTo(2 * PER_STEP * KEYS);
    assertThat(counters.errors).as("per-key order and counts").isZero();
    assertThat(counters.handOffs).isEqualTo(moved);
    assertThat(delivered).hasSize(2 * PER_STEP * KEYS);
    assertThat(barrier[0].complete()).isTrue();
    assertThat(marked).hasSize(PARTITIONS);
    for (int k = 0; k < KEYS; k++) {
      assertThat(counters.total("key-" + k)).isEqualTo(2 * PER_STEP);
    }
  }
}
