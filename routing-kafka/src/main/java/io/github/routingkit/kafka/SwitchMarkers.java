package io.github.routingkit.kafka;

import io.github.routingkit.SwitchBarrier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Switch markers for Kafka: at a cutover step the producer side sends one marker record to every
 * partition of the topic (an explicit partition, so the partitioner is not asked), carrying the
 * routing generation and step in headers; the consumer side recognises them and, with a
 * {@link SwitchBarrier}, hands business code only real records, in per-key order.
 *
 * <p>A marker has a null key and a null value (serializers pass null through) and the headers
 * {@value #GENERATION_HEADER} (UTF-8) and {@value #STEP_HEADER} (decimal, UTF-8). A compacted
 * topic rejects null keys: use {@link #send(Producer, String, String, int, Object)} with a key
 * there. Thread-safety: static helpers are stateless; {@link #filter} uses the barrier, which is
 * not thread-safe.
 */
public final class SwitchMarkers {
  /** The header naming the routing generation of a marker; its presence makes a marker. */
  public static final String GENERATION_HEADER = "routing-marker";
  /** The header carrying the rollout step of a marker. */
  public static final String STEP_HEADER = "routing-marker-step";

  private SwitchMarkers() {}

  /** A marker as read back: generation, step, and the partition it was read from. */
  public static final class Marker {
    private final String generation;
    private final int step;
    private final int partition;

    /** Creates the value. */
    public Marker(String generation, int step, int partition) {
      this.generation = generation;
      this.step = step;
      this.partition = partition;
    }

    /** Returns the {@code generation} component. */
    public String generation() {
      return generation;
    }

    /** Returns the {@code step} component. */
    public int step() {
      return step;
    }

    /** Returns the {@code partition} component. */
    public int partition() {
      return partition;
    }

    @Override
    public boolean equals(Object o) {
      if (this == o) {
        return true;
      }
      if (!(o instanceof Marker)) {
        return false;
      }
      Marker other = (Marker) o;
      return Objects.equals(generation, other.generation)
          && step == other.step
          && partition == other.partition;
    }

    @Override
    public int hashCode() {
      int h = 0;
      h = 31 * h + Objects.hashCode(generation);
      h = 31 * h + Integer.hashCode(step);
      h = 31 * h + Integer.hashCode(partition);
      return h;
    }

    @Override
    public String toString() {
      return "Marker[generation=" + generation + ", step=" + step + ", partition=" + partition
          + "]";
    }
  }

  /**
   * Sends a marker to every partition of {@code topic}, flushes, and waits for every ack.
   *
   * @return the number of partitions marked (the topic's partition count)
   * @throws IllegalArgumentException if {@code generation} is empty or {@code step} negative
   * @throws org.apache.kafka.common.KafkaException if a send fails (the cause is kept)
   */
  public static <K, V> int send(Producer<K, V> producer, String topic, String generation,
      int step) {
    return send(producer, topic, generation, step, null);
  }

  /** As {@link #send(Producer, String, String, int)}, with {@code key} on every marker. */
  public static <K, V> int send(Producer<K, V> producer, String topic, String generation,
      int step, K key) {
    Objects.requireNonNull(producer, "producer");
    Objects.requireNonNull(topic, "topic");
    if (generation == null || generation.isEmpty() || step < 0) {
      throw new IllegalArgumentException("marker generation was '" + generation + "' and step "
          + step + ": need a non-empty generation and a step >= 0");
    }
    int partitions = producer.partitionsFor(topic).size();
    List<Future<RecordMetadata>> acks = new ArrayList<>(partitions);
    for (int p = 0; p < partitions; p++) {
      RecordHeaders headers = new RecordHeaders();
      headers.add(GENERATION_HEADER, generation.getBytes(StandardCharsets.UTF_8));
      headers.add(STEP_HEADER, Integer.toString(step).getBytes(StandardCharsets.UTF_8));
      acks.add(producer.send(new ProducerRecord<>(topic, p, key, null, headers)));
    }
    producer.flush();
    for (Future<RecordMetadata> f : acks) {
      try {
        f.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new org.apache.kafka.common.errors.InterruptException(e);
      } catch (ExecutionException e) {
        throw new org.apache.kafka.common.KafkaException("marker send failed", e.getCause());
      }
    }
    return partitions;
  }

  /** Returns the marker this record is, or null if it is an ordinary record. */
  public static Marker marker(ConsumerRecord<?, ?> record) {
    Header g = record.headers().lastHeader(GENERATION_HEADER);
    if (g == null) {
      return null;
    }
    Header s = record.headers().lastHeader(STEP_HEADER);
    int step = -1;
    if (s != null) {
      try {
        step = Integer.parseInt(new String(s.value(), StandardCharsets.UTF_8));
      } catch (NumberFormatException e) {
        step = -1;
      }
    }
    return new Marker(new String(g.value(), StandardCharsets.UTF_8), step, record.partition());
  }

  /**
   * Passes one poll's records through the barrier and returns what business code may see, in
   * order: no markers, records of moved keys held back until their old partition's marker.
   *
   * <p>The barrier's {@link SwitchBarrier.Listener} runs while this method offers a marker, so
   * before business code has seen the poll's records ahead of the marker. If the listener reads
   * or hands off per-key state, use {@link #forEach} instead, which hands each released record to
   * business code before the next record is offered.
   *
   * @param keyBytes the key's bytes as the producer's partitioner saw them (the serialized key)
   */
  public static <K, V> List<ConsumerRecord<K, V>> filter(ConsumerRecords<K, V> records,
      SwitchBarrier<ConsumerRecord<K, V>> barrier, java.util.function.Function<K, byte[]> keyBytes) {
    List<ConsumerRecord<K, V>> out = new ArrayList<>(records.count());
    forEach(records, barrier, keyBytes, out::add);
    return out;
  }

  /**
   * Passes one poll's records through the barrier one at a time and hands each record the
   * barrier releases to {@code business} before the next record is offered: when the barrier's
   * listener runs at a marker, every record released before it has been processed, so state
   * handed off there is current. Markers never reach {@code business}; records of moved keys are
   * held back until their old partition's marker, then handed over in per-key order.
   *
   * @param keyBytes the key's bytes as the producer's partitioner saw them (the serialized key)
   * @param business called with each released record, in order, on the calling thread
   * @return the number of records handed to {@code business}
   * @throws NullPointerException if an argument is null
   * @throws RuntimeException whatever {@code business} or the listener throws, unwrapped (records
   *     after it in the poll are not offered)
   */
  public static <K, V> int forEach(ConsumerRecords<K, V> records,
      SwitchBarrier<ConsumerRecord<K, V>> barrier, java.util.function.Function<K, byte[]> keyBytes,
      java.util.function.Consumer<? super ConsumerRecord<K, V>> business) {
    Objects.requireNonNull(records, "records");
    Objects.requireNonNull(barrier, "barrier");
    Objects.requireNonNull(keyBytes, "keyBytes");
    Objects.requireNonNull(business, "business");
    List<ConsumerRecord<K, V>> out = new ArrayList<>();
    int handed = 0;
    for (ConsumerRecord<K, V> r : records) {
      Marker m = marker(r);
      barrier.offer(r, r.partition(), m != null || r.key() == null ? null
          : keyBytes.apply(r.key()), m == null ? null : m.generation(), m == null ? 0 : m.step(),
          out);
      for (ConsumerRecord<K, V> released : out) {
        business.accept(released);
      }
      handed += out.size();
      out.clear();
    }
    return handed;
  }
}
