package io.github.routingkit.examples.audit;

import io.github.routingkit.audit.AuditLog;
import io.github.routingkit.audit.AuditRecord;
import io.github.routingkit.audit.streams.ContinuousAudit;
import io.github.routingkit.testbrokers.EmbeddedKafka;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;

/**
 * Measures one continuous-audit instance on an in-process Kafka broker: loads {@code EVENTS}
 * audit events on {@code KEYS} keys (1 % of the keys get one out-of-order pair) into a 4-partition
 * events topic, then times one Kafka Streams instance (one stream thread, RocksDB stores) from
 * start until it has applied them all, with exactly-once or at-least-once; then prints the
 * events per second, the heap held, the process's resident memory, and the disk the state
 * directory and the changelog topics take. Not a unit test: run it on an idle machine.
 *
 * <pre>{@code
 * ./mvnw -q -pl routing-examples -am test-compile dependency:build-classpath \
 *     -Dmdep.includeScope=test -Dmdep.outputFile=target/test.classpath
 * cd routing-examples && java -Xmx1g -cp target/test-classes:target/classes:$(cat target/test.classpath) \
 *     io.github.routingkit.examples.audit.ContinuousAuditThroughput 1000000 1000000 eos
 * }</pre>
 */
public final class ContinuousAuditThroughput {
  private ContinuousAuditThroughput() {}

  /**
   * Runs the measurement.
   *
   * @param args events (default 1,000,000), keys (default the events), {@code eos} or
   *     {@code alos} (default eos)
   * @throws Exception if the broker or the audit fails
   */
  public static void main(String[] args) throws Exception {
    long events = args.length > 0 ? Long.parseLong(args[0]) : 1_000_000;
    long keys = args.length > 1 ? Long.parseLong(args[1]) : events;
    boolean eos = args.length <= 2 || !args[2].equals("alos");
    String load = Files.readString(Path.of("/proc/loadavg")).trim();
    Path state = Files.createTempDirectory("audit-throughput");
    try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
      kafka.createTopic("events", 4);
      kafka.createTopic("pairs", 4);
      long base = System.currentTimeMillis() - events - 60_000;
      load(kafka, events, keys, base);
      ContinuousAudit audit = ContinuousAudit.builder().eventsTopic("events").pairsTopic("pairs")
          .build();
      Properties p = ContinuousAudit.streamsConfig("throughput", kafka.bootstrapServers(), eos,
          state);
      p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
      long heapBefore = heapAfterGc(); // the broker and the loaded events: not the audit's
      long rssBefore = rss();
      long start;
      long applied;
      try (KafkaStreams streams = new KafkaStreams(audit.topology(), p)) {
        start = System.nanoTime();
        streams.start();
        while (audit.totals().records() < events) {
          Thread.sleep(100);
          if (System.nanoTime() - start > Duration.ofHours(2).toNanos()) {
            throw new IllegalStateException("not done in 2 hours: " + audit.totals().snapshot());
          }
        }
        applied = System.nanoTime() - start;
        Thread.sleep(2_000); // a last commit
        long heap = heapAfterGc();
        long rss = rss();
        long stateBytes = size(state);
        long changelog = changelogBytes(kafka);
        System.out.printf("%s, %,d events on %,d keys: %,.0f events/s (%.1f s from start,"
            + " including the task start); pairs %,d; the instance's heap after GC %,d MB and"
            + " resident memory %,d MB (this JVM's, less the broker's before the start); state dir"
            + " %,d MB; changelog topics %,d MB; load average before: %s, after: %s%n",
            eos ? "exactly_once_v2" : "at_least_once", events, keys,
            events / (applied / 1e9), applied / 1e9, audit.totals().pairs(),
            (heap - heapBefore) >> 20, (rss - rssBefore) >> 20, stateBytes >> 20,
            changelog >> 20, load, Files.readString(Path.of("/proc/loadavg")).trim());
      }
    } finally {
      try (Stream<Path> files = Files.walk(state)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      }
    }
  }

  private static void load(EmbeddedKafka kafka, long events, long keys, long base) {
    Map<String, Object> c = new HashMap<>();
    c.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    c.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    c.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    c.put(ProducerConfig.LINGER_MS_CONFIG, "20");
    c.put(ProducerConfig.BATCH_SIZE_CONFIG, "262144");
    c.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(c)) {
      for (long i = 0; i < events; i++) {
        long k = i % keys;
        long seq = i / keys + 1;
        boolean swap = k % 100 == 7 && seq == 1 && keys < events; // one late message per key
        AuditRecord r = new AuditRecord("order-" + k, "checkout-7", "3f2a9b1c0d4e",
            swap ? 1_000_000 : seq, base + i, null, true, "orders", (int) (k % 24), "worker-"
            + (k % 8), "kafka-group", -1, Long.toString(i), base + i);
        producer.send(new ProducerRecord<>("events", null, base + i, r.key(), AuditLog.line(r)));
      }
    }
  }

  private static long heapAfterGc() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private static long rss() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
      }
    }
    return -1;
  }

  private static long size(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
    }
  }

  private static long changelogBytes(EmbeddedKafka kafka) throws Exception {
    long total = 0;
    Map<Integer, Map<String, LogDirDescription>> dirs = kafka.admin()
        .describeLogDirs(List.of(1)).allDescriptions().get();
    for (LogDirDescription d : dirs.get(1).values()) {
      for (Map.Entry<TopicPartition, ReplicaInfo> e : d.replicaInfos().entrySet()) {
        if (e.getKey().topic().endsWith("-changelog")) {
          total += e.getValue().size();
        }
      }
    }
    return total;
  }
}
