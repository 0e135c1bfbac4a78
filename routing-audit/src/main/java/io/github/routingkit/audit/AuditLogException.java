package io.github.routingkit.audit;

/** A line of an audit log that is not a valid audit line, or an unreadable log. */
public final class AuditLogException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message why the line is bad, including where when known
   */
  public AuditLogException(String message) {
    super(message);
  }
}
