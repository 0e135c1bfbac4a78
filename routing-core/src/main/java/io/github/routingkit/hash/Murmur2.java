package io.github.routingkit.hash;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

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

  @SuppressWarnings("fallthrough") // the tail cases fold 3, 2, 1 bytes as the reference does
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
    int h = SEED ^ n;
    int end4 = n & ~3;
    for (int i = 0; i < end4; i += 4) {
      int k = 0;
      for (int j = 0; j < 4; j++) { // C2 unrolls this; measured faster than four named charAt calls
        char c = s.charAt(i + j);
        seen |= c;
        k |= c << (j << 3);
      }
      h = mix(h, k);
    }
    switch (n & 3) {
      case 3:
        seen |= s.charAt(end4 + 2);
        h ^= s.charAt(end4 + 2) << 16;
        // fall through
      case 2:
        seen |= s.charAt(end4 + 1);
        h ^= s.charAt(end4 + 1) << 8;
        // fall through
      case 1:
        seen |= s.charAt(end4);
        h ^= s.charAt(end4);
        h *= M;
        break;
      default:
        break;
    }
    return seen < 0x80 ? fmix(h) : NOT_ASCII;
  }

  private static int hashUtf8(CharSequence s) {
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
