package io.github.routingkit.audit.streams;

import io.github.routingkit.audit.AuditRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Seeded random audit logs: one list per consumer, each in observation order, with unique
 * observation times across all of them, holding every cause the audit names (keyless sends,
 * partition-count changes, producer retries, redeliveries, Shared subscriptions, replays on one
 * consumer), duplicates, restarted producers (new epochs) and old-format records (no epoch).
 */
final class AuditLogs {
  private static final String[] SUBSCRIPTIONS = {"Key_Shared", "Shared", "kafka-group",
      "Failover", "kafka-share", "Exclusive"};

  private AuditLogs() {}

  /** The log of a seed, its topics named after the seed and its times {@code seed * 1e10} on. */
  static List<List<AuditRecord>> random(long seed) {
    Random random = new Random(seed);
    int keys = 1 + random.nextInt(40);
    int consumers = 1 + random.nextInt(4);
    int producers = 1 + random.nextInt(3);
    String topic = (random.nextBoolean() ? "orders" : "persistent://public/default/orders")
        + "-s" + seed;
    int partitions = 1 + random.nextInt(8);
    int grownTo = partitions + 1 + random.nextInt(8);
    long growAt = random.nextInt(3) == 0 ? 500 + random.nextInt(1000) : Long.MAX_VALUE;
    String sub = SUBSCRIPTIONS[random.nextInt(SUBSCRIPTIONS.length)];
    double keyless = random.nextInt(3) == 0 ? 0.2 : 0;
    double late = random.nextDouble() * 0.1;
    double redeliver = random.nextDouble() * 0.1;
    double retry = random.nextInt(3) == 0 ? 0.1 : 0;
    List<List<AuditRecord>> files = new ArrayList<>();
    for (int c = 0; c < consumers; c++) {
      files.add(new ArrayList<>());
    }
    Set<Long> times = new HashSet<>();
    long[] seq = new long[keys * producers * 2];
    long[] offsets = new long[64];
    int n = 1 + random.nextInt(600);
    long base = seed * 10_000_000_000L;
    long now = base;
    for (int i = 0; i < n; i++) {
      now += random.nextInt(5);
      int k = random.nextInt(keys);
      int p = random.nextInt(producers);
      int instance = now > base + 1_500 && p == 0 ? 1 : 0; // producer 0 restarts
      String epoch = p == producers - 1 && producers > 1 ? null : "e" + p + "i" + instance;
      int stream = (k * producers + p) * 2 + instance;
      seq[stream] += 1 + random.nextInt(2);
      boolean keyed = random.nextDouble() >= keyless;
      int count = now - base >= growAt ? grownTo : partitions;
      int partition = keyed ? Math.floorMod(("key-" + k).hashCode(), count)
          : random.nextInt(count);
      long offset = offsets[partition]++;
      int consumer = sub.equals("Shared") || sub.equals("kafka-share") ? random.nextInt(consumers)
          : partition % consumers;
      if (keyed && random.nextDouble() < retry) {
        // a retried batch lands behind the next one: the log holds the next message first, and
        // the consumer reads the log in order
        long first = seq[stream];
        seq[stream] += 1 + random.nextInt(2);
        offsets[partition]++;
        observe(files, times, consumer, new Object[] {"key-" + k, "p" + p, epoch, seq[stream],
            now, true, topic, partition, sub, 0, Long.toString(offset)}, now + 1);
        observe(files, times, consumer, new Object[] {"key-" + k, "p" + p, epoch, first, now,
            true, topic, partition, sub, 0, Long.toString(offset + 1)}, now + 2);
        continue;
      }
      long delay = random.nextDouble() < late ? 20 + random.nextInt(200) : random.nextInt(3);
      observe(files, times, consumer, new Object[] {"key-" + k, "p" + p, epoch, seq[stream],
          now, keyed, topic, partition, sub, 0, Long.toString(offset)}, now + delay);
      if (random.nextDouble() < redeliver) {
        int again = random.nextInt(consumers);
        observe(files, times, again, new Object[] {"key-" + k, "p" + p, epoch, seq[stream], now,
            keyed, topic, partition, sub, random.nextInt(3), Long.toString(offset)},
            now + 50 + random.nextInt(300));
      }
    }
    for (List<AuditRecord> f : files) {
      f.sort(Comparator.comparingLong(AuditRecord::observedAtMillis));
    }
    return files;
  }

  private static void observe(List<List<AuditRecord>> files, Set<Long> times, int consumer,
      Object[] f, long observedAt) {
    long ot = observedAt;
    while (!times.add(ot)) {
      ot++;
    }
    files.get(consumer).add(new AuditRecord((String) f[0], (String) f[1], (String) f[2],
        (Long) f[3], (Long) f[4], null, (Boolean) f[5], (String) f[6], (Integer) f[7],
        "consumer-" + consumer, (String) f[8], (Integer) f[9], (String) f[10], ot));
  }
}
