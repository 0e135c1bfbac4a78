package io.github.routingkit.kafka;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.routingkit.router.canary.CanaryRouter;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/**
 * The partitioner's and the assignor's metrics as a JMX client reads them (the platform MBean
 * server, through kafka-clients' JmxReporter): exact per-partition counts, the skew verdict, the
 * fingerprint, keyless batch switches, and nothing left behind after close or with metrics off.
 */
class KafkaMetricsTest {
  private static final Node NODE = new Node(0, "localhost", 9092);
  private static final MBeanServer JMX = ManagementFactory.getPlatformMBeanServer();

  private static Cluster cluster(String topic, int n) {
    List<PartitionInfo> infos = new ArrayList<>();
    for (int p = 0; p < n; p++) {
      infos.add(new PartitionInfo(topic, p, NODE, new Node[] {NODE}, new Node[] {NODE}));
    }
    return new Cluster("c", List.of(NODE), infos, Set.of(), Set.of());
  }

  private static RoutingPartitioner partitioner(String clientId, String... pairs) {
    Map<String, Object> configs = new HashMap<>();
    configs.put("client.id", clientId);
    for (int i = 0; i < pairs.length; i += 2) {
      configs.put(pairs[i], pairs[i + 1]);
    }
    RoutingPartitioner p = new RoutingPartitioner();
    p.configure(configs);
    return p;
  }

  private static Object attribute(String bean, String attribute) throws Exception {
    return JMX.getAttribute(new ObjectName(bean), attribute);
  }

  @Test
  void perPartitionCountsAreExactOverJmx() throws Exception {
    RoutingPartitioner p = partitioner("metrics-test-1");
    Cluster cluster = cluster("orders", 6);
    long[] expected = new long[6];
    for (int i = 0; i < 6_000; i++) {
      byte[] key = ("order-" + i).getBytes(UTF_8);
      expected[p.partition("orders", null, key, null, null, cluster)]++;
    }
    for (int partition = 0; partition < 6; partition++) {
      assertThat(attribute("kafka.producer:type=routing-partitioner-partition-metrics,"
          + "client-id=metrics-test-1,topic=orders,partition=" + partition, "records-keyed-total"))
          .isEqualTo((double) expected[partition]);
    }
    String topic = "kafka.producer:type=routing-partitioner-topic-metrics,client-id=metrics-test-1,"
        + "topic=orders";
    assertThat((double) attribute(topic, "skew-window-records")).isEqualTo(6_000);
    assertThat((double) attribute(topic, "spec-fingerprint")).isPositive();
    assertThat(attribute(topic + ",verdict=WITHIN_PERFECT_HASH_BOUND", "skew-verdict"))
        .isEqualTo(1.0);
    assertThat(attribute(topic + ",verdict=FIX_KEY_DESIGN", "skew-verdict")).isEqualTo(0.0);
    p.close();
    assertThat(JMX.queryNames(new ObjectName("kafka.producer:client-id=metrics-test-1,*"), null))
        .isEmpty();
  }

  @Test
  void keylessRecordsAndBatchSwitchesAreCounted() throws Exception {
    RoutingPartitioner p = partitioner("metrics-test-2", "batch.size", "1000", "linger.ms", "0");
    Cluster cluster = cluster("clicks", 4);
    long keyless = 0;
    long changes = 0;
    int last = -1;
    for (int i = 0; i < 2_000; i++) {
      int partition = p.partition("clicks", null, null, null, new byte[40], cluster);
      changes += last >= 0 && partition != last ? 1 : 0;
      last = partition;
      keyless++;
    }
    double sum = 0;
    for (int partition = 0; partition < 4; partition++) {
      sum += (double) attribute("kafka.producer:type=routing-partitioner-partition-metrics,"
          + "client-id=metrics-test-2,topic=clicks,partition=" + partition, "records-keyless-total");
    }
    assertThat(sum).isEqualTo(keyless);
    double switches = (double) attribute("kafka.producer:type=routing-partitioner-topic-metrics,"
        + "client-id=metrics-test-2,topic=clicks", "keyless-batch-switches-total");
    assertThat(switches).isEqualTo(changes);
    assertThat(changes).isBetween(keyless / 80, keyless / 20); // about 40 records per sticky period
    p.close();
  }

  @Test
  void switchedOffNothingIsRegistered() throws Exception {
    RoutingPartitioner p = partitioner("metrics-test-3", "routing.metrics.enabled", "false");
    p.partition("orders", null, new byte[] {1}, null, null, cluster("orders", 3));
    assertThat(JMX.queryNames(new ObjectName("kafka.producer:client-id=metrics-test-3,*"), null))
        .isEmpty();
    p.close();
  }

  @Test
  void theCanaryAndHotKeysAreRouterBeans() throws Exception {
    RoutingPartitioner p = partitioner("metrics-test-4", "routing.canary.share", "0.25",
        "routing.canary.next.scheme", "xxh3-64", "routing.metrics.hotkey.sample", "1");
    Cluster cluster = cluster("orders", 8);
    long inCanary = 0;
    for (int i = 0; i < 40_000; i++) {
      byte[] key = (i % 4 == 0 ? "hot" : "k" + (i % 5_000)).getBytes(UTF_8);
      p.partition("orders", null, key, null, null, cluster);
      inCanary += CanaryRouter.point(key) < 0.25 ? 1 : 0;
    }
    String router = "kafka.producer:type=routing-partitioner-metrics,client-id=metrics-test-4";
    assertThat(attribute(router, "canary-records-total")).isEqualTo((double) inCanary);
    assertThat(attribute("kafka.producer:type=routing-partitioner-topic-metrics,"
        + "client-id=metrics-test-4,topic=orders", "canary-share")).isEqualTo(0.25);
    String rank1 = "kafka.producer:type=routing-partitioner-hot-key-metrics,"
        + "client-id=metrics-test-4,rank=1";
    assertThat(attribute(rank1, "hot-key")).isEqualTo("hot");
    assertThat((double) attribute(rank1, "hotkey-share")).isBetween(0.25, 0.25 + 0.002);
    p.close();
  }

  /** With metrics on (the default), the keyed path still allocates nothing in steady state. */
  @Test
  void theKeyedPathWithMetricsOnDoesNotAllocate() {
    com.sun.management.ThreadMXBean mx =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    RoutingPartitioner p = partitioner("metrics-test-6");
    Cluster cluster = cluster("orders", 24);
    byte[][] keys = new byte[1024][];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = String.format("order-%010d", i).getBytes(UTF_8);
    }
    long sink = 0;
    for (int round = 0; round < 200; round++) {
      for (byte[] k : keys) {
        sink += p.partition("orders", null, k, null, null, cluster);
      }
    }
    long id = Thread.currentThread().getId();
    long deadline = System.nanoTime() + 30_000_000_000L;
    long allocated;
    do {
      long before = mx.getThreadAllocatedBytes(id);
      for (int round = 0; round < 50; round++) {
        for (byte[] k : keys) {
          sink += p.partition("orders", null, k, null, null, cluster);
        }
      }
      allocated = mx.getThreadAllocatedBytes(id) - before;
    } while (allocated >= 4096 && System.nanoTime() < deadline);
    assertThat(sink).isNotNegative();
    assertThat(allocated).as("allocated %d bytes for 51,200 records", allocated).isLessThan(4096);
    p.close();
  }

  @Test
  void aBadMetricsValueFailsConfigure() {
    assertThatThrownBy(() -> partitioner("metrics-test-5", "routing.metrics.window.ms", "5"))
        .isInstanceOf(ConfigException.class).hasMessageContaining("routing.metrics.window.ms");
    RoutingAssignor a = new RoutingAssignor();
    assertThatThrownBy(() -> a.configure(Map.of("routing.metrics.enabled", "maybe")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("routing.metrics.enabled");
  }

  @Test
  void theAssignorPublishesItsRebalances() throws Exception {
    RoutingAssignor a = new RoutingAssignor();
    a.configure(Map.of("client.id", "metrics-consumer-1"));
    Map<String, Subscription> subs = new HashMap<>();
    for (int m = 0; m < 3; m++) {
      subs.put("member-" + m, new Subscription(List.of("orders"), null, List.of(), -1,
          Optional.empty()));
    }
    a.assign(cluster("orders", 10), new GroupSubscription(subs));
    String bean = "kafka.consumer:type=routing-assignor-metrics,client-id=metrics-consumer-1";
    assertThat(attribute(bean, "assignments-total")).isEqualTo(1.0);
    assertThat(attribute(bean, "partitions-moved-last")).isEqualTo(10.0);
    assertThat(attribute(bean, "balance-spread")).isEqualTo(1.0);
    assertThat(attribute(bean, "group-members")).isEqualTo(3.0);
    assertThat(attribute(bean + ",shape=EQUAL_SUBSCRIPTIONS_WITHOUT_RACKS", "group-shape"))
        .isEqualTo(1.0);
    assertThat(attribute(bean + ",shape=GENERAL", "group-shape")).isEqualTo(0.0);
  }
}
