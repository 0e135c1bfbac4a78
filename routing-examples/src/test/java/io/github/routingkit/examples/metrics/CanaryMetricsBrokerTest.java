package io.github.routingkit.examples.metrics;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.kafka.RoutingPartitioner;
import io.github.routingkit.router.canary.CanaryRouter;
import io.github.routingkit.testbrokers.EmbeddedKafka;
import io.github.routingkit.testbrokers.WithEmbeddedKafka;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
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
 * The canary metrics of {@code RoutingPartitioner} read through the platform MBean server (the
 * producer's default {@code JmxReporter}) while keyed records flow to a real broker. A canary
 * schedule of two steps, 5 % then 25 %: a producer whose clock is past the first step's instant
 * only shows step 0 and share 0.05; the same schedule with its second step rescheduled into the
 * past (a new producer instance, as a rescheduled step is rolled out) shows step 1 and share 0.25,
 * under the same generation. In both, the records counted through the new router are exactly the
 * records whose key's canary point is below the share in effect.
 */
@Tag("broker")
@WithEmbeddedKafka(topics = CanaryMetricsBrokerTest.TOPIC, partitions = 6, shared = true)
class CanaryMetricsBrokerTest {
  static final String TOPIC = "metrics-canary";
  private static final int RECORDS = 10_000;
  private static final String FIRST = "5%@2020-01-01T00:00:00Z";
  private static final MBeanServer JMX = ManagementFactory.getPlatformMBeanServer();

  private static Object attribute(String bean, String attribute) throws Exception {
    return JMX.getAttribute(new ObjectName(bean), attribute);
  }

  /** What one producer instance showed once its records were acknowledged. */
  record Shown(double share, double step, double canaryRecords, double keyed, String generation) {}

  private static Shown produce(EmbeddedKafka kafka, String client, String schedule)
      throws Exception {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    p.put(ProducerConfig.CLIENT_ID_CONFIG, client);
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, RoutingPartitioner.class.getName());
    p.put("routing.canary.next.placement", "jump");
    p.put("routing.canary.schedule", schedule);
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
      List<Future<RecordMetadata>> sent = new ArrayList<>();
      for (int i = 0; i < RECORDS; i++) {
        sent.add(producer.send(new ProducerRecord<>(TOPIC, "order-" + i, "v" + i)));
      }
      for (Future<RecordMetadata> f : sent) {
        f.get();
      }
      String topicBean = "kafka.producer:type=routing-partitioner-topic-metrics,client-id="
          + client + ",topic=" + TOPIC;
      String router = "kafka.producer:type=routing-partitioner-metrics,client-id=" + client;
      double keyed = 0;
      for (int partition = 0; partition < 6; partition++) {
        keyed += (double) attribute("kafka.producer:type=routing-partitioner-partition-metrics,"
            + "client-id=" + client + ",topic=" + TOPIC + ",partition=" + partition,
            "records-keyed-total");
      }
      Set<ObjectName> generations = JMX.queryNames(new ObjectName(topicBean + ",generation=*"),
          null);
      assertThat(generations).hasSize(1);
      ObjectName generation = generations.iterator().next();
      assertThat(JMX.getAttribute(generation, "generation")).isEqualTo(1.0);
      return new Shown((double) attribute(topicBean, "canary-share"),
          (double) attribute(topicBean, "canary-step"),
          (double) attribute(router, "canary-records-total"), keyed,
          generation.getKeyProperty("generation"));
    }
  }

  /** The records whose key's canary point is below {@code share}: what the new router routes. */
  private static double inCanary(double share) {
    int n = 0;
    for (int i = 0; i < RECORDS; i++) {
      if (CanaryRouter.point(("order-" + i).getBytes(UTF_8)) < share) {
        n++;
      }
    }
    return n;
  }

  @Test
  void theStepInEffectShowsInTheShareStepAndCanaryRecords(EmbeddedKafka kafka) throws Exception {
    Shown first = produce(kafka, "metrics-canary-1", FIRST + ",25%@2099-01-01T00:00:00Z");
    assertThat(first.step()).as("canary-step").isEqualTo(0.0);
    assertThat(first.share()).as("canary-share").isEqualTo(0.05);
    assertThat(first.keyed()).as("records-keyed-total over the partitions").isEqualTo(RECORDS);
    assertThat(first.canaryRecords()).as("canary-records-total at 5 %").isEqualTo(inCanary(0.05));
    // the keys at 5 % are a real share, not all or none of them
    assertThat(first.canaryRecords()).isBetween(0.04 * RECORDS, 0.06 * RECORDS);

    Shown second = produce(kafka, "metrics-canary-2", FIRST + ",25%@2020-01-02T00:00:00Z");
    assertThat(second.step()).as("canary-step").isEqualTo(1.0);
    assertThat(second.share()).as("canary-share").isEqualTo(0.25);
    assertThat(second.keyed()).isEqualTo(RECORDS);
    assertThat(second.canaryRecords()).as("canary-records-total at 25 %")
        .isEqualTo(inCanary(0.25));
    assertThat(second.canaryRecords()).isBetween(0.23 * RECORDS, 0.27 * RECORDS);
    // a rescheduled step keeps the schedule's generation
    assertThat(second.generation()).startsWith("canary-").isEqualTo(first.generation());
  }
}
