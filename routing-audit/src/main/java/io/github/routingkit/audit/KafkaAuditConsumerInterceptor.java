package io.github.routingkit.audit;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerInterceptor;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;

/**
 * Records every stamped record the consumer returns from {@code poll} ({@link AuditRecord}: the
 * stamp plus partition, consumer instance, subscription type, delivery count and offset) into a
 * recorder.
 *
 * <pre>{@code
 * interceptor.classes=io.github.routingkit.audit.KafkaAuditConsumerInterceptor
 * # or routingkit.audit.recorder=<registered name>
 * # or routingkit.audit.topic=audit-events (a Kafka topic: KafkaTopicAuditRecorder)
 * routingkit.audit.log=/var/log/app/audit.jsonl
 * # optional: default client.id
 * routingkit.audit.consumer.id=worker-3
 * # optional: default kafka-group with group.id, else kafka-assign
 * routingkit.audit.subscription=kafka-group
 * }</pre>
 *
 * <p>Comments go on their own line: in a {@code .properties} file {@code #} starts a comment only
 * at the start of a line, so text after a value is part of the value.
 *
 * <p>Records without a stamp, and keyless records without an {@value AuditStamp#LOGICAL_KEY}
 * header, are passed through unrecorded. Never changes or drops records. The redelivery count is
 * the delivery count minus one where Kafka reports one (share groups), else -1 (a consumer group
 * replay is recognised by the audit from the partition and consumers). Thread-safe.
 *
 * @param <K> the record key type
 * @param <V> the record value type
 */
public final class KafkaAuditConsumerInterceptor<K, V> implements ConsumerInterceptor<K, V> {
  private volatile AuditRecorder recorder;
  private volatile KafkaAuditConfig.Lease lease;
  private volatile String consumerId = "consumer";
  private volatile String subscription = "kafka-assign";

  /**
   * Reads the {@code routingkit.audit.*} settings above.
   *
   * @throws org.apache.kafka.common.config.ConfigException if none or several of
   *     {@code routingkit.audit.log}, {@code routingkit.audit.recorder} and
   *     {@code routingkit.audit.topic} are set, the file cannot be opened, no recorder has the
   *     name, the topic's producer cannot be created, or a value is empty or out of range
   */
  @Override
  public void configure(Map<String, ?> configs) {
    String id = KafkaAuditConfig.string(configs, KafkaAuditConfig.CONSUMER_ID);
    Object client = configs.get("client.id");
    consumerId = id != null ? id : client == null ? "consumer" : client.toString();
    String sub = KafkaAuditConfig.string(configs, KafkaAuditConfig.SUBSCRIPTION);
    Object group = configs.get("group.id");
    subscription = sub != null ? sub
        : group != null && !group.toString().isBlank() ? "kafka-group" : "kafka-assign";
    KafkaAuditConfig.Lease l = KafkaAuditConfig.recorder(configs);
    lease = l;
    recorder = l.recorder;
  }

  @Override
  public ConsumerRecords<K, V> onConsume(ConsumerRecords<K, V> records) {
    AuditRecorder r = recorder;
    if (r == null || records.isEmpty()) {
      return records;
    }
    long now = System.currentTimeMillis();
    for (ConsumerRecord<K, V> record : records) {
      AuditRecord a = toAuditRecord(record, consumerId, subscription, now);
      if (a != null) {
        r.record(a);
      }
    }
    return records;
  }

  /** The audit record of one consumer record, or null if it has no stamp or no logical key. */
  static AuditRecord toAuditRecord(ConsumerRecord<?, ?> record, String consumer,
      String subscription, long now) {
    Header stampHeader = record.headers().lastHeader(AuditStamp.HEADER);
    if (stampHeader == null) {
      return null;
    }
    AuditStamp.Stamp stamp = AuditStamp.decode(stampHeader.value());
    if (stamp == null) {
      return null;
    }
    Header logical = record.headers().lastHeader(AuditStamp.LOGICAL_KEY);
    String key = logical != null && logical.value() != null
        ? new String(logical.value(), StandardCharsets.UTF_8) : AuditStamp.keyText(record.key());
    if (key == null) {
      return null;
    }
    Optional<Short> delivery = record.deliveryCount();
    int redelivery = delivery.isPresent() ? Math.max(0, delivery.get() - 1) : -1;
    return new AuditRecord(key, stamp.producer(), stamp.epoch(), stamp.sequence(),
        stamp.producedAtMillis(), stamp.generation(), stamp.keyed(), record.topic(),
        record.partition(), consumer, subscription, redelivery, Long.toString(record.offset()), now);
  }

  /** Flushes the recorder (a committed offset should not be ahead of the log). */
  @Override
  public void onCommit(Map<TopicPartition, OffsetAndMetadata> offsets) {
    AuditRecorder r = recorder;
    if (r != null) {
      r.flush();
    }
  }

  /** Flushes; releases the shared file or topic recorder (closed with its last user). */
  @Override
  public void close() {
    AuditRecorder r = recorder;
    recorder = null;
    if (r != null) {
      r.flush();
      KafkaAuditConfig.Lease l = lease;
      if (l != null) {
        l.release();
      }
    }
  }
}
