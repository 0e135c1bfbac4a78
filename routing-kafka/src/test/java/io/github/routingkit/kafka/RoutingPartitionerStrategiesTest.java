package io.github.routingkit.kafka;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/** The strategies reach Kafka through producer configs alone, value bytes included. */
class RoutingPartitionerStrategiesTest {

  static Cluster cluster(String topic, int n) {
    Node node = new Node(0, "localhost", 9092);
    List<PartitionInfo> parts = new ArrayList<>();
    for (int p = 0; p < n; p++) {
      parts.add(new PartitionInfo(topic, p, node, new Node[] {node}, new Node[] {node}));
    }
    return new Cluster("c", List.of(node), parts, Set.of(), Set.of());
  }

  @Test
  void valueHashHotKeyIsRoutedByTheValueBytes() {
    RoutingPartitioner partitioner = new RoutingPartitioner();
    partitioner.configure(Map.of("bootstrap.servers", "x:1",
        "routing.hotkey.keys", "hot", "routing.hotkey.choice", "value-hash",
        "routing.hotkey.candidates", "4",
        "routing.segment.ranges", "vip:0-1", "routing.segment.exclusive", "vip"));
    Cluster cluster = cluster("t", 12);
    Set<Integer> seen = new HashSet<>();
    for (int i = 0; i < 500; i++) {
      byte[] value = ("v" + i).getBytes(UTF_8);
      int p = partitioner.partition("t", null, "hot".getBytes(UTF_8), null, value, cluster);
      assertThat(partitioner.partition("t", null, "hot".getBytes(UTF_8), null, value, cluster))
          .isEqualTo(p); // pure: a retried record keeps its partition
      assertThat(p).isBetween(2, 11); // never in the exclusive vip range
      seen.add(p);
      assertThat(partitioner.partition("t", null, ("vip:" + i).getBytes(UTF_8), null, value,
          cluster)).isBetween(0, 1);
    }
    assertThat(seen).hasSize(4);
  }

  /** A canary reaches Kafka through the producer configs, no adapter change. */
  @Test
  void canaryRoutesItsShareByTheNewSpecAndTheRestByTheOld() {
    Map<String, Object> configs = Map.of("bootstrap.servers", "x:1",
        "routing.canary.share", "25%", "routing.canary.next.scheme", "xxh3-64");
    RoutingPartitioner partitioner = new RoutingPartitioner();
    partitioner.configure(configs);
    io.github.routingkit.config.RoutingSpec spec = io.github.routingkit.config.RoutingSpec.parse(configs);
    io.github.routingkit.KeyRouter old = spec.withoutCanary().keyRouter();
    io.github.routingkit.KeyRouter next = spec.canaryNext().keyRouter();
    Cluster cluster = cluster("t", 12);
    int moved = 0;
    for (int i = 0; i < 4000; i++) {
      byte[] key = ("order-" + i).getBytes(UTF_8);
      boolean canary = io.github.routingkit.router.canary.CanaryRouter.point(key) < 0.25;
      int p = partitioner.partition("t", null, key, null, null, cluster);
      assertThat(p).isEqualTo((canary ? next : old).partition(key, 12));
      moved += p != old.partition(key, 12) ? 1 : 0;
    }
    assertThat(moved).isBetween(800, 1000); // 25 % in the canary, 11/12 of those move
    // keyless records keep the old spec's (Kafka default) batching policy
    assertThat(partitioner.keylessBatchSize()).isEqualTo(16384);
    assertThatThrownBy(() -> new RoutingPartitioner().configure(Map.of(
        "routing.canary.share", "5%", "routing.canary.next.version.generations", "v1:xxh3-64",
        "routing.canary.next.version.default", "v1", "routing.canary.next.version.source",
        "header"))).isInstanceOf(ConfigException.class).hasMessageContaining("header");
    assertThatThrownBy(() -> new RoutingPartitioner().configure(Map.of(
        "routing.canary.share", "half", "routing.canary.next.placement", "jump")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("routing.canary.share")
        .hasMessageContaining("half");
  }

  @Test
  void badStrategyConfigIsAConfigException() {
    assertThatThrownBy(() -> new RoutingPartitioner().configure(
        Map.of("routing.segment.weights", "a:1,b:zero")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("routing.segment.weights").hasMessageContaining("segment 'b'");
  }
}
