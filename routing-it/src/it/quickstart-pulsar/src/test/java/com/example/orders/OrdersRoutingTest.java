package com.example.orders;

import static io.github.routingkit.testkit.RoutingAssertions.assertThat;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.Routers;
import io.github.routingkit.pulsar.KeySharedPredictor;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/** The routing of the deployed producer and the Key_Shared consumers, checked in CI. */
class OrdersRoutingTest {

  static List<String> orderIds() {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 100_000; i++) {
      ids.add("order-" + (7_000_000 + i));
    }
    return ids;
  }

  @Test
  void theProducerAgreesWithEveryPulsarClientOnMurmur3AndSpreadsOurKeys() {
    KeyRouter router = OrdersProducer.SPEC.keyRouter();
    assertThat(router)
        .isDeterministic()
        .staysInRange(64)
        .isThreadSafe()
        .survivesSerialization()
        .agreesWith(Routers.pulsarMurmur3())
        .isBalancedOn(orderIds(), 12, 1.05);
  }

  @Test
  void everyKeySharedConsumerGetsAShareOfOurKeys() {
    KeySharedPredictor group = KeySharedPredictor.consistentHashing(
        List.of("worker-1", "worker-2", "worker-3"));
    long[] perConsumer = new long[3];
    for (String key : orderIds()) {
      perConsumer[group.ownerIndex(key)]++;
    }
    for (long n : perConsumer) {
      Assertions.assertTrue(n > 20_000, "each of 3 consumers gets > 20 % of 100,000 keys: " + n);
    }
  }
}
