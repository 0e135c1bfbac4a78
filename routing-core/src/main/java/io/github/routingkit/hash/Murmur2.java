package io.github.routingkit.hash;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * MurmurHash2 (32-bit, seed {@code 0x9747b28c}) as kafka-clients {@code Utils#murmur2} computes it
 * since 0.8.2: little-endian 4-byte blocks, the tail folded in byte order, no final masking.
 * Reads blocks a word at a time; allocation-free (text through {@link Utf8}, which encodes Strings
 * longer than {@link Utf8#ENCODE_ABOVE} chars once).
 */
final class Murmur2 {
  private Murmur2() {}

  private static final int SEED = 0x9747b28c;
  private static final int M = 0x5bd1e995;
  private static final int R = 24;
  private static final VarHandle INT_LE =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /** The algorithm as the text front-end drives it. */
  static final Utf8.WordHash WORDS = new Utf8.WordHash() {
    @Override
    int seed(int utf8Length) {
      return SEED ^ utf8Length;
    }

    @Override
    boolean needsLength() {
      return true;
    }

    @Override
    int word(int h, int word) {
      return mix(h, word);
    }

    @Override
    int finish(int h, int tail, int tailLength, int utf8Length) {
      return Murmur2.finish(h, tail, tailLength);
    }

    @Override
    int encodeAbove() {
      return Utf8.ENCODE_ABOVE;
    }

    @Override
    int bytes(byte[] data, int offset, int length) {
      return hash(data, offset, length);
    }
  };

  @SuppressWarnings("fallthrough") // the tail cases fold 3, 2, 1 bytes as the reference does
  static int hash(byte[] data, int offset, int length) {
    int h = SEED ^ length;
    int i = offset;
    // two blocks per read: one load and one bounds check per 8 bytes, the same mixing order
    for (int end8 = offset + (length & ~7); i < end8; i += 8) {
      long w = (long) LONG_LE.get(data, i);
      h = mix(mix(h, (int) w), (int) (w >>> 32));
    }
    if ((length & 4) != 0) {
      h = mix(h, (int) INT_LE.get(data, i));
    }
    int end4 = offset + (length & ~3);
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

  /** Hashes the UTF-8 encoding of {@code s}, as {@code hash(s.toString().getBytes(UTF_8), ...)}. */
  static int hash(CharSequence s) {
    return Utf8.hash(s, WORDS);
  }

  private static int mix(int h, int k) {
    k *= M;
    k ^= k >>> R;
    k *= M;
    h *= M;
    return h ^ k;
  }

  /** The reference folds the tail bytes in with xor (cases 3, 2, 1), then mixes once. */
  private static int finish(int h, int tail, int tailLength) {
    if (tailLength != 0) {
      h ^= tail;
      h *= M;
    }
    return fmix(h);
  }

  private static int fmix(int h) {
    h ^= h >>> 13;
    h *= M;
    return h ^ (h >>> 15);
  }
}
