package io.github.routingkit.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.config.RoutingSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.junit.jupiter.api.Test;

/**
 * The Kafka adapter's default keyless policy follows kafka-clients' BuiltInPartitioner: stick to
 * one partition until batch.size bytes went there, then draw another uniformly among the available
 * partitions. (The batching it gives on a real broker is KeylessBatchingBrokerTest in
 * routing-examples.)
 */
class BatchStickyKeylessTest {
  private static final Node NODE = new Node(0, "localhost", 9092);

  private static Cluster cluster(String topic, int n, Set<Integer> down) {
    List<PartitionInfo> infos = new ArrayList<>();
    for (int p = 0; p < n; p++) {
      infos.add(new PartitionInfo(topic, p, down.contains(p) ? null : NODE, new Node[] {NODE},
          new Node[0]));
    }
    return new Cluster("c", List.of(NODE), infos, Set.of(), Set.of());
  }

  @Test
  void isTheDefaultAndReadsBatchSize() {
    RoutingPartitioner defaults = new RoutingPartitioner();
    defaults.configure(Map.of());
    assertThat(defaults.keylessBatchSize()).isEqualTo(16384);
    RoutingPartitioner explicit = new RoutingPartitioner();
    explicit.configure(Map.of("batch.size", "1000", RoutingSpec.KEYLESS, "kafka-sticky"));
    assertThat(explicit.keylessBatchSize()).isEqualTo(1000);
    assertThat(explicit.spec()).as("kafka-sticky is the adapter's, not a spec value")
        .isEqualTo(RoutingSpec.defaults());
    RoutingPartitioner core = new RoutingPartitioner();
    core.configure(Map.of("batch.size", 1000, RoutingSpec.KEYLESS, "round-robin"));
    assertThat(core.keylessBatchSize()).isEqualTo(-1);
    RoutingPartitioner zero = new RoutingPartitioner();
    zero.configure(Map.of("batch.size", 0));
    assertThat(zero.keylessBatchSize()).as("batch.size=0 counts as 1, as upstream").isEqualTo(1);
  }

  /**
   * With batch.size 1000 and 100-byte values (109 bytes each in the batch), the partition changes
   * only after every 10th record (10 × 109 = 1090 ≥ 1000 > 9 × 109), and the draws use every
   * available partition and no other.
   */
  @Test
  void switchesAfterBatchSizeBytesToAnAvailablePartition() {
    Cluster c = cluster("t", 8, Set.of(3, 6));
    RoutingPartitioner partitioner = new RoutingPartitioner();
    Map<String, Object> configs = new HashMap<>();
    configs.put("batch.size", 1000);
    partitioner.configure(configs);
    byte[] value = new byte[100];
    int records = 10_000;
    int[] chosen = new int[records];
    for (int i = 0; i < records; i++) {
      chosen[i] = partitioner.partition("t", null, null, null, value, c);
    }
    Set<Integer> used = new HashSet<>();
    int switches = 0;
    for (int i = 0; i < records; i++) {
      used.add(chosen[i]);
      if (i > 0 && chosen[i] != chosen[i - 1]) {
        assertThat(i % 10).as("a switch at record %d", i).isZero();
        switches++;
      }
    }
    assertThat(used).containsExactlyInAnyOrder(0, 1, 2, 4, 5, 7);
    // 1000 draws among 6 partitions: about 5/6 of them change the partition (upstream's draw
    // may repeat it too)
    assertThat(switches).isBetween(760, 900);
  }

  @Test
  void keyedRecordsAreUntouchedAndTopicsStickIndependently() {
    Cluster c = cluster("a", 6, Set.of());
    RoutingPartitioner partitioner = new RoutingPartitioner();
    partitioner.configure(Map.of());
    byte[] key = "order-1".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    int keyed = partitioner.partition("a", null, key, null, new byte[100], c);
    assertThat(keyed).isEqualTo(
        org.apache.kafka.common.utils.Utils.toPositive(org.apache.kafka.common.utils.Utils.murmur2(key)) % 6);
    int first = partitioner.partition("a", null, null, null, new byte[10], c);
    for (int i = 0; i < 100; i++) { // 100 × 19 bytes < 16384: still the same partition
      assertThat(partitioner.partition("a", null, null, null, new byte[10], c)).isEqualTo(first);
      partitioner.partition("a", null, key, null, new byte[100], c);
    }
  }
}
