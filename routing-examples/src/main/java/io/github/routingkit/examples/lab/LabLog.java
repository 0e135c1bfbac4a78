package io.github.routingkit.examples.lab;

import io.github.routingkit.audit.AuditReport;
import io.github.routingkit.audit.InMemoryAuditRecorder;

/**
 * The lab's output (deterministic, the snapshot), its check counts, the timings on stderr, and
 * the checks every scenario shares. Not thread-safe: scenarios write from the lab's thread.
 */
final class LabLog {
  private final StringBuilder out = new StringBuilder();
  private int checks;
  private int failed;
  private long mark = System.nanoTime();

  /** Records a check and prints it as {@code [ok]} or {@code [FAIL]}. */
  void check(String what, boolean ok) {
    checks++;
    if (!ok) {
      failed++;
    }
    line("  [" + (ok ? "ok" : "FAIL") + "] " + what);
  }

  /** Checks that the audit finds no out-of-order pair in what {@code recorder} holds. */
  void orderKept(InMemoryAuditRecorder recorder) {
    AuditReport report = recorder.audit();
    check("per-key order is kept (the audit finds no out-of-order pair in " + report.records()
        + " messages)", report.pairs() == 0 && report.records() > 0);
  }

  /** Where the time goes, on stderr (not part of the snapshot). */
  void timing(String what) {
    long now = System.nanoTime();
    System.err.printf("subscription lab: %-40s %5.1f s%n", what, (now - mark) / 1e9);
    mark = now;
  }

  /** Appends a line to the output. */
  void line(String s) {
    out.append(s).append('\n');
  }

  int checks() {
    return checks;
  }

  int failed() {
    return failed;
  }

  String text() {
    return out.toString();
  }

  /** Fails the run (not a check) when a scenario cannot go on. */
  static void require(boolean ok, String what) {
    if (!ok) {
      throw new IllegalStateException("subscription lab: " + what);
    }
  }

  /** Counts the records {@code consumer} received. */
  static long countBy(InMemoryAuditRecorder recorder, String consumer) {
    return recorder.records().stream().filter(r -> r.consumer().equals(consumer)).count();
  }
}
