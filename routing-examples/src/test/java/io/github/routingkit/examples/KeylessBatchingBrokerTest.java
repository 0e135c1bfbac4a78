package io.github.routingkit.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.kafka.RoutingPartitioner;
import io.github.routingkit.testbrokers.EmbeddedKafka;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
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
 * built-in partitioner on a real broker: 100,000 keyless 100-byte records per run, the
 * producer's batch-size-avg within 20 % of the same producer without partitioner.class, both in a
 * burst that fills every batch and at a steady rate where linger.ms sends batches before they are
 * full, and every partition used. Batch sizes depend on when the producer's sender thread runs, so
 * each regime is measured in {@value #ROUNDS} rounds, the built-in and RoutingPartitioner back to
 * back in each, and the median of the rounds' ratios is held to the bound. Measured ratios are in
 * docs/kafka.md.
 */
@Tag("broker")
class KeylessBatchingBrokerTest {
  private static final int RECORDS = 100_000;
  private static final int PARTITIONS = 6;
  private static final int ROUNDS = 3;
  /** Records sent between 1 ms pauses. */
  private static final int PACE = 25;
  private static final String BATCH = "batch-size-avg";
  private static final String PER_REQUEST = "records-per-request-avg";

  @Test
  void defaultKeylessPolicyBatchesLikeTheBuiltIn() throws Exception {
    try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
      double[] burst = new double[ROUNDS];
      double[] burstPerRequest = new double[ROUNDS];
      double[] steady = new double[ROUNDS];
      double[] steadyBuiltIn = new double[ROUNDS];
      List<String> routingTopics = new ArrayList<>();
      StringBuilder report = new StringBuilder();
      for (int r = 0; r < ROUNDS; r++) {
        for (String t : new String[] {"burst-builtin-", "burst-routing-", "builtin-", "routing-"}) {
          kafka.createTopic(t + r, PARTITIONS);
        }
        // A burst that outruns the broker: every batch fills to batch.size.
        Map<String, Double> burstBuiltIn = produce(kafka, "burst-builtin-" + r, null, null, 0);
        Map<String, Double> burstRouting =
            produce(kafka, "burst-routing-" + r, RoutingPartitioner.class, null, 0);
        // A steady rate (~2.7 MB/s): linger.ms sends batches before they are full.
        Map<String, Double> builtIn = produce(kafka, "builtin-" + r, null, null, PACE);
        Map<String, Double> routing =
            produce(kafka, "routing-" + r, RoutingPartitioner.class, null, PACE);
        routingTopics.add("burst-routing-" + r);
        routingTopics.add("routing-" + r);
        burst[r] = burstRouting.get(BATCH) / burstBuiltIn.get(BATCH);
        burstPerRequest[r] = burstRouting.get(PER_REQUEST) / burstBuiltIn.get(PER_REQUEST);
        steady[r] = routing.get(BATCH) / builtIn.get(BATCH);
        steadyBuiltIn[r] = builtIn.get(BATCH);
        report.append(String.format(
            "  round %d burst:  built-in %s%n                kafka-sticky %s%n"
                + "          steady: built-in %s%n                kafka-sticky %s%n",
            r + 1, burstBuiltIn, burstRouting, builtIn, routing));
      }
      kafka.createTopic("rr", PARTITIONS);
      Map<String, Double> roundRobin = produce(kafka, "rr", RoutingPartitioner.class, "round-robin", PACE);
      double roundRobinRatio = roundRobin.get(BATCH) / median(steadyBuiltIn);
      System.out.printf("keyless batching, %,d x 100 B on %d partitions, %d rounds:%n%s"
              + "  round-robin %s%n"
              + "  batch-size-avg vs built-in per round: burst %s, steady %s; round-robin %.3f%n",
          RECORDS, PARTITIONS, ROUNDS, report, roundRobin, ratios(burst),
          ratios(steady), roundRobinRatio);

      // The target: batch-size-avg within 20 % of the built-in's (measured ratios: docs/kafka.md).
      assertThat(median(burst)).as("median burst batch-size-avg vs built-in %s", ratios(burst))
          .isBetween(0.8, 1.2);
      assertThat(median(steady))
          .as("median steady batch-size-avg vs built-in %s", ratios(steady))
          .isBetween(0.8, 1.2);
      // Records per request also counts how many partitions' batches one request carries, which
      // depends on when the sender thread wakes, so it is only held to more than 0.3 of the
      // built-in's.
      assertThat(median(burstPerRequest))
          .as("median burst records-per-request-avg vs built-in %s", ratios(burstPerRequest))
          .isGreaterThan(0.3);
      // A policy that changes partition per record makes one batch per record per partition: the
      // check that this test tells batching from round-robin (against the built-in's median).
      assertThat(roundRobinRatio).as("steady round-robin batch-size-avg vs built-in").isLessThan(0.5);

      for (String topic : routingTopics) {
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

  private static String ratios(double[] values) {
    StringBuilder out = new StringBuilder();
    for (double v : values) {
      out.append(out.length() == 0 ? "" : " ").append(String.format("%.3f", v));
    }
    return out.toString();
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
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
