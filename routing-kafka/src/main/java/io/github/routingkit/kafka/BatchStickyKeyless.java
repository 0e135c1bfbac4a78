package io.github.routingkit.kafka;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.common.PartitionInfo;

/**
 * Keyless placement as kafka-clients' built-in partitioner does it (its {@code BuiltInPartitioner},
 * KIP-794, without adaptive load weighting): each topic has one sticky partition that takes every
 * keyless record until about {@code batch.size} bytes went to it, then a new one is drawn uniformly
 * at random from the topic's available partitions (or all of them when none is available; the draw
 * may repeat the partition, as upstream's does).
 *
 * <p>Upstream counts the bytes each record adds to its batch. A partitioner is not told that, so the
 * record's size is estimated as upstream's record layout makes it: key and value bytes plus
 * {@value #RECORD_OVERHEAD} bytes of framing (length, attributes, timestamp and offset deltas, key
 * and value lengths and header count as varints, for records without headers). Upstream also
 * delays a switch while the current batch is not full (up to twice {@code batch.size}); a
 * partitioner sees no batches, so this one switches at {@code batch.size}. The effect on batching
 * is measured in {@code KeylessBatchingBrokerTest}.
 *
 * <p>Thread-safe and lock-free; no allocation per record (one small object per switch). Memory: one
 * entry per topic the producer sent keyless records to.
 */
final class BatchStickyKeyless {
  /** Bytes a record without headers adds to a batch beyond its key and value (upstream layout). */
  static final int RECORD_OVERHEAD = 9;

  /** The producer's {@code batch.size} default. */
  static final int DEFAULT_BATCH_SIZE = 16384;

  private final int batchSize;
  private final Map<String, AtomicReference<Sticky>> topics = new ConcurrentHashMap<>();

  /** @param batchSize the producer's {@code batch.size}; values below 1 count as 1, as upstream */
  BatchStickyKeyless(int batchSize) {
    this.batchSize = Math.max(1, batchSize);
  }

  int batchSize() {
    return batchSize;
  }

  /**
   * Returns the partition of a keyless record of {@code valueBytes} bytes, in {@code [0, n)}.
   *
   * @param available the topic's partitions with a leader (may be empty)
   * @param n the topic's partition count, at least 1
   */
  int partition(String topic, int valueBytes, List<PartitionInfo> available, int n) {
    AtomicReference<Sticky> ref = topics.computeIfAbsent(topic, t -> new AtomicReference<>());
    Sticky s = ref.get();
    if (s == null || s.partition >= n) { // first record, or the topic shrank under us
      Sticky fresh = new Sticky(next(available, n));
      s = ref.compareAndSet(s, fresh) ? fresh : ref.get();
    }
    int size = Math.max(0, valueBytes) + RECORD_OVERHEAD;
    if (s.producedBytes.addAndGet(size) >= batchSize) {
      ref.compareAndSet(s, new Sticky(next(available, n)));
    }
    return s.partition;
  }

  private static int next(List<PartitionInfo> available, int n) {
    int random = ThreadLocalRandom.current().nextInt(Integer.MAX_VALUE);
    return available.isEmpty() ? random % n : available.get(random % available.size()).partition();
  }

  private static final class Sticky {
    final int partition;
    final AtomicInteger producedBytes = new AtomicInteger();

    Sticky(int partition) {
      this.partition = partition;
    }
  }
}
