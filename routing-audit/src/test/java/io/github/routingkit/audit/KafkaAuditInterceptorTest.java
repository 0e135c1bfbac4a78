package io.github.routingkit.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Kafka interceptors without a broker: stamp, record, generation, keyless, configuration. */
class KafkaAuditInterceptorTest {
  @TempDir
  Path dir;

  static ConsumerRecord<String, String> received(ProducerRecord<String, String> sent, int partition,
      long offset) {
    ConsumerRecord<String, String> r = new ConsumerRecord<>(sent.topic(), partition, offset,
        sent.key(), sent.value());
    sent.headers().forEach(h -> r.headers().add(h));
    return r;
  }

  @Test
  void stampedRecordsAreRecordedWithGenerationLogicalKeyAndOffsets() {
    KafkaAuditProducerInterceptor<String, String> producer = new KafkaAuditProducerInterceptor<>();
    producer.configure(Map.of("client.id", "p", "routingkit.audit.producer.id", "checkout-7"));
    ProducerRecord<String, String> keyed = new ProducerRecord<>("orders", "order-7", "a");
    keyed.headers().add(AuditStamp.VERSION_HEADER, "v2".getBytes(StandardCharsets.UTF_8));
    ProducerRecord<String, String> keyless = new ProducerRecord<>("orders", null, "b");
    keyless.headers().add(AuditStamp.LOGICAL_KEY, "order-7".getBytes(StandardCharsets.UTF_8));
    ProducerRecord<String, String> anonymous = new ProducerRecord<>("orders", null, "c");
    producer.onSend(keyed);
    producer.onSend(keyless);
    producer.onSend(anonymous);

    InMemoryAuditRecorder recorder = new InMemoryAuditRecorder();
    AuditRecorders.register("unit", recorder);
    KafkaAuditConsumerInterceptor<String, String> consumer = new KafkaAuditConsumerInterceptor<>();
    consumer.configure(Map.of("client.id", "worker-3", "group.id", "g",
        "routingkit.audit.recorder", "unit"));
    ConsumerRecords<String, String> batch = new ConsumerRecords<>(Map.of(
        new TopicPartition("orders", 3), List.of(received(keyed, 3, 40), received(keyless, 3, 41),
            received(anonymous, 3, 42), new ConsumerRecord<>("orders", 3, 43, "x", "unstamped"))),
        Map.of());
    assertThat(consumer.onConsume(batch)).isSameAs(batch);
    List<AuditRecord> records = recorder.records();
    assertThat(records).hasSize(2);
    AuditRecord first = records.get(0);
    AuditRecord second = records.get(1);
    assertThat(first.key()).isEqualTo("order-7");
    assertThat(first.producer()).isEqualTo("checkout-7");
    assertThat(first.generation()).isEqualTo("v2");
    assertThat(first.keyed()).isTrue();
    assertThat(first.consumer()).isEqualTo("worker-3");
    assertThat(first.subscription()).isEqualTo("kafka-group");
    assertThat(first.partition()).isEqualTo(3);
    assertThat(first.position()).isEqualTo("40");
    assertThat(first.redeliveryCount()).isEqualTo(-1);
    assertThat(second.key()).isEqualTo("order-7");
    assertThat(second.keyed()).isFalse();
    assertThat(second.generation()).isNull();
    assertThat(second.sequence()).isGreaterThan(first.sequence()); // one key, one counter
    consumer.close();
    AuditRecorders.unregister("unit");
  }

  @Test
  void fixedGenerationAndDefaultIds() {
    KafkaAuditProducerInterceptor<String, String> producer = new KafkaAuditProducerInterceptor<>();
    producer.configure(Map.of("client.id", "producer-1", "routingkit.audit.generation", "g7"));
    assertThat(producer.producerId()).startsWith("producer-1-");
    ProducerRecord<String, String> r = producer.onSend(new ProducerRecord<>("t", "k", "v"));
    assertThat(AuditStamp.decode(r.headers().lastHeader(AuditStamp.HEADER).value()).generation())
        .isEqualTo("g7");
  }

  @Test
  void badConfigurationNamesTheProperty() {
    KafkaAuditConsumerInterceptor<String, String> c = new KafkaAuditConsumerInterceptor<>();
    assertThatThrownBy(() -> c.configure(Map.of("client.id", "x")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("routingkit.audit.log");
    assertThatThrownBy(() -> c.configure(Map.of("routingkit.audit.log", "a",
        "routingkit.audit.recorder", "b"))).isInstanceOf(ConfigException.class)
        .hasMessageContaining("not several");
    assertThatThrownBy(() -> c.configure(Map.of("routingkit.audit.recorder", "nobody")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("nobody");
    assertThatThrownBy(() -> c.configure(Map.of("routingkit.audit.log",
        dir.resolve("missing-dir/x.jsonl").toString()))).isInstanceOf(ConfigException.class)
        .hasMessageContaining("cannot open");
    assertThatThrownBy(() -> new KafkaAuditProducerInterceptor<String, String>()
        .configure(Map.of("routingkit.audit.producer.id", " ")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("must not be empty");
  }

  @Test
  void consumersOfOneFileShareOneWriterAndTheLastCloseFlushes() throws Exception {
    Path log = dir.resolve("audit.jsonl");
    KafkaAuditProducerInterceptor<String, String> producer = new KafkaAuditProducerInterceptor<>();
    producer.configure(Map.of("routingkit.audit.producer.id", "p"));
    ProducerRecord<String, String> sent = producer.onSend(new ProducerRecord<>("t", "k", "v"));
    KafkaAuditConsumerInterceptor<String, String> a = new KafkaAuditConsumerInterceptor<>();
    KafkaAuditConsumerInterceptor<String, String> b = new KafkaAuditConsumerInterceptor<>();
    a.configure(Map.of("client.id", "a", "routingkit.audit.log", log.toString()));
    b.configure(Map.of("client.id", "b", "routingkit.audit.log", log.toString()));
    a.onConsume(new ConsumerRecords<>(Map.of(new TopicPartition("t", 0),
        List.of(received(sent, 0, 1))), Map.of()));
    b.onConsume(new ConsumerRecords<>(Map.of(new TopicPartition("t", 0),
        List.of(received(sent, 0, 1))), Map.of()));
    a.close();
    b.close();
    List<String> lines = Files.readAllLines(log);
    assertThat(lines).hasSize(2);
    assertThat(AuditLog.parse(lines.get(0)).consumer()).isEqualTo("a");
    assertThat(AuditLog.parse(lines.get(1)).subscription()).isEqualTo("kafka-assign");
  }
}
