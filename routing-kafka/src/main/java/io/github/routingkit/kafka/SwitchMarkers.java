package io.github.routingkit.kafka;

import io.github.routingkit.SwitchBarrier;
import io.github.routingkit.switching.SwitchMarker;
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
 * Switch markers for Kafka: at a switch step the producer side sends one marker record to every
 * partition of the topic (an explicit partition, so the partitioner is not asked); the consumer
 * side recognises them ({@link #marker}) and a {@link GroupSwitchBarrier} hands business code only
 * real records, in per-key order across the group.
 *
 * <p><b>The exact form</b>, the only one {@link #marker} accepts: a null value, and exactly one of
 * each of the headers {@value #GENERATION_HEADER} (the plan's generation), {@value #STEP_HEADER}
 * (the step, a canonical decimal) and {@value #PARTITION_HEADER} (the partition the marker was
 * sent to; a barrier ignores a marker read from another partition), in the form of {@link SwitchMarker}; no other
 * header whose name starts with {@value #GENERATION_HEADER}. Other headers (tracing, audit) may
 * be added by interceptors. Any other record, such as an ordinary record that happens to carry a
 * {@value #GENERATION_HEADER} header, is an ordinary record and reaches business code; a null or
 * malformed header value never throws. A compacted topic rejects null keys: use
 * {@link #send(Producer, String, String, int, Object)} with a key there.
 *
 * <p>Thread-safety: the static helpers are stateless; {@link #filter} and {@link #forEach} use the
 * single-consumer barrier, which is not thread-safe.
 */
public final class SwitchMarkers {
  /** The header naming the generation of a marker's plan. */
  public static final String GENERATION_HEADER = "routing-marker";
  /** The header carrying the step a marker ends. */
  public static final String STEP_HEADER = "routing-marker-step";
  /** The header naming the partition a marker was sent to. */
  public static final String PARTITION_HEADER = "routing-marker-partition";

  private SwitchMarkers() {}

  /** A marker as read back: generation, step, and the partition it names. */
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
   * Sends a marker to every partition of {@code topic}, flushes, and waits for every ack. Send it
   * only once every producer routes by the step's new router and every record routed by the old
   * one was acknowledged or failed (with a schedule: {@code ScheduledSwitch}).
   *
   * @return the number of partitions marked (the topic's partition count)
   * @throws IllegalArgumentException if {@code generation} breaks
   *     {@link SwitchMarker#GENERATION_RULE} or {@code step} is negative
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
    if (!SwitchMarker.validGeneration(generation) || step < 0) {
      throw new IllegalArgumentException("marker generation was '" + generation + "' and step "
          + step + ": the generation " + SwitchMarker.GENERATION_RULE + ", the step must be >= 0");
    }
    int partitions = producer.partitionsFor(topic).size();
    List<Future<RecordMetadata>> acks = new ArrayList<>(partitions);
    for (int p = 0; p < partitions; p++) {
      RecordHeaders headers = new RecordHeaders();
      headers.add(GENERATION_HEADER, generation.getBytes(StandardCharsets.UTF_8));
      headers.add(STEP_HEADER, Integer.toString(step).getBytes(StandardCharsets.UTF_8));
      headers.add(PARTITION_HEADER, Integer.toString(p).getBytes(StandardCharsets.UTF_8));
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

  /**
   * Returns the marker this record is, or null if it is an ordinary record: anything but the
   * exact form (see the class comment). Never throws for any headers or value.
   */
  public static Marker marker(ConsumerRecord<?, ?> record) {
    if (record.value() != null) {
      return null;
    }
    byte[] generation = null;
    byte[] step = null;
    byte[] partition = null;
    int seen = 0;
    for (Header h : record.headers()) {
      String name = h.key();
      if (name == null || !name.startsWith(GENERATION_HEADER)) {
        continue;
      }
      seen++;
      if (name.equals(GENERATION_HEADER)) {
        generation = h.value();
      } else if (name.equals(STEP_HEADER)) {
        step = h.value();
      } else if (name.equals(PARTITION_HEADER)) {
        partition = h.value();
      } else {
        return null;
      }
    }
    if (seen != 3) {
      return null;
    }
    SwitchMarker m = SwitchMarker.parse(generation, step, partition);
    return m == null ? null : new Marker(m.generation(), m.step(), m.partition());
  }

  /** The marker of a record in core's terms, or null: as {@link #marker(ConsumerRecord)}. */
  static SwitchMarker switchMarker(ConsumerRecord<?, ?> record) {
    Marker m = marker(record);
    return m == null ? null : new SwitchMarker(m.generation(), m.step(), m.partition());
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
   * @deprecated the single-consumer barrier loses records in a consumer group; use a
   *     {@link GroupSwitchBarrier}
   */
  @Deprecated
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
   * @deprecated the single-consumer barrier loses records in a consumer group; use
   *     {@link GroupSwitchBarrier#forEach}
   */
  @Deprecated
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
