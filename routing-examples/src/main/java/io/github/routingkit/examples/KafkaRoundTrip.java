package io.github.routingkit.examples;

import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.kafka.RoutingPartitioner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Sends every key of a {@link RoundTrip} to a Kafka topic through {@link RoutingPartitioner} and
 * reads every partition back from the beginning.
 */
final class KafkaRoundTrip {
  private KafkaRoundTrip() {}

  /**
   * Runs the round trip: one idempotent producer ({@code acks=all}) with
   * {@code partitioner.class = RoutingPartitioner} and the {@code routing.*} properties of
   * {@code spec}, then one consumer assigned to all partitions, reading until every message is back
   * (plus one empty poll to catch duplicates) or until {@code timeout} passes without progress.
   *
   * @param bootstrapServers the broker's {@code bootstrap.servers}
   * @param topic an existing topic with {@code numPartitions} partitions
   * @param numPartitions the topic's partition count
   * @param spec the routing spec given to the partitioner as producer properties
   * @param trip the bookkeeping; receives every send outcome and every message read back
   * @param timeout how long reading may go on without receiving a new message
   */
  static void run(String bootstrapServers, String topic, int numPartitions, RoutingSpec spec,
      RoundTrip trip, Duration timeout) {
    Properties producerProps = new Properties();
    producerProps.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    producerProps.put(ProducerConfig.CLIENT_ID_CONFIG, "routingkit-demo-producer");
    producerProps.put(ProducerConfig.ACKS_CONFIG, "all");
    producerProps.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    producerProps.put(ProducerConfig.LINGER_MS_CONFIG, "5");
    producerProps.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, RoutingPartitioner.class.getName());
    producerProps.putAll(spec.toMap());
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(producerProps, new StringSerializer(), new StringSerializer())) {
      List<Throwable> failures = new ArrayList<>();
      int[] acked = new int[1];
      for (int i = 0; i < trip.size(); i++) {
        producer.send(new ProducerRecord<>(topic, trip.key(i), Integer.toString(i)),
            (metadata, error) -> {
              synchronized (failures) {
                if (error != null) {
                  failures.add(error);
                } else {
                  acked[0]++;
                }
              }
            });
      }
      producer.flush();
      synchronized (failures) {
        for (int i = 0; i < acked[0]; i++) {
          trip.sent();
        }
        failures.forEach(trip::sendFailed);
      }
    }

    Properties consumerProps = new Properties();
    consumerProps.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    consumerProps.put(ConsumerConfig.CLIENT_ID_CONFIG, "routingkit-demo-consumer");
    consumerProps.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    consumerProps.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
    try (KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(consumerProps, new StringDeserializer(), new StringDeserializer())) {
      List<TopicPartition> partitions = new ArrayList<>();
      for (int p = 0; p < numPartitions; p++) {
        partitions.add(new TopicPartition(topic, p));
      }
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      long lastProgress = System.nanoTime();
      while (System.nanoTime() - lastProgress < timeout.toNanos()) {
        boolean complete = trip.distinctReceived() == trip.size();
        var records = consumer.poll(Duration.ofMillis(complete ? 1000 : 200));
        for (ConsumerRecord<String, String> r : records) {
          trip.received(r.value(), r.key(), r.partition());
        }
        if (!records.isEmpty()) {
          lastProgress = System.nanoTime();
        } else if (complete) {
          break;
        }
      }
    }
  }
}
