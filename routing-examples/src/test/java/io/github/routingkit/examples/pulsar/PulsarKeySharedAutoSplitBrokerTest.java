package io.github.routingkit.examples.pulsar;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.testbrokers.EmbeddedPulsar;
import io.github.routingkit.pulsar.KeySharedPredictor;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.pulsar.client.api.KeySharedPolicy;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A real Pulsar 4.2.4 standalone with {@code subscriptionKeySharedUseConsistentHashing=false}: the
 * auto-split selector, whose ranges depend on the order consumers join. Two join orders, each
 * checked key by key against the prediction.
 */
@Tag("broker")
class PulsarKeySharedAutoSplitBrokerTest {
  static EmbeddedPulsar pulsar;

  @BeforeAll
  static void start() {
    pulsar = EmbeddedPulsar.start(Map.of("subscriptionKeySharedUseConsistentHashing", false));
  }

  @AfterAll
  static void stop() {
    if (pulsar != null) {
      pulsar.close();
    }
  }

  @Test
  void autoSplitDeliversEveryKeyToThePredictedConsumerInBothJoinOrders() throws Exception {
    List<String> order = PulsarKeySharedBrokerTest.CONSUMERS;
    List<String> reversed = List.of(order.get(2), order.get(1), order.get(0));
    int topic = 0;
    for (List<String> joinOrder : List.of(order, reversed)) {
      Map<String, KeySharedPolicy> policies = new LinkedHashMap<>();
      joinOrder.forEach(c -> policies.put(c, KeySharedPolicy.autoSplitHashRange()));
      KeySharedPredictor predictor = KeySharedPredictor.autoSplit(joinOrder);
      Map<String, Set<String>> received = KeySharedRun.deliver(pulsar.brokerServiceUrl(),
          "persistent://public/default/key-shared-auto-split-" + topic++, policies,
          PulsarKeySharedBrokerTest.KEYS);
      PulsarKeySharedBrokerTest.assertMatchesPrediction(
          "auto-split, join order " + joinOrder, predictor, received);
      // the first to join keeps the upper half
      assertThat(predictor.hashRanges(0).get(0).getStart()).isEqualTo(32769);
    }
  }
}
