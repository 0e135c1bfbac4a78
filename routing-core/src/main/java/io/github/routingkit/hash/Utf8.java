package io.github.routingkit.hash;

/**
 * UTF-8 encoding of characters on the fly, without allocating, bit-exact with
 * {@code String.getBytes(StandardCharsets.UTF_8)}: an unpaired surrogate becomes the single byte
 * {@code '?'} (0x3F), as the JDK's encoder substitutes it.
 */
final class Utf8 {
  private Utf8() {}

  /**
   * Longest String (in chars) that the murmur schemes hash straight from its chars without
   * allocating; past it {@code getBytes(UTF_8)} plus word-at-a-time hashing is faster on JDK 17
   * (routing-benchmarks' {@code StringPathCrossoverBenchmark}; figures in docs/performance.md).
   * 36 chars covers a UUID's text form.
   */
  static final int ENCODE_ABOVE = 36;

  /** Replacement byte the JDK writes for an unpaired surrogate. */
  static final int REPLACEMENT = '?';

  /** Returns the number of bytes {@code s.toString().getBytes(UTF_8)} would have. */
  static int encodedLength(CharSequence s) {
    int n = s.length();
    int bytes = n;
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        continue;
      }
      if (c < 0x800) {
        bytes += 1;
      } else if (Character.isHighSurrogate(c)
          && i + 1 < n
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        bytes += 2; // 4 bytes for 2 chars
        i++;
      } else if (Character.isSurrogate(c)) {
        // unpaired: one '?' byte, already counted
      } else {
        bytes += 2;
      }
    }
    return bytes;
  }

  /**
   * Encodes the character (or surrogate pair) at {@code i}, where {@code s.charAt(i) >= 0x80}.
   * Returns the bytes packed little-endian in bits 0-31, the byte count in bits 32-39 and the number
   * of chars consumed in bits 40-47.
   */
  static long encodeAt(CharSequence s, int i) {
    char c = s.charAt(i);
    if (c < 0x800) {
      int b0 = 0xC0 | (c >>> 6);
      int b1 = 0x80 | (c & 0x3F);
      return pack(b0 | (b1 << 8), 2, 1);
    }
    if (Character.isSurrogate(c)) {
      if (Character.isHighSurrogate(c) && i + 1 < s.length()) {
        char d = s.charAt(i + 1);
        if (Character.isLowSurrogate(d)) {
          int cp = Character.toCodePoint(c, d);
          int b0 = 0xF0 | (cp >>> 18);
          int b1 = 0x80 | ((cp >>> 12) & 0x3F);
          int b2 = 0x80 | ((cp >>> 6) & 0x3F);
          int b3 = 0x80 | (cp & 0x3F);
          return pack(b0 | (b1 << 8) | (b2 << 16) | (b3 << 24), 4, 2);
        }
      }
      return pack(REPLACEMENT, 1, 1);
    }
    int b0 = 0xE0 | (c >>> 12);
    int b1 = 0x80 | ((c >>> 6) & 0x3F);
    int b2 = 0x80 | (c & 0x3F);
    return pack(b0 | (b1 << 8) | (b2 << 16), 3, 1);
  }

  private static long pack(int bytes, int count, int consumed) {
    return (bytes & 0xFFFFFFFFL) | ((long) count << 32) | ((long) consumed << 40);
  }

  static int bytes(long packed) {
    return (int) packed;
  }

  static int count(long packed) {
    return (int) (packed >>> 32) & 0xFF;
  }

  static int consumed(long packed) {
    return (int) (packed >>> 40) & 0xFF;
  }
}
