package io.github.routingkit.benchmarks;

import io.github.routingkit.audit.AuditRecord;
import io.github.routingkit.audit.AuditRecorder;
import io.github.routingkit.audit.AuditRecorders;
import io.github.routingkit.audit.KafkaAuditConsumerInterceptor;
import io.github.routingkit.audit.KafkaAuditProducerInterceptor;
import io.github.routingkit.audit.PulsarAuditConsumerInterceptor;
import io.github.routingkit.audit.PulsarAuditProducerInterceptor;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.pulsar.client.api.Consumer;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.Schema;
import org.apache.pulsar.client.impl.MessageImpl;
import org.apache.pulsar.common.api.proto.MessageMetadata;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the ordering-audit interceptors add per message (docs/audit.md), each next to its
 * baseline in the same run: stamping a Kafka {@code ProducerRecord} / a Pulsar {@code MessageImpl}
 * against building the record alone, and recording a received message (decode the stamp, build
 * the {@link AuditRecord}) into a recorder that keeps nothing, or as a JSON line appended to
 * {@code /dev/null} through {@code JsonLinesAuditRecorder}. 16-character keys (KeyPool).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class AuditInterceptorBenchmark {
  private static final String TOPIC = "orders";
  private static final int BATCH = 100;

  /** Keeps nothing; counts, so the JIT cannot drop the record. */
  static final class CountingRecorder implements AuditRecorder {
    long count;
    long sink;

    @Override
    public void record(AuditRecord record) {
      count++;
      sink += record.sequence();
    }
  }

  private KeyPool pool;
  private int next;
  private final byte[] value = new byte[100];
  private final KafkaAuditProducerInterceptor<String, byte[]> kafkaProducer =
      new KafkaAuditProducerInterceptor<>();
  private final KafkaAuditConsumerInterceptor<String, byte[]> kafkaConsumer =
      new KafkaAuditConsumerInterceptor<>();
  private final KafkaAuditConsumerInterceptor<String, byte[]> kafkaConsumerJson =
      new KafkaAuditConsumerInterceptor<>();
  private final PulsarAuditProducerInterceptor pulsarProducer =
      new PulsarAuditProducerInterceptor("bench-producer");
  private final CountingRecorder counting = new CountingRecorder();
  private PulsarAuditConsumerInterceptor<byte[]> pulsarConsumer;
  private ConsumerRecords<String, byte[]> kafkaBatch;
  private Message<byte[]>[] pulsarReceived;
  private Consumer<byte[]> consumer;

  @Setup
  @SuppressWarnings("unchecked")
  public void setUp() {
    pool = new KeyPool(16);
    kafkaProducer.configure(Map.of("client.id", "bench", "routingkit.audit.producer.id",
        "bench-producer"));
    AuditRecorders.register("bench-counting", counting);
    kafkaConsumer.configure(Map.of("client.id", "bench-consumer", "group.id", "g",
        "routingkit.audit.recorder", "bench-counting"));
    kafkaConsumerJson.configure(Map.of("client.id", "bench-consumer", "group.id", "g",
        "routingkit.audit.log", "/dev/null"));
    pulsarConsumer = new PulsarAuditConsumerInterceptor<>(counting);
    List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
    for (int i = 0; i < BATCH; i++) {
      ProducerRecord<String, byte[]> sent =
          kafkaProducer.onSend(new ProducerRecord<>(TOPIC, pool.strings[i], value));
      ConsumerRecord<String, byte[]> r = new ConsumerRecord<>(TOPIC, 3, 1000 + i,
          pool.strings[i], value);
      sent.headers().forEach(h -> r.headers().add(h));
      records.add(r);
    }
    kafkaBatch = new ConsumerRecords<>(Map.of(new TopicPartition(TOPIC, 3), records), Map.of());
    pulsarReceived = new Message[BATCH];
    for (int i = 0; i < BATCH; i++) {
      Message<byte[]> m = pulsarMessage(pool.strings[i]);
      pulsarProducer.beforeSend(null, m);
      pulsarReceived[i] = MessageImpl.create(((MessageImpl<byte[]>) m).getMessageBuilder(),
          ByteBuffer.wrap(value), Schema.BYTES, TOPIC + "-partition-3");
    }
    consumer = (Consumer<byte[]>) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {Consumer.class}, (proxy, method, args) ->
            method.getName().equals("getConsumerName") ? "bench-consumer" : null);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    kafkaConsumer.close();
    kafkaConsumerJson.close();
    AuditRecorders.unregister("bench-counting");
  }

  private Message<byte[]> pulsarMessage(String key) {
    MessageMetadata md = new MessageMetadata().setProducerName("bench").setSequenceId(next)
        .setPublishTime(0L).setPartitionKey(key);
    return MessageImpl.create(md, ByteBuffer.wrap(value), Schema.BYTES, TOPIC);
  }

  /** Baseline: the record a Kafka application builds for each send. */
  @Benchmark
  public ProducerRecord<String, byte[]> kafkaRecordOnly() {
    return new ProducerRecord<>(TOPIC, pool.strings[next++ & KeyPool.MASK], value);
  }

  /** The same record, stamped by the producer interceptor. */
  @Benchmark
  public ProducerRecord<String, byte[]> kafkaRecordStamped() {
    return kafkaProducer.onSend(
        new ProducerRecord<>(TOPIC, pool.strings[next++ & KeyPool.MASK], value));
  }

  /** Recording a received batch into a recorder that keeps nothing (per record). */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public ConsumerRecords<String, byte[]> kafkaConsumeRecorded() {
    return kafkaConsumer.onConsume(kafkaBatch);
  }

  /** Recording a received batch as JSON lines appended to /dev/null (per record). */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public ConsumerRecords<String, byte[]> kafkaConsumeJsonLines() {
    return kafkaConsumerJson.onConsume(kafkaBatch);
  }

  /** Baseline: the message a Pulsar producer builds for each send. */
  @Benchmark
  public Message<byte[]> pulsarMessageOnly() {
    return pulsarMessage(pool.strings[next++ & KeyPool.MASK]);
  }

  /** The same message, stamped by the producer interceptor. */
  @Benchmark
  public Message<byte[]> pulsarMessageStamped() {
    return pulsarProducer.beforeSend(null, pulsarMessage(pool.strings[next++ & KeyPool.MASK]));
  }

  /** Recording a received message into a recorder that keeps nothing. */
  @Benchmark
  public Message<byte[]> pulsarConsumeRecorded() {
    return pulsarConsumer.beforeConsume(consumer, pulsarReceived[next++ % BATCH]);
  }
}
