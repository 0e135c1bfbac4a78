package io.github.routingkit.metrics;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.config.RoutingSpec;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/**
 * Keyed routing with metrics on allocates nothing in steady state: the router's own path plus
 * the per-partition counter and, with a tracker, its sampling (measured with the JVM's per-thread
 * allocation counter after a warm-up; a check of the claim, not a benchmark).
 */
class MetricsAllocationTest {

  @Test
  void recordingKeyedAndKeylessRecordsDoesNotAllocate() {
    com.sun.management.ThreadMXBean mx =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    byte[][] keys = new byte[1024][];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = String.format("order-%010d", i).getBytes(UTF_8); // 16 bytes
    }
    String[] specs = {
      "routing.scheme=kafka-murmur2",
      "routing.scheme=kafka-murmur2, routing.metrics.hotkey.sample=8",
      "routing.hotkey.detect=true, routing.hotkey.threshold=0.05",
      "routing.canary.share=0.5, routing.canary.next.scheme=xxh3-64",
    };
    long id = Thread.currentThread().getId();
    for (String text : specs) {
      RoutingSpec spec = RoutingSpec.parse(text);
      RouterMetrics m = RouterMetrics.create("alloc", spec, spec, System::nanoTime);
      KeyRouter r = m.router();
      TopicMetrics topic = m.topic("orders", 24);
      long sink = 0;
      for (int round = 0; round < 200; round++) {
        for (byte[] k : keys) {
          int p = r.partition(k, 24);
          m.keyed("orders", 24, k, p);
          m.keyed(topic, k, p);
          m.keyless("orders", 24, p);
          sink += p;
        }
      }
      long deadline = System.nanoTime() + 30_000_000_000L;
      long allocated;
      do {
        long before = mx.getThreadAllocatedBytes(id);
        for (int round = 0; round < 50; round++) {
          for (byte[] k : keys) {
            int p = r.partition(k, 24);
            m.keyed("orders", 24, k, p);
            m.keyed(topic, k, p);
            m.keyless("orders", 24, p);
            sink += p;
          }
        }
        allocated = mx.getThreadAllocatedBytes(id) - before;
      } while (allocated >= 4096 && System.nanoTime() < deadline);
      assertThat(sink).isNotNegative();
      // 51,200 records, each counted three times: anything per record would be megabytes
      assertThat(allocated).as("%s allocated %d bytes", text, allocated).isLessThan(4096);
      m.close();
    }
  }
}
