package io.github.routingkit.examples;

import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.pulsar.PulsarRouting;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.apache.pulsar.client.api.Consumer;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.MessageId;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.PulsarClientException;
import org.apache.pulsar.client.api.Schema;
import org.apache.pulsar.client.api.SubscriptionInitialPosition;
import org.apache.pulsar.client.api.SubscriptionType;
import org.apache.pulsar.common.naming.TopicName;

/**
 * Sends every key of a {@link RoundTrip} to a partitioned Pulsar topic through
 * {@code RoutingMessageRouter} and reads every partition back.
 */
final class PulsarRoundTrip {
  private PulsarRoundTrip() {}

  /**
   * Runs the round trip: subscribes first (exclusive subscription, earliest position) so nothing
   * can be missed, then sends every message with a producer configured by
   * {@link PulsarRouting#customPartition}, then reads until every message is back (plus one empty
   * receive to catch duplicates) or until {@code timeout} passes without progress.
   *
   * @param serviceUrl the broker's {@code pulsar://} URL
   * @param topic an existing partitioned topic with the partition count of {@code trip}
   * @param spec the routing spec of the message router
   * @param trip the bookkeeping; receives every send outcome and every message read back
   * @param timeout how long reading may go on without receiving a new message
   * @throws PulsarClientException if the client, producer or consumer cannot be created
   */
  static void run(String serviceUrl, String topic, RoutingSpec spec,
      RoundTrip trip, Duration timeout) throws PulsarClientException {
    try (PulsarClient client = PulsarClient.builder().serviceUrl(serviceUrl).build();
        Consumer<String> consumer = client.newConsumer(Schema.STRING)
            .topic(topic)
            .subscriptionName("routingkit-demo")
            .subscriptionType(SubscriptionType.Exclusive)
            .subscriptionInitialPosition(SubscriptionInitialPosition.Earliest)
            .receiverQueueSize(2000)
            .subscribe()) {

      try (Producer<String> producer = PulsarRouting.customPartition(
              client.newProducer(Schema.STRING).topic(topic), spec)
          .blockIfQueueFull(true)
          .batchingMaxPublishDelay(5, TimeUnit.MILLISECONDS)
          .create()) {
        List<CompletableFuture<MessageId>> sends = new ArrayList<>(trip.size());
        for (int i = 0; i < trip.size(); i++) {
          sends.add(producer.newMessage().key(trip.key(i)).value(Integer.toString(i)).sendAsync());
        }
        producer.flush();
        for (CompletableFuture<MessageId> f : sends) {
          try {
            f.join();
            trip.sent();
          } catch (CompletionException e) {
            trip.sendFailed(e.getCause());
          }
        }
      }

      long lastProgress = System.nanoTime();
      while (System.nanoTime() - lastProgress < timeout.toNanos()) {
        boolean complete = trip.distinctReceived() == trip.size();
        Message<String> msg = consumer.receive(complete ? 1000 : 200, TimeUnit.MILLISECONDS);
        if (msg == null) {
          if (complete) {
            break;
          }
          continue;
        }
        lastProgress = System.nanoTime();
        trip.received(msg.getValue(), msg.getKey(), TopicName.getPartitionIndex(msg.getTopicName()));
        consumer.acknowledgeAsync(msg);
      }
    }
  }
}
