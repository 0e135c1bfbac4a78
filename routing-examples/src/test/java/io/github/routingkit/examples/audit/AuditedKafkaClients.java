package io.github.routingkit.examples.audit;

import io.github.routingkit.audit.KafkaAuditConsumerInterceptor;
import io.github.routingkit.audit.KafkaAuditProducerInterceptor;
import io.github.routingkit.testbrokers.EmbeddedKafka;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The client configurations of the Kafka audit broker tests, as maps the tests both run their
 * clients with and hand to {@code routing lint}: String keys and values, the audit's stamping and
 * recording interceptors.
 */
final class AuditedKafkaClients {
  private AuditedKafkaClients() {}

  /** A producer stamping as {@code id}, linger 0, with {@code extra} on top. */
  static Map<String, Object> producerConfig(EmbeddedKafka kafka, String id,
      Map<String, Object> extra) {
    Map<String, Object> p = new LinkedHashMap<>();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.INTERCEPTOR_CLASSES_CONFIG, KafkaAuditProducerInterceptor.class.getName());
    p.put("routingkit.audit.producer.id", id);
    p.put(ProducerConfig.LINGER_MS_CONFIG, "0");
    p.putAll(extra);
    return p;
  }

  /**
   * A consumer named {@code name} recording into the registered recorder {@code recorder} (or,
   * {@code file:PATH}, a JSON-lines log), in {@code group} (null: none), committing itself unless
   * {@code extra} says otherwise, with {@code extra} on top.
   */
  static Map<String, Object> consumerConfig(EmbeddedKafka kafka, String name, String recorder,
      String group, Map<String, Object> extra) {
    Map<String, Object> c = new LinkedHashMap<>();
    c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    c.put(ConsumerConfig.INTERCEPTOR_CLASSES_CONFIG, KafkaAuditConsumerInterceptor.class.getName());
    c.put(ConsumerConfig.CLIENT_ID_CONFIG, name);
    c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    if (recorder.startsWith("file:")) {
      c.put("routingkit.audit.log", recorder.substring("file:".length()));
    } else {
      c.put("routingkit.audit.recorder", recorder);
    }
    if (group != null) {
      c.put(ConsumerConfig.GROUP_ID_CONFIG, group);
    }
    c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    c.putAll(extra);
    return c;
  }
}
