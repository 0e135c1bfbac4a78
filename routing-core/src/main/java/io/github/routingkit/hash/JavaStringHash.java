package io.github.routingkit.hash;


import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * {@code String#hashCode()} ({@code s[0]*31^(n-1) + ... + s[n-1]} over UTF-16 code units), the
 * function behind pulsar-client's {@code JavaStringHash} before it masks the sign bit.
 *
 * <p>Byte keys are treated as UTF-8 text and decoded on the fly: a well-formed sequence hashes
 * exactly like {@code new String(bytes, UTF_8).hashCode()} without allocating; an ill-formed one
 * falls back to that very expression (so the JDK's U+FFFD substitution rules apply exactly), which
 * allocates only for malformed input.
 *
 * <p>The byte paths take 8 bytes at a time where they can: {@code 31} is a polynomial base, so
 * {@code h·31⁸ + (b₀·31⁷ + … + b₇)} equals eight single steps, and the bracket is summed in
 * lanes of one {@code long}, SWAR-style ({@link #block8}). The serial chain then pays one multiply
 * per 8 bytes instead of one per byte. The UTF-8 decoder does so over ASCII runs and backs off to
 * one character at a time where multi-byte characters are dense (routing-benchmarks'
 * {@code Utf8KeyBenchmark} measures it by script).
 */
final class JavaStringHash {
  private JavaStringHash() {}

  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ASCII_MASK = 0x8080808080808080L;
  private static final long LOW_BYTES = 0x00FF00FF00FF00FFL;
  private static final long LOW_SHORTS = 0x0000FFFF0000FFFFL;
  private static final int P2 = 31 * 31;
  private static final int P4 = P2 * P2;
  private static final int P8 = P4 * P4; // wraps, as the hash itself does

  /**
   * {@code b₀·31⁷ + b₁·31⁶ + … + b₇} (mod 2³²) over the 8 bytes of {@code w}, {@code b₀} the lowest
   * (first in memory), each read unsigned. Pairs {@code b·31 + b'} fit 16-bit lanes (at most
   * 255·31 + 255 = 8,160) and quads {@code p·31² + p'} fit 32-bit lanes (at most 7,849,920), so no
   * lane carries into the next before the last, wrapping, step.
   */
  private static int block8(long w) {
    long pairs = (w & LOW_BYTES) * 31 + ((w >>> 8) & LOW_BYTES);
    long quads = (pairs & LOW_SHORTS) * P2 + ((pairs >>> 16) & LOW_SHORTS);
    return (int) quads * P4 + (int) (quads >>> 32);
  }

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
    int retry = i; // where to try 8 bytes at a time again
    while (i < end) {
      if (i >= retry) {
        retry = end; // unless a non-ASCII byte stops the run below
        while (end - i >= 8) {
          long w = (long) LONG_LE.get(b, i);
          long high = w & ASCII_MASK;
          if (high != 0) {
            // Bytes before the first non-ASCII one go one at a time, then that character, then
            // blocks again; if the block starts with it, the text is dense with multi-byte
            // characters, so a whole block goes one character at a time before the next try.
            int ascii = Long.numberOfTrailingZeros(high) >>> 3;
            retry = ascii == 0 ? i + 8 : i + ascii + 1;
            break;
          }
          h = h * P8 + block8(w); // eight ASCII bytes are eight chars
          i += 8;
        }
        if (i == end) {
          break;
        }
      }
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
    int i = offset;
    for (int end8 = offset + (length & ~7); i < end8; i += 8) {
      h = h * P8 + block8((long) LONG_LE.get(b, i));
    }
    for (int end = offset + length; i < end; i++) {
      h = 31 * h + (b[i] & 0xFF);
    }
    return h;
  }

  /** {@link #hashBytes} of the UTF-8 encoding of {@code s}, without materializing it. */
  static int hashUtf8Bytes(CharSequence s) {
    return Utf8.hash(s, UTF8_BYTES);
  }

  private static final int P3 = P2 * 31;

  /**
   * {@link #hashBytes} as the text front-end drives it: four steps per word in one,
   * {@code h·31⁴ + (b₀·31³ + b₁·31² + b₂·31 + b₃)}, the same polynomial identity as
   * {@link #block8}.
   */
  static final Utf8.WordHash UTF8_BYTES = new Utf8.WordHash() {
    @Override
    int seed(int utf8Length) {
      return 0;
    }

    @Override
    boolean needsLength() {
      return false;
    }

    @Override
    int word(int h, int w) {
      return h * P4 + ((w & 0xFF) * P3 + ((w >>> 8) & 0xFF) * P2 + ((w >>> 16) & 0xFF) * 31
          + (w >>> 24));
    }

    @Override
    int finish(int h, int tail, int tailLength, int utf8Length) {
      for (int b = 0; b < tailLength; b++, tail >>>= 8) {
        h = 31 * h + (tail & 0xFF);
      }
      return h;
    }

    @Override
    int bytes(byte[] data, int offset, int length) {
      return hashBytes(data, offset, length);
    }
  };

  private static boolean isCont(byte b) {
    return (b & 0xC0) == 0x80;
  }

  private static int fallback(byte[] b, int offset, int length) {
    return new String(b, offset, length, StandardCharsets.UTF_8).hashCode();
  }
}
