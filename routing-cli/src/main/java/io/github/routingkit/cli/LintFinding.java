package io.github.routingkit.cli;

import io.github.routingkit.audit.AuditLog;

/**
 * One finding of {@code routing lint}: the rule, how bad it is, the file and line it is about
 * (line 0: a setting left at its default, so no line holds it), what was found and the fix.
 * {@code silenced} is the reason a {@code # routing-lint: disable=} directive of that file gave,
 * or null.
 */
record LintFinding(LintRule rule, Severity severity, String file, int line, String message,
    String fix, String silenced) {

  /** How bad a finding is: an error fails the lint (exit 1), a warning only with --strict. */
  enum Severity { ERROR, WARNING }

  LintFinding(LintRule rule, Severity severity, LintFile file, int line, String message,
      String fix) {
    this(rule, severity, file.name, line, message, fix, file.silenced.get(rule.name()));
  }

  /** Returns the place, {@code file:line} or {@code file} for a default. */
  String where() {
    return line > 0 ? file + ":" + line : file;
  }

  /** Returns the text line: {@code ERROR RK004 key-order-shared-subscription (c.properties:3): ...}. */
  String toLine() {
    return (silenced == null ? "" : "silenced ") + severity + " " + rule + " " + rule.name + " ("
        + where() + "): " + message + "; fix: " + fix
        + (silenced == null ? "" : " [silenced: " + silenced + "]");
  }

  /** Returns the finding as one JSON object. */
  String toJson() {
    StringBuilder sb = new StringBuilder(256).append("{\"rule\":\"").append(rule).append('"');
    sb.append(",\"name\":");
    AuditLog.appendJsonString(rule.name, sb);
    sb.append(",\"severity\":\"").append(severity.name().toLowerCase(java.util.Locale.ROOT))
        .append('"');
    sb.append(",\"cause\":");
    if (rule.cause == null) {
      sb.append("null");
    } else {
      sb.append('"').append(rule.cause.name()).append('"');
    }
    sb.append(",\"file\":");
    AuditLog.appendJsonString(file, sb);
    sb.append(",\"line\":").append(line);
    sb.append(",\"message\":");
    AuditLog.appendJsonString(message, sb);
    sb.append(",\"fix\":");
    AuditLog.appendJsonString(fix, sb);
    sb.append(",\"silenced\":");
    if (silenced == null) {
      sb.append("null");
    } else {
      AuditLog.appendJsonString(silenced, sb);
    }
    return sb.append('}').toString();
  }
}
