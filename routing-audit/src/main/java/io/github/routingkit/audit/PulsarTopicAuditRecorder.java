package io.github.routingkit.audit;

import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.apache.pulsar.client.api.HashingScheme;
import org.apache.pulsar.client.api.MessageRoutingMode;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.PulsarClientException;
import org.apache.pulsar.client.api.Schema;

/**
 * Ships audit records to a Pulsar topic through a producer of its own
 * ({@link TopicAuditRecorder}: bounded queue, never blocks the application, drops and counts when
 * full), keyed by the logical key with Murmur3 key hashing, so all records of one key meet in one
 * partition. The producer never blocks on a full queue ({@code blockIfQueueFull=false}): a send
 * it refuses counts as failed. Thread-safe.
 */
public final class PulsarTopicAuditRecorder extends TopicAuditRecorder {
  private final Producer<byte[]> producer;

  private PulsarTopicAuditRecorder(Producer<byte[]> producer, String topic, int capacity) {
    super(topic, capacity);
    this.producer = producer;
    start();
  }

  /**
   * Creates a recorder with a producer of {@code client}'s (the client stays the caller's).
   *
   * @param client the Pulsar client
   * @param topic the audit topic
   * @param capacity the queue's capacity in records, at least 1
   * @return the recorder; close it
   * @throws IllegalArgumentException if {@code capacity < 1}
   * @throws PulsarClientException if the producer cannot be created
   */
  public static PulsarTopicAuditRecorder create(PulsarClient client, String topic, int capacity)
      throws PulsarClientException {
    if (capacity < 1) {
      throw new IllegalArgumentException("audit buffer capacity must be >= 1, was " + capacity);
    }
    Producer<byte[]> producer = Objects.requireNonNull(client, "client")
        .newProducer(Schema.BYTES).topic(Objects.requireNonNull(topic, "topic"))
        .messageRoutingMode(MessageRoutingMode.RoundRobinPartition)
        .hashingScheme(HashingScheme.Murmur3_32Hash).blockIfQueueFull(false)
        .batchingMaxPublishDelay(50, TimeUnit.MILLISECONDS).create();
    return new PulsarTopicAuditRecorder(producer, topic, capacity);
  }

  @Override
  protected void send(String key, byte[] value, long timestamp) {
    producer.newMessage().key(key).value(value).eventTime(Math.max(1, timestamp)).sendAsync()
        .whenComplete((id, e) -> sent(e == null));
  }

  @Override
  protected void flushClient() {
    try {
      producer.flush();
    } catch (PulsarClientException e) {
      // counted per message by sendAsync's outcome
    }
  }

  @Override
  protected void closeClient() {
    try {
      producer.close();
    } catch (PulsarClientException e) {
      // closing anyway
    }
  }
}
