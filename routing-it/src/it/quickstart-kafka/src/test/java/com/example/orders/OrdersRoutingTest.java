package com.example.orders;

import static io.github.routingkit.testkit.RoutingAssertions.assertThat;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.Routers;
import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.kafka.RoutingAssignor;
import io.github.routingkit.testkit.AssignmentAssertions;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The routing of the deployed configuration, checked in CI before it reaches a broker. */
class OrdersRoutingTest {

  static Properties load(String file) throws IOException {
    Properties p = new Properties();
    try (InputStream in = OrdersRoutingTest.class.getResourceAsStream("/" + file)) {
      p.load(in);
    }
    return p;
  }

  static List<String> orderIds() {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 100_000; i++) {
      ids.add("order-" + (7_000_000 + i));
    }
    return ids;
  }

  @Test
  void theProducerRoutesAsTheBuiltInDoesAndSpreadsOurKeys() throws IOException {
    KeyRouter router = RoutingSpec.parse(load("producer.properties")).keyRouter();
    assertThat(router)
        .isDeterministic()
        .staysInRange(64)
        .isThreadSafe()
        .agreesWith(Routers.kafkaDefault())
        .isBalancedOn(orderIds(), 24, 1.05);
  }

  @Test
  void theConsumerGroupIsBalancedAndSticky() throws IOException {
    RoutingAssignor assignor = new RoutingAssignor();
    Map<String, Object> consumerConfig = new HashMap<>();
    load("consumer.properties").forEach((k, v) -> consumerConfig.put((String) k, v));
    assignor.configure(consumerConfig); // as the consumer does when it starts
    AssignmentAssertions.assertThat(assignor)
        .withTopic("orders", 24)
        .withMembers("worker-1", "worker-2", "worker-3")
        .isBalanced()
        .isDeterministicUnderMemberOrder()
        .isStickyAcross(List.of(
            List.of("worker-1", "worker-2", "worker-3"),
            List.of("worker-1", "worker-3"),
            List.of("worker-1", "worker-3", "worker-4")));
  }
}
