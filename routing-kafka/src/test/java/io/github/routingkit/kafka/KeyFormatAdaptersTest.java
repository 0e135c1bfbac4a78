package io.github.routingkit.kafka;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.routingkit.KeyFormat;
import io.github.routingkit.Routers;
import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.kafka.streams.RoutingStreamPartitioner;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.serialization.Serializer;
import org.junit.jupiter.api.Test;

/**
 * {@code routing.key.format} in the Kafka adapters: {@link RoutingPartitioner} (from producer
 * configs) and {@link RoutingStreamPartitioner} (with a key serializer that writes the Confluent
 * wire format) put the same key value on one partition under two schema ids, the partition the
 * built-in murmur2 gives the payload; a bad value fails {@code configure}.
 */
class KeyFormatAdaptersTest {
  private static final Node NODE = new Node(0, "localhost", 9092);

  static Cluster cluster(String topic, int n) {
    List<PartitionInfo> partitions = new ArrayList<>();
    for (int p = 0; p < n; p++) {
      partitions.add(new PartitionInfo(topic, p, NODE, new Node[] {NODE}, new Node[] {NODE}));
    }
    return new Cluster("c", List.of(NODE), partitions, Set.of(), Set.of());
  }

  /** A key serializer in the Confluent wire format: magic 0, a 4-byte schema id, the UTF-8 text. */
  static Serializer<String> wireFormat(int schemaId) {
    return (topic, key) -> {
      byte[] text = key.getBytes(UTF_8);
      return ByteBuffer.allocate(5 + text.length).put((byte) 0).putInt(schemaId).put(text).array();
    };
  }

  @Test
  void routingPartitionerHashesThePayload() {
    RoutingPartitioner partitioner = new RoutingPartitioner();
    partitioner.configure(Map.of("routing.key.format", "confluent"));
    assertThat(partitioner.spec().keyFormat()).isSameAs(KeyFormat.CONFLUENT);
    Cluster cluster = cluster("orders", 24);
    for (int i = 0; i < 5000; i++) {
      String key = "customer-" + i;
      byte[] v1 = wireFormat(7).serialize("orders", key);
      byte[] v2 = wireFormat(8).serialize("orders", key);
      int p = partitioner.partition("orders", key, v1, null, null, cluster);
      assertThat(partitioner.partition("orders", key, v2, null, null, cluster)).isEqualTo(p);
      assertThat(p).isEqualTo(Routers.kafkaDefault().partition(key.getBytes(UTF_8), 24));
    }
  }

  @Test
  void streamPartitionerHashesThePayload() {
    RoutingSpec spec = RoutingSpec.parse("routing.key.format=confluent");
    RoutingStreamPartitioner<String, Object> v1 = RoutingStreamPartitioner.of(spec, wireFormat(1));
    RoutingStreamPartitioner<String, Object> v2 = RoutingStreamPartitioner.of(spec, wireFormat(2));
    for (int i = 0; i < 5000; i++) {
      String key = "customer-" + i;
      Integer p = v1.partition("orders", key, null, 12);
      assertThat(v2.partition("orders", key, null, 12)).isEqualTo(p);
      assertThat(p).isEqualTo(Routers.kafkaDefault().partition(key.getBytes(UTF_8), 12));
    }
  }

  @Test
  void aBadKeyFormatFailsConfigure() {
    assertThatThrownBy(() -> new RoutingPartitioner().configure(Map.of("routing.key.format", "avro")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("routing.key.format")
        .hasMessageContaining("avro");
  }
}
