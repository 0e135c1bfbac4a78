package io.github.routingkit.kafka.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.kafka.RoutingPartitioner;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.processor.internals.DefaultStreamPartitioner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * {@link RoutingStreamPartitioner} against the real {@link RoutingPartitioner} (the producer side
 * it must match) and Streams' own {@code DefaultStreamPartitioner} (which the default spec must
 * reproduce), on 100,000 keys incl. empty, non-ASCII and MIN_VALUE-hashCode ones.
 */
class RoutingStreamPartitionerTest {
  private static final Node NODE = new Node(0, "localhost", 9092);
  private static final String TOPIC = "orders";
  private static final StringSerializer SER = new StringSerializer();

  static List<String> keys() {
    List<String> keys = new ArrayList<>(List.of("", "polygenelubricants", "GydZG_",
        "DESIGNING WORKHOUSES", "東京", "v1/order-1", "v2/payment-7", "order/x", "payment/y",
        "\uD83D\uDE00"));
    Random r = new Random(837);
    String[] prefixes = {"v1/", "v2/", "order/", "payment/", "refund/", ""};
    while (keys.size() < 100_000) {
      StringBuilder sb = new StringBuilder(prefixes[r.nextInt(prefixes.length)]);
      int len = r.nextInt(40);
      for (int i = 0; i < len; i++) {
        sb.append((char) (r.nextInt(10) == 0 ? 0x400 + r.nextInt(200) : 'a' + r.nextInt(26)));
      }
      keys.add(sb.toString());
    }
    return keys;
  }

  private static Cluster cluster(int n) {
    List<PartitionInfo> parts = new ArrayList<>();
    for (int p = 0; p < n; p++) {
      parts.add(new PartitionInfo(TOPIC, p, NODE, new Node[] {NODE}, new Node[] {NODE}));
    }
    return new Cluster("c", List.of(NODE), parts, Set.of(), Set.of());
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "routing.scheme=kafka-murmur2",
      "routing.scheme=xxh3-64, routing.placement=jump",
      "routing.segment.ranges=order:0-5,payment:6-8, routing.segment.separator=/",
      "routing.version.generations=v1:kafka-murmur2:native:12,v2:xxh3-64:jump:*,"
          + " routing.version.default=v2, routing.version.separator=/",
      "routing.scheme=pulsar-murmur3"})
  void agreesWithRoutingPartitionerOnEveryKey(String specText) {
    RoutingSpec spec = RoutingSpec.parse(specText);
    RoutingStreamPartitioner<String, Object> streams = RoutingStreamPartitioner.of(spec, SER);
    RoutingPartitioner producer = new RoutingPartitioner();
    producer.configure(spec.toMap());
    for (int n : new int[] {12, 24}) {
      Cluster cluster = cluster(n);
      int checked = 0;
      for (String key : keys()) {
        byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
        int expected = producer.partition(TOPIC, key, bytes, null, null, cluster);
        assertThat(streams.partitions(TOPIC, key, null, n)).as("key %s, n %d", key, n)
            .isEqualTo(Optional.of(Set.of(expected)));
        assertThat(streams.partition(TOPIC, key, null, n)).isEqualTo(expected);
        checked++;
      }
      assertThat(checked).isEqualTo(100_000);
    }
  }

  @Test
  void defaultSpecIsStreamsOwnDefaultPartitioner() {
    RoutingStreamPartitioner<String, Object> ours =
        RoutingStreamPartitioner.of(RoutingSpec.defaults(), SER);
    DefaultStreamPartitioner<String, Object> theirs = new DefaultStreamPartitioner<>(SER);
    for (String key : keys()) {
      assertThat(ours.partitions(TOPIC, key, null, 24)).isEqualTo(theirs.partitions(TOPIC, key, null, 24));
    }
  }

  @Test
  void nonDefaultSpecDiffersFromStreamsDefaultOnMostKeys() {
    // the mismatch the adapter exists for: a test that would pass with the default partitioner
    // would prove nothing
    RoutingStreamPartitioner<String, Object> ours =
        RoutingStreamPartitioner.of(RoutingSpec.parse("routing.scheme=xxh3-64, routing.placement=jump"), SER);
    DefaultStreamPartitioner<String, Object> theirs = new DefaultStreamPartitioner<>(SER);
    long differ = keys().stream()
        .filter(k -> !ours.partitions(TOPIC, k, null, 24).equals(theirs.partitions(TOPIC, k, null, 24)))
        .count();
    assertThat(differ).isGreaterThan(90_000);
  }

  @Test
  void nullKeyStaysInRange() {
    RoutingStreamPartitioner<String, Object> p = RoutingStreamPartitioner.of(RoutingSpec.defaults(), SER);
    for (int i = 0; i < 100; i++) {
      assertThat(p.partition(TOPIC, null, null, 7)).isBetween(0, 6);
    }
  }

  @Test
  void refusesHotKeysHeadersAndBadCounts() {
    assertThatThrownBy(() -> RoutingStreamPartitioner.of(
        RoutingSpec.parse("routing.hotkey.keys=k1"), SER))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("routing.hotkey.keys").hasMessageContaining("one partition");
    assertThatThrownBy(() -> RoutingStreamPartitioner.fromConfigs(Map.of(
        "routing.version.generations", "v1:kafka-murmur2,v2:xxh3-64:jump",
        "routing.version.default", "v1", "routing.version.source", "header",
        "routing.version.header", "rv"), SER))
        .isInstanceOf(ConfigException.class).hasMessageContaining("routing.version.source");
    assertThatThrownBy(() -> RoutingStreamPartitioner.fromConfigs(Map.of("routing.shceme", "x"), SER))
        .isInstanceOf(ConfigException.class);
    assertThatThrownBy(() -> RoutingStreamPartitioner.of(RoutingSpec.defaults(), SER)
        .partitions(TOPIC, "k", null, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("numPartitions was 0");
  }

  /** The layers a StreamPartitioner cannot honour are refused inside a canary's new spec too. */
  @Test
  void refusesHotKeysAndHeaderVersionsInsideACanary() {
    assertThatThrownBy(() -> RoutingStreamPartitioner.fromConfigs(Map.of(
        "routing.canary.share", "100%", "routing.canary.next.hotkey.keys", "hot"), SER))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("routing.canary.next.hotkey.keys").hasMessageContaining("hot")
        .hasMessageContaining("one partition");
    assertThatThrownBy(() -> RoutingStreamPartitioner.of(RoutingSpec.parse(
        "routing.canary.share=5%, routing.canary.next.hotkey.detect=true"), SER))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("routing.canary.next.hotkey.detect");
    assertThatThrownBy(() -> RoutingStreamPartitioner.fromConfigs(Map.of(
        "routing.canary.share", "0.5",
        "routing.canary.next.version.generations", "v1:kafka-murmur2,v2:xxh3-64:jump",
        "routing.canary.next.version.default", "v1",
        "routing.canary.next.version.source", "header"), SER))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("routing.canary.next.version.source").hasMessageContaining("headers");
    // a canary whose new spec only changes what Streams can honour is accepted
    RoutingStreamPartitioner<String, Object> ok = RoutingStreamPartitioner.fromConfigs(Map.of(
        "routing.canary.share", "100%", "routing.canary.next.placement", "jump"), SER);
    assertThat(ok.partitions(TOPIC, "k", null, 8)).isPresent();
  }
}
