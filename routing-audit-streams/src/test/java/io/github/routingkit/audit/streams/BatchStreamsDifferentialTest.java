package io.github.routingkit.audit.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.audit.AuditCause;
import io.github.routingkit.audit.AuditFinding;
import io.github.routingkit.audit.AuditLog;
import io.github.routingkit.audit.AuditRecord;
import io.github.routingkit.audit.AuditReport;
import io.github.routingkit.audit.OrderingAudit;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same audit events through the batch audit ({@code routing audit}'s path: per-consumer log
 * files merged by observation time) and through the Streams topology give the same pairs, in
 * the same order, with the same causes and evidence, and the same totals: on seeded random logs
 * whose events reach the topic out of order (each late by less than the grace period), and on
 * the fixture logs recorded by the interceptors on real brokers.
 */
class BatchStreamsDifferentialTest {
  /** Seeds of the inner loop; the slow profile adds the rest up to {@link #ALL_SEEDS}. */
  static final int FAST_SEEDS = 15;
  static final int ALL_SEEDS = 100;

  @TempDir
  Path dir;

  AuditReport batch(List<List<AuditRecord>> files) {
    List<Path> paths = new ArrayList<>();
    try {
      for (int i = 0; i < files.size(); i++) {
        List<String> lines = new ArrayList<>();
        for (AuditRecord r : files.get(i)) {
          lines.add(AuditLog.line(r));
        }
        paths.add(Files.write(dir.resolve("consumer-" + i + "-" + System.nanoTime() + ".jsonl"),
            lines));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return OrderingAudit.builder().maxKeys(Integer.MAX_VALUE).maxFindings(Integer.MAX_VALUE)
        .build().auditFiles(paths, false, n -> { }, Long.MAX_VALUE);
  }

  /** The events as they reach the topic: each up to {@code maxLag} ms after its observation. */
  static List<AuditRecord> arrivals(List<List<AuditRecord>> files, long maxLag, long seed) {
    Random random = new Random(seed ^ 0x5DEECE66DL);
    List<long[]> order = new ArrayList<>();
    List<AuditRecord> all = new ArrayList<>();
    for (List<AuditRecord> f : files) {
      long lagFloor = 0; // one recorder ships in its own order
      for (AuditRecord r : f) {
        long at = Math.max(lagFloor, r.observedAtMillis() + (maxLag == 0 ? 0
            : random.nextInt((int) maxLag)));
        lagFloor = at;
        order.add(new long[] {at, all.size()});
        all.add(r);
      }
    }
    order.sort(Comparator.<long[]>comparingLong(x -> x[0]).thenComparingLong(x -> x[1]));
    List<AuditRecord> out = new ArrayList<>();
    for (long[] o : order) {
      out.add(all.get((int) o[1]));
    }
    return out;
  }

  /** One log through a running topology; the totals compared are this log's share. */
  static void assertSame(String what, AuditReport batch, TopologyRun run,
      List<AuditRecord> arrivals, long grace) {
    java.util.Map<String, Long> before = run.audit.totals().snapshot();
    long last = Long.MIN_VALUE;
    for (AuditRecord r : arrivals) {
      run.send(r);
      last = Math.max(last, r.observedAtMillis());
    }
    run.wallClockTo(last + grace + 1);
    List<AuditFinding> streamed = run.findings();
    java.util.Map<String, Long> after = run.audit.totals().snapshot();
    java.util.function.Function<String, Long> delta = n -> after.get(n) - before.get(n);
    assertThat(streamed).as("%s: pairs", what).containsExactlyElementsOf(batch.findings());
    assertThat(delta.apply("records")).as("%s: records", what).isEqualTo(batch.records());
    assertThat(delta.apply("streams")).as("%s: streams", what).isEqualTo(batch.keys());
    assertThat(delta.apply("duplicates")).as("%s: duplicates", what)
        .isEqualTo(batch.duplicates());
    assertThat(delta.apply("keys-with-pairs")).as("%s: keys with pairs", what)
        .isEqualTo(batch.keysWithFindings());
    for (AuditCause c : AuditCause.values()) {
      assertThat(delta.apply("pairs-" + c.name())).as("%s: %s", what, c)
          .isEqualTo(batch.count(c));
    }
    assertThat(delta.apply("late")).as("%s: late", what).isZero();
  }

  @Test
  void randomLogsArrivingOutOfOrderWithinTheGraceGiveTheBatchAuditsPairs() {
    differential(1, FAST_SEEDS);
  }

  /** All seeds, and they hold every cause, so the comparison covers every rule. */
  @Test
  @org.junit.jupiter.api.Tag("slow")
  void everyCauseOnOneHundredRandomLogs() {
    differential(1, ALL_SEEDS);
  }

  void differential(long fromSeed, long toSeed) {
    Set<AuditCause> seen = EnumSet.noneOf(AuditCause.class);
    long pairs = 0;
    try (TopologyRun run = new TopologyRun(Duration.ofMillis(1_000))) {
      for (long seed = fromSeed; seed <= toSeed; seed++) {
        List<List<AuditRecord>> files = AuditLogs.random(seed);
        AuditReport expected = batch(files);
        assertSame("seed " + seed, expected, run, arrivals(files, 999, seed), 1_000);
        seen.addAll(expected.causesFound());
        pairs += expected.pairs();
      }
      assertThat(run.metric("pairs-total")).isEqualTo(run.audit.totals().pairs());
      assertThat((long) run.metric("pairs-total")).isEqualTo(pairs);
    }
    if (toSeed - fromSeed + 1 >= ALL_SEEDS) {
      assertThat(seen).containsExactlyInAnyOrder(AuditCause.values());
      assertThat(pairs).isGreaterThan(1_000);
    } else {
      assertThat(pairs).isGreaterThan(50);
    }
  }

  /** Without the reorder buffer (grace 0) the same arrivals give other pairs: the test can fail. */
  @Test
  void withoutTheGracePeriodLaggedArrivalsGiveOtherPairs() {
    int differ = 0;
    try (TopologyRun run = new TopologyRun(Duration.ZERO)) {
      for (long seed = 1; seed <= FAST_SEEDS; seed++) {
        List<List<AuditRecord>> files = AuditLogs.random(seed);
        AuditReport expected = batch(files);
        for (AuditRecord r : arrivals(files, 999, seed)) {
          run.send(r);
        }
        run.wallClockTo((seed + 1) * 10_000_000_000L);
        if (!run.findings().equals(expected.findings())) {
          differ++;
        }
      }
    }
    assertThat(differ).isGreaterThan(FAST_SEEDS / 3);
  }

  /** A fixture log as its records, in file order. */
  List<AuditRecord> fixture(String name) throws IOException {
    Path copy = dir.resolve(name);
    try (java.io.InputStream in = getClass().getResourceAsStream("/fixtures/" + name)) {
      Files.copy(in, copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
    List<AuditRecord> out = new ArrayList<>();
    try (io.github.routingkit.audit.AuditLogReader r = io.github.routingkit.audit.AuditLogReader
        .open(copy, false)) {
      for (AuditRecord rec = r.next(); rec != null; rec = r.next()) {
        out.add(rec);
      }
    }
    return out;
  }

  /**
   * The fixtures: the audit's own cases (each cause, duplicates, streams apart by topic,
   * producer and epoch, an old line without an epoch, a restarted producer, escaped and
   * shortened keys) and the 1,980 events the interceptors shipped from real Kafka and Pulsar
   * brokers in ContinuousAuditBrokerTest (a clean group, keyless sends, a partition expansion,
   * a Shared subscription, a consumer crash).
   */
  @Test
  void theFixtureLogsGiveTheBatchAuditsPairs() throws IOException {
    String[][] fixtures = {{"unit-cases.jsonl", "10"}, {"broker-events.jsonl.gz", "374"}};
    for (String[] f : fixtures) {
      List<AuditRecord> log = fixture(f[0]);
      AuditReport expected = batch(List.of(log));
      assertThat(expected.pairs()).as(f[0]).isEqualTo(Long.parseLong(f[1]));
      try (TopologyRun run = new TopologyRun(Duration.ofSeconds(5))) {
        assertSame(f[0], expected, run, log, 5_000);
      }
    }
    AuditReport cases = batch(List.of(fixture("unit-cases.jsonl")));
    assertThat(cases.causesFound()).containsExactlyInAnyOrder(AuditCause.values());
    assertThat(cases.duplicates()).isEqualTo(1);
  }
}
