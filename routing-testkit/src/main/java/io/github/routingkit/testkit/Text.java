package io.github.routingkit.testkit;

import java.util.Locale;

/** Formatting shared by the reports: fixed locale, JSON and CSV escaping. Package-private. */
final class Text {
  private Text() {}

  static String num(long value) {
    return String.format(Locale.ROOT, "%,d", value);
  }

  static String dec(double value, int digits) {
    return String.format(Locale.ROOT, "%." + digits + "f", value);
  }

  /** A decimal with thousands separators, for counts that are means ("5,000.0"). */
  static String grouped(double value, int digits) {
    return String.format(Locale.ROOT, "%,." + digits + "f", value);
  }

  static String pct(double fraction) {
    return String.format(Locale.ROOT, "%.2f%%", fraction * 100);
  }

  /** A JSON number: finite doubles as written by Java, NaN and infinities as null. */
  static String jsonNumber(double value) {
    return Double.isFinite(value) ? Double.toString(value) : "null";
  }

  /** A JSON string: the audit log's escaper, so every RoutingKit JSON output escapes alike. */
  static String jsonString(String s) {
    return io.github.routingkit.audit.AuditLog.appendJsonString(s,
        new StringBuilder(s.length() + 2)).toString();
  }

  static String csvField(String s) {
    if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
      return s;
    }
    return '"' + s.replace("\"", "\"\"") + '"';
  }

  /** A key shortened for one line of text: at most 40 characters, control characters escaped. */
  static String shortKey(String key) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < key.length() && sb.length() < 40; i++) {
      char c = key.charAt(i);
      sb.append(c < 0x20 ? '?' : c);
    }
    if (sb.length() < key.length()) {
      sb.append("…(").append(key.length()).append(" chars)");
    }
    return "'" + sb + "'";
  }
}
