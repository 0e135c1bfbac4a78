package io.github.routingkit.examples.pulsar;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.SwitchBarrier;
import io.github.routingkit.testbrokers.EmbeddedPulsar;
import io.github.routingkit.pulsar.SwitchMarkers;
import java.util.HashMap;
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
 * Switch markers on a real in-process Pulsar standalone: producers switch from the
 * Murmur3 router with its native placement to jump placement, a marker goes to every partition in
 * between, and a consumer with per-key counters reading the partitions last first stays in order.
 */
@Tag("broker")
class PulsarSwitchMarkerBrokerTest {
  private static final int PARTITIONS = 6;
  private static final int KEYS = 120;
  private static final int PER_STEP = 5;
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

  private static RoutingSpec spec(String placement) {
    return RoutingSpec.parse(Map.of(RoutingSpec.SCHEME, "pulsar-murmur3", RoutingSpec.PLACEMENT,
        placement));
  }

  @Test
  void perKeyCountersStayCorrectAcrossAStep() throws Exception {
    String topic = "persistent://public/default/switch-orders";
    pulsar.createPartitionedTopic(topic, PARTITIONS);
    List<Message<String>> worstOrder = PulsarRouterStep.produceAcrossStepAndReadWorstOrder(
        pulsar, topic, PARTITIONS, spec("native"), spec("jump"), KEYS, PER_STEP, "g2", 1);
    KeyRouter oldRouter = spec("native").keyRouter();
    KeyRouter newRouter = spec("jump").keyRouter();
    Map<String, Integer> naive = new HashMap<>();
    int violations = 0;
    for (Message<String> m : worstOrder) {
      if (SwitchMarkers.marker(m) == null) {
        int v = Integer.parseInt(m.getValue());
        if (v != naive.getOrDefault(m.getKey(), 0)) {
          violations++;
        }
        naive.merge(m.getKey(), 1, Integer::sum);
      }
    }
    assertThat(violations).as("the test must be able to fail").isPositive();
    Set<Integer> marked = new TreeSet<>();
    SwitchBarrier<Message<String>> barrier = new SwitchBarrier<>(oldRouter, newRouter, PARTITIONS,
        (p, generation, step) -> marked.add(p));
    Map<String, Integer> counters = new HashMap<>();
    for (Message<String> m : SwitchMarkers.filter(worstOrder, barrier)) {
      assertThat(SwitchMarkers.marker(m)).isNull();
      int want = counters.getOrDefault(m.getKey(), 0);
      assertThat(Integer.parseInt(m.getValue())).as("key %s in order", m.getKey()).isEqualTo(want);
      counters.put(m.getKey(), want + 1);
    }
    assertThat(barrier.complete()).isTrue();
    assertThat(marked).hasSize(PARTITIONS);
    assertThat(counters).hasSize(KEYS);
    assertThat(counters.values()).allMatch(v -> v == 2 * PER_STEP);
  }
}
