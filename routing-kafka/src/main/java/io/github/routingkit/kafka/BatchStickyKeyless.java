package io.github.routingkit.kafka;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import org.apache.kafka.common.PartitionInfo;

/**
 * Keyless placement as kafka-clients' built-in partitioner does it (its {@code BuiltInPartitioner}
 * and {@code RecordAccumulator}, KIP-794, without adaptive load weighting): each topic has one
 * sticky partition that takes every keyless record; once at least {@code batch.size} bytes went to
 * it, the partition changes at the next batch boundary, to one drawn uniformly at random from the
 * topic's available partitions (or all of them when none is available; the draw may repeat the
 * partition, as upstream's does).
 *
 * <p>Upstream switches only when the partition's last batch is full or already sent, so a switch
 * never leaves a part-filled batch behind (a part-filled batch goes out as a small batch with the
 * next request to its broker). A {@code Partitioner} is not shown the batches, so this class
 * follows them:
 *
 * <ul>
 *   <li>With kafka-clients 3.x the producer calls {@code Partitioner.onNewBatch} when the
 *       accumulator opens a batch; {@link #onNewBatch} is then the batch boundary, exactly
 *       upstream's.
 *   <li>Otherwise (kafka-clients 4.x removed {@code onNewBatch}) it models the batch being filled
 *       on the sticky partition as the accumulator fills it: a {@value #BATCH_HEADER}-byte batch
 *       header, then each record's size in the v2 record format ({@link #recordSize}: key and value
 *       lengths as varints, offset and timestamp deltas within the batch, no headers), until the
 *       next record would not fit in {@code batch.size} (the batch is full) or {@code linger.ms}
 *       passed since its first record (the producer sends it; with {@code linger.ms=0} only full
 *       batches count, as the producer sends at once whatever it holds). A record that does not fit starts
 *       the next batch, as in {@code MemoryRecordsBuilder.hasRoomFor}.
 * </ul>
 *
 * <p>One difference remains and is deliberate. When a batch goes out because {@code linger.ms}
 * passed, upstream switches at the first record after the send; a partitioner can only guess that
 * instant, and every guess leaves a few records in an extra small batch (before the send on the
 * new partition, after it on the old one), which the broker's next request carries. So after a
 * batch closed by {@code linger.ms} this class switches only when the sticky period has also
 * filled {@value #LINGER_BATCHES} batches: the extra batch per switch then costs at most
 * 1/({@value #LINGER_BATCHES} + 1) of the average batch size, and a partition is held for at most
 * {@value #LINGER_BATCHES} {@code linger.ms} periods. Batches closed because they are full switch
 * as upstream's do. The resulting batch sizes against the built-in's are measured in
 * {@code KeylessBatchingBrokerTest} and docs/kafka.md.
 *
 * <p>Not seen, so not counted: record headers, compression (upstream counts compressed bytes, so
 * with compression its batches hold more records than this model puts in one) and explicit record
 * timestamps far from the send time (their timestamp deltas take more bytes).
 *
 * <p>Thread-safe and lock-free (a compare-and-set loop); no allocation per record, one small object
 * per modeled batch. Memory: one entry per topic the producer sent keyless records to.
 */
final class BatchStickyKeyless {
  /** Bytes of a v2 record batch header (upstream's {@code DefaultRecordBatch.RECORD_BATCH_OVERHEAD}). */
  static final int BATCH_HEADER = 61;

  /** The producer's {@code batch.size} default. */
  static final int DEFAULT_BATCH_SIZE = 16384;

  /** Batches a sticky period fills before it may end at a batch closed by linger.ms. */
  static final int LINGER_BATCHES = 6;

  private static final long NANOS_PER_MS = 1_000_000L;

  private final int batchSize;
  private final long lingerNanos;
  private final LongSupplier nanoClock;
  private final IntSupplier random;
  private final Map<String, AtomicReference<Batch>> topics = new ConcurrentHashMap<>();
  /** Set once the producer calls onNewBatch (kafka-clients 3.x): its boundaries replace the model's. */
  private volatile boolean newBatchSignals;

  /**
   * @param batchSize the producer's {@code batch.size}; values below 1 count as 1, as upstream
   * @param lingerMs the producer's {@code linger.ms}; negative values count as 0
   */
  BatchStickyKeyless(int batchSize, long lingerMs) {
    this(batchSize, lingerMs, System::nanoTime,
        () -> ThreadLocalRandom.current().nextInt(Integer.MAX_VALUE));
  }

  /** For tests: a clock in nanoseconds and a source of non-negative random ints. */
  BatchStickyKeyless(int batchSize, long lingerMs, LongSupplier nanoClock, IntSupplier random) {
    this.batchSize = Math.max(1, batchSize);
    long linger = Math.max(0, lingerMs);
    this.lingerNanos = linger > Long.MAX_VALUE / NANOS_PER_MS ? Long.MAX_VALUE : linger * NANOS_PER_MS;
    this.nanoClock = nanoClock;
    this.random = random;
  }

  int batchSize() {
    return batchSize;
  }

  long lingerMs() {
    return lingerNanos / NANOS_PER_MS;
  }

  /**
   * Returns the partition of a keyless record, in {@code [0, n)}.
   *
   * @param valueBytes the serialized value's length, or -1 for a null value
   * @param available the topic's partitions with a leader (may be empty)
   * @param n the topic's partition count, at least 1
   */
  int partition(String topic, int valueBytes, List<PartitionInfo> available, int n) {
    AtomicReference<Batch> ref = topics.computeIfAbsent(topic, t -> new AtomicReference<>());
    long now = nanoClock.getAsLong(); // once per record, also when the loop retries
    for (;;) {
      Batch b = ref.get();
      if (b == null || b.partition >= n) { // first record, or the topic shrank under us
        int first = next(available, n);
        ref.compareAndSet(b, new Batch(first, 0, 0, now, switched(b, first)));
        continue;
      }
      long state = b.state;
      int bytes = (int) (state >>> 32);
      int records = (int) state;
      long elapsed = now - b.startNanos;
      int size = recordSize(records, elapsed / NANOS_PER_MS + 1, valueBytes);
      if (records > 0 && !newBatchSignals) {
        boolean full = bytes + (long) size > batchSize;
        if (full || (lingerNanos > 0 && elapsed >= lingerNanos)) {
          long produced = b.producedBefore + bytes;
          int lingered = full ? b.lingered : b.lingered + 1;
          boolean move = produced >= batchSize && (full || lingered >= LINGER_BATCHES);
          int np = move ? next(available, n) : b.partition;
          Batch nextBatch = move
              ? new Batch(np, 0, 0, now, switched(b, np))
              : new Batch(b.partition, produced, lingered, now, b.switches);
          ref.compareAndSet(b, nextBatch);
          continue; // this record opens the next batch (or retries after a concurrent change)
        }
      }
      int added = records == 0 ? BATCH_HEADER + size : size;
      long grown = ((long) saturate(bytes + (long) added) << 32) | saturate(records + 1L);
      if (STATE.compareAndSet(b, state, grown)) {
        return b.partition;
      }
    }
  }

  /**
   * Returns how often the topic's sticky partition changed so far (its first pick is not a
   * switch, nor a new sticky period that drew the same partition again), 0 before its first
   * keyless record: read from the open batch, no counter of its own.
   */
  long switches(String topic) {
    AtomicReference<Batch> ref = topics.get(topic);
    Batch b = ref == null ? null : ref.get();
    return b == null ? 0 : b.switches;
  }

  /** For tests: the topic's modeled open batch as {bytes, records}, or null before any record. */
  int[] openBatch(String topic) {
    AtomicReference<Batch> ref = topics.get(topic);
    Batch b = ref == null ? null : ref.get();
    return b == null ? null : new int[] {(int) (b.state >>> 32), (int) b.state};
  }

  /**
   * The producer opens a new batch on {@code prevPartition} (kafka-clients 3.x's
   * {@code Partitioner.onNewBatch}): if that is the topic's sticky partition, its batch boundary,
   * where the partition changes once {@code batch.size} bytes went to it.
   */
  void onNewBatch(String topic, int prevPartition, List<PartitionInfo> available, int n) {
    newBatchSignals = true;
    AtomicReference<Batch> ref = topics.get(topic);
    if (ref == null || n < 1) {
      return;
    }
    Batch b = ref.get();
    if (b == null || b.partition != prevPartition) {
      return;
    }
    long now = nanoClock.getAsLong();
    long produced = b.producedBefore + (int) (b.state >>> 32);
    int np = produced >= batchSize ? next(available, n) : b.partition;
    ref.compareAndSet(b, produced >= batchSize
        ? new Batch(np, 0, 0, now, switched(b, np))
        : new Batch(b.partition, produced, 0, now, b.switches));
  }

  /**
   * Returns the bytes a keyless record without headers takes in a v2 record batch, as upstream's
   * {@code DefaultRecord.sizeInBytes} counts them: its length as a varint, then attributes (1 byte),
   * the timestamp delta (varlong), the offset delta (varint), the null key (1 byte), the value's
   * length (varint) and bytes, and the header count (1 byte).
   *
   * @param offsetDelta the record's offset within its batch, at least 0
   * @param timestampDeltaMs its timestamp's distance from the batch's first, in milliseconds
   * @param valueBytes the value's length, or -1 for a null value
   */
  static int recordSize(int offsetDelta, long timestampDeltaMs, int valueBytes) {
    int value = valueBytes < 0 ? 1 : varintSize(valueBytes) + valueBytes;
    int body = 1 + varlongSize(timestampDeltaMs) + varintSize(offsetDelta) + 1 + value + 1;
    return body + varintSize(body);
  }

  /** Bytes of a zig-zag varint. */
  static int varintSize(int value) {
    int v = (value << 1) ^ (value >> 31);
    int bits = 32 - Integer.numberOfLeadingZeros(v | 1);
    return (bits + 6) / 7;
  }

  /** Bytes of a zig-zag varlong. */
  static int varlongSize(long value) {
    long v = (value << 1) ^ (value >> 63);
    int bits = 64 - Long.numberOfLeadingZeros(v | 1);
    return (bits + 6) / 7;
  }

  private static int saturate(long value) {
    return (int) Math.min(value, Integer.MAX_VALUE);
  }

  /** The switch count after {@code b} when the next sticky partition is {@code next}. */
  private static long switched(Batch b, int next) {
    return b == null ? 0 : b.switches + (next != b.partition ? 1 : 0);
  }

  private int next(List<PartitionInfo> available, int n) {
    int r = random.getAsInt();
    return available.isEmpty() ? r % n : available.get(r % available.size()).partition();
  }

  /** One modeled batch on the sticky partition; a new object opens the next batch. */
  private static final class Batch {
    final int partition;
    /** Bytes of the sticky period's earlier batches (headers included). */
    final long producedBefore;
    /** The sticky period's earlier batches that closed by linger.ms. */
    final int lingered;
    final long startNanos;
    /** Sticky partitions the topic had before this one: its partition switches so far. */
    final long switches;
    /** This batch's bytes (high 32 bits) and records (low 32 bits). */
    volatile long state;

    Batch(int partition, long producedBefore, int lingered, long startNanos, long switches) {
      this.partition = partition;
      this.producedBefore = producedBefore;
      this.lingered = lingered;
      this.startNanos = startNanos;
      this.switches = switches;
    }
  }

  private static final VarHandle STATE;

  static {
    try {
      STATE = MethodHandles.lookup().findVarHandle(Batch.class, "state", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }
}
