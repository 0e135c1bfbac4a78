package io.github.routingkit.examples.pulsar;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.pulsar.PulsarRouting;
import io.github.routingkit.pulsar.SwitchMarkers;
import io.github.routingkit.testbrokers.EmbeddedPulsar;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.pulsar.client.api.Consumer;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.PulsarClientException;
import org.apache.pulsar.client.api.Schema;
import org.apache.pulsar.client.api.SubscriptionInitialPosition;

/**
 * A router change at one step on the in-process Pulsar standalone, shared by the switch-marker and
 * canary broker tests: {@code perStep} rounds of keys {@code key-0 … key-(keys-1)} through a
 * producer routed by {@code before} (values 0, 1, …), a marker to every partition, as many rounds
 * through one routed by {@code after}; then every message read back one partition at a time, last
 * first (the worst order for per-key state).
 */
final class PulsarRouterStep {
  private PulsarRouterStep() {}

  static List<Message<String>> produceAcrossStepAndReadWorstOrder(EmbeddedPulsar pulsar,
      String topic, int partitions, RoutingSpec before, RoutingSpec after, int keys, int perStep,
      String generation, int step) throws PulsarClientException {
    List<Message<String>> worstOrder = new ArrayList<>();
    try (PulsarClient client = PulsarClient.builder().serviceUrl(pulsar.brokerServiceUrl())
        .build()) {
      produce(client, topic, before, keys, 0, perStep);
      assertThat(SwitchMarkers.send(client, topic, generation, step)).isEqualTo(partitions);
      produce(client, topic, after, keys, perStep, 2 * perStep);
      for (int p = partitions - 1; p >= 0; p--) {
        try (Consumer<String> c = client.newConsumer(Schema.STRING)
            .topic(topic + "-partition-" + p).subscriptionName("reader")
            .subscriptionInitialPosition(SubscriptionInitialPosition.Earliest).subscribe()) {
          Message<String> m;
          while ((m = c.receive(2, TimeUnit.SECONDS)) != null) {
            worstOrder.add(m);
            c.acknowledge(m);
          }
        }
      }
    }
    assertThat(worstOrder).hasSize(2 * perStep * keys + partitions);
    return worstOrder;
  }

  private static void produce(PulsarClient client, String topic, RoutingSpec spec, int keys,
      int fromStep, int toStep) throws PulsarClientException {
    try (Producer<String> producer = PulsarRouting.customPartition(
        client.newProducer(Schema.STRING).topic(topic).enableBatching(false), spec).create()) {
      for (int s = fromStep; s < toStep; s++) {
        for (int k = 0; k < keys; k++) {
          producer.newMessage().key("key-" + k).value(Integer.toString(s)).sendAsync();
        }
      }
      producer.flush();
    }
  }
}
