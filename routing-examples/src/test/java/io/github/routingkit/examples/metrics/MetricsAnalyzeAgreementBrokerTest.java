package io.github.routingkit.examples.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.routingkit.cli.RoutingCli;
import io.github.routingkit.kafka.RoutingPartitioner;
import io.github.routingkit.testbrokers.EmbeddedKafka;
import io.github.routingkit.testbrokers.WithEmbeddedKafka;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
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
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * On one real Kafka topic, {@code routing analyze --bootstrap-server} (the CLI's command run
 * in-process) and the producer's JMX metrics agree: the records the producer counted per partition
 * are the records analyze finds in each partition, and the hottest key analyze counts is the rank-1
 * hot key of the metrics, its exact share within the metric's stated error.
 */
@Tag("broker")
@WithEmbeddedKafka(topics = MetricsAnalyzeAgreementBrokerTest.TOPIC,
    partitions = MetricsAnalyzeAgreementBrokerTest.PARTITIONS, shared = true)
class MetricsAnalyzeAgreementBrokerTest {
  static final String TOPIC = "metrics-analyze";
  static final int PARTITIONS = 6;
  private static final int RECORDS = 12_000;
  private static final String HOT = "tenant-7";
  private static final MBeanServer JMX = ManagementFactory.getPlatformMBeanServer();

  private static Object attribute(String bean, String attribute) throws Exception {
    return JMX.getAttribute(new ObjectName(bean), attribute);
  }

  @Test
  void analyzeAndTheProducersMetricsAgree(EmbeddedKafka kafka) throws Exception {
    String client = "metrics-analyze-1";
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    p.put(ProducerConfig.CLIENT_ID_CONFIG, client);
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, RoutingPartitioner.class.getName());
    p.put("routing.metrics.hotkey.sample", "1");
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
      List<Future<RecordMetadata>> sent = new ArrayList<>();
      for (int i = 0; i < RECORDS; i++) {
        // one key in three is the hot one; the others are a few hundred tenants
        String key = i % 3 == 0 ? HOT : "tenant-" + (100 + i % 400);
        sent.add(producer.send(new ProducerRecord<>(TOPIC, key, "v" + i)));
      }
      for (Future<RecordMetadata> f : sent) {
        f.get();
      }

      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      int code = RoutingCli.run(new PrintWriter(out), new PrintWriter(err), "analyze",
          "--bootstrap-server", kafka.bootstrapServers(), "--topic", TOPIC, "--from-beginning",
          "--format", "json", "--quiet");
      assertThat(code).as(err.toString()).isZero();
      JsonNode json = new ObjectMapper().readTree(out.toString());
      assertThat(json.get("sampled").asLong()).isEqualTo(RECORDS);

      double[] analyzed = new double[PARTITIONS];
      for (JsonNode size : json.get("partitionSizes")) {
        assertThat(size.get("sampled").asLong()).isEqualTo(size.get("records").asLong());
        analyzed[size.get("partition").asInt()] = size.get("records").asLong();
      }
      double[] metrics = new double[PARTITIONS];
      for (int partition = 0; partition < PARTITIONS; partition++) {
        metrics[partition] = (double) attribute("kafka.producer:type=routing-partitioner-"
            + "partition-metrics,client-id=" + client + ",topic=" + TOPIC + ",partition="
            + partition, "records-keyed-total");
      }
      // whole arrays: a failure shows every partition
      assertThat(metrics).as("JMX records-keyed-total against analyze's partition sizes")
          .isEqualTo(analyzed);

      JsonNode hottest = json.get("sample").get("topKeys").get(0);
      String rank1 = "kafka.producer:type=routing-partitioner-hot-key-metrics,client-id=" + client
          + ",rank=1";
      assertThat(hottest.get("key").asText()).isEqualTo(HOT)
          .isEqualTo(attribute(rank1, "hot-key"));
      double exact = hottest.get("share").asDouble();
      double share = (double) attribute(rank1, "hotkey-share");
      double error = (double) attribute(rank1, "hotkey-share-error");
      assertThat(error).isBetween(0.0, 1.0 / 1024);
      // analyze counts every record: the exact share, which the metric over-estimates by at most
      // its error
      assertThat(exact).isCloseTo(1.0 / 3, org.assertj.core.api.Assertions.within(1e-9));
      assertThat(share).isBetween(exact, exact + error);
    }
  }
}
