package io.github.routingkit.audit;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Ships audit records to a Kafka topic through a producer of its own ({@link TopicAuditRecorder}:
 * bounded queue, never blocks the application, drops and counts when full), keyed by the logical
 * key with Kafka's default partitioner, so all records of one key meet in one partition of the
 * audit topic; the continuous audit ({@code routing audit --follow}) reads that topic.
 *
 * <p>The producer's settings, over which {@code producerConfigs} win: byte-array serializers,
 * {@code acks=all}, {@code enable.idempotence=true} (one recorder's records keep their order in a
 * partition through retries), {@code linger.ms=50}, {@code compression.type=lz4},
 * {@code max.block.ms=5000} (only the sender thread waits), {@code buffer.memory=8388608}. Any consumer can use one — a Kafka
 * consumer interceptor ({@code routingkit.audit.topic}) or a Pulsar one
 * ({@code new PulsarAuditConsumerInterceptor<>(KafkaTopicAuditRecorder.create(...))}).
 * Thread-safe.
 */
public final class KafkaTopicAuditRecorder extends TopicAuditRecorder {
  private final Producer<byte[], byte[]> producer;
  private final String topic;

  private KafkaTopicAuditRecorder(Producer<byte[], byte[]> producer, String topic, int capacity) {
    super(topic, capacity);
    this.producer = producer;
    this.topic = topic;
    start();
  }

  /**
   * Creates a recorder with its own producer.
   *
   * @param producerConfigs the producer's configuration: {@code bootstrap.servers} at least, plus
   *     any security settings; these win over the defaults above
   * @param topic the audit topic (it must exist, or the broker must create topics)
   * @param capacity the queue's capacity in records, at least 1
   * @return the recorder; close it
   * @throws IllegalArgumentException if {@code capacity < 1} or the topic is empty
   * @throws org.apache.kafka.common.KafkaException if the producer cannot be created (a bad
   *     configuration)
   */
  public static KafkaTopicAuditRecorder create(Map<String, ?> producerConfigs, String topic,
      int capacity) {
    Objects.requireNonNull(producerConfigs, "producerConfigs");
    if (Objects.requireNonNull(topic, "topic").isBlank()) {
      throw new IllegalArgumentException("audit topic must not be empty");
    }
    Map<String, Object> p = new HashMap<>();
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    p.put(ProducerConfig.LINGER_MS_CONFIG, "50");
    p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
    p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "5000");
    p.put(ProducerConfig.BUFFER_MEMORY_CONFIG, "8388608");
    p.put(ProducerConfig.CLIENT_ID_CONFIG, "routingkit-audit-" + topic);
    p.putAll(producerConfigs);
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    p.remove(ProducerConfig.INTERCEPTOR_CLASSES_CONFIG); // never audit the audit
    return new KafkaTopicAuditRecorder(new KafkaProducer<>(p), topic, capacity);
  }

  /**
   * Creates a recorder over a given producer (tests, or a producer the application manages; it
   * is closed with the recorder).
   *
   * @param producer the producer
   * @param topic the audit topic
   * @param capacity the queue's capacity in records, at least 1
   * @return the recorder
   * @throws IllegalArgumentException if {@code capacity < 1}
   */
  public static KafkaTopicAuditRecorder over(Producer<byte[], byte[]> producer, String topic,
      int capacity) {
    return new KafkaTopicAuditRecorder(Objects.requireNonNull(producer, "producer"),
        Objects.requireNonNull(topic, "topic"), capacity);
  }

  @Override
  protected void send(String key, byte[] value, long timestamp) {
    producer.send(new ProducerRecord<>(topic, null, timestamp,
        key.getBytes(java.nio.charset.StandardCharsets.UTF_8), value),
        (metadata, exception) -> sent(exception == null));
  }

  @Override
  protected void flushClient() {
    producer.flush();
  }

  @Override
  protected void closeClient() {
    producer.close(java.time.Duration.ofSeconds(5));
  }

  /** Returns the audit topic. */
  public String topic() {
    return topic;
  }
}
