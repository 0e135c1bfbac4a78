package io.github.routingkit.audit;

/**
 * One out-of-order pair: {@code sentLater} was observed before {@code sentEarlier}, although the
 * same producer sent them for the same key in the opposite order; with the cause and the evidence.
 *
 * <p>Immutable; equal when cause and both records are equal.
 */
public final class AuditFinding {
  private final AuditCause cause;
  private final AuditRecord sentLater;
  private final AuditRecord sentEarlier;

  /**
   * Creates a finding.
   *
   * @param cause the named cause
   * @param sentLater the message sent later (higher sequence), observed first
   * @param sentEarlier the message sent earlier (lower sequence), observed after it
   * @throws NullPointerException if any is null
   */
  public AuditFinding(AuditCause cause, AuditRecord sentLater, AuditRecord sentEarlier) {
    this.cause = java.util.Objects.requireNonNull(cause, "cause");
    this.sentLater = java.util.Objects.requireNonNull(sentLater, "sentLater");
    this.sentEarlier = java.util.Objects.requireNonNull(sentEarlier, "sentEarlier");
  }

  /** Returns the named cause. */
  public AuditCause cause() {
    return cause;
  }

  /** Returns the message sent later (higher sequence), observed first. */
  public AuditRecord sentLater() {
    return sentLater;
  }

  /** Returns the message sent earlier (lower sequence), observed after it. */
  public AuditRecord sentEarlier() {
    return sentEarlier;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof AuditFinding)) {
      return false;
    }
    AuditFinding f = (AuditFinding) o;
    return cause == f.cause && sentLater.equals(f.sentLater) && sentEarlier.equals(f.sentEarlier);
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(cause, sentLater, sentEarlier);
  }

  /**
   * Returns the evidence on one line: key, producer, topic, and for both messages the sequence,
   * partition, consumer, subscription type, redelivery count, generation and whether it had a key.
   * Holds no timestamps and no producer epoch, so it is stable across runs of a deterministic
   * scenario. Text from the log is printed with control, separator and bidirectional formatting
   * characters as {@code ?} (a log cannot send terminal escapes) and cut when long.
   */
  public String evidence() {
    return "key " + quote(sentLater.key()) + " producer " + quote(sentLater.producer()) + " topic "
        + SafeText.of(sentLater.topic(), 200) + ": seq " + sentLater.sequence() + " "
        + side(sentLater) + " seen before seq " + sentEarlier.sequence() + " " + side(sentEarlier);
  }

  private static String side(AuditRecord r) {
    return "(partition " + r.partition() + ", consumer " + SafeText.of(r.consumer(), 200) + ", "
        + SafeText.of(r.subscription(), 40)
        + ", redelivery " + (r.redeliveryCount() < 0 ? "unknown" : r.redeliveryCount())
        + ", generation " + SafeText.of(r.generation(), 80)
        + (r.keyed() ? "" : ", sent WITHOUT key") + ")";
  }

  static String quote(String s) {
    return "'" + SafeText.of(s, 80) + "'";
  }

  @Override
  public String toString() {
    return cause + " (" + cause.layer() + "): " + evidence();
  }
}
