package io.github.routingkit.audit;

import java.util.Objects;
import java.util.Set;
import org.apache.pulsar.client.api.Consumer;
import org.apache.pulsar.client.api.ConsumerInterceptor;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.MessageId;
import org.apache.pulsar.client.api.MessageIdAdv;
import org.apache.pulsar.client.impl.ConsumerBase;

/**
 * Records every stamped message the application receives ({@code beforeConsume}: before
 * {@code receive} returns it or the listener gets it) into a recorder:
 * {@code consumerBuilder.intercept(new PulsarAuditConsumerInterceptor<>(recorder))}.
 *
 * <p>Recorded: the stamp, the topic and partition (from the {@code -partition-N} suffix; -1 for
 * a non-partitioned topic), the consumer name, the subscription type the consumer was really
 * built with (read from pulsar-client's {@code ConsumerBase} configuration, so a framework
 * default shows; {@code unknown} for another implementation), the redelivery count and the
 * message id as {@code ledger:entry:batch}. Messages without a stamp or a logical key are passed
 * on unrecorded; no message is changed. Thread-safe; one instance may serve several consumers.
 *
 * @param <T> the message type
 */
public final class PulsarAuditConsumerInterceptor<T> implements ConsumerInterceptor<T> {
  private final AuditRecorder recorder;
  /** The last consumer seen and its subscription type, as one value (read per message). */
  private volatile TypeOf last = new TypeOf(null, "unknown");

  private static final class TypeOf {
    final Consumer<?> consumer;
    final String type;

    TypeOf(Consumer<?> consumer, String type) {
      this.consumer = consumer;
      this.type = type;
    }
  }

  /**
   * Records into {@code recorder}.
   *
   * @throws NullPointerException if {@code recorder} is null
   */
  public PulsarAuditConsumerInterceptor(AuditRecorder recorder) {
    this.recorder = Objects.requireNonNull(recorder, "recorder");
  }

  @Override
  public Message<T> beforeConsume(Consumer<T> consumer, Message<T> message) {
    AuditRecord r = toAuditRecord(consumer, message);
    if (r != null) {
      recorder.record(r);
    }
    return message;
  }

  private AuditRecord toAuditRecord(Consumer<T> consumer, Message<T> message) {
    AuditStamp.Stamp stamp = AuditStamp.decode(message.getProperty(AuditStamp.HEADER));
    if (stamp == null) {
      return null;
    }
    String key = message.getProperty(AuditStamp.LOGICAL_KEY);
    if (key == null) {
      key = message.hasOrderingKey() ? AuditStamp.bytesText(message.getOrderingKey())
          : message.hasKey() ? message.getKey() : null;
    }
    if (key == null) {
      return null;
    }
    String topic = message.getTopicName();
    int partition = -1;
    int at = topic == null ? -1 : topic.lastIndexOf("-partition-");
    if (at > 0) {
      long n = AuditStamp.parseDigits(topic, at + "-partition-".length(), topic.length(), false);
      if (n >= 0 && n <= Integer.MAX_VALUE) {
        partition = (int) n;
        topic = topic.substring(0, at);
      }
    }
    String name = consumer.getConsumerName();
    return new AuditRecord(key, stamp.producer(), stamp.epoch(), stamp.sequence(),
        stamp.producedAtMillis(), stamp.generation(), stamp.keyed(), topic == null ? "" : topic,
        partition, name == null ? "" : name, subscriptionType(consumer),
        Math.max(0, message.getRedeliveryCount()), position(message.getMessageId()),
        System.currentTimeMillis());
  }

  private String subscriptionType(Consumer<?> consumer) {
    TypeOf cached = last;
    if (cached.consumer == consumer) {
      return cached.type;
    }
    String type = "unknown";
    if (consumer instanceof ConsumerBase<?>) {
      ConsumerBase<?> base = (ConsumerBase<?>) consumer;
      if (base.getConf() != null && base.getConf().getSubscriptionType() != null) {
        type = base.getConf().getSubscriptionType().name();
      }
    }
    last = new TypeOf(consumer, type);
    return type;
  }

  static String position(MessageId id) {
    if (id instanceof MessageIdAdv) {
      MessageIdAdv adv = (MessageIdAdv) id;
      return adv.getLedgerId() + ":" + adv.getEntryId() + ":" + adv.getBatchIndex();
    }
    return null;
  }

  @Override
  public void onAcknowledge(Consumer<T> consumer, MessageId messageId, Throwable exception) {}

  @Override
  public void onAcknowledgeCumulative(Consumer<T> consumer, MessageId messageId,
      Throwable exception) {}

  @Override
  public void onNegativeAcksSend(Consumer<T> consumer, Set<MessageId> messageIds) {}

  @Override
  public void onAckTimeoutSend(Consumer<T> consumer, Set<MessageId> messageIds) {}

  /** Flushes the recorder (does not close it: it may be shared). */
  @Override
  public void close() {
    recorder.flush();
  }
}
