package io.github.routingkit.hash;

import java.nio.charset.StandardCharsets;

/**
 * The one text front-end of the hash package: feeds the UTF-8 encoding of a {@link CharSequence}
 * to a {@link WordHash}, 4 bytes at a time, without allocating, bit-exact with
 * {@code s.toString().getBytes(StandardCharsets.UTF_8)} (an unpaired surrogate becomes the single
 * byte {@code '?'}, 0x3F, as the JDK's encoder substitutes it). Every algorithm that hashes text
 * without encoding it first goes through {@link #hash(CharSequence, WordHash)}; each writes only
 * its per-word step, its finish and its {@code byte[]} form.
 */
final class Utf8 {
  private Utf8() {}

  /*
   * Design notes. A String of at most encodeAbove() chars is first tried as ASCII in one pass
   * (its chars are then its UTF-8 bytes); a non-ASCII one, and any other CharSequence, is encoded
   * on the fly. For the murmur schemes a String longer than ENCODE_ABOVE is encoded once with
   * getBytes(UTF_8) and hashed a word at a time: the JDK's encoder is an intrinsic and a char loop
   * cannot read words, so past that length encoding first is faster on JDK 17 (routing-benchmarks'
   * StringPathCrossoverBenchmark measures where the two paths cross). The algorithms whose
   * step is one byte at a time gain nothing from that and stay allocation-free at every length.
   *
   * Each algorithm calls hash(s, INSTANCE) with a static final instance of its own WordHash, so
   * once this small static method is inlined into that caller the receiver's exact class is known
   * and word()/finish() are inlined without a type check.
   */

  /**
   * Longest String (in chars) that the murmur schemes hash straight from its chars without
   * allocating. 36 chars covers a UUID's text form.
   */
  static final int ENCODE_ABOVE = 36;

  /** Replacement byte the JDK writes for an unpaired surrogate. */
  static final int REPLACEMENT = '?';

  /** Sentinel of {@link #hashAscii}; an ASCII key hashing to it is simply rehashed by the general path. */
  private static final int NOT_ASCII = 0x80000000;

  /**
   * A hash over a byte sequence taken as 4-byte little-endian words followed by a tail of 0 to 3
   * bytes. Implementations are stateless singletons.
   */
  abstract static class WordHash {
    /** The state before the first word, given the encoded length (only if {@link #needsLength()}, else -1). */
    abstract int seed(int utf8Length);

    /** Whether {@link #seed} needs the encoded length (an extra pass over non-ASCII text). */
    abstract boolean needsLength();

    /** Folds in the next 4 bytes, {@code word} holding them little-endian. */
    abstract int word(int h, int word);

    /**
     * Folds in the last {@code tailLength} (0-3) bytes, given little-endian in {@code tail}, and
     * returns the hash of all {@code utf8Length} bytes.
     */
    abstract int finish(int h, int tail, int tailLength, int utf8Length);

    /**
     * Strings longer than this many chars are encoded with {@code getBytes(UTF_8)} and handed to
     * {@link #bytes}; {@link Integer#MAX_VALUE} for never.
     */
    int encodeAbove() {
      return Integer.MAX_VALUE;
    }

    /** The same hash over {@code length} bytes of {@code data} from {@code offset}. */
    abstract int bytes(byte[] data, int offset, int length);
  }

  /** Returns {@code f}'s hash of {@code s.toString().getBytes(UTF_8)}. */
  static int hash(CharSequence s, WordHash f) {
    if (s instanceof String) {
      String str = (String) s;
      if (str.length() > f.encodeAbove()) {
        byte[] utf8 = str.getBytes(StandardCharsets.UTF_8);
        return f.bytes(utf8, 0, utf8.length);
      }
      int h = hashAscii(str, f);
      if (h != NOT_ASCII) {
        return h;
      }
    }
    return hashUtf8(s, f);
  }

  /**
   * The common case, in one pass: assumes every char is ASCII (so the UTF-8 bytes are the chars
   * themselves) and returns {@link #NOT_ASCII} if the assumption turns out false.
   */
  static int hashAscii(String s, WordHash f) {
    int n = s.length();
    int seen = 0;
    int h = f.seed(n);
    int end4 = n & ~3;
    for (int i = 0; i < end4; i += 4) {
      int w = 0;
      for (int j = 0; j < 4; j++) { // C2 unrolls this; measured faster than four named charAt calls
        char c = s.charAt(i + j);
        seen |= c;
        w |= c << (j << 3);
      }
      if (seen >= 0x80) {
        return NOT_ASCII; // stop early: long non-ASCII text would otherwise be read twice
      }
      h = f.word(h, w);
    }
    int tail = 0;
    for (int i = end4, shift = 0; i < n; i++, shift += 8) {
      char c = s.charAt(i);
      seen |= c;
      tail |= c << shift;
    }
    return seen < 0x80 ? f.finish(h, tail, n & 3, n) : NOT_ASCII;
  }

  /** Encodes on the fly: any CharSequence, any text. */
  private static int hashUtf8(CharSequence s, WordHash f) {
    int h = f.seed(f.needsLength() ? encodedLength(s) : -1);
    int acc = 0;
    int fill = 0;
    int length = 0;
    for (int i = 0, n = s.length(); i < n; ) {
      char c = s.charAt(i);
      if (c < 0x80) {
        acc |= c << (fill << 3);
        i++;
        length++;
        if (++fill == 4) {
          h = f.word(h, acc);
          acc = 0;
          fill = 0;
        }
        continue;
      }
      long e = encodeAt(s, i);
      int bytes = (int) e;
      i += (int) (e >>> 40) & 0xFF;
      for (int b = 0, count = (int) (e >>> 32) & 0xFF; b < count; b++) {
        acc |= ((bytes >>> (b << 3)) & 0xFF) << (fill << 3);
        length++;
        if (++fill == 4) {
          h = f.word(h, acc);
          acc = 0;
          fill = 0;
        }
      }
    }
    return f.finish(h, acc, fill, length);
  }

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
  private static long encodeAt(CharSequence s, int i) {
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
}
