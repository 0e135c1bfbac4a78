package io.github.routingkit.audit;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.UUID;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.MessageId;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.interceptor.ProducerInterceptor;
import org.apache.pulsar.client.impl.MessageImpl;

/**
 * Stamps every message with the audit fields ({@link AuditStamp}) as a property:
 * {@code producerBuilder.intercept(new PulsarAuditProducerInterceptor("checkout-7"))}.
 *
 * <p>The logical key is the {@value AuditStamp#LOGICAL_KEY} property, else the ordering key,
 * else the key; the generation the one given, else the {@value AuditStamp#VERSION_HEADER}
 * property. A message counts as keyed if it has a key or an ordering key. Pulsar's interceptor
 * API returns the message; the property is added to its metadata through pulsar-client's
 * {@code MessageImpl} (the same class in {@code pulsar-client} and {@code pulsar-client-original}
 * 4.x); a message of another class is passed on unstamped. Each interceptor instance draws a
 * random epoch that the stamp carries beside the producer id ({@link AuditStamp}), so a restarted
 * producer with the same id is a new instance to the audit. No lock, no I/O; 32 KiB. Thread-safe.
 */
public final class PulsarAuditProducerInterceptor implements ProducerInterceptor {
  private final AuditStamp.Sequencer sequencer = new AuditStamp.Sequencer();
  private final String producerId;
  private final String epoch = AuditStamp.newEpoch();
  private final byte[] producerField;
  private final String generation;

  /** Stamps with a random producer id ({@code producer-} and 8 hex digits), no fixed generation. */
  public PulsarAuditProducerInterceptor() {
    this("producer-" + UUID.randomUUID().toString().substring(0, 8), null);
  }

  /**
   * Stamps with this producer id; the generation comes from the message's
   * {@value AuditStamp#VERSION_HEADER} property, if any.
   */
  public PulsarAuditProducerInterceptor(String producerId) {
    this(producerId, null);
  }

  /**
   * Stamps with this producer id and routing generation.
   *
   * @param producerId the id; one per producer instance (all partitions share it)
   * @param generation the routing generation, or null to read the message property
   * @throws NullPointerException if {@code producerId} is null
   * @throws IllegalArgumentException if {@code producerId} is empty
   */
  public PulsarAuditProducerInterceptor(String producerId, String generation) {
    Objects.requireNonNull(producerId, "producerId");
    if (producerId.isEmpty()) {
      throw new IllegalArgumentException("producer id must not be empty");
    }
    this.producerId = producerId;
    this.producerField = AuditStamp.producerField(producerId, epoch);
    this.generation = generation;
  }

  /** Returns the producer id stamped on the messages. */
  public String producerId() {
    return producerId;
  }

  /** Returns this instance's epoch (12 hex digits, random), stamped beside the producer id. */
  public String epoch() {
    return epoch;
  }

  @Override
  public boolean eligible(Message message) {
    return message instanceof MessageImpl;
  }

  @Override
  public Message beforeSend(Producer producer, Message message) {
    if (!(message instanceof MessageImpl<?>)) {
      return message;
    }
    MessageImpl<?> impl = (MessageImpl<?>) message;
    String logical = message.getProperty(AuditStamp.LOGICAL_KEY);
    boolean keyed = message.hasKey() || message.hasOrderingKey();
    if (logical == null && keyed) {
      logical = message.hasOrderingKey()
          ? AuditStamp.bytesText(message.getOrderingKey()) : message.getKey();
    }
    long seq = sequencer.next(AuditStamp.hash(logical));
    String gen = generation != null ? generation : message.getProperty(AuditStamp.VERSION_HEADER);
    long producedAt = System.currentTimeMillis();
    byte[] stamp = AuditStamp.encode(seq, producedAt, keyed, gen, producerField);
    impl.getMessageBuilder().addProperty().setKey(AuditStamp.HEADER)
        .setValue(new String(stamp, StandardCharsets.UTF_8));
    return message;
  }

  @Override
  public void onSendAcknowledgement(Producer producer, Message message, MessageId msgId,
      Throwable exception) {}

  @Override
  public void close() {}
}
