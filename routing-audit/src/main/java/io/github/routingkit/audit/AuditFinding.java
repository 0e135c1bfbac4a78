package io.github.routingkit.audit;

import java.util.Objects;

/**
 * One out-of-order pair: {@code sentLater} was observed before {@code sentEarlier}, although the
 * same producer sent them for the same key in the opposite order; with the cause and the evidence.
 */
public final class AuditFinding {
  private final AuditCause cause;
  private final AuditRecord sentLater;
  private final AuditRecord sentEarlier;

  /**
   * Creates the value.
   *
   * @param cause the named cause
   * @param sentLater the message sent later (higher sequence), observed first
   * @param sentEarlier the message sent earlier (lower sequence), observed after it
   */
  public AuditFinding(AuditCause cause, AuditRecord sentLater, AuditRecord sentEarlier) {
    this.cause = cause;
    this.sentLater = sentLater;
    this.sentEarlier = sentEarlier;
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
    if (this == o) {
      return true;
    }
    if (!(o instanceof AuditFinding)) {
      return false;
    }
    AuditFinding other = (AuditFinding) o;
    return Objects.equals(cause, other.cause)
        && Objects.equals(sentLater, other.sentLater)
        && Objects.equals(sentEarlier, other.sentEarlier);
  }

  @Override
  public int hashCode() {
    int h = 0;
    h = 31 * h + Objects.hashCode(cause);
    h = 31 * h + Objects.hashCode(sentLater);
    h = 31 * h + Objects.hashCode(sentEarlier);
    return h;
  }
}
