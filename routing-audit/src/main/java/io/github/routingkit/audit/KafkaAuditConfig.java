package io.github.routingkit.audit;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.kafka.common.config.ConfigException;

/** The {@code routingkit.audit.*} settings of the Kafka interceptors. */
final class KafkaAuditConfig {
  static final String PRODUCER_ID = "routingkit.audit.producer.id";
  static final String GENERATION = "routingkit.audit.generation";
  static final String CONSUMER_ID = "routingkit.audit.consumer.id";
  static final String LOG = "routingkit.audit.log";
  static final String RECORDER = "routingkit.audit.recorder";
  static final String SUBSCRIPTION = "routingkit.audit.subscription";
  static final String TOPIC = "routingkit.audit.topic";
  static final String TOPIC_BOOTSTRAP = "routingkit.audit.topic.bootstrap.servers";
  static final String TOPIC_BUFFER = "routingkit.audit.topic.buffer.records";
  static final String TOPIC_PRODUCER_PREFIX = "routingkit.audit.topic.producer.";

  private KafkaAuditConfig() {}

  static String string(Map<String, ?> configs, String key) {
    Object v = configs.get(key);
    if (v == null) {
      return null;
    }
    String s = v.toString().trim();
    if (s.isEmpty()) {
      throw new ConfigException(key, v, "must not be empty");
    }
    return s;
  }

  static String producerId(Map<String, ?> configs) {
    String id = string(configs, PRODUCER_ID);
    if (id != null) {
      return id;
    }
    Object client = configs.get("client.id");
    String base = client == null || client.toString().isBlank() ? "producer" : client.toString();
    return base + "-" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffffL);
  }

  /** A recorder and the key to release it with (null when not shared). */
  static final class Lease {
    final AuditRecorder recorder;
    final String sharedKey;

    Lease(AuditRecorder recorder, String sharedKey) {
      this.recorder = recorder;
      this.sharedKey = sharedKey;
    }

    void release() {
      if (sharedKey != null) {
        AuditRecorders.release(sharedKey);
      }
    }
  }

  /**
   * Where to record: the registered recorder, the shared file or the shared topic recorder;
   * exactly one must be set.
   */
  static Lease recorder(Map<String, ?> configs) {
    String log = string(configs, LOG);
    String name = string(configs, RECORDER);
    String topic = string(configs, TOPIC);
    int set = (log != null ? 1 : 0) + (name != null ? 1 : 0) + (topic != null ? 1 : 0);
    if (set > 1) {
      String key = log != null ? LOG : RECORDER;
      throw new ConfigException(key, log != null ? log : name, "set one of " + LOG + ", "
          + RECORDER + " and " + TOPIC + ", not several");
    }
    if (log != null) {
      try {
        return new Lease(AuditRecorders.openFile(Path.of(log)),
            AuditRecorders.fileKey(Path.of(log)));
      } catch (RuntimeException e) {
        throw new ConfigException(LOG, log, "cannot open the file for appending: "
            + e.getMessage());
      }
    }
    if (name != null) {
      try {
        return new Lease(AuditRecorders.named(name), null);
      } catch (IllegalArgumentException e) {
        throw new ConfigException(RECORDER, name, e.getMessage());
      }
    }
    if (topic != null) {
      return topicRecorder(configs, topic);
    }
    throw new ConfigException(LOG, null, "KafkaAuditConsumerInterceptor needs " + LOG
        + " (a file to append JSON lines to), " + RECORDER + " (a registered recorder) or "
        + TOPIC + " (a Kafka topic of audit events)");
  }

  /**
   * The shared recorder of a topic: its producer talks to {@code routingkit.audit.topic.bootstrap.servers},
   * else to the consumer's own cluster with the consumer's security settings; then
   * {@code routingkit.audit.topic.producer.*} settings apply.
   */
  private static Lease topicRecorder(Map<String, ?> configs, String topic) {
    Map<String, Object> producer = new java.util.HashMap<>();
    String bootstrap = string(configs, TOPIC_BOOTSTRAP);
    if (bootstrap == null) {
      Object own = configs.get("bootstrap.servers");
      if (own == null) {
        throw new ConfigException(TOPIC_BOOTSTRAP, null, "no bootstrap.servers to send "
            + "audit events to: set " + TOPIC_BOOTSTRAP);
      }
      bootstrap = own instanceof java.util.Collection
          ? String.join(",", ((java.util.Collection<?>) own).stream().map(Object::toString)
              .toArray(String[]::new)) : own.toString();
      for (Map.Entry<String, ?> e : configs.entrySet()) {
        String k = e.getKey();
        if (k.equals("security.protocol") || k.startsWith("sasl.") || k.startsWith("ssl.")) {
          producer.put(k, e.getValue());
        }
      }
    }
    producer.put("bootstrap.servers", bootstrap);
    for (Map.Entry<String, ?> e : configs.entrySet()) {
      if (e.getKey().startsWith(TOPIC_PRODUCER_PREFIX)) {
        producer.put(e.getKey().substring(TOPIC_PRODUCER_PREFIX.length()), e.getValue());
      }
    }
    String buffer = string(configs, TOPIC_BUFFER);
    int capacity = TopicAuditRecorder.DEFAULT_CAPACITY;
    if (buffer != null) {
      long n = AuditStamp.parseDigits(buffer, 0, buffer.length(), false);
      if (n < 1 || n > 100_000_000) {
        throw new ConfigException(TOPIC_BUFFER, buffer, "must be a whole number of records in"
            + " [1, 100000000]");
      }
      capacity = (int) n;
    }
    String key = "kafka:" + bootstrap + "/" + topic;
    int cap = capacity;
    try {
      return new Lease(AuditRecorders.openShared(key,
          () -> KafkaTopicAuditRecorder.create(producer, topic, cap)), key);
    } catch (org.apache.kafka.common.KafkaException e) {
      throw new ConfigException(TOPIC, topic, "cannot create the audit events producer: "
          + e.getMessage());
    }
  }
}
