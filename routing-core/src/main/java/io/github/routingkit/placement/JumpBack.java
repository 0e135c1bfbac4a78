package io.github.routingkit.placement;

import io.github.routingkit.internal.Partitions;

/**
 * JumpBackHash (Otmar Ertl, "JumpBackHash: Say Goodbye to the Modulo Operation to Distribute Keys
 * Uniformly to Buckets", arXiv:2403.18682, 2024): maps a 64-bit key hash to a bucket in
 * {@code [0, n)} with the same guarantees as jump consistent hash (growing {@code n} to {@code m}
 * moves a key with probability {@code (m - n) / m}, and only onto one of the new buckets
 * {@code [n, m)}; every bucket receives {@code 1/n} of the keys) in {@code O(1)} expected time, with integer arithmetic only. No memory,
 * no allocation, no state: a pure function, safe from any thread.
 *
 * <p>Why it is consistent: like jump hash, a key has a random set of <em>active indices</em>
 * (index {@code i >= 1} active with probability {@code 1 / (i + 1)}, independently; 0 always), and
 * its bucket for {@code n} buckets is its largest active index below {@code n}. Each power-of-two
 * range {@code [2^k, 2^(k+1))} holds an active index with probability exactly 1/2, and the largest
 * one in it, if any, is uniform over the range. So one random bit per range says whether the range
 * holds one, and random low bits say where the largest sits. The algorithm walks the ranges from the
 * highest that overlaps {@code [0, n)} downwards ("jumping back"); when the candidate lies at or
 * above {@code n}, rejection sampling over the range decides whether some active index lies in
 * {@code [2^k, n)} and which is the largest.
 *
 * <p>Bit usage, which makes the result bit-exact with Dynatrace hash4j's
 * {@code ConsistentHashing.jumpBackHash(PseudoRandomGeneratorProvider.splitMix64_V1())} (0.25.0;
 * {@code jumpBackHashSplitMix64()} in later versions) given the same 64-bit hash, as a
 * differential test asserts:
 * <ul>
 *   <li>the random values are SplitMix64 (Steele, Lea &amp; Flood 2014; Vigna's {@code splitmix64.c})
 *       seeded with the hash: the i-th value (i = 1, 2, ...) mixes {@code hash + i * 0x9e3779b97f4a7c15}
 *       (mod 2^64);</li>
 *   <li>the first value {@code r0} folded to 32 bits, {@code (int) (r0 ^ (r0 >>> 32))}, masked to
 *       the {@code 32 - nlz(n - 1)} bits that cover {@code [1, n)}, gives one bit per range;</li>
 *   <li>the position in the highest remaining range comes from {@code r0}'s low 32 bits when an even
 *       number of range bits remain, else from its high 32 bits;</li>
 *   <li>each further value supplies two rejection samples: its low 32 bits, then its high 32 bits,
 *       each masked to the range's width.</li>
 * </ul>
 *
 * <p>Cost: one SplitMix64 value when the candidate is already below {@code n} (always when
 * {@code n} is a power of two), else a few more: the expected number is bounded by a constant
 * independent of {@code n} (the paper's analysis), so the time is {@code O(1)} expected where jump
 * hash needs about {@code ln n + 1} dependent steps.
 */
final class JumpBack {
  private JumpBack() {}

  /** SplitMix64's increment, {@code 2^64 / phi} rounded to odd. */
  private static final long GAMMA = 0x9e3779b97f4a7c15L;

  static int bucket(long hash, int numBuckets) {
    if (numBuckets <= 1) {
      Partitions.checkCount(numBuckets);
      return 0;
    }
    long state = hash + GAMMA;
    long r0 = mix(state);
    // one bit per range [2^k, 2^(k+1)) that overlaps [1, numBuckets): set = it holds an active index
    int ranges = (int) (r0 ^ (r0 >>> 32)) & (-1 >>> Integer.numberOfLeadingZeros(numBuckets - 1));
    while (ranges != 0) {
      int low = Integer.highestOneBit(ranges); // the range is [low, 2 * low); low <= 2^30
      int half = (Integer.bitCount(ranges) & 1) << 5; // 0 or 32: which half of r0 places the index
      int candidate = low + ((int) (r0 >>> half) & (low - 1));
      if (candidate < numBuckets) {
        return candidate;
      }
      int mask = (low << 1) - 1;
      while (true) { // rejection sampling over [0, 2 * low): below low means none in [low, n)
        state += GAMMA;
        long r = mix(state);
        int c = (int) r & mask;
        if (c < low) {
          break;
        }
        if (c < numBuckets) {
          return c;
        }
        c = (int) (r >>> 32) & mask;
        if (c < low) {
          break;
        }
        if (c < numBuckets) {
          return c;
        }
      }
      ranges ^= low;
    }
    return 0;
  }

  /** SplitMix64's output function (Vigna's {@code splitmix64.c}, public domain). */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
