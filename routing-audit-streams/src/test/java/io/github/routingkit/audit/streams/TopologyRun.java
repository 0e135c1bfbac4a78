package io.github.routingkit.audit.streams;

import io.github.routingkit.audit.AuditFinding;
import io.github.routingkit.audit.AuditLog;
import io.github.routingkit.audit.AuditRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;

/** Audit events through the topology in a TopologyTestDriver; the pairs and totals it gives. */
final class TopologyRun implements AutoCloseable {
  final ContinuousAudit audit;
  final TopologyTestDriver driver;
  final TestInputTopic<String, String> events;
  final TestOutputTopic<String, String> pairs;
  private final java.nio.file.Path stateDir;
  private long wallClock;

  TopologyRun(ContinuousAudit audit) {
    this.audit = audit;
    Properties p = ContinuousAudit.streamsConfig("audit-test", "dummy:9092", true, null);
    try {
      stateDir = java.nio.file.Files.createTempDirectory("routingkit-audit-ttd");
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    this.driver = new TopologyTestDriver(audit.topology(), p, Instant.EPOCH);
    this.events = driver.createInputTopic(audit.eventsTopic(), new StringSerializer(),
        new StringSerializer());
    this.pairs = driver.createOutputTopic(audit.pairsTopic(), new StringDeserializer(),
        new StringDeserializer());
  }

  TopologyRun(Duration grace) {
    this(ContinuousAudit.builder().grace(grace).retention(Duration.ofDays(3650))
        .inMemoryStores(true).build());
  }

  void send(AuditRecord r) {
    events.pipeInput(r.key(), AuditLog.line(r), r.observedAtMillis());
  }

  /** Releases whatever is still buffered (the wall clock moves far past every event). */
  void drain() {
    driver.advanceWallClockTime(Duration.ofDays(365L * 200));
  }

  /** Moves the wall clock to {@code epochMillis} (forward only): the release punctuation runs. */
  void wallClockTo(long epochMillis) {
    if (epochMillis > wallClock) {
      driver.advanceWallClockTime(Duration.ofMillis(epochMillis - wallClock));
      wallClock = epochMillis;
    }
  }

  List<AuditFinding> findings() {
    List<AuditFinding> out = new ArrayList<>();
    for (String v : pairs.readValuesToList()) {
      out.add(AuditLog.parseFinding(v));
    }
    return out;
  }

  /** The totals as the metrics publish them. */
  double metric(String name) {
    for (Map.Entry<MetricName, ? extends org.apache.kafka.common.Metric> e
        : driver.metrics().entrySet()) {
      if (e.getKey().group().equals(ContinuousAudit.METRIC_GROUP)
          && e.getKey().name().equals(name)) {
        return ((Number) e.getValue().metricValue()).doubleValue();
      }
    }
    throw new AssertionError("no metric " + name);
  }

  @Override
  public void close() {
    driver.close();
    try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.walk(stateDir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    } catch (java.io.IOException e) {
      // a temp dir
    }
  }
}
