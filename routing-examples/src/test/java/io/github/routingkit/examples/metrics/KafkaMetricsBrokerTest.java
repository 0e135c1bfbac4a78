package io.github.routingkit.examples.metrics;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.kafka.RoutingPartitioner;
import io.github.routingkit.micrometer.RoutingMeterBinder;
import io.github.routingkit.testbrokers.EmbeddedKafka;
import io.github.routingkit.testbrokers.WithEmbeddedKafka;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Future;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The partitioner's metrics read through the real registries while known traffic flows to a real
 * broker: JMX (the platform MBean server, fed by the producer's own {@code metric.reporters}) and
 * Micrometer ({@link SimpleMeterRegistry} through {@link RoutingMeterBinder}). The per-partition
 * counts equal the partitions the broker acknowledged; a key sent as every fifth record is the one
 * hot key, with a share of 1/5 within the sketch's stated error.
 */
@Tag("broker")
@WithEmbeddedKafka(topics = KafkaMetricsBrokerTest.TOPIC, partitions = KafkaMetricsBrokerTest.PARTITIONS,
    shared = true)
class KafkaMetricsBrokerTest {
  static final String TOPIC = "metrics-orders";
  static final int PARTITIONS = 6;
  private static final int RECORDS = 20_000;
  private static final String HOT = "tenant-hot";
  private static final MBeanServer JMX = ManagementFactory.getPlatformMBeanServer();

  private static Object attribute(String bean, String attribute) throws Exception {
    return JMX.getAttribute(new ObjectName(bean), attribute);
  }

  @Test
  void countsAndTheHotKeyReadThroughJmxAndMicrometer(EmbeddedKafka kafka) throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    RoutingMeterBinder binder = new RoutingMeterBinder(List.of(), Duration.ofHours(1));
    binder.bindTo(registry);
    String client = "metrics-broker-1";
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    p.put(ProducerConfig.CLIENT_ID_CONFIG, client);
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, RoutingPartitioner.class.getName());
    p.put("routing.metrics.hotkey.sample", "1");
    long[] acked = new long[PARTITIONS];
    long[] murmur2 = new long[PARTITIONS];
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
      List<Future<RecordMetadata>> sent = new ArrayList<>();
      for (int i = 0; i < RECORDS; i++) {
        String key = i % 5 == 0 ? HOT : "order-" + i;
        murmur2[Utils.toPositive(Utils.murmur2(key.getBytes(UTF_8))) % PARTITIONS]++;
        sent.add(producer.send(new ProducerRecord<>(TOPIC, key, "v" + i)));
      }
      for (Future<RecordMetadata> f : sent) {
        acked[f.get().partition()]++;
      }
      // the default spec routes as kafka-clients' murmur2 does: the known counts
      assertThat(acked).isEqualTo(murmur2);

      String partitionBean = "kafka.producer:type=routing-partitioner-partition-metrics,client-id="
          + client + ",topic=" + TOPIC + ",partition=";
      double[] expected = new double[PARTITIONS];
      double[] jmxKeyed = new double[PARTITIONS];
      double[] jmxKeyless = new double[PARTITIONS];
      double[] micrometer = new double[PARTITIONS];
      for (int partition = 0; partition < PARTITIONS; partition++) {
        expected[partition] = acked[partition];
        jmxKeyed[partition] = (double) attribute(partitionBean + partition, "records-keyed-total");
        jmxKeyless[partition] =
            (double) attribute(partitionBean + partition, "records-keyless-total");
        micrometer[partition] = registry.get("routingkit.records.keyed").tags("client.id", client,
            "topic", TOPIC, "partition", String.valueOf(partition)).functionCounter().count();
      }
      // whole arrays: a failure shows every partition
      assertThat(jmxKeyed).as("JMX records-keyed-total per partition").isEqualTo(expected);
      assertThat(jmxKeyless).as("JMX records-keyless-total per partition")
          .isEqualTo(new double[PARTITIONS]);
      assertThat(micrometer).as("Micrometer routingkit.records.keyed per partition")
          .isEqualTo(expected);

      String router = "kafka.producer:type=routing-partitioner-metrics,client-id=" + client;
      String rank = "kafka.producer:type=routing-partitioner-hot-key-metrics,client-id=" + client
          + ",rank=";
      assertThat(attribute(router, "hotkeys")).isEqualTo(1.0);
      assertThat(attribute(rank + 1, "hot-key")).isEqualTo(HOT);
      assertThat(attribute(rank + 2, "hot-key")).isEqualTo("");
      double share = (double) attribute(rank + 1, "hotkey-share");
      double error = (double) attribute(rank + 1, "hotkey-share-error");
      // the stated bound: error at most 1/1,024, the true share 1/5 in [share - error, share]
      assertThat(error).isBetween(0.0, 1.0 / 1024);
      assertThat(share).isBetween(0.2, 0.2 + error);

      binder.refreshHotKeys();
      assertThat(registry.get("routingkit.hotkey.share").tags("client.id", client, "rank", "1",
          "key", HOT).gauge().value()).isEqualTo(share);
      assertThat(registry.find("routingkit.hotkey.share").tags("rank", "2").gauge()).isNull();
    } finally {
      binder.close();
    }
    // closing the producer closes the partitioner: nothing left behind
    assertThat(JMX.queryNames(new ObjectName("kafka.producer:client-id=" + client + ",*"), null)
        .stream().filter(n -> n.getKeyProperty("type").startsWith("routing-"))).isEmpty();
  }
}
