package io.github.routingkit.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The demo's flow on the first 2,000 keys of the shipped sample, against real in-process Kafka and
 * Pulsar brokers: every message must come back exactly once, from the partition the core predicts.
 */
@Tag("broker")
class RoutingDemoTest {
  private static final int KEYS = 2_000;

  @Test
  void everyMessageComesBackOnceFromThePredictedPartitionOnBothBrokers() throws Exception {
    List<String> keys = KeySample.read(KeySample.locateDefault(), KEYS);
    assertThat(keys).hasSize(KEYS);
    ByteArrayOutputStream report = new ByteArrayOutputStream();

    List<RoundTrip.Result> results;
    try (PrintStream out = new PrintStream(report, true, StandardCharsets.UTF_8)) {
      results = RoutingDemo.run(keys, out);
    }
    String text = report.toString(StandardCharsets.UTF_8);
    System.out.println(text);

    assertThat(results).extracting(RoundTrip.Result::broker).containsExactly("Kafka", "Pulsar");
    for (RoundTrip.Result r : results) {
      assertThat(r.sent()).as("%s acknowledged sends", r.broker()).isEqualTo(KEYS);
      assertThat(r.received()).as("%s messages read back", r.broker()).isEqualTo(KEYS);
      assertThat(r.lost()).as("%s lost", r.broker()).isZero();
      assertThat(r.duplicates()).as("%s duplicates", r.broker()).isZero();
      assertThat(r.onPredicted()).as("%s on the predicted partition (first problem: %s)",
          r.broker(), r.firstProblem()).isEqualTo(KEYS);
      assertThat(r.perPartition()).hasSize(RoutingDemo.PARTITIONS);
      assertThat(Arrays.stream(r.perPartition()).sum()).isEqualTo(KEYS);
      // 2,000 keys over 12 partitions: every partition gets some, none gets most.
      assertThat(Arrays.stream(r.perPartition()).min().orElse(0)).isPositive();
      assertThat(r.maxOverMean()).isBetween(1.0, 1.5);
      assertThat(r.passed()).isTrue();
    }
    assertThat(text).contains("on the partition the core predicted: 2,000 of 2,000");
  }
}
