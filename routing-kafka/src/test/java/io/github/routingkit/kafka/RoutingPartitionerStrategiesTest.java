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

  @Test
  void badStrategyConfigIsAConfigException() {
    assertThatThrownBy(() -> new RoutingPartitioner().configure(
        Map.of("routing.segment.weights", "a:1,b:zero")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("routing.segment.weights").hasMessageContaining("segment 'b'");
  }
}
