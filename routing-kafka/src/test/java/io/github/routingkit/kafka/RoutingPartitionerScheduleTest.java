package io.github.routingkit.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.router.canary.CanaryRouter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/** {@code RoutingPartitioner} follows a canary schedule by its clock and checks the delivery bound. */
class RoutingPartitionerScheduleTest {
  private static final Node NODE = new Node(0, "localhost", 9092);

  private static Cluster cluster(int n) {
    List<PartitionInfo> ps = new ArrayList<>();
    for (int p = 0; p < n; p++) {
      ps.add(new PartitionInfo("orders", p, NODE, new Node[] {NODE}, new Node[] {NODE}));
    }
    return new Cluster("c", List.of(NODE), ps, Set.of(), Set.of());
  }

  private static Map<String, Object> config(String schedule, Object deliveryTimeout) {
    Map<String, Object> c = new HashMap<>();
    c.put("routing.canary.next.placement", "jump");
    c.put(RoutingSpec.CANARY_SCHEDULE, schedule);
    c.put(RoutingSpec.CANARY_DELIVERY_TIMEOUT, "30s");
    if (deliveryTimeout != null) {
      c.put("delivery.timeout.ms", deliveryTimeout);
    }
    return c;
  }

  @Test
  void keyedRecordsGoAtTheShareOfTheStepInForce() {
    long now = System.currentTimeMillis();
    String schedule = "5%@" + Instant.ofEpochMilli(now - 60_000) + ",25%@"
        + Instant.ofEpochMilli(now - 1_000) + ",100%@" + Instant.ofEpochMilli(now + 3_600_000);
    RoutingPartitioner partitioner = new RoutingPartitioner();
    partitioner.configure(config(schedule, 30_000));
    RoutingSpec spec = partitioner.spec();
    KeyRouter at25 = CanaryRouter.of(spec.withoutCanary().keyRouter(), spec.canaryNext().keyRouter(), 0.25);
    KeyRouter at100 = spec.canaryNext().keyRouter();
    Cluster cluster = cluster(12);
    int differ = 0;
    for (int i = 0; i < 2_000; i++) {
      byte[] key = ("k" + i).getBytes(StandardCharsets.UTF_8);
      int p = partitioner.partition("orders", null, key, null, null, cluster);
      assertThat(p).isEqualTo(at25.partition(key, 12));
      differ += p != at100.partition(key, 12) ? 1 : 0;
    }
    assertThat(differ).as("not yet at the next step").isPositive();
  }

  @Test
  void aDeliveryTimeoutAboveTheBoundIsRejected() {
    String schedule = "5%@2026-12-02T10:00:00Z";
    RoutingPartitioner partitioner = new RoutingPartitioner();
    assertThatThrownBy(() -> partitioner.configure(config(schedule, "120000")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("delivery.timeout.ms").hasMessageContaining("120000")
        .hasMessageContaining("routing.canary.delivery-timeout (30000 ms)");
    assertThatThrownBy(() -> partitioner.configure(config(schedule, null)))
        .as("Kafka's default, 120 s, is above 30 s").isInstanceOf(ConfigException.class)
        .hasMessageContaining("(the default)");
    partitioner.configure(config(schedule, 30_000));
  }
}
