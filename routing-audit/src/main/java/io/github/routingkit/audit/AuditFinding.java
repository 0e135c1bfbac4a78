package io.github.routingkit.audit;

/**
 * One out-of-order pair: {@code sentLater} was observed before {@code sentEarlier}, although the
 * same producer sent them for the same key in the opposite order; with the cause and the evidence.
 *
 * @param cause the named cause
 * @param sentLater the message sent later (higher sequence), observed first
 * @param sentEarlier the message sent earlier (lower sequence), observed after it
 */
public record AuditFinding(AuditCause cause, AuditRecord sentLater, AuditRecord sentEarlier) {

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
