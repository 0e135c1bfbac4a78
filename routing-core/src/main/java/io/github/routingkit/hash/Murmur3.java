package io.github.routingkit.hash;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * MurmurHash3 x86_32 with seed 0 (Austin Appleby's reference algorithm), the function behind
 * pulsar-client's {@code Murmur3Hash32} before it masks the sign bit. Allocation-free (text
 * through {@link Utf8}, which encodes Strings longer than {@link Utf8#ENCODE_ABOVE} chars once).
 */
final class Murmur3 {
  private Murmur3() {}

  private static final int C1 = 0xcc9e2d51;
  private static final int C2 = 0x1b873593;

  /**
   * The reference's per-block addend {@code 0xe6546b64}, held in an array so that each hash loop
   * reads it into a local once. Written as a literal, C2 folds {@code h * 5 + N} into
   * {@code ((h << 2) + h) + N}, three dependent steps after the rotate on the serial chain; with the
   * addend in a register it keeps {@code (h << 2) + (h + N)}, whose first two steps run in parallel.
   * Same value, same hash (routing-benchmarks' {@code KeyedBytesBenchmark.routingPulsarMurmur3}
   * measures it).
   */
  private static final int[] N = {0xe6546b64};
  private static final VarHandle INT_LE =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

  @SuppressWarnings("fallthrough") // the tail cases fold 3, 2, 1 bytes as the reference does
  static int hash(byte[] data, int offset, int length) {
    int h = 0;
    int n = N[0];
    int end4 = offset + (length & ~3);
    for (int i = offset; i < end4; i += 4) {
      h = mixH(h, mixK((int) INT_LE.get(data, i)), n);
    }
    int k = 0;
    switch (length & 3) {
      case 3:
        k ^= (data[end4 + 2] & 0xFF) << 16;
        // fall through
      case 2:
        k ^= (data[end4 + 1] & 0xFF) << 8;
        // fall through
      case 1:
        k ^= data[end4] & 0xFF;
        h ^= mixK(k);
        break;
      default:
        break;
    }
    return fmix(h ^ length);
  }

  /** Hashes the UTF-8 encoding of {@code s}, as {@code hash(s.toString().getBytes(UTF_8), ...)}. */
  static int hash(CharSequence s) {
    return Utf8.hash(s, WORDS);
  }

  /** The algorithm as the text front-end drives it. */
  static final Utf8.WordHash WORDS = new Utf8.WordHash() {
    @Override
    int seed(int utf8Length) {
      return 0;
    }

    @Override
    boolean needsLength() {
      return false;
    }

    @Override
    int word(int h, int word) {
      return mixH(h, mixK(word), N[0]); // loop-invariant: C2 hoists the load into a register
    }

    @Override
    int finish(int h, int tail, int tailLength, int utf8Length) {
      if (tailLength != 0) {
        h ^= mixK(tail);
      }
      return fmix(h ^ utf8Length);
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

  private static int mixK(int k) {
    k *= C1;
    k = Integer.rotateLeft(k, 15);
    return k * C2;
  }

  /** {@code rotl(h ^ k, 13) * 5 + n}, written so that C2 keeps {@code n} off the chain (see {@link #N}). */
  private static int mixH(int h, int k, int n) {
    h ^= k;
    h = Integer.rotateLeft(h, 13);
    return (h << 2) + (h + n);
  }

  private static int fmix(int h) {
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    return h ^ (h >>> 16);
  }
}
