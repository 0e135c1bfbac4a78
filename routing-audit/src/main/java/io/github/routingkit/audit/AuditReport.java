package io.github.routingkit.audit;

import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The result of an {@link OrderingAudit}: counts, the out-of-order pairs by cause, and the first
 * findings in full. Immutable.
 */
public final class AuditReport {
  private final long records;
  private final long keys;
  private final long forgottenKeys;
  private final long duplicates;
  private final long pairs;
  private final long keysWithFindings;
  private final Map<AuditCause, Long> byCause;
  private final List<AuditFinding> findings;
  private final long skippedLines;
  private final String firstSkipped;
  private final List<String> readErrors;

  /**
   * Creates a report.
   *
   * @param records records audited
   * @param keys (topic, producer, key) streams seen (a forgotten stream seen again counts again)
   * @param forgottenKeys streams forgotten to stay within the key bound
   * @param duplicates records that repeated their stream's highest sequence
   * @param pairs out-of-order pairs found
   * @param keysWithFindings streams with at least one pair
   * @param byCause pairs per cause (copied; a missing cause counts 0)
   * @param findings the first findings, in the order found (copied)
   * @param skippedLines bad log lines skipped (0 when not reading files or not skipping)
   * @param firstSkipped where and why the first line was skipped, or null
   * @throws NullPointerException if {@code byCause} or {@code findings} is null
   */
  public AuditReport(long records, long keys, long forgottenKeys, long duplicates, long pairs,
      long keysWithFindings, Map<AuditCause, Long> byCause, List<AuditFinding> findings,
      long skippedLines, String firstSkipped) {
    this(records, keys, forgottenKeys, duplicates, pairs, keysWithFindings, byCause, findings,
        skippedLines, firstSkipped, List.of());
  }

  /**
   * Creates a report of logs of which some ended early at a read error.
   *
   * @param records records audited
   * @param keys (topic, producer, key) streams seen (a forgotten stream seen again counts again)
   * @param forgottenKeys streams forgotten to stay within the key bound
   * @param duplicates records that repeated their stream's highest sequence
   * @param pairs out-of-order pairs found
   * @param keysWithFindings streams with at least one pair
   * @param byCause pairs per cause (copied; a missing cause counts 0)
   * @param findings the first findings, in the order found (copied)
   * @param skippedLines bad log lines skipped (0 when not reading files or not skipping)
   * @param firstSkipped where and why the first line was skipped, or null
   * @param readErrors per log that ended at a read error: where and why (copied)
   * @throws NullPointerException if a collection is null
   */
  public AuditReport(long records, long keys, long forgottenKeys, long duplicates, long pairs,
      long keysWithFindings, Map<AuditCause, Long> byCause, List<AuditFinding> findings,
      long skippedLines, String firstSkipped, List<String> readErrors) {
    this.records = records;
    this.keys = keys;
    this.forgottenKeys = forgottenKeys;
    this.duplicates = duplicates;
    this.pairs = pairs;
    this.keysWithFindings = keysWithFindings;
    EnumMap<AuditCause, Long> copy = new EnumMap<>(AuditCause.class);
    copy.putAll(byCause);
    this.byCause = Collections.unmodifiableMap(copy);
    this.findings = List.copyOf(findings);
    this.skippedLines = skippedLines;
    this.firstSkipped = firstSkipped;
    this.readErrors = List.copyOf(readErrors);
  }

  AuditReport(long records, long keys, long forgottenKeys, long duplicates, long pairs,
      long keysWithFindings, Map<AuditCause, Long> byCause, List<AuditFinding> findings) {
    this(records, keys, forgottenKeys, duplicates, pairs, keysWithFindings, byCause, findings, 0,
        null);
  }

  AuditReport withSkipped(long skipped, String first, List<String> errors) {
    return new AuditReport(records, keys, forgottenKeys, duplicates, pairs, keysWithFindings,
        byCause, findings, skipped, first, errors);
  }

  /** Returns the number of records audited. */
  public long records() {
    return records;
  }

  /** Returns the (topic, producer, key) streams seen (a forgotten stream seen again counts again). */
  public long keys() {
    return keys;
  }

  /** Returns the streams forgotten to stay within the key bound. */
  public long forgottenKeys() {
    return forgottenKeys;
  }

  /** Returns the records that repeated their stream's highest sequence. */
  public long duplicates() {
    return duplicates;
  }

  /** Returns the out-of-order pairs found. */
  public long pairs() {
    return pairs;
  }

  /** Returns the streams with at least one pair. */
  public long keysWithFindings() {
    return keysWithFindings;
  }

  /** Returns the pairs per cause (unmodifiable). */
  public Map<AuditCause, Long> byCause() {
    return byCause;
  }

  /** Returns the first findings, in the order found (unmodifiable). */
  public List<AuditFinding> findings() {
    return findings;
  }

  /** Returns the bad log lines skipped. */
  public long skippedLines() {
    return skippedLines;
  }

  /** Returns where and why the first line was skipped, or null. */
  public String firstSkipped() {
    return firstSkipped;
  }

  /**
   * Returns, per log that ended early at a read error (a truncated {@code .gz}, say) while bad
   * lines were skipped, where and why; the records before the error are in the report.
   */
  public List<String> readErrors() {
    return readErrors;
  }

  /** Returns true if no out-of-order pair was found. */
  public boolean clean() {
    return pairs == 0;
  }

  /** Returns the number of pairs with this cause. */
  public long count(AuditCause cause) {
    return byCause.getOrDefault(cause, 0L);
  }

  /** Returns the causes that have at least one pair, most frequent first (ties: enum order). */
  public List<AuditCause> causesFound() {
    return byCause.entrySet().stream().filter(e -> e.getValue() > 0)
        .sorted((x, y) -> Long.compare(y.getValue(), x.getValue()))
        .map(Map.Entry::getKey).collect(Collectors.toList());
  }

  /**
   * Renders the summary, the table of causes with counts and at most {@code maxFindings} findings
   * with their evidence; no timestamps, so a deterministic scenario renders identically each run.
   */
  public String toText(int maxFindings) {
    StringBuilder b = new StringBuilder();
    b.append(String.format("ordering audit: %d records, %d keys, %d out-of-order pairs on %d keys,"
        + " %d duplicates%n", records, keys, pairs, keysWithFindings, duplicates));
    if (forgottenKeys > 0) {
      b.append(String.format("  %d keys forgotten to stay within --max-keys: pairs on them may be"
          + " missed%n", forgottenKeys));
    }
    if (skippedLines > 0) {
      b.append(String.format("  %d bad lines skipped; first: %s%n", skippedLines, firstSkipped));
    }
    for (String e : readErrors) {
      b.append("  ").append(e).append(System.lineSeparator());
    }
    b.append(String.format("%-24s %-13s %8s  %s%n", "cause", "layer", "pairs", "meaning"));
    for (AuditCause c : AuditCause.values()) {
      b.append(String.format("%-24s %-13s %8d  %s%n", c.name(), c.layer(), count(c),
          c.description()));
    }
    int shown = Math.min(maxFindings, findings.size());
    if (shown > 0) {
      b.append(String.format("first %d of %d pairs:%n", shown, pairs));
      for (int i = 0; i < shown; i++) {
        b.append("  ").append(findings.get(i)).append(System.lineSeparator());
      }
    }
    String partial = skippedLines == 0 && readErrors.isEmpty() ? ""
        : " (on the records read: " + (skippedLines > 0 ? skippedLines + " bad lines skipped" : "")
        + (skippedLines > 0 && !readErrors.isEmpty() ? ", " : "")
        + (readErrors.isEmpty() ? "" : readErrors.size() + " log(s) cut short by a read error")
        + ")";
    b.append(clean() ? "verdict: per-key order kept" + partial
        : "verdict: per-key order BROKEN" + partial + ", causes: " + causesFound())
        .append(System.lineSeparator());
    return b.toString();
  }

  @Override
  public String toString() {
    return toText(10);
  }
}
