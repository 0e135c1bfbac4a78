package io.github.routingkit.audit;

/**
 * Text from a log made safe to print on a terminal: every control character (C0, DEL, C1, which
 * hold the terminal escapes ESC and CSI), line and paragraph separator and bidirectional
 * formatting character becomes {@code ?}, and long text is cut.
 */
final class SafeText {
  private SafeText() {}

  /**
   * Returns {@code s} with unsafe characters replaced by {@code ?}, cut to {@code max} chars
   * followed by {@code ...} when longer; {@code -} for null.
   */
  static String of(String s, int max) {
    if (s == null) {
      return "-";
    }
    int limit = Math.min(s.length(), max);
    StringBuilder b = new StringBuilder(limit + 3);
    for (int i = 0; i < limit; i++) {
      char c = s.charAt(i);
      b.append(unsafe(c) ? '?' : c);
    }
    if (s.length() > limit) {
      b.append("...");
    }
    return b.toString();
  }

  static boolean unsafe(char c) {
    return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x2028 || c == 0x2029
        || c == 0x200e || c == 0x200f || (c >= 0x202a && c <= 0x202e)
        || (c >= 0x2066 && c <= 0x2069);
  }
}
