package io.github.routingkit.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/** The topic recorders without a broker: event shape, bounded buffer, drops, failures. */
class TopicAuditRecorderTest {
  static AuditRecord rec(String key, long seq) {
    return new AuditRecord(key, "p", "00ab", seq, 0, null, true, "orders", 3, "c", "kafka-group",
        -1, Long.toString(seq), 1_000 + seq);
  }

  static MockProducer<byte[], byte[]> mock() {
    return new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
  }

  static void awaitSent(TopicAuditRecorder r, long n) throws InterruptedException {
    for (int i = 0; i < 10_000 && r.sent() + r.failed() < n; i++) {
      Thread.sleep(5);
    }
  }

  @Test
  void eventsAreKeyedByTheLogicalKeyWithTheLineAsValueAndTheObservationTime() throws Exception {
    MockProducer<byte[], byte[]> producer = mock();
    KafkaTopicAuditRecorder recorder = KafkaTopicAuditRecorder.over(producer, "audit-events", 10);
    recorder.record(rec("order-1", 1));
    recorder.record(rec("order-2", 2));
    awaitSent(recorder, 2);
    recorder.close();
    List<ProducerRecord<byte[], byte[]>> sent = producer.history();
    assertThat(sent).hasSize(2);
    assertThat(sent.get(0).topic()).isEqualTo("audit-events");
    assertThat(new String(sent.get(0).key(), StandardCharsets.UTF_8)).isEqualTo("order-1");
    assertThat(AuditLog.parse(new String(sent.get(1).value(), StandardCharsets.UTF_8)))
        .isEqualTo(rec("order-2", 2));
    assertThat(sent.get(1).timestamp()).isEqualTo(1_002L);
    assertThat(recorder.sent()).isEqualTo(2);
    assertThat(recorder.dropped()).isZero();
    assertThat(producer.closed()).isTrue();
  }

  /** A stuck audit producer never blocks record(): the buffer fills, then records are dropped. */
  @Test
  void aFullBufferDropsAndCountsAuditRecordsWithoutBlocking() throws Exception {
    CountDownLatch stuck = new CountDownLatch(1);
    CountDownLatch entered = new CountDownLatch(1);
    MockProducer<byte[], byte[]> producer = new MockProducer<>(true, null,
        new ByteArraySerializer(), new ByteArraySerializer()) {
      @Override
      public synchronized Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record,
          Callback callback) {
        entered.countDown();
        try {
          stuck.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        return super.send(record, callback);
      }
    };
    KafkaTopicAuditRecorder recorder = KafkaTopicAuditRecorder.over(producer, "audit-events", 5);
    recorder.record(rec("k", 0));
    assertThat(entered.await(60, TimeUnit.SECONDS)).isTrue(); // the sender holds record 0
    for (int i = 1; i <= 100; i++) {
      recorder.record(rec("k", i)); // returns at once although the producer is stuck
    }
    assertThat(recorder.backlog()).isEqualTo(5);
    assertThat(recorder.dropped()).isEqualTo(95);
    assertThat(recorder.queued()).isEqualTo(6);
    stuck.countDown();
    awaitSent(recorder, 6);
    recorder.close();
    assertThat(recorder.sent()).isEqualTo(6);
    assertThat(producer.history()).hasSize(6);
  }

  @Test
  void failedSendsAreCountedAndNeverThrown() throws Exception {
    MockProducer<byte[], byte[]> producer = new MockProducer<>(false, null,
        new ByteArraySerializer(), new ByteArraySerializer());
    KafkaTopicAuditRecorder recorder = KafkaTopicAuditRecorder.over(producer, "audit-events", 10);
    recorder.record(rec("k", 1));
    recorder.record(rec("k", 2));
    for (int i = 0; i < 10_000 && producer.history().size() < 2; i++) {
      Thread.sleep(5);
    }
    producer.errorNext(new org.apache.kafka.common.errors.TimeoutException("broker gone"));
    producer.completeNext();
    awaitSent(recorder, 2);
    assertThat(recorder.failed()).isEqualTo(1);
    assertThat(recorder.sent()).isEqualTo(1);
    recorder.close();
    recorder.record(rec("k", 3)); // after close: ignored, never thrown
    assertThat(recorder.queued()).isEqualTo(2);
  }

  /** routingkit.audit.topic on an unreachable cluster: the consumer's poll path never waits. */
  @Test
  void theConsumerInterceptorShipsToATopicAndNeverWaitsForIt() throws Exception {
    Map<String, Object> c = new HashMap<>();
    c.put("client.id", "worker-3");
    c.put("bootstrap.servers", "127.0.0.1:1"); // nothing listens
    c.put("routingkit.audit.topic", "audit-events");
    c.put("routingkit.audit.topic.buffer.records", "3");
    c.put("routingkit.audit.topic.producer.max.block.ms", "200");
    KafkaAuditConsumerInterceptor<String, String> consumer = new KafkaAuditConsumerInterceptor<>();
    consumer.configure(c);
    KafkaAuditProducerInterceptor<String, String> producer = new KafkaAuditProducerInterceptor<>();
    producer.configure(Map.of("routingkit.audit.producer.id", "p"));
    ProducerRecord<String, String> sent = producer.onSend(new ProducerRecord<>("t", "k", "v"));
    ConsumerRecord<String, String> got = new ConsumerRecord<>("t", 0, 0, "k", "v");
    sent.headers().forEach(h -> got.headers().add(h));
    ConsumerRecords<String, String> batch = new ConsumerRecords<>(Map.of(
        new TopicPartition("t", 0), List.of(got, got, got, got, got, got, got, got)), Map.of());
    for (int i = 0; i < 50; i++) {
      assertThat(consumer.onConsume(batch)).isSameAs(batch);
    }
    consumer.onCommit(Map.of());
    consumer.close();

    assertThatThrownBy(() -> new KafkaAuditConsumerInterceptor<String, String>().configure(Map.of(
        "routingkit.audit.topic", "audit-events"))).isInstanceOf(ConfigException.class)
        .hasMessageContaining("routingkit.audit.topic.bootstrap.servers");
    assertThatThrownBy(() -> new KafkaAuditConsumerInterceptor<String, String>().configure(Map.of(
        "routingkit.audit.topic", "audit-events", "routingkit.audit.log", "/tmp/x")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("not several");
    assertThatThrownBy(() -> new KafkaAuditConsumerInterceptor<String, String>().configure(Map.of(
        "bootstrap.servers", "127.0.0.1:1", "routingkit.audit.topic", "audit-events",
        "routingkit.audit.topic.buffer.records", "+5"))).isInstanceOf(ConfigException.class)
        .hasMessageContaining("routingkit.audit.topic.buffer.records");
  }
}
