package io.github.routingkit.examples;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.kafka.RoutingProducer;
import io.github.routingkit.testbrokers.EmbeddedKafka;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerInterceptor;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.clients.producer.RoundRobinPartitioner;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link RoutingProducer} on a real broker: keyless records keep kafka-clients' built-in
 * partitioner. What is deterministic is asserted: every keyless record reaches kafka-clients
 * without a partition (so BuiltInPartitioner places it, adaptive partitioning on), keyed records
 * land where the plain producer puts them (default spec), and the built-in's sticky rule holds with
 * and without the decorator: a partition is kept until at least {@code batch.size} bytes went to
 * it, so each completed run of keyless records is at least {@value #MIN_RUN} records long. The
 * adaptive draw itself (queue lengths, random) is timing-dependent and is not compared; a
 * round-robin partitioner is the control that breaks the run rule.
 */
@Tag("broker")
class RoutingProducerBrokerTest {
  private static final int RECORDS = 20_000;
  private static final int PARTITIONS = 6;
  private static final int VALUE_BYTES = 100;
  private static final int BATCH_SIZE = 16_384;
  /**
   * A keyless 100-byte record appends at most 111 bytes to a batch (v2 record: length, attributes,
   * timestamp and offset deltas, key and value lengths, headers count) plus at most a 61-byte batch
   * header: so {@code batch.size} bytes take at least 16384 / 172 records, rounded up.
   */
  private static final int MIN_RUN = (BATCH_SIZE + 171) / 172;

  /** Per client.id: keyless records seen by onSend without a partition, keyed with one. */
  static final Map<String, AtomicLong> KEYLESS_UNPARTITIONED = new ConcurrentHashMap<>();
  static final Map<String, AtomicLong> KEYED_PARTITIONED = new ConcurrentHashMap<>();

  /** Counts what reaches kafka-clients after the decorator. */
  public static final class SeenBySend implements ProducerInterceptor<byte[], byte[]> {
    private String client;

    @Override
    public ProducerRecord<byte[], byte[]> onSend(ProducerRecord<byte[], byte[]> r) {
      if (r.key() == null && r.partition() == null) {
        KEYLESS_UNPARTITIONED.computeIfAbsent(client, c -> new AtomicLong()).incrementAndGet();
      } else if (r.key() != null && r.partition() != null) {
        KEYED_PARTITIONED.computeIfAbsent(client, c -> new AtomicLong()).incrementAndGet();
      }
      return r;
    }

    @Override
    public void onAcknowledgement(RecordMetadata metadata, Exception exception) {}

    @Override
    public void close() {}

    @Override
    public void configure(Map<String, ?> configs) {
      client = String.valueOf(configs.get(ProducerConfig.CLIENT_ID_CONFIG));
    }
  }

  @Test
  void keylessRecordsKeepTheBuiltInPartitioner() throws Exception {
    try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
      for (String t : new String[] {"plain", "decorated", "control"}) {
        kafka.createTopic(t, PARTITIONS);
      }
      Sent plain = produce(kafka, "plain", false, false);
      Sent decorated = produce(kafka, "decorated", true, false);
      Sent control = produce(kafka, "control", false, true);
      System.out.printf("keyless runs (records): plain min %d mean %.1f, decorated min %d mean %.1f,"
          + " round-robin min %d%n", plain.minRun(), plain.meanRun(), decorated.minRun(),
          decorated.meanRun(), control.minRun());

      assertThat(KEYLESS_UNPARTITIONED.get("decorated").get())
          .as("keyless records reaching kafka-clients without a partition")
          .isEqualTo(plain.keyless);
      assertThat(KEYED_PARTITIONED.get("decorated").get())
          .as("keyed records reaching kafka-clients with RoutingKit's partition")
          .isEqualTo(plain.keyed.size());
      assertThat(decorated.keyed).as("keyed partitions, decorated vs plain").isEqualTo(plain.keyed);
      for (Sent s : List.of(plain, decorated)) {
        assertThat(s.runs.size()).as("%s keyless runs", s.topic).isGreaterThan(10);
        assertThat(s.minRun()).as("%s shortest completed keyless run", s.topic)
            .isGreaterThanOrEqualTo(MIN_RUN);
        assertThat(s.partitionsUsed).as("%s partitions with keyless records", s.topic)
            .hasSize(PARTITIONS);
      }
      assertThat(control.minRun()).as("round-robin control breaks the run rule")
          .isLessThan(MIN_RUN);
    }
  }

  private static Sent produce(EmbeddedKafka kafka, String topic, boolean decorate, boolean control)
      throws Exception {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    p.put(ProducerConfig.CLIENT_ID_CONFIG, topic);
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    p.put(ProducerConfig.BATCH_SIZE_CONFIG, BATCH_SIZE);
    p.put(ProducerConfig.INTERCEPTOR_CLASSES_CONFIG, SeenBySend.class.getName());
    if (control) {
      p.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, RoundRobinPartitioner.class.getName());
    }
    Sent out = new Sent(topic);
    List<Future<RecordMetadata>> keyless = new ArrayList<>();
    List<Future<RecordMetadata>> keyed = new ArrayList<>();
    try (KafkaProducer<byte[], byte[]> kp = new KafkaProducer<>(p)) {
      @SuppressWarnings("unchecked")
      Producer<byte[], byte[]> producer = decorate
          ? RoutingProducer.wrap(kp, (Map<String, ?>) (Map<?, ?>) p) : kp;
      for (int i = 0; i < RECORDS; i++) {
        byte[] value = new byte[VALUE_BYTES];
        value[i % VALUE_BYTES] = (byte) i;
        if (i % 5 == 0) {
          keyed.add(producer.send(
              new ProducerRecord<>(topic, ("key-" + (i % 500)).getBytes(UTF_8), value)));
        } else {
          keyless.add(producer.send(new ProducerRecord<>(topic, null, value)));
        }
      }
      producer.flush();
    }
    out.keyless = keyless.size();
    int run = 0;
    int last = -1;
    for (Future<RecordMetadata> f : keyless) {
      int partition = f.get().partition();
      out.partitionsUsed.add(partition);
      if (partition != last && last != -1) {
        out.runs.add(run);
        run = 0;
      }
      last = partition;
      run++;
    }
    for (Future<RecordMetadata> f : keyed) {
      out.keyed.add(f.get().partition());
    }
    return out;
  }

  /** What one producer sent: completed keyless runs, in send order, and keyed partitions. */
  private static final class Sent {
    final String topic;
    final List<Integer> runs = new ArrayList<>();
    final Set<Integer> partitionsUsed = new HashSet<>();
    final List<Integer> keyed = new ArrayList<>();
    long keyless;

    Sent(String topic) {
      this.topic = topic;
    }

    int minRun() {
      return runs.stream().mapToInt(Integer::intValue).min().orElse(0);
    }

    double meanRun() {
      return runs.stream().mapToInt(Integer::intValue).average().orElse(0);
    }
  }
}
