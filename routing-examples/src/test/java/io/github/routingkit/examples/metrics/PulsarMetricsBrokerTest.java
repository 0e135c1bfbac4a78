package io.github.routingkit.examples.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.pulsar.PulsarRouting;
import io.github.routingkit.testbrokers.EmbeddedPulsar;
import io.github.routingkit.testbrokers.WithEmbeddedPulsar;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.DoublePointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.data.PointData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.pulsar.client.api.Consumer;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.Schema;
import org.apache.pulsar.client.api.SubscriptionInitialPosition;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A Pulsar producer's routing metrics read through the real OpenTelemetry SDK (an {@link
 * InMemoryMetricReader} on the {@code SdkMeterProvider} that pulsar-client itself publishes its
 * client metrics through) while known keyed traffic flows to a real standalone: the per-partition
 * counts equal what each partition holds, counted by consuming it; a key sent as every fifth
 * message is the one hot key, with a share of 1/5 within the sketch's stated error.
 */
@Tag("broker")
@WithEmbeddedPulsar(topics = PulsarMetricsBrokerTest.TOPIC, partitions = PulsarMetricsBrokerTest.PARTITIONS)
class PulsarMetricsBrokerTest {
  static final String TOPIC = "persistent://public/default/metrics-orders";
  static final int PARTITIONS = 6;
  private static final int MESSAGES = 20_000;
  private static final String HOT = "tenant-hot";
  private static final AttributeKey<String> CLIENT = AttributeKey.stringKey("routingkit.client.id");
  private static final AttributeKey<String> TOPIC_ATTRIBUTE = AttributeKey.stringKey("pulsar.topic");
  private static final AttributeKey<Long> PARTITION = AttributeKey.longKey("pulsar.partition");
  private static final AttributeKey<Long> RANK = AttributeKey.longKey("routingkit.rank");
  private static final AttributeKey<String> KEY = AttributeKey.stringKey("routingkit.key");

  static List<DoublePointData> points(Collection<MetricData> all, String metric, String client) {
    return all.stream().filter(d -> d.getName().equals(metric))
        .flatMap(d -> d.getData().getPoints().stream())
        .filter(p -> client.equals(p.getAttributes().get(CLIENT)))
        .map(p -> (DoublePointData) p).collect(Collectors.toList());
  }

  static double single(Collection<MetricData> all, String metric, String client) {
    List<DoublePointData> p = points(all, metric, client);
    assertThat(p).as(metric).hasSize(1);
    return p.get(0).getValue();
  }

  @Test
  void countsAndTheHotKeyReadThroughTheOpenTelemetrySdk(EmbeddedPulsar pulsar) throws Exception {
    InMemoryMetricReader reader = InMemoryMetricReader.create();
    String client = "metrics-pulsar-1";
    RoutingSpec spec = RoutingSpec.parse(
        "routing.scheme=pulsar-murmur3, routing.metrics.hotkey.sample=1");
    long[] held = new long[PARTITIONS];
    try (OpenTelemetrySdk otel = OpenTelemetrySdk.builder()
            .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(reader).build())
            .build();
        PulsarClient pulsarClient = PulsarClient.builder().serviceUrl(pulsar.brokerServiceUrl())
            .openTelemetry(otel).build();
        Consumer<String> consumer = pulsarClient.newConsumer(Schema.STRING).topic(TOPIC)
            .subscriptionName("count").receiverQueueSize(1000)
            .subscriptionInitialPosition(SubscriptionInitialPosition.Earliest).subscribe()) {
      Collection<MetricData> all;
      try (Producer<String> producer = PulsarRouting.customPartition(
          pulsarClient.newProducer(Schema.STRING).topic(TOPIC).producerName(client), spec, otel)
          .create()) {
        for (int i = 0; i < MESSAGES; i++) {
          String key = i % 5 == 0 ? HOT : "order-" + i;
          producer.newMessage().key(key).value("v" + i).sendAsync();
        }
        producer.flush();

        // what each partition holds: count by consuming every message back
        int consumed = 0;
        Message<String> m;
        while (consumed < MESSAGES && (m = consumer.receive(30, TimeUnit.SECONDS)) != null) {
          String name = m.getTopicName();
          held[Integer.parseInt(name.substring(name.lastIndexOf("-partition-") + 11))]++;
          consumer.acknowledge(m);
          consumed++;
        }
        assertThat(consumed).as("messages read back").isEqualTo(MESSAGES);
        assertThat(consumer.receive(1, TimeUnit.SECONDS)).as("no message beyond those sent")
            .isNull();

        all = reader.collectAllMetrics();
      }

      // pulsar-client publishes its own metrics through the same SDK
      assertThat(all).extracting(MetricData::getName)
          .anyMatch(n -> n.startsWith("pulsar.client."));

      double[] expected = new double[PARTITIONS];
      double[] keyed = new double[PARTITIONS];
      double[] keyless = new double[PARTITIONS];
      for (int p = 0; p < PARTITIONS; p++) {
        expected[p] = held[p];
      }
      List<DoublePointData> keyedPoints = points(all, "routingkit.records.keyed", client);
      assertThat(keyedPoints).hasSize(PARTITIONS);
      for (DoublePointData point : keyedPoints) {
        assertThat(point.getAttributes().get(TOPIC_ATTRIBUTE)).isEqualTo(TOPIC);
        keyed[point.getAttributes().get(PARTITION).intValue()] = point.getValue();
      }
      for (DoublePointData point : points(all, "routingkit.records.keyless", client)) {
        keyless[point.getAttributes().get(PARTITION).intValue()] = point.getValue();
      }
      // whole arrays: a failure shows every partition
      assertThat(keyed).as("routingkit.records.keyed per pulsar.partition").isEqualTo(expected);
      assertThat(keyless).as("routingkit.records.keyless per pulsar.partition")
          .isEqualTo(new double[PARTITIONS]);

      assertThat(single(all, "routingkit.hotkeys", client)).isEqualTo(1.0);
      List<DoublePointData> shares = points(all, "routingkit.hotkey.share", client);
      assertThat(shares).hasSize(1);
      PointData top = shares.get(0);
      assertThat(top.getAttributes().get(RANK)).isEqualTo(1L);
      assertThat(top.getAttributes().get(KEY)).isEqualTo(HOT);
      double share = shares.get(0).getValue();
      double error = single(all, "routingkit.hotkey.share.error", client);
      // the stated bound: error at most 1/1,024, the true share 1/5 in [share - error, share]
      assertThat(error).isBetween(0.0, 1.0 / 1024);
      assertThat(share).isBetween(0.2, 0.2 + error);

      // closing the producer removed its instruments' series
      assertThat(points(reader.collectAllMetrics(), "routingkit.records.keyed", client)).isEmpty();
    }
  }
}
