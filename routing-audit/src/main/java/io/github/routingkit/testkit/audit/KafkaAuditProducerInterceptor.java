package io.github.routingkit.testkit.audit;

import java.util.Map;
import org.apache.kafka.clients.producer.ProducerInterceptor;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * The deprecated name of {@link io.github.routingkit.audit.KafkaAuditProducerInterceptor}, kept so that
 * producer configs naming it in {@code interceptor.classes} keep working; it delegates every call
 * to that class, with the same configuration and the same stamps.
 *
 * @param <K> the record key type
 * @param <V> the record value type
 * @deprecated use {@code interceptor.classes=io.github.routingkit.audit.KafkaAuditProducerInterceptor}
 *     (artifact {@code routing-audit}); this name will be removed in a later release.
 */
@Deprecated
public final class KafkaAuditProducerInterceptor<K, V> implements ProducerInterceptor<K, V> {
  private final io.github.routingkit.audit.KafkaAuditProducerInterceptor<K, V> delegate =
      new io.github.routingkit.audit.KafkaAuditProducerInterceptor<>();

  /** Creates the interceptor (Kafka instantiates it from {@code interceptor.classes}). */
  public KafkaAuditProducerInterceptor() {}

  /**
   * As {@link io.github.routingkit.audit.KafkaAuditProducerInterceptor#configure(Map)}.
   *
   * @throws org.apache.kafka.common.config.ConfigException for an empty value
   */
  @Override
  public void configure(Map<String, ?> configs) {
    delegate.configure(configs);
  }

  @Override
  public ProducerRecord<K, V> onSend(ProducerRecord<K, V> record) {
    return delegate.onSend(record);
  }

  @Override
  public void onAcknowledgement(RecordMetadata metadata, Exception exception) {
    delegate.onAcknowledgement(metadata, exception);
  }

  @Override
  public void close() {
    delegate.close();
  }
}
