package io.github.routingkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Producer buffer sizing in {@code routing plan}, each number with its formula. */
class ProducerBufferPlanTest {
  private static Map<String, ProducerBufferPlan.Setting> byProperty(
      List<ProducerBufferPlan.Setting> settings) {
    return settings.stream().collect(Collectors.toMap(s -> s.flavor() + " " + s.property(),
        s -> s));
  }

  @Test
  void pulsarQueueCoversPeakTimesWindow() {
    // 5,000 msg/s for a 2 s bundle move needs at least 10,000 pending
    Map<String, ProducerBufferPlan.Setting> s = byProperty(ProducerBufferPlan.compute(5000, 10_000,
        1, 1.0, 1, 1024, 2, "pulsar"));
    assertThat(s.get("pulsar maxPendingMessages").value()).isEqualTo(10_000);
    assertThat(s.get("pulsar maxPendingMessagesAcrossPartitions").value()).isEqualTo(10_000);
    assertThat(s.get("pulsar memoryLimitBytes (client)").value()).isEqualTo(10_000L * 1024);
    assertThat(s.get("pulsar maxPendingMessages").formula()).contains("r x skew / n x W");
    assertThat(s).doesNotContainKey("kafka buffer.memory");
  }

  @Test
  void pulsarPerPartitionQueueFollowsTheHottestPartition() {
    // 24 partitions, hottest at 1.5 x the mean, 2 producers: 60,000 / 2 x 1.5 / 24 x 4 s = 7,500
    Map<String, ProducerBufferPlan.Setting> s = byProperty(ProducerBufferPlan.compute(60_000, 5000,
        24, 1.5, 2, 512, 4, "both"));
    assertThat(s.get("pulsar maxPendingMessages").value()).isEqualTo(7_500);
    assertThat(s.get("pulsar maxPendingMessagesAcrossPartitions").value()).isEqualTo(120_000);
    // drain = 4 x 60,000 / (24 x 5,000 - 60,000) = 4 s; timeouts cover window + drain or default
    assertThat(s.get("pulsar sendTimeout (ms)").value()).isEqualTo(30_000);
    assertThat(s.get("kafka delivery.timeout.ms").value()).isEqualTo(120_000);
  }

  @Test
  void kafkaBufferHoldsBacklogPlusOneBatchPerPartition() {
    Map<String, ProducerBufferPlan.Setting> s = byProperty(ProducerBufferPlan.compute(60_000, 5000,
        16, 1.0, 3, 2048, 5, "kafka"));
    assertThat(s.get("kafka buffer.memory").value()).isEqualTo(20_000L * 5 * 2048 + 16 * 16_384);
    assertThat(s.get("kafka buffer.memory").formula()).contains("r x W x message bytes + n x"
        + " batch.size");
    assertThat(s.get("kafka max.block.ms").value()).isEqualTo(60_000);
    assertThat(s).doesNotContainKey("pulsar maxPendingMessages");
  }

  @Test
  void longWindowsRaiseTheTimeouts() {
    // 90 s window, spare = 10 x 1,000 - 8,000 = 2,000: drain = 90 x 8,000 / 2,000 = 360 s
    Map<String, ProducerBufferPlan.Setting> s = byProperty(ProducerBufferPlan.compute(8000, 1000,
        10, 1.0, 1, 100, 90, "both"));
    assertThat(s.get("kafka max.block.ms").value()).isEqualTo(90_000);
    assertThat(s.get("kafka delivery.timeout.ms").value()).isEqualTo(450_000);
    assertThat(s.get("pulsar sendTimeout (ms)").value()).isEqualTo(450_000);
    assertThat(s.get("kafka buffer.memory").value()).isEqualTo(8000L * 90 * 100 + 10 * 16_384);
  }

  @Test
  void planPrintsTheSectionOnlyWhenAskedAndValidatesIt() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = RoutingCli.run(new PrintWriter(out), new PrintWriter(err), "plan", "--peak-write",
        "5000", "--partition-write", "5000", "--headroom", "2", "--message-bytes", "1000",
        "--window", "2");
    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString()).contains("producer buffers for a 2 s outage window")
        .contains("maxPendingMessages").contains("5,000  = r x skew / n x W")
        .contains("buffer.memory").contains("delivery.timeout.ms").contains("blockIfQueueFull");
    StringWriter plain = new StringWriter();
    RoutingCli.run(new PrintWriter(plain), new PrintWriter(new StringWriter()), "plan",
        "--peak-write", "5000", "--partition-write", "5000");
    assertThat(plain.toString()).doesNotContain("producer buffers");
    assertThat(RoutingCli.run(new PrintWriter(new StringWriter()), new PrintWriter(
        new StringWriter()), "plan", "--peak-write", "5000", "--partition-write", "5000",
        "--message-bytes", "100", "--flavor", "rabbit")).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(RoutingCli.run(new PrintWriter(new StringWriter()), new PrintWriter(
        new StringWriter()), "plan", "--peak-write", "5000", "--partition-write", "5000",
        "--window", "0")).isEqualTo(RoutingCli.EXIT_USAGE);
  }
}
