package io.github.routingkit.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.property.Gen;
import io.github.routingkit.property.Property;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.record.DefaultRecord;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.MemoryRecordsBuilder;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

/**
 * The Kafka adapter's default keyless policy follows kafka-clients' BuiltInPartitioner: stick to
 * one partition until batch.size bytes went there, then draw another uniformly among the available
 * partitions at the next batch boundary. The batches it models are checked against kafka-clients'
 * own record format code (DefaultRecord, MemoryRecordsBuilder). (The batching it gives on a real
 * broker is KeylessBatchingBrokerTest in routing-examples.)
 */
class BatchStickyKeylessTest {
  private static final Node NODE = new Node(0, "localhost", 9092);
  private static final long MS = 1_000_000L;

  private static Cluster cluster(String topic, int n, Set<Integer> down) {
    List<PartitionInfo> infos = new ArrayList<>();
    for (int p = 0; p < n; p++) {
      infos.add(new PartitionInfo(topic, p, down.contains(p) ? null : NODE, new Node[] {NODE},
          new Node[0]));
    }
    return new Cluster("c", List.of(NODE), infos, Set.of(), Set.of());
  }

  private static List<PartitionInfo> partitions(int n) {
    return cluster("t", n, Set.of()).availablePartitionsForTopic("t");
  }

  /** Draws 0, 1, 2, ... so that every switch changes the partition (with n > 1). */
  private static java.util.function.IntSupplier counting() {
    AtomicInteger next = new AtomicInteger();
    return next::getAndIncrement;
  }

  @Test
  void isTheDefaultAndReadsBatchSizeAndLinger() {
    RoutingPartitioner defaults = new RoutingPartitioner();
    defaults.configure(Map.of());
    assertThat(defaults.keylessBatchSize()).isEqualTo(16384);
    assertThat(defaults.keylessLingerMs()).as("the client's linger.ms default")
        .isEqualTo(((Number) org.apache.kafka.clients.producer.ProducerConfig.configDef()
            .defaultValues().get("linger.ms")).longValue());
    RoutingPartitioner explicit = new RoutingPartitioner();
    explicit.configure(Map.of("batch.size", "1000", "linger.ms", "20",
        RoutingSpec.KEYLESS, "kafka-sticky"));
    assertThat(explicit.keylessBatchSize()).isEqualTo(1000);
    assertThat(explicit.keylessLingerMs()).isEqualTo(20);
    assertThat(explicit.spec()).as("kafka-sticky is a spec value, kept as written")
        .isEqualTo(RoutingSpec.defaults().withKeyless(io.github.routingkit.KeylessPolicy.KAFKA_STICKY));
    RoutingPartitioner core = new RoutingPartitioner();
    core.configure(Map.of("batch.size", 1000, RoutingSpec.KEYLESS, "round-robin"));
    assertThat(core.keylessBatchSize()).isEqualTo(-1);
    assertThat(core.keylessLingerMs()).isEqualTo(-1);
    RoutingPartitioner zero = new RoutingPartitioner();
    zero.configure(Map.of("batch.size", 0, "linger.ms", 7L));
    assertThat(zero.keylessBatchSize()).as("batch.size=0 counts as 1, as upstream").isEqualTo(1);
    assertThat(zero.keylessLingerMs()).isEqualTo(7);
  }

  /**
   * docs/configuration.md: a spec's toMap() always carries routing.keyless, so copied into a
   * producer config it turns the adapter's default batching off (round-robin); a spec that says
   * kafka-sticky keeps it through toMap() and toString().
   */
  @Test
  void aSpecsMapCopiedIntoTheConfigKeepsItsKeylessPolicy() {
    RoutingPartitioner copied = new RoutingPartitioner();
    copied.configure(RoutingSpec.parse("").toMap());
    assertThat(copied.keylessLingerMs()).as("round-robin, written out by toMap").isEqualTo(-1);
    RoutingSpec sticky = RoutingSpec.parse("routing.keyless=kafka-sticky");
    assertThat(sticky.toString()).contains("routing.keyless=kafka-sticky");
    RoutingPartitioner kept = new RoutingPartitioner();
    kept.configure(sticky.toMap());
    assertThat(kept.keylessLingerMs()).as("kafka-sticky batching").isNotEqualTo(-1);
    RoutingPartitioner fromString = new RoutingPartitioner();
    fromString.configure(RoutingSpec.parse(sticky.toString()).toMap());
    assertThat(fromString.keylessLingerMs()).isNotEqualTo(-1);
  }

  /** Our size of a keyless record is kafka-clients' DefaultRecord.sizeInBytes, at every varint edge. */
  @Test
  void recordSizeIsUpstreamsDefaultRecordSize() {
    int[] offsets = {0, 1, 63, 64, 65, 8191, 8192, 1_048_575, 1_048_576, Integer.MAX_VALUE};
    long[] timestamps = {0, 1, 63, 64, 8191, 8192, 1L << 20, 1L << 40, Long.MAX_VALUE / 2};
    int[] values = {-1, 0, 1, 63, 64, 100, 8191, 8192, 1 << 20, 1 << 28};
    for (int o : offsets) {
      for (long t : timestamps) {
        for (int v : values) {
          assertThat(BatchStickyKeyless.recordSize(o, t, v))
              .as("offsetDelta %d, timestampDelta %d, value %d", o, t, v)
              .isEqualTo(DefaultRecord.sizeInBytes(o, t, -1, v, new Header[0]));
        }
      }
    }
    Property.check(2000, Gen.ints(0, Integer.MAX_VALUE), Gen.longs(0, Long.MAX_VALUE / 2),
        Gen.ints(-1, 1 << 30), (o, t, v) ->
            assertThat(BatchStickyKeyless.recordSize(o, t, v))
                .isEqualTo(DefaultRecord.sizeInBytes(o, t, -1, v, new Header[0])));
  }

  /**
   * Fed the same keyless records, the modeled batch closes exactly where kafka-clients'
   * MemoryRecordsBuilder (what the producer's batches are built with) has no room for the next
   * record, and holds the same bytes (header included) and records.
   */
  @Test
  void modelClosesBatchesWhereTheRecordBuilderDoes() {
    Property.check(300, Gen.ints(1, 20_000), Gen.ints(0, 3000), Gen.longs(), (batchSize, maxValue, seed) -> {
      // a constant clock: every record is within the batch's first millisecond, as in a burst
      BatchStickyKeyless model = new BatchStickyKeyless(batchSize, 0, () -> 0L, () -> 0);
      List<PartitionInfo> one = partitions(1);
      Random random = new Random(seed);
      MemoryRecordsBuilder real = newBuilder(batchSize);
      long timestamp = 1_700_000_000_000L;
      for (int i = 0; i < 600; i++) {
        byte[] value = random.nextInt(20) == 0 ? null : new byte[random.nextInt(maxValue + 1)];
        boolean fits = real.hasRoomFor(timestamp, (byte[]) null, value, new Header[0]);
        int[] before = model.openBatch("t");
        model.partition("t", value == null ? -1 : value.length, one, 1);
        int[] after = model.openBatch("t");
        if (!fits) {
          assertThat(after[1]).as("record %d opens a new batch (the builder had no room; the model"
              + " held %s)", i, before == null ? "nothing" : before[0] + " B").isEqualTo(1);
          real = newBuilder(batchSize);
        } else if (before != null) {
          assertThat(after[1]).as("record %d joins the open batch", i).isEqualTo(before[1] + 1);
        }
        real.append(timestamp, null, value);
        assertThat(after[0]).as("bytes after record %d", i).isEqualTo(real.estimatedSizeInBytes());
      }
    });
  }

  /** MemoryRecords.builder(buffer, no compression, CREATE_TIME, 0) on kafka-clients 3.x and 4.x. */
  private static MemoryRecordsBuilder newBuilder(int batchSize) throws Exception {
    for (Method m : MemoryRecords.class.getMethods()) {
      Class<?>[] p = m.getParameterTypes();
      if (m.getName().equals("builder") && p.length == 4 && p[0] == ByteBuffer.class
          && p[2] == TimestampType.class && p[3] == long.class) {
        // Compression.NONE (4.x) or CompressionType.NONE (3.x)
        Object none = p[1].getField("NONE").get(null);
        return (MemoryRecordsBuilder) m.invoke(null, ByteBuffer.allocate(batchSize), none,
            TimestampType.CREATE_TIME, 0L);
      }
    }
    throw new AssertionError("no MemoryRecords.builder(ByteBuffer, compression, TimestampType, long)");
  }

  /**
   * batch.size 1000, 100-byte values: a batch holds 8 records (61 + 8 × 109 = 933 bytes; a ninth
   * would not fit), 933 < 1000 so the first batch does not end the sticky period, the second does:
   * the partition changes after every 16th record, as the built-in's does.
   */
  @Test
  void switchesAtTheBatchBoundaryAfterBatchSizeBytes() {
    BatchStickyKeyless model = new BatchStickyKeyless(1000, 5, () -> 0L, counting());
    List<PartitionInfo> six = partitions(6);
    int previous = -1;
    for (int i = 0; i < 1600; i++) {
      int p = model.partition("t", 100, six, 6);
      assertThat(p).as("record %d", i).isEqualTo((i / 16) % 6);
      if (p != previous) {
        assertThat(model.openBatch("t")).as("a new partition starts with a new batch")
            .containsExactly(61 + 109, 1);
      }
      previous = p;
    }
  }

  /**
   * A batch the producer sends because linger.ms passed (10 records per millisecond, linger 5 ms:
   * 50 records, 61 + 50 × 109 bytes) is a boundary too, but the sticky period ends there
   * only once it filled LINGER_BATCHES batches (and batch.size bytes): after 300 records, not after
   * the 200 that carry the first 16384 bytes.
   */
  @Test
  void batchesClosedByLingerEndThePeriodAfterLingerBatches() {
    AtomicLong clock = new AtomicLong();
    BatchStickyKeyless model = new BatchStickyKeyless(16384, 5, clock::get, counting());
    List<PartitionInfo> six = partitions(6);
    int[] sizes = new int[3000];
    for (int i = 0; i < sizes.length; i++) {
      clock.set(i / 10 * MS + 1);
      sizes[i] = model.partition("t", 100, six, 6);
      if (i % 50 == 49) {
        assertThat(model.openBatch("t")).as("after record %d", i)
            .containsExactly(61 + 50 * 109, 50);
      }
    }
    int per = 50 * BatchStickyKeyless.LINGER_BATCHES;
    for (int i = 0; i < sizes.length; i++) {
      assertThat(sizes[i]).as("record %d", i).isEqualTo((i / per) % 6);
    }
  }

  /**
   * When the producer calls onNewBatch (kafka-clients 3.x), its boundaries replace the model's: the
   * partition changes at the first new batch after batch.size bytes, and new batches on other
   * partitions (keyed records) or before batch.size bytes do not change it.
   */
  @Test
  void onNewBatchIsTheBoundaryOnClients3() {
    BatchStickyKeyless model = new BatchStickyKeyless(1000, 5, () -> 0L, counting());
    List<PartitionInfo> six = partitions(6);
    assertThat(model.partition("t", 100, six, 6)).isZero();
    model.onNewBatch("t", 0, six, 6); // the producer opens the first batch on 0
    for (int i = 1; i < 30; i++) { // 30 records: far past the model's own boundaries, no switch
      assertThat(model.partition("t", 100, six, 6)).as("record %d", i).isZero();
    }
    model.onNewBatch("t", 3, six, 6); // a keyed record's batch elsewhere
    assertThat(model.partition("t", 100, six, 6)).isZero();
    model.onNewBatch("t", 0, six, 6); // 31 records > 1000 bytes went to 0: now it moves
    assertThat(model.partition("t", 100, six, 6)).isEqualTo(1);
    model.onNewBatch("t", 1, six, 6); // its first batch: 170 bytes, stays
    assertThat(model.partition("t", 100, six, 6)).isEqualTo(1);
    model.onNewBatch("u", 0, six, 6); // a topic without keyless records yet: nothing to do
  }

  /** Through RoutingPartitioner: only available partitions, all of them, keyless and in range. */
  @Test
  void drawsAmongAvailablePartitions() {
    Cluster c = cluster("t", 8, Set.of(3, 6));
    RoutingPartitioner partitioner = new RoutingPartitioner();
    Map<String, Object> configs = new HashMap<>();
    configs.put("batch.size", 1000);
    configs.put("linger.ms", 600_000);
    partitioner.configure(configs);
    byte[] value = new byte[100];
    int records = 16_000;
    int[] chosen = new int[records];
    for (int i = 0; i < records; i++) {
      chosen[i] = partitioner.partition("t", null, null, null, value, c);
    }
    Set<Integer> used = new HashSet<>();
    int switches = 0;
    for (int i = 0; i < records; i++) {
      used.add(chosen[i]);
      if (i > 0 && chosen[i] != chosen[i - 1]) {
        assertThat(i % 16).as("a switch at record %d", i).isZero();
        switches++;
      }
    }
    assertThat(used).containsExactlyInAnyOrder(0, 1, 2, 4, 5, 7);
    // 1000 draws among 6 partitions: about 5/6 of them change the partition (upstream's draw
    // may repeat it too)
    assertThat(switches).isBetween(760, 900);
  }

  /** Keyless partitions of {@code records} 100-byte records through a partitioner with {@code spec}. */
  private static int[] keyless(Map<String, Object> spec, Cluster c, int records) {
    RoutingPartitioner partitioner = new RoutingPartitioner();
    Map<String, Object> configs = new HashMap<>(spec);
    configs.put("batch.size", 1000);
    configs.put("linger.ms", 600_000);
    partitioner.configure(configs);
    int[] chosen = new int[records];
    for (int i = 0; i < records; i++) {
      chosen[i] = partitioner.partition("t", null, null, null, new byte[100], c);
    }
    return chosen;
  }

  /**
   * Hot keys and a canary keep kafka-sticky batching (keyless records never reach the hot-key
   * layer; a canary's follow the old spec): as with the plain spec, 16 records of 100 bytes per
   * 1000-byte batch, switching only at a batch boundary. Before, routing.hotkey.* turned keyless
   * records into core round-robin, one partition per record.
   */
  @Test
  void hotKeysAndCanaryKeepKafkaSticky() {
    Cluster c = cluster("t", 6, Set.of());
    List<Map<String, Object>> specs = List.of(
        Map.of(),
        Map.of(RoutingSpec.KEYLESS, "kafka-sticky"),
        Map.of("routing.hotkey.keys", "a:2,b:3"),
        Map.of("routing.hotkey.keys", "a:2", RoutingSpec.KEYLESS, "kafka-sticky"),
        Map.of("routing.hotkey.detect", "true"),
        Map.of("routing.canary.share", "0.5", "routing.canary.next.placement", "jump",
            "routing.canary.next.hotkey.keys", "a:2"));
    for (Map<String, Object> spec : specs) {
      RoutingPartitioner partitioner = new RoutingPartitioner();
      Map<String, Object> configs = new HashMap<>(spec);
      configs.put("batch.size", 1000);
      partitioner.configure(configs);
      assertThat(partitioner.keylessBatchSize()).as("%s", spec).isEqualTo(1000);
      int[] chosen = keyless(spec, c, 1600);
      int switches = 0;
      for (int i = 1; i < chosen.length; i++) {
        if (chosen[i] != chosen[i - 1]) {
          assertThat(i % 16).as("%s: a switch at record %d", spec, i).isZero();
          switches++;
        }
      }
      assertThat(switches).as("%s: switches in 100 batches", spec).isBetween(60, 99);
    }
  }

  /**
   * Segments and versions constrain keyless partitions, so they keep their own placement (in the
   * shared range, round-robin under kafka-sticky) and kafka-sticky batching is off.
   */
  @Test
  void segmentAndVersionLayersKeepTheirKeylessPlacement() {
    Cluster c = cluster("t", 6, Set.of());
    for (Map<String, Object> spec : List.<Map<String, Object>>of(
        Map.of("routing.segment.ranges", "a:0-1,b:2-3", "routing.segment.exclusive", "a,b"),
        Map.of("routing.segment.ranges", "a:0-1,b:2-3", "routing.segment.exclusive", "a,b",
            RoutingSpec.KEYLESS, "kafka-sticky", "routing.hotkey.keys", "x:2"))) {
      RoutingPartitioner partitioner = new RoutingPartitioner();
      partitioner.configure(spec);
      assertThat(partitioner.keylessBatchSize()).as("%s", spec).isEqualTo(-1);
      int[] chosen = keyless(spec, c, 8);
      assertThat(chosen).as("%s: round-robin over the shared range", spec)
          .containsExactly(4, 5, 4, 5, 4, 5, 4, 5);
    }
    RoutingPartitioner versions = new RoutingPartitioner();
    versions.configure(Map.of("routing.version.generations", "v1:kafka-murmur2:native:4,v2:xxh3-64:jump:*",
        "routing.version.default", "v1"));
    assertThat(versions.keylessBatchSize()).isEqualTo(-1);
  }

  /**
   * Shared by threads: every record gets an available partition and the model's batches never
   * exceed batch.size beyond one record (no update is lost or applied twice to a closed batch).
   */
  @Test
  void threadsShareOnePartitionerSafely() throws Exception {
    BatchStickyKeyless model = new BatchStickyKeyless(2000, 1);
    List<PartitionInfo> six = partitions(6);
    Map<Integer, AtomicInteger> counts = new ConcurrentHashMap<>();
    List<Thread> threads = new ArrayList<>();
    List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    for (int t = 0; t < 4; t++) {
      Thread thread = new Thread(() -> {
        try {
          for (int i = 0; i < 50_000; i++) {
            int p = model.partition("t", 50, six, 6);
            assertThat(p).isBetween(0, 5);
            counts.computeIfAbsent(p, k -> new AtomicInteger()).incrementAndGet();
            int[] open = model.openBatch("t");
            assertThat(open[0]).isLessThanOrEqualTo(2000);
          }
        } catch (Throwable e) {
          failures.add(e);
        }
      });
      threads.add(thread);
      thread.start();
    }
    for (Thread thread : threads) {
      thread.join();
    }
    assertThat(failures).isEmpty();
    assertThat(counts.keySet()).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5);
    assertThat(counts.values().stream().mapToInt(AtomicInteger::get).sum()).isEqualTo(200_000);
  }

  /**
   * No allocation per record: 100,000 keyless 100-byte records allocate less than one byte each
   * on average (one small object per modeled batch of 148 records, none per record).
   */
  @Test
  void allocatesPerBatchNotPerRecord() {
    com.sun.management.ThreadMXBean mx = io.github.routingkit.testing.AllocationCounter.allocationCounter();
    Cluster c = cluster("t", 6, Set.of());
    RoutingPartitioner partitioner = new RoutingPartitioner();
    partitioner.configure(Map.of("linger.ms", 600_000));
    byte[] value = new byte[100];
    int sink = 0;
    for (int i = 0; i < 200_000; i++) { // warm up
      sink += partitioner.partition("t", null, null, null, value, c);
    }
    long before = mx.getCurrentThreadAllocatedBytes();
    for (int i = 0; i < 100_000; i++) {
      sink += partitioner.partition("t", null, null, null, value, c);
    }
    long allocated = mx.getCurrentThreadAllocatedBytes() - before;
    assertThat(sink).isNotNegative();
    assertThat(allocated).as("bytes allocated by 100,000 keyless records").isLessThan(100_000);
  }

  @Test
  void keyedRecordsAreUntouchedAndTopicsStickIndependently() {
    Cluster c = cluster("a", 6, Set.of());
    RoutingPartitioner partitioner = new RoutingPartitioner();
    partitioner.configure(Map.of("linger.ms", 600_000));
    byte[] key = "order-1".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    int keyed = partitioner.partition("a", null, key, null, new byte[100], c);
    assertThat(keyed).isEqualTo(
        org.apache.kafka.common.utils.Utils.toPositive(org.apache.kafka.common.utils.Utils.murmur2(key)) % 6);
    int first = partitioner.partition("a", null, null, null, new byte[10], c);
    for (int i = 0; i < 100; i++) { // 100 × 19 bytes < 16384: still the same partition
      assertThat(partitioner.partition("a", null, null, null, new byte[10], c)).isEqualTo(first);
      partitioner.partition("a", null, key, null, new byte[100], c);
    }
  }
}
