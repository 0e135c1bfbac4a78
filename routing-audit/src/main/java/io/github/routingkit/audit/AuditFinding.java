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
   * Holds no timestamps, so it is stable across runs of a deterministic scenario.
   */
  public String evidence() {
    return "key " + quote(sentLater.key()) + " producer " + quote(sentLater.producer()) + " topic "
        + sentLater.topic() + ": seq " + sentLater.sequence() + " " + side(sentLater)
        + " seen before seq " + sentEarlier.sequence() + " " + side(sentEarlier);
  }

  private static String side(AuditRecord r) {
    return "(partition " + r.partition() + ", consumer " + r.consumer() + ", " + r.subscription()
        + ", redelivery " + (r.redeliveryCount() < 0 ? "unknown" : r.redeliveryCount())
        + ", generation " + (r.generation() == null ? "-" : r.generation())
        + (r.keyed() ? "" : ", sent WITHOUT key") + ")";
  }

  static String quote(String s) {
    StringBuilder b = new StringBuilder(s.length() + 2).append('\'');
    int limit = Math.min(s.length(), 80);
    for (int i = 0; i < limit; i++) {
      char c = s.charAt(i);
      b.append(c < 0x20 || c == 0x7f ? '?' : c);
    }
    if (s.length() > limit) {
      b.append("...");
    }
    return b.append('\'').toString();
  }

  @Override
  public String toString() {
    return cause + " (" + cause.layer() + "): " + evidence();
  }
}
