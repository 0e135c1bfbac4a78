package io.github.routingkit;

import java.nio.charset.StandardCharsets;

/**
 * {@code String#hashCode()} ({@code s[0]*31^(n-1) + ... + s[n-1]} over UTF-16 code units), the
 * function behind pulsar-client's {@code JavaStringHash} before it masks the sign bit.
 *
 * <p>Byte keys are treated as UTF-8 text and decoded on the fly: a well-formed sequence hashes
 * exactly like {@code new String(bytes, UTF_8).hashCode()} without allocating; an ill-formed one
 * falls back to that very expression (so the JDK's U+FFFD substitution rules apply exactly), which
 * allocates only for malformed input.
 */
final class JavaStringHash {
  private JavaStringHash() {}

  static int hash(CharSequence s) {
    if (s instanceof String) {
      return s.hashCode(); // cached by the JDK; the definition Pulsar uses
    }
    int h = 0;
    for (int i = 0, n = s.length(); i < n; i++) {
      h = 31 * h + s.charAt(i);
    }
    return h;
  }

  static int hashUtf8(byte[] b, int offset, int length) {
    int h = 0;
    int i = offset;
    int end = offset + length;
    while (i < end) {
      int b0 = b[i];
      if (b0 >= 0) {
        h = 31 * h + b0;
        i++;
        continue;
      }
      b0 &= 0xFF;
      if (b0 >= 0xC2 && b0 <= 0xDF) {
        if (i + 1 >= end || !isCont(b[i + 1])) {
          return fallback(b, offset, length);
        }
        h = 31 * h + (((b0 & 0x1F) << 6) | (b[i + 1] & 0x3F));
        i += 2;
      } else if (b0 >= 0xE0 && b0 <= 0xEF) {
        if (i + 2 >= end) {
          return fallback(b, offset, length);
        }
        int b1 = b[i + 1] & 0xFF;
        int lo = b0 == 0xE0 ? 0xA0 : 0x80;
        int hi = b0 == 0xED ? 0x9F : 0xBF;
        if (b1 < lo || b1 > hi || !isCont(b[i + 2])) {
          return fallback(b, offset, length);
        }
        h = 31 * h + (((b0 & 0x0F) << 12) | ((b1 & 0x3F) << 6) | (b[i + 2] & 0x3F));
        i += 3;
      } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        if (i + 3 >= end) {
          return fallback(b, offset, length);
        }
        int b1 = b[i + 1] & 0xFF;
        int lo = b0 == 0xF0 ? 0x90 : 0x80;
        int hi = b0 == 0xF4 ? 0x8F : 0xBF;
        if (b1 < lo || b1 > hi || !isCont(b[i + 2]) || !isCont(b[i + 3])) {
          return fallback(b, offset, length);
        }
        int cp = ((b0 & 0x07) << 18) | ((b1 & 0x3F) << 12) | ((b[i + 2] & 0x3F) << 6)
            | (b[i + 3] & 0x3F);
        h = 31 * h + Character.highSurrogate(cp);
        h = 31 * h + Character.lowSurrogate(cp);
        i += 4;
      } else {
        return fallback(b, offset, length);
      }
    }
    return h;
  }

  /**
   * The same 31-multiplier polynomial over the raw <em>bytes</em> (each read unsigned), as
   * pulsar-client-go's {@code internal.JavaStringHash} computes it over a Go string's UTF-8 bytes.
   * Equal to {@code String#hashCode()} for ASCII text only.
   */
  static int hashBytes(byte[] b, int offset, int length) {
    int h = 0;
    for (int i = offset, end = offset + length; i < end; i++) {
      h = 31 * h + (b[i] & 0xFF);
    }
    return h;
  }

  /** {@link #hashBytes} of the UTF-8 encoding of {@code s}, without materializing it. */
  static int hashUtf8Bytes(CharSequence s) {
    int h = 0;
    for (int i = 0, n = s.length(); i < n; ) {
      char c = s.charAt(i);
      if (c < 0x80) {
        h = 31 * h + c;
        i++;
        continue;
      }
      long e = Utf8.encodeAt(s, i);
      int bytes = Utf8.bytes(e);
      i += Utf8.consumed(e);
      for (int k = 0, count = Utf8.count(e); k < count; k++) {
        h = 31 * h + ((bytes >>> (k << 3)) & 0xFF);
      }
    }
    return h;
  }

  private static boolean isCont(byte b) {
    return (b & 0xC0) == 0x80;
  }

  private static int fallback(byte[] b, int offset, int length) {
    return new String(b, offset, length, StandardCharsets.UTF_8).hashCode();
  }
}
