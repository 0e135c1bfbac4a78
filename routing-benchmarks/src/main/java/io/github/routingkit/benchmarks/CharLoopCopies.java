package io.github.routingkit.benchmarks;

/**
 * Copies of the char-loop halves of routing-core's murmur String paths, so that
 * {@link StringPathCrossoverBenchmark} can time the char loop and encode-then-hash separately
 * without reaching into core's package-private algorithms. Keep them equivalent to
 * {@code io.github.routingkit.hash.Utf8#hashAscii} driving {@code Murmur2.WORDS} and
 * {@code Murmur3.WORDS} (the shared text front-end, with each algorithm's step written out here):
 * the benchmark places core's crossover ({@code Utf8.ENCODE_ABOVE}) on their timings.
 */
final class CharLoopCopies {
  private CharLoopCopies() {}

  /** Returned when the key is not ASCII (the real code then takes its general path). */
  static final int NOT_ASCII = 0x80000000;

  private static final int M2_SEED = 0x9747b28c;
  private static final int M2_M = 0x5bd1e995;
  private static final int M2_R = 24;

  /** Kafka's murmur2 of an ASCII String's chars, or {@link #NOT_ASCII}. */
  @SuppressWarnings("fallthrough")
  static int murmur2Ascii(String s) {
    int n = s.length();
    int seen = 0;
    int h = M2_SEED ^ n;
    int end4 = n & ~3;
    for (int i = 0; i < end4; i += 4) {
      int k = 0;
      for (int j = 0; j < 4; j++) {
        char c = s.charAt(i + j);
        seen |= c;
        k |= c << (j << 3);
      }
      k *= M2_M;
      k ^= k >>> M2_R;
      k *= M2_M;
      h *= M2_M;
      h ^= k;
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
        h *= M2_M;
        break;
      default:
        break;
    }
    h ^= h >>> 13;
    h *= M2_M;
    h ^= h >>> 15;
    return seen < 0x80 ? h : NOT_ASCII;
  }

  private static final int M3_C1 = 0xcc9e2d51;
  private static final int M3_C2 = 0x1b873593;
  /** In an array, as in core: C2 then keeps the addend off the multiply chain. */
  private static final int[] M3_N = {0xe6546b64};

  /** Murmur3_32 (seed 0) of an ASCII String's chars, or {@link #NOT_ASCII}. */
  @SuppressWarnings("fallthrough")
  static int murmur3Ascii(String s) {
    int n = s.length();
    int seen = 0;
    int h = 0;
    int add = M3_N[0];
    int end4 = n & ~3;
    for (int i = 0; i < end4; i += 4) {
      int w = 0;
      for (int j = 0; j < 4; j++) {
        char c = s.charAt(i + j);
        seen |= c;
        w |= c << (j << 3);
      }
      h ^= mixK(w);
      h = Integer.rotateLeft(h, 13);
      h = (h << 2) + (h + add);
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
    return seen < 0x80 ? fmix3(h ^ n) : NOT_ASCII;
  }

  private static int mixK(int k) {
    k *= M3_C1;
    k = Integer.rotateLeft(k, 15);
    return k * M3_C2;
  }

  private static int fmix3(int h) {
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    return h ^ (h >>> 16);
  }
}
