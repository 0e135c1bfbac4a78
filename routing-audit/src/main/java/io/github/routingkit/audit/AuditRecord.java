package io.github.routingkit.audit;

import java.util.Objects;

/**
 * One message as a consumer saw it: the fields the producer stamped (producer id, per-key
 * sequence, production time, routing generation, whether it was sent with a key) and the fields
 * recorded on receipt (topic, partition, consumer instance, subscription type, redelivery count,
 * position in the partition, observation time).
 */
public final class AuditRecord {
  private final String key;
  private final String producer;
  private final long sequence;
  private final long producedAtMillis;
  private final String generation;
  private final boolean keyed;
  private final String topic;
  private final int partition;
  private final String consumer;
  private final String subscription;
  private final int redeliveryCount;
  private final String position;
  private final long observedAtMillis;

  /**
   * Checks the fields.
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
   *     {@code Key_Shared} (Pulsar), {@code kafka-group}, {@code kafka-assign} or {@code
   *     kafka-share} (Kafka), or {@code unknown}; never null
   * @param redeliveryCount Pulsar's redelivery count or Kafka's delivery count minus one (share
   *     groups), or -1 when the client does not say
   * @param position the position in the partition ({@code offset} for Kafka, {@code
   *     ledger:entry:batch} for Pulsar), or null when unknown
   * @param observedAtMillis when the consumer received it, epoch milliseconds
   * @throws NullPointerException if key, producer, topic, consumer or subscription is null
   * @throws IllegalArgumentException if sequence is negative, partition below -1 or redelivery
   *     count below -1
   */
  public AuditRecord(
      String key,
      String producer,
      long sequence,
      long producedAtMillis,
      String generation,
      boolean keyed,
      String topic,
      int partition,
      String consumer,
      String subscription,
      int redeliveryCount,
      String position,
      long observedAtMillis) {
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
    this.key = key;
    this.producer = producer;
    this.sequence = sequence;
    this.producedAtMillis = producedAtMillis;
    this.generation = generation;
    this.keyed = keyed;
    this.topic = topic;
    this.partition = partition;
    this.consumer = consumer;
    this.subscription = subscription;
    this.redeliveryCount = redeliveryCount;
    this.position = position;
    this.observedAtMillis = observedAtMillis;
  }

  /** Returns true if the client reported a redelivery (count above 0). */
  public boolean redelivered() {
    return redeliveryCount > 0;
  }

  /**
   * Returns the logical key: the record / message key, or the {@value AuditStamp#LOGICAL_KEY}
   * header of a message sent without a key; never null.
   */
  public String key() {
    return key;
  }

  /** Returns the producer id of the stamp; never null. */
  public String producer() {
    return producer;
  }

  /**
   * Returns the per-key sequence of the stamp: strictly increasing in send order for one
   * producer and key, not contiguous (see {@link AuditStamp}).
   */
  public long sequence() {
    return sequence;
  }

  /** Returns production time, epoch milliseconds. */
  public long producedAtMillis() {
    return producedAtMillis;
  }

  /**
   * Returns the routing generation (a version such as {@code v2}), or null when versioned
   * routing is not in use.
   */
  public String generation() {
    return generation;
  }

  /** Returns whether the message was sent with a key (false: a keyless send path). */
  public boolean keyed() {
    return keyed;
  }

  /** Returns the topic without a Pulsar {@code -partition-N} suffix; never null. */
  public String topic() {
    return topic;
  }

  /** Returns the partition, or -1 for a non-partitioned Pulsar topic. */
  public int partition() {
    return partition;
  }

  /** Returns the consumer instance that received it; never null. */
  public String consumer() {
    return consumer;
  }

  /**
   * Returns the subscription type: {@code Exclusive}, {@code Shared}, {@code Failover}, {@code
   * Key_Shared} (Pulsar), {@code kafka-group}, {@code kafka-assign} or {@code kafka-share}
   * (Kafka), or {@code unknown}; never null.
   */
  public String subscription() {
    return subscription;
  }

  /**
   * Returns Pulsar's redelivery count or Kafka's delivery count minus one (share groups), or -1
   * when the client does not say.
   */
  public int redeliveryCount() {
    return redeliveryCount;
  }

  /**
   * Returns the position in the partition ({@code offset} for Kafka, {@code ledger:entry:batch}
   * for Pulsar), or null when unknown.
   */
  public String position() {
    return position;
  }

  /** Returns when the consumer received it, epoch milliseconds. */
  public long observedAtMillis() {
    return observedAtMillis;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof AuditRecord)) {
      return false;
    }
    AuditRecord other = (AuditRecord) o;
    return Objects.equals(key, other.key)
        && Objects.equals(producer, other.producer)
        && sequence == other.sequence
        && producedAtMillis == other.producedAtMillis
        && Objects.equals(generation, other.generation)
        && keyed == other.keyed
        && Objects.equals(topic, other.topic)
        && partition == other.partition
        && Objects.equals(consumer, other.consumer)
        && Objects.equals(subscription, other.subscription)
        && redeliveryCount == other.redeliveryCount
        && Objects.equals(position, other.position)
        && observedAtMillis == other.observedAtMillis;
  }

  @Override
  public int hashCode() {
    int h = 0;
    h = 31 * h + Objects.hashCode(key);
    h = 31 * h + Objects.hashCode(producer);
    h = 31 * h + Long.hashCode(sequence);
    h = 31 * h + Long.hashCode(producedAtMillis);
    h = 31 * h + Objects.hashCode(generation);
    h = 31 * h + Boolean.hashCode(keyed);
    h = 31 * h + Objects.hashCode(topic);
    h = 31 * h + Integer.hashCode(partition);
    h = 31 * h + Objects.hashCode(consumer);
    h = 31 * h + Objects.hashCode(subscription);
    h = 31 * h + Integer.hashCode(redeliveryCount);
    h = 31 * h + Objects.hashCode(position);
    h = 31 * h + Long.hashCode(observedAtMillis);
    return h;
  }

  @Override
  public String toString() {
    return "AuditRecord[key=" + key + ", producer=" + producer + ", sequence=" + sequence
        + ", producedAtMillis=" + producedAtMillis + ", generation=" + generation + ", keyed="
        + keyed + ", topic=" + topic + ", partition=" + partition + ", consumer=" + consumer
        + ", subscription=" + subscription + ", redeliveryCount=" + redeliveryCount + ", position="
        + position + ", observedAtMillis=" + observedAtMillis + "]";
  }
}
