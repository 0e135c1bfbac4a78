package io.github.routingkit.audit;

import java.util.Objects;

/**
 * One message as a consumer saw it: the fields the producer stamped (producer id, per-key
 * sequence, production time, routing generation, whether it was sent with a key) and the fields
 * recorded on receipt (topic, partition, consumer instance, subscription type, redelivery count,
 * position in the partition, observation time).
 *
 * @param key the logical key: the record / message key, or the {@value AuditStamp#LOGICAL_KEY}
 *     header of a message sent without a key; never null
 * @param producer the producer id of the stamp; never null
 * @param sequence the per-key sequence of the stamp: strictly increasing in send order for one
 *     producer and key, not contiguous (see {@link AuditStamp})
 * @param producedAtMillis production time, epoch milliseconds
 * @param generation the routing generation (a version such as {@code v2}), or null when versioned
 *     routing is not in use
 * @param keyed whether the message was sent with a key (false: a keyless send path)
 * @param topic the topic without a Pulsar {@code -partition-N} suffix; never null
 * @param partition the partition, or -1 for a non-partitioned Pulsar topic
 * @param consumer the consumer instance that received it; never null
 * @param subscription the subscription type: {@code Exclusive}, {@code Shared}, {@code Failover},
 *     {@code Key_Shared} (Pulsar), {@code kafka-group}, {@code kafka-assign} or {@code kafka-share}
 *     (Kafka), or {@code unknown}; never null
 * @param redeliveryCount Pulsar's redelivery count or Kafka's delivery count minus one (share
 *     groups), or -1 when the client does not say
 * @param position the position in the partition ({@code offset} for Kafka,
 *     {@code ledger:entry:batch} for Pulsar), or null when unknown
 * @param observedAtMillis when the consumer received it, epoch milliseconds
 */
public record AuditRecord(String key, String producer, long sequence, long producedAtMillis,
    String generation, boolean keyed, String topic, int partition, String consumer,
    String subscription, int redeliveryCount, String position, long observedAtMillis) {

  /**
   * Checks the fields.
   *
   * @throws NullPointerException if key, producer, topic, consumer or subscription is null
   * @throws IllegalArgumentException if sequence is negative, partition below -1 or redelivery
   *     count below -1
   */
  public AuditRecord {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(producer, "producer");
    Objects.requireNonNull(topic, "topic");
    Objects.requireNonNull(consumer, "consumer");
    Objects.requireNonNull(subscription, "subscription");
    if (sequence < 0) {
      throw new IllegalArgumentException("sequence must be >= 0, was " + sequence);
    }
    if (partition < -1) {
      throw new IllegalArgumentException("partition must be >= -1, was " + partition);
    }
    if (redeliveryCount < -1) {
      throw new IllegalArgumentException("redelivery count must be >= -1, was " + redeliveryCount);
    }
  }

  /** Returns true if the client reported a redelivery (count above 0). */
  public boolean redelivered() {
    return redeliveryCount > 0;
  }
}
