package io.github.routingkit.hash;

import java.nio.charset.StandardCharsets;

/**
 * {@code boost::hash<std::string>} on a 64-bit {@code size_t}, in each of its three generations,
 * as the full 64-bit value; pulsar-client-cpp's {@code BoostHash} keeps its low 31 bits. Written
 * from Boost's published headers ({@code boost/container_hash/hash.hpp} and
 * {@code detail/hash_range.hpp}, {@code detail/hash_mix.hpp}, {@code detail/mulx.hpp}) and held to
 * the real headers by the cross-client vectors ({@code compat/pulsar-cpp}). Allocation-free on
 * bytes; text is encoded to UTF-8 first.
 */
final class BoostStringHash {
  private BoostStringHash() {}

  /*
   * Generations (64-bit size_t, seed 0, the bytes of the std::string):
   *
   * Boost 1.56 - 1.80: hash_range folds every char in with hash_combine(seed, hash_value(c)), the
   * 64-bit combine from MurmurHash64A (k *= m; k ^= k >> 47; k *= m; h ^= k; h *= m;
   * h += 0xe6546b64). hash_value(char) is static_cast<size_t>(c): where char is signed (x86-64,
   * Windows, Apple arm64) a byte >= 0x80 is sign-extended, where it is unsigned (Linux on aarch64,
   * ppc64le, s390x) it is not. An empty string hashes to 0. (macOS builds before 1.78 used the old
   * additive combine instead, because size_t and uint64_t are distinct types there; not covered.)
   *
   * Boost 1.81: the bytes as 4-byte little-endian words, the last one padded with a 0x01 marker
   * after the final byte (a lone 0x01 word when the length is a multiple of 4), each folded in with
   * the new hash_combine: seed = hash_mix(seed + 0x9e3779b9 + word), hash_mix being Jon Maiga's
   * mx3 mixer.
   *
   * Boost 1.82 and later: mulxp1_hash, 8-byte little-endian words multiplied in 128 bits and folded
   * (mulx(x, y) = low ^ high of the product), the tail of 1 - 7 bytes read as overlapping words,
   * the length folded into the start state.
   */

  private static final long COMBINE_M = 0xc6a4a7935bd1e995L;
  private static final long MIX_M = 0x0e9846af9b1a615dL;
  private static final long GOLDEN_32 = 0x9e3779b9L;
  private static final long Q = 0x9e3779b97f4a7c15L;
  private static final long K = 0xdf442d22ce4859b9L; // Q * Q

  /** Boost 1.56 - 1.80; {@code signedChar} as the platform's {@code char}. */
  static long pre181(byte[] key, int offset, int length, boolean signedChar) {
    long seed = 0;
    for (int i = offset, end = offset + length; i < end; i++) {
      long k = signedChar ? key[i] : key[i] & 0xFFL;
      k *= COMBINE_M;
      k ^= k >>> 47;
      k *= COMBINE_M;
      seed ^= k;
      seed *= COMBINE_M;
      seed += 0xe6546b64L;
    }
    return seed;
  }

  /** Boost 1.81. */
  static long boost181(byte[] key, int offset, int length) {
    long seed = 0;
    int i = offset;
    int end = offset + length;
    for (; end - i >= 4; i += 4) {
      seed = mix(seed + GOLDEN_32 + (le32(key, i) & 0xFFFFFFFFL));
    }
    long w = 0x01L << (8 * (end - i));
    for (int b = 0; i < end; i++, b += 8) {
      w |= (key[i] & 0xFFL) << b;
    }
    return mix(seed + GOLDEN_32 + w);
  }

  /** Boost 1.82 and later (mulxp1_hash). */
  static long from182(byte[] key, int offset, int length) {
    int n = length;
    int p = offset;
    long w = mulx(Q, K); // mulx(seed + q, k), seed 0
    long h = w ^ n;
    for (; n >= 8; p += 8, n -= 8) {
      w += Q;
      h ^= mulx(le64(key, p) + w, K);
    }
    long v = 0;
    if (n >= 4) {
      v = ((le32(key, p + n - 4) & 0xFFFFFFFFL) << ((n - 4) * 8)) | (le32(key, p) & 0xFFFFFFFFL);
    } else if (n >= 1) {
      int x1 = (n - 1) & 2;
      int x2 = n >> 1;
      v = (key[p + x1] & 0xFFL) << (x1 * 8) | (key[p + x2] & 0xFFL) << (x2 * 8) | (key[p] & 0xFFL);
    }
    w += Q;
    h ^= mulx(v + w, K);
    return mulx(h + w, K);
  }

  static byte[] utf8(CharSequence s) {
    return s.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** The low 31 bits, pulsar-client-cpp's {@code hash(key) & INT32_MAX}: in {@code [0, 2^31)}. */
  static int low31(long h) {
    return (int) h & Integer.MAX_VALUE;
  }

  private static long mix(long x) {
    x ^= x >>> 32;
    x *= MIX_M;
    x ^= x >>> 32;
    x *= MIX_M;
    x ^= x >>> 28;
    return x;
  }

  /** Low 64 bits xor high 64 bits of the unsigned 128-bit product. */
  private static long mulx(long x, long y) {
    long high = Math.multiplyHigh(x, y) + ((x >> 63) & y) + ((y >> 63) & x);
    return x * y ^ high;
  }

  private static int le32(byte[] b, int i) {
    return (b[i] & 0xFF) | (b[i + 1] & 0xFF) << 8 | (b[i + 2] & 0xFF) << 16 | (b[i + 3] & 0xFF) << 24;
  }

  private static long le64(byte[] b, int i) {
    return (le32(b, i) & 0xFFFFFFFFL) | (long) le32(b, i + 4) << 32;
  }
}
