package io.github.routingkit.audit.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.routingkit.audit.AuditCause;
import io.github.routingkit.audit.AuditFinding;
import io.github.routingkit.audit.AuditRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The continuous audit's own behaviour: bad events, late events, retention, totals, listener. */
class ContinuousAuditTest {
  static AuditRecord rec(String key, long seq, String consumer, long ot) {
    return new AuditRecord(key, "p", "00ab", seq, 0, null, true, "orders", 0, consumer, "Shared",
        0, null, ot);
  }

  static ContinuousAudit.Builder audit() {
    return ContinuousAudit.builder().inMemoryStores(true).grace(Duration.ofMillis(100));
  }

  @Test
  void eventsThatAreNotAuditLinesAreCountedAndSkipped() {
    try (TopologyRun run = new TopologyRun(audit().build())) {
      run.events.pipeInput("k", "not json", 1_000);
      run.events.pipeInput("k", (String) null, 1_000);
      run.events.pipeInput("k", "{\"k\":\"x\"}", 1_000);
      run.send(rec("k", 2, "a", 1_001));
      run.send(rec("k", 1, "b", 1_002));
      run.wallClockTo(10_000);
      assertThat(run.findings()).extracting(AuditFinding::cause)
          .containsExactly(AuditCause.WRONG_SUBSCRIPTION_TYPE);
      assertThat(run.audit.totals().snapshot()).containsEntry("bad-events", 3L)
          .containsEntry("records", 2L);
      assertThat(run.metric("bad-events-total")).isEqualTo(3.0);
      assertThat(run.metric("pairs-WRONG_SUBSCRIPTION_TYPE-total")).isEqualTo(1.0);
    }
  }

  /** Events are applied in observation-time order within the grace period, not arrival order. */
  @Test
  void theGracePeriodRestoresObservationOrderAndOlderEventsAreLate() {
    try (TopologyRun run = new TopologyRun(audit().build())) {
      run.send(rec("k", 1, "a", 1_050)); // arrives first, observed second
      run.send(rec("k", 2, "a", 1_000));
      run.send(rec("k", 3, "a", 1_300)); // stream time 1300: up to 1200 is applied
      assertThat(run.findings()).hasSize(1); // seq 2 (1000) then seq 1 (1050): one pair
      run.send(rec("k", 0, "a", 1_100)); // older than what was applied: late, applied at once
      assertThat(run.audit.totals().snapshot()).containsEntry("late", 1L);
      List<AuditFinding> late = run.findings();
      assertThat(late).hasSize(1);
      assertThat(late.get(0).sentLater().sequence()).isEqualTo(2);
      assertThat(late.get(0).sentEarlier().sequence()).isZero();
    }
  }

  /** A stream not seen for the retention (stream time) is forgotten: bounded state. */
  @Test
  void streamsPastTheRetentionAreForgotten() {
    ContinuousAudit a = audit().retention(Duration.ofSeconds(10))
        .retentionScan(Duration.ofMillis(1)).build();
    try (TopologyRun run = new TopologyRun(a)) {
      run.send(rec("old", 5, "a", 1_000));
      run.send(rec("fresh", 5, "a", 20_000));
      run.send(rec("fresh", 6, "a", 30_000));
      run.wallClockTo(40_000); // the scan runs: stream time 30000, "old" last seen at 1000
      assertThat(run.audit.totals().snapshot()).containsEntry("expired-streams", 1L);
      run.send(rec("old", 1, "b", 31_000)); // a new stream now, not a pair against seq 5
      run.send(rec("fresh", 1, "b", 31_001)); // still known: a pair
      run.wallClockTo(50_000);
      assertThat(run.findings()).extracting(f -> f.sentEarlier().key()).containsExactly("fresh");
      assertThat(run.audit.totals().snapshot()).containsEntry("streams", 3L);
    }
  }

  @Test
  void theListenerSeesEachPairAndBadSettingsAreRefused() {
    List<AuditFinding> seen = new ArrayList<>();
    try (TopologyRun run = new TopologyRun(audit().instance("i-1").onPair(f -> {
      seen.add(f);
      throw new IllegalStateException("a listener that fails never stops the audit");
    }).build())) {
      run.send(rec("k", 2, "a", 1_000));
      run.send(rec("k", 1, "b", 1_001));
      run.send(rec("k", 0, "b", 1_002));
      run.wallClockTo(10_000);
      assertThat(seen).hasSize(2).isEqualTo(run.findings());
    }
    assertThatThrownBy(() -> ContinuousAudit.builder().grace(Duration.ofMillis(-1)))
        .hasMessageContaining("grace");
    assertThatThrownBy(() -> ContinuousAudit.builder().retention(Duration.ZERO))
        .hasMessageContaining("retention");
    assertThatThrownBy(() -> ContinuousAudit.builder().eventsTopic(" "))
        .hasMessageContaining("events topic");
  }
}
