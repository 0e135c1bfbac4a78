package io.github.routingkit;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * MurmurHash2 (32-bit, seed {@code 0x9747b28c}) as kafka-clients {@code Utils#murmur2} computes it
 * since 0.8.2: little-endian 4-byte blocks, the tail folded in byte order, no final masking.
 * Reads blocks a word at a time; allocation-free.
 */
final class Murmur2 {
  private Murmur2() {}

  private static final int SEED = 0x9747b28c;
  private static final int M = 0x5bd1e995;
  private static final int R = 24;
  private static final VarHandle INT_LE =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

  static int hash(byte[] data, int offset, int length) {
    int h = SEED ^ length;
    int end4 = offset + (length & ~3);
    for (int i = offset; i < end4; i += 4) {
      h = mix(h, (int) INT_LE.get(data, i));
    }
    switch (length & 3) {
      case 3:
        h ^= (data[end4 + 2] & 0xFF) << 16;
        // fall through
      case 2:
        h ^= (data[end4 + 1] & 0xFF) << 8;
        // fall through
      case 1:
        h ^= data[end4] & 0xFF;
        h *= M;
        break;
      default:
        break;
    }
    return fmix(h);
  }

  /** Hashes the UTF-8 encoding of {@code s} without materializing it. */
  static int hash(CharSequence s) {
    int h = SEED ^ Utf8.encodedLength(s);
    int acc = 0;
    int fill = 0;
    for (int i = 0, n = s.length(); i < n; ) {
      char c = s.charAt(i);
      if (c < 0x80) {
        acc |= c << (fill << 3);
        i++;
        if (++fill == 4) {
          h = mix(h, acc);
          acc = 0;
          fill = 0;
        }
        continue;
      }
      long e = Utf8.encodeAt(s, i);
      int bytes = Utf8.bytes(e);
      i += Utf8.consumed(e);
      for (int b = 0, count = Utf8.count(e); b < count; b++) {
        acc |= ((bytes >>> (b << 3)) & 0xFF) << (fill << 3);
        if (++fill == 4) {
          h = mix(h, acc);
          acc = 0;
          fill = 0;
        }
      }
    }
    if (fill > 0) {
      h ^= acc;
      h *= M;
    }
    return fmix(h);
  }

  private static int mix(int h, int k) {
    k *= M;
    k ^= k >>> R;
    k *= M;
    h *= M;
    return h ^ k;
  }

  private static int fmix(int h) {
    h ^= h >>> 13;
    h *= M;
    return h ^ (h >>> 15);
  }
}
