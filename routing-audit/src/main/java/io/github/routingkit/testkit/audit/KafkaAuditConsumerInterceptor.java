package io.github.routingkit.testkit.audit;

import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerInterceptor;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The deprecated name of {@link io.github.routingkit.audit.KafkaAuditConsumerInterceptor}, kept so that
 * consumer configs naming it in {@code interceptor.classes} keep working; it delegates every call
 * to that class, with the same configuration and the same records.
 *
 * @param <K> the record key type
 * @param <V> the record value type
 * @deprecated use {@code interceptor.classes=io.github.routingkit.audit.KafkaAuditConsumerInterceptor}
 *     (artifact {@code routing-audit}); this name will be removed in a later release.
 */
@Deprecated
public final class KafkaAuditConsumerInterceptor<K, V> implements ConsumerInterceptor<K, V> {
  private final io.github.routingkit.audit.KafkaAuditConsumerInterceptor<K, V> delegate =
      new io.github.routingkit.audit.KafkaAuditConsumerInterceptor<>();

  /** Creates the interceptor (Kafka instantiates it from {@code interceptor.classes}). */
  public KafkaAuditConsumerInterceptor() {}

  /**
   * As {@link io.github.routingkit.audit.KafkaAuditConsumerInterceptor#configure(Map)}.
   *
   * @throws org.apache.kafka.common.config.ConfigException for a bad {@code routingkit.audit.*}
   *     setting, as the delegate does
   */
  @Override
  public void configure(Map<String, ?> configs) {
    delegate.configure(configs);
  }

  @Override
  public ConsumerRecords<K, V> onConsume(ConsumerRecords<K, V> records) {
    return delegate.onConsume(records);
  }

  @Override
  public void onCommit(Map<TopicPartition, OffsetAndMetadata> offsets) {
    delegate.onCommit(offsets);
  }

  @Override
  public void close() {
    delegate.close();
  }
}
