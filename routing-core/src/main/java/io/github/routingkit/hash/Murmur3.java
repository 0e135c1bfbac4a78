package io.github.routingkit.hash;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * MurmurHash3 x86_32 with seed 0 (Austin Appleby's reference algorithm), the function behind
 * pulsar-client's {@code Murmur3Hash32} before it masks the sign bit. Allocation-free.
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
   * Same value, same hash (the gain is in docs/performance.md, "Implementation notes").
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

  /**
   * Hashes the UTF-8 encoding of {@code s}. A String of at most {@link Utf8#ENCODE_ABOVE} chars is
   * hashed from its chars in one pass without allocating; a longer one is encoded with
   * {@code getBytes(UTF_8)} and hashed a word at a time, which is faster for long keys on the JDK
   * (its encoder is an intrinsic; a char loop cannot read words). Other CharSequences are encoded
   * on the fly. All three give the hash of {@code s.toString().getBytes(UTF_8)}.
   */
  static int hash(CharSequence s) {
    if (s instanceof String) {
      if (s.length() > Utf8.ENCODE_ABOVE) {
        byte[] utf8 = ((String) s).getBytes(StandardCharsets.UTF_8);
        return hash(utf8, 0, utf8.length);
      }
      int h = hashAscii((String) s);
      if (h != NOT_ASCII) {
        return h;
      }
    }
    return hashUtf8(s);
  }

  /** Sentinel of {@link #hashAscii}; an ASCII key hashing to it is simply rehashed by the general path. */
  private static final int NOT_ASCII = 0x80000000;

  /**
   * The common case, in one pass: assumes every char is ASCII (so the UTF-8 bytes are the chars
   * themselves) and returns {@link #NOT_ASCII} if the assumption turns out false. Package-private
   * for routing-benchmarks' {@code StringPathCrossoverBenchmark}, which measures it against
   * encoding first to place {@link Utf8#ENCODE_ABOVE}.
   */
  @SuppressWarnings("fallthrough")
  static int hashAscii(String s) {
    int n = s.length();
    int seen = 0;
    int h = 0;
    int add = N[0];
    int end4 = n & ~3;
    for (int i = 0; i < end4; i += 4) {
      int w = 0;
      for (int j = 0; j < 4; j++) { // C2 unrolls this; measured faster than four named charAt calls
        char c = s.charAt(i + j);
        seen |= c;
        w |= c << (j << 3);
      }
      h = mixH(h, mixK(w), add);
    }
    int k = 0;
    switch (n & 3) {
      case 3:
        seen |= s.charAt(end4 + 2);
        k ^= s.charAt(end4 + 2) << 16;
        // fall through
      case 2:
        seen |= s.charAt(end4 + 1);
        k ^= s.charAt(end4 + 1) << 8;
        // fall through
      case 1:
        seen |= s.charAt(end4);
        k ^= s.charAt(end4);
        h ^= mixK(k);
        break;
      default:
        break;
    }
    return seen < 0x80 ? fmix(h ^ n) : NOT_ASCII;
  }

  private static int hashUtf8(CharSequence s) {
    int h = 0;
    int acc = 0;
    int fill = 0;
    int length = 0;
    int add = N[0];
    for (int i = 0, n = s.length(); i < n; ) {
      char c = s.charAt(i);
      if (c < 0x80) {
        acc |= c << (fill << 3);
        i++;
        length++;
        if (++fill == 4) {
          h = mixH(h, mixK(acc), add);
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
        length++;
        if (++fill == 4) {
          h = mixH(h, mixK(acc), add);
          acc = 0;
          fill = 0;
        }
      }
    }
    if (fill > 0) {
      h ^= mixK(acc);
    }
    return fmix(h ^ length);
  }

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
