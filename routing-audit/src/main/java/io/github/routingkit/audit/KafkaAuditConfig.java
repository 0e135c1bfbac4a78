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

  /** Where to record: the registered recorder or the shared file; exactly one must be set. */
  static AuditRecorder recorder(Map<String, ?> configs) {
    String log = string(configs, LOG);
    String name = string(configs, RECORDER);
    if (log != null && name != null) {
      throw new ConfigException(LOG, log, "set either " + LOG + " or " + RECORDER + ", not both");
    }
    if (log != null) {
      try {
        return AuditRecorders.openFile(Path.of(log));
      } catch (RuntimeException e) {
        throw new ConfigException(LOG, log, "cannot open the file for appending: "
            + e.getMessage());
      }
    }
    if (name != null) {
      try {
        return AuditRecorders.named(name);
      } catch (IllegalArgumentException e) {
        throw new ConfigException(RECORDER, name, e.getMessage());
      }
    }
    throw new ConfigException(LOG, null, "KafkaAuditConsumerInterceptor needs " + LOG
        + " (a file to append JSON lines to) or " + RECORDER + " (a registered recorder)");
  }
}
