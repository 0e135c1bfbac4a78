package io.github.routingkit.audit;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Objects;

/**
 * One message as a consumer saw it: the fields the producer stamped (producer id, per-key
 * sequence, production time, routing generation, whether it was sent with a key) and the fields
 * recorded on receipt (topic, partition, consumer instance, subscription type, redelivery count,
 * position in the partition, observation time).
 *
 * <p>Fields:
 * <ul>
 *   <li>{@code key}: the logical key: the record / message key, or the
 *       {@value AuditStamp#LOGICAL_KEY} header of a message sent without a key; never null;</li>
 *   <li>{@code producer}: the producer id of the stamp; never null;</li>
 *   <li>{@code producerEpoch}: the producer instance's epoch from the stamp (see
 *       {@link AuditStamp}), or null for a stamp or log line without one; a restarted producer
 *       with a fixed id has a new epoch;</li>
 *   <li>{@code sequence}: the per-key sequence of the stamp: strictly increasing in send order
 *       for one producer and key, not contiguous (see {@link AuditStamp});</li>
 *   <li>{@code producedAtMillis}: production time, epoch milliseconds;</li>
 *   <li>{@code generation}: the routing generation (a version such as {@code v2}), or null when
 *       versioned routing is not in use;</li>
 *   <li>{@code keyed}: whether the message was sent with a key (false: a keyless send path);</li>
 *   <li>{@code topic}: the topic without a Pulsar {@code -partition-N} suffix; never null;</li>
 *   <li>{@code partition}: the partition, or -1 for a non-partitioned Pulsar topic;</li>
 *   <li>{@code consumer}: the consumer instance that received it; never null;</li>
 *   <li>{@code subscription}: the subscription type: {@code Exclusive}, {@code Shared},
 *       {@code Failover}, {@code Key_Shared} (Pulsar), {@code kafka-group}, {@code kafka-assign}
 *       or {@code kafka-share} (Kafka), or {@code unknown}; never null;</li>
 *   <li>{@code redeliveryCount}: Pulsar's redelivery count or Kafka's delivery count minus one
 *       (share groups), or -1 when the client does not say;</li>
 *   <li>{@code position}: the position in the partition ({@code offset} for Kafka,
 *       {@code ledger:entry:batch} for Pulsar), or null when unknown;</li>
 *   <li>{@code observedAtMillis}: when the consumer received it, epoch milliseconds.</li>
 * </ul>
 *
 * <p>Text fields longer than {@value #MAX_FIELD_CHARS} characters (a key can be as long as the
 * broker's message size allows) are kept shortened, so that every record fits one audit log line
 * ({@link AuditLogReader#MAX_LINE_CHARS}): their first 200 characters, then
 * {@code ...[N chars, sha-256 H]} with the original length N and the first 128 bits of the
 * SHA-256 of the original's UTF-8 bytes in hex. Equal long texts shorten equally and different
 * ones differently (but for a SHA-256 collision), so long keys are still audited key by key.
 *
 * <p>Immutable and thread-safe; equal when every field is equal.
 */
public final class AuditRecord {
  private final String key;
  private final String producer;
  private final String producerEpoch;
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

  /** The longest text field kept as is, in chars; longer ones are shortened (class comment). */
  public static final int MAX_FIELD_CHARS = 1024;
  private static final int SHORTENED_PREFIX_CHARS = 200;

  /**
   * Creates a record without a producer epoch (the fields are described in the class comment).
   *
   * @throws NullPointerException if key, producer, topic, consumer or subscription is null
   * @throws IllegalArgumentException if sequence is negative, partition below -1 or redelivery
   *     count below -1
   */
  public AuditRecord(String key, String producer, long sequence, long producedAtMillis,
      String generation, boolean keyed, String topic, int partition, String consumer,
      String subscription, int redeliveryCount, String position, long observedAtMillis) {
    this(key, producer, null, sequence, producedAtMillis, generation, keyed, topic, partition,
        consumer, subscription, redeliveryCount, position, observedAtMillis);
  }

  /**
   * Creates a record from its fields (described in the class comment); text fields longer than
   * {@value #MAX_FIELD_CHARS} chars are shortened.
   *
   * @throws NullPointerException if key, producer, topic, consumer or subscription is null
   * @throws IllegalArgumentException if sequence is negative, partition below -1 or redelivery
   *     count below -1
   */
  public AuditRecord(String key, String producer, String producerEpoch, long sequence,
      long producedAtMillis, String generation, boolean keyed, String topic, int partition,
      String consumer, String subscription, int redeliveryCount, String position,
      long observedAtMillis) {
    this.key = shorten(Objects.requireNonNull(key, "key"));
    this.producer = shorten(Objects.requireNonNull(producer, "producer"));
    this.producerEpoch = shorten(producerEpoch);
    this.topic = shorten(Objects.requireNonNull(topic, "topic"));
    this.consumer = shorten(Objects.requireNonNull(consumer, "consumer"));
    this.subscription = shorten(Objects.requireNonNull(subscription, "subscription"));
    if (sequence < 0) {
      throw new IllegalArgumentException("sequence must be >= 0, was " + sequence);
    }
    if (partition < -1) {
      throw new IllegalArgumentException("partition must be >= -1, was " + partition);
    }
    if (redeliveryCount < -1) {
      throw new IllegalArgumentException("redelivery count must be >= -1, was " + redeliveryCount);
    }
    this.sequence = sequence;
    this.producedAtMillis = producedAtMillis;
    this.generation = shorten(generation);
    this.keyed = keyed;
    this.partition = partition;
    this.redeliveryCount = redeliveryCount;
    this.position = shorten(position);
    this.observedAtMillis = observedAtMillis;
  }

  /** Returns the logical key; never null. */
  public String key() {
    return key;
  }

  /** Returns the producer id of the stamp; never null. */
  public String producer() {
    return producer;
  }

  /** Returns the producer instance's epoch, or null when the stamp had none. */
  public String producerEpoch() {
    return producerEpoch;
  }

  /** Returns the per-key sequence of the stamp, at least 0. */
  public long sequence() {
    return sequence;
  }

  /** Returns the production time, epoch milliseconds. */
  public long producedAtMillis() {
    return producedAtMillis;
  }

  /** Returns the routing generation, or null. */
  public String generation() {
    return generation;
  }

  /** Returns whether the message was sent with a key. */
  public boolean keyed() {
    return keyed;
  }

  /** Returns the topic; never null. */
  public String topic() {
    return topic;
  }

  /** Returns the partition, or -1 for a non-partitioned Pulsar topic. */
  public int partition() {
    return partition;
  }

  /** Returns the consumer instance; never null. */
  public String consumer() {
    return consumer;
  }

  /** Returns the subscription type; never null. */
  public String subscription() {
    return subscription;
  }

  /** Returns the redelivery count, or -1 when unknown. */
  public int redeliveryCount() {
    return redeliveryCount;
  }

  /** Returns the position in the partition, or null when unknown. */
  public String position() {
    return position;
  }

  /** Returns the observation time, epoch milliseconds. */
  public long observedAtMillis() {
    return observedAtMillis;
  }

  /** Returns true if the client reported a redelivery (count above 0). */
  public boolean redelivered() {
    return redeliveryCount > 0;
  }

  /** Equal when every field is equal. */
  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof AuditRecord)) {
      return false;
    }
    AuditRecord r = (AuditRecord) o;
    return sequence == r.sequence && producedAtMillis == r.producedAtMillis && keyed == r.keyed
        && partition == r.partition && redeliveryCount == r.redeliveryCount
        && observedAtMillis == r.observedAtMillis && key.equals(r.key)
        && producer.equals(r.producer) && Objects.equals(producerEpoch, r.producerEpoch)
        && Objects.equals(generation, r.generation)
        && topic.equals(r.topic) && consumer.equals(r.consumer)
        && subscription.equals(r.subscription) && Objects.equals(position, r.position);
  }

  @Override
  public int hashCode() {
    return Objects.hash(key, producer, producerEpoch, sequence, producedAtMillis, generation, keyed, topic,
        partition, consumer, subscription, redeliveryCount, position, observedAtMillis);
  }

  /**
   * Returns {@code s} unchanged when it has at most {@value #MAX_FIELD_CHARS} chars (or is null),
   * else its shortened form (class comment), which is never longer than 300 chars.
   */
  static String shorten(String s) {
    if (s == null || s.length() <= MAX_FIELD_CHARS) {
      return s;
    }
    int cut = SHORTENED_PREFIX_CHARS;
    if (Character.isHighSurrogate(s.charAt(cut - 1))) {
      cut--;
    }
    byte[] digest;
    try {
      digest = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
    StringBuilder b = new StringBuilder(cut + 64).append(s, 0, cut).append("...[")
        .append(s.length()).append(" chars, sha-256 ");
    for (int i = 0; i < 16; i++) {
      b.append(Character.forDigit(digest[i] >> 4 & 0xf, 16))
          .append(Character.forDigit(digest[i] & 0xf, 16));
    }
    return b.append(']').toString();
  }

  /** Returns the record as its audit log line ({@link AuditLog#line}). */
  @Override
  public String toString() {
    return AuditLog.line(this);
  }
}
