package io.github.routingkit.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Allocation-free searches in byte ranges for the routers that read a tenant or a version from the
 * key. Internal (not API); arguments are trusted (ranges already checked).
 */
public final class Bytes {
  private Bytes() {}

  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;

  /**
   * Returns the index of the first occurrence of {@code pattern} in {@code key[offset, offset +
   * length)}, or -1. A one-byte pattern (the usual separator) is searched eight bytes at a time.
   */
  public static int indexOf(byte[] key, int offset, int length, byte[] pattern) {
    if (pattern.length == 1) {
      return indexOf(key, offset, offset + length, pattern[0]);
    }
    int last = offset + length - pattern.length;
    outer:
    for (int i = offset; i <= last; i++) {
      for (int j = 0; j < pattern.length; j++) {
        if (key[i + j] != pattern[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  /**
   * Returns the index of the first {@code b} in {@code key[from, to)}, or -1. Word at a time: in
   * {@code x = word ^ (b * 0x01..01)} the bytes equal to {@code b} are zero, and
   * {@code (x - 0x01..01) & ~x & 0x80..80} flags every zero byte and possibly bytes above one (a
   * borrow moves only upward), so its lowest flag, read little-endian, is the first match.
   */
  public static int indexOf(byte[] key, int from, int to, byte b) {
    long pattern = (b & 0xFFL) * ONES;
    int i = from;
    for (int end = to - 7; i < end; i += 8) {
      long x = (long) LONG_LE.get(key, i) ^ pattern;
      long found = (x - ONES) & ~x & HIGHS;
      if (found != 0) {
        return i + (Long.numberOfTrailingZeros(found) >>> 3);
      }
    }
    for (; i < to; i++) {
      if (key[i] == b) {
        return i;
      }
    }
    return -1;
  }

  /**
   * Returns the first {@code min(8, to - from)} bytes of {@code key[from, to)} as a little-endian
   * word, zero above them: equal words and equal lengths mean equal ranges up to 8 bytes.
   */
  public static long word(byte[] key, int from, int to) {
    int n = Math.min(8, to - from);
    if (from + 8 <= key.length) {
      long w = (long) LONG_LE.get(key, from);
      return n == 8 ? w : w & ((1L << (n << 3)) - 1);
    }
    long w = 0;
    for (int i = n - 1; i >= 0; i--) {
      w = (w << 8) | (key[from + i] & 0xFF);
    }
    return w;
  }
}
