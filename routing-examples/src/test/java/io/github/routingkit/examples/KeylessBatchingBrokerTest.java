package io.github.routingkit.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.kafka.RoutingPartitioner;
import io.github.routingkit.testbrokers.EmbeddedKafka;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Keyless records through RoutingPartitioner's default policy batch as well as kafka-clients'
 * built-in partitioner on a real broker: 100,000 keyless 100-byte records, the
 * producer's batch-size-avg within 20 % of the same producer without partitioner.class, both in a
 * burst that fills every batch and at a steady rate where linger.ms sends batches before they are
 * full, and every partition used. Measured ratios are in docs/kafka.md.
 */
@Tag("broker")
class KeylessBatchingBrokerTest {
  private static final int RECORDS = 100_000;
  private static final int PARTITIONS = 6;
  /** Records sent between 1 ms pauses. */
  private static final int PACE = 25;

  @Test
  void defaultKeylessPolicyBatchesLikeTheBuiltIn() throws Exception {
    try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
      for (String t : new String[] {"burst-builtin", "burst-routing", "builtin", "routing", "rr"}) {
        kafka.createTopic(t, PARTITIONS);
      }
      // A burst that outruns the broker: every batch fills to batch.size.
      Map<String, Double> burstBuiltIn = produce(kafka, "burst-builtin", null, null, 0);
      Map<String, Double> burstRouting = produce(kafka, "burst-routing", RoutingPartitioner.class, null, 0);
      // A steady rate (~2.7 MB/s): linger.ms sends batches before they are full.
      Map<String, Double> builtIn = produce(kafka, "builtin", null, null, PACE);
      Map<String, Double> routing = produce(kafka, "routing", RoutingPartitioner.class, null, PACE);
      Map<String, Double> roundRobin =
          produce(kafka, "rr", RoutingPartitioner.class, "round-robin", PACE);
      System.out.printf("keyless batching, %,d x 100 B on %d partitions:%n"
          + "  burst:  built-in %s%n          kafka-sticky %s%n"
          + "  steady: built-in %s%n          kafka-sticky %s%n          round-robin %s%n",
          RECORDS, PARTITIONS, burstBuiltIn, burstRouting, builtIn, routing, roundRobin);
      System.out.printf("  batch-size-avg vs built-in: burst %.3f, steady %.3f (round-robin %.3f)%n",
          burstRouting.get("batch-size-avg") / burstBuiltIn.get("batch-size-avg"),
          routing.get("batch-size-avg") / builtIn.get("batch-size-avg"),
          roundRobin.get("batch-size-avg") / builtIn.get("batch-size-avg"));

      // The target: batch-size-avg within 20 % of the built-in's (measured ratios: docs/kafka.md).
      assertThat(burstRouting.get("batch-size-avg") / burstBuiltIn.get("batch-size-avg"))
          .as("burst batch-size-avg vs built-in").isBetween(0.8, 1.2);
      double steady = routing.get("batch-size-avg") / builtIn.get("batch-size-avg");
      assertThat(steady).as("steady batch-size-avg vs built-in").isBetween(0.8, 1.2);
      // Records per request also counts how many partitions' batches one request carries, which
      // depends on when the sender thread wakes (0.78-0.90 of the built-in's in a burst, 0.46 in a
      // run inside the full suite), so it is only held to more than 0.3 of the built-in's.
      assertThat(burstRouting.get("records-per-request-avg")
              / burstBuiltIn.get("records-per-request-avg"))
          .as("burst records-per-request-avg vs built-in").isGreaterThan(0.3);
      // A policy that changes partition per record makes one batch per record per partition: the
      // check that this test tells batching from round-robin.
      assertThat(roundRobin.get("batch-size-avg") / builtIn.get("batch-size-avg"))
          .as("steady round-robin batch-size-avg vs built-in").isLessThan(0.5);

      for (String topic : new String[] {"burst-routing", "routing"}) {
        Map<TopicPartition, OffsetSpec> request = new LinkedHashMap<>();
        for (int p = 0; p < PARTITIONS; p++) {
          request.put(new TopicPartition(topic, p), OffsetSpec.latest());
        }
        long total = 0;
        for (var e : kafka.admin().listOffsets(request).all().get(60, TimeUnit.SECONDS).entrySet()) {
          assertThat(e.getValue().offset()).as("records on " + e.getKey()).isPositive();
          total += e.getValue().offset();
        }
        assertThat(total).as("records on " + topic).isEqualTo(RECORDS);
      }
    }
  }

  private static Map<String, Double> produce(
      EmbeddedKafka kafka, String topic, Class<?> partitioner, String keyless, int pace) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    if (partitioner != null) {
      p.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, partitioner.getName());
    }
    if (keyless != null) {
      p.put("routing.keyless", keyless);
    }
    Map<String, Double> out = new LinkedHashMap<>();
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
      byte[] value = new byte[100];
      for (int i = 0; i < RECORDS; i++) {
        value[i % 100] = (byte) i;
        producer.send(new ProducerRecord<>(topic, null, value.clone()));
        if (pace > 0 && i % pace == pace - 1) {
          // An application's steady rate (~2-3 MB/s), not a burst: a burst that outruns the
          // broker fills every batch whatever the partitioner, and would show nothing.
          LockSupport.parkNanos(1_000_000);
        }
      }
      producer.flush();
      for (Map.Entry<MetricName, ? extends Metric> e : producer.metrics().entrySet()) {
        MetricName name = e.getKey();
        if (name.group().equals("producer-metrics")
            && (name.name().equals("batch-size-avg") || name.name().equals("records-per-request-avg"))) {
          out.put(name.name(), ((Number) e.getValue().metricValue()).doubleValue());
        }
      }
    }
    return out;
  }
}
