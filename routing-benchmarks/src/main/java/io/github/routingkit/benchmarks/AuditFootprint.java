package io.github.routingkit.benchmarks;

import io.github.routingkit.audit.AuditReport;
import io.github.routingkit.audit.OrderingAudit;
import java.io.BufferedWriter;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Measures the heap the batch ordering audit keeps per key stream: writes a log of {@code N}
 * streams (13-character keys, two records each, the fields the Kafka consumer interceptor
 * writes), audits it as {@code routing audit} does, and prints the heap held after GC divided by
 * the number of streams. Not a JMH benchmark: a footprint does not depend on machine load.
 *
 * <pre>{@code
 * java -Xmx3g -XX:+UseSerialGC -cp routing-benchmarks/target/benchmarks.jar \
 *     io.github.routingkit.benchmarks.AuditFootprint 1000000
 * }</pre>
 */
public final class AuditFootprint {
  private AuditFootprint() {}

  /**
   * Runs the measurement.
   *
   * @param args the number of streams (default 1,000,000)
   * @throws IOException if the temporary log cannot be written
   */
  public static void main(String[] args) throws IOException {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    Path log = Files.createTempFile("audit-footprint", ".jsonl");
    try {
      try (BufferedWriter w = Files.newBufferedWriter(log)) {
        for (int j = 0; j < 2 * n; j++) {
          int i = j % n;
          w.write("{\"k\":\"order-" + (1_000_000 + i) + "\",\"p\":\"checkout-7\","
              + "\"pe\":\"3f2a9b1c0d4e\",\"s\":" + (j / n + 1) + ",\"t\":1764583200000,"
              + "\"ky\":true,\"tp\":\"orders\",\"pt\":" + (i % 24) + ",\"c\":\"worker-3\","
              + "\"st\":\"kafka-group\",\"rd\":-1,\"o\":\"" + (4711 + j) + "\","
              + "\"ot\":" + (1764583200004L + j) + "}\n");
        }
      }
      OrderingAudit audit = OrderingAudit.builder().maxKeys(n).build();
      long before = usedAfterGc();
      AuditReport report = audit.auditFiles(List.of(log), false, x -> { }, Long.MAX_VALUE);
      long after = usedAfterGc();
      System.out.printf("%,d records, %,d key streams: %,d bytes of heap held, %.1f bytes per"
          + " stream%n", report.records(), report.keys(), after - before,
          (after - before) / (double) report.keys());
      if (audit.records() == 0) {
        throw new AssertionError("nothing audited");
      }
    } finally {
      Files.deleteIfExists(log);
    }
  }

  private static long usedAfterGc() {
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    for (int i = 0; i < 4; i++) {
      System.gc();
    }
    return memory.getHeapMemoryUsage().getUsed();
  }
}
