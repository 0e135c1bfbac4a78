package io.github.routingkit.testing;

/**
 * Readable descriptions of failing keys for differential-test messages; shared with the adapters'
 * tests through routing-core's test-jar.
 */
public final class KeyText {
  private KeyText() {}

  /** The first 64 bytes in hex, with the length when longer. */
  public static String hex(byte[] b) {
    StringBuilder sb = new StringBuilder("bytes[");
    for (int i = 0; i < Math.min(b.length, 64); i++) {
      sb.append(String.format("%02x", b[i] & 0xFF));
    }
    return sb.append(b.length > 64 ? "...] (" + b.length + " bytes)" : "]").toString();
  }

  /** The first 80 chars quoted, non-printable ones as {@code \\uXXXX}, with the length when longer. */
  public static String describe(String s) {
    StringBuilder sb = new StringBuilder("\"");
    for (int i = 0; i < Math.min(s.length(), 80); i++) {
      char c = s.charAt(i);
      sb.append(c >= 0x20 && c < 0x7f ? String.valueOf(c) : String.format("\\u%04x", (int) c));
    }
    return sb.append(s.length() > 80 ? "...\" (" + s.length() + " chars)" : "\"").toString();
  }
}
