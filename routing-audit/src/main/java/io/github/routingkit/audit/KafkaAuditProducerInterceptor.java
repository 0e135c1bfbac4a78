package io.github.routingkit.audit;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerInterceptor;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;

/**
 * Stamps every record with the audit fields ({@link AuditStamp}): producer id, per-key sequence,
 * production time, whether it has a key, and the routing generation.
 *
 * <pre>{@code
 * interceptor.classes=io.github.routingkit.audit.KafkaAuditProducerInterceptor
 * # optional: default client.id + a random suffix
 * routingkit.audit.producer.id=checkout-7
 * # optional: else the routing-version header, if any
 * routingkit.audit.generation=v2
 * }</pre>
 *
 * <p>Each interceptor instance (one per producer) draws a random epoch that the stamp carries
 * beside the producer id, so a restarted producer with a fixed {@code routingkit.audit.producer.id}
 * is a new instance to the audit, never a reorder of the old one. Adds one header of about 45-75
 * bytes per record; no lock, no I/O; 32 KiB per producer.
 * Records sent without a key should carry the logical key in an {@value AuditStamp#LOGICAL_KEY}
 * header to be audited. Thread-safe (the producer calls it from any sending thread).
 *
 * @param <K> the record key type (String, byte[] or anything with a stable {@code toString})
 * @param <V> the record value type
 */
public final class KafkaAuditProducerInterceptor<K, V> implements ProducerInterceptor<K, V> {
  private final AuditStamp.Sequencer sequencer = new AuditStamp.Sequencer();
  private final String epoch = AuditStamp.newEpoch();
  private volatile String producerId = "producer";
  private volatile byte[] producerField = AuditStamp.producerField(producerId, epoch);
  private volatile String generation;

  /**
   * Reads {@code routingkit.audit.producer.id} and {@code routingkit.audit.generation}.
   *
   * @throws org.apache.kafka.common.config.ConfigException for an empty value
   */
  @Override
  public void configure(Map<String, ?> configs) {
    producerId = KafkaAuditConfig.producerId(configs);
    producerField = AuditStamp.producerField(producerId, epoch);
    generation = KafkaAuditConfig.string(configs, KafkaAuditConfig.GENERATION);
  }

  /** Returns the record with the stamp header added (the same record object). */
  @Override
  public ProducerRecord<K, V> onSend(ProducerRecord<K, V> record) {
    K key = record.key();
    Header logical = record.headers().lastHeader(AuditStamp.LOGICAL_KEY);
    int hash = logical != null ? AuditStamp.hash(logical.value()) : AuditStamp.hashKey(key);
    long seq = sequencer.next(hash);
    String gen = generation;
    if (gen == null) {
      Header v = record.headers().lastHeader(AuditStamp.VERSION_HEADER);
      gen = v == null || v.value() == null ? null : new String(v.value(), StandardCharsets.UTF_8);
    }
    Long ts = record.timestamp();
    long producedAt = ts != null ? ts : System.currentTimeMillis();
    record.headers().add(AuditStamp.HEADER,
        AuditStamp.encode(seq, producedAt, key != null, gen, producerField));
    return record;
  }

  @Override
  public void onAcknowledgement(RecordMetadata metadata, Exception exception) {}

  @Override
  public void close() {}

  /** Returns the producer id stamped on the records. */
  public String producerId() {
    return producerId;
  }

  /**
   * Returns this instance's epoch (12 hex digits, random), stamped beside the producer id so that
   * a restarted producer with the same fixed id is audited as another instance.
   */
  public String epoch() {
    return epoch;
  }
}
