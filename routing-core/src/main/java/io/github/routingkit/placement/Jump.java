package io.github.routingkit.placement;

import io.github.routingkit.internal.Partitions;

/**
 * Jump consistent hash (John Lamping and Eric Veach, "A Fast, Minimal Memory, Consistent Hash
 * Algorithm", 2014, arXiv:1406.2294): maps a 64-bit key to a bucket in {@code [0, n)} such that
 * growing {@code n} to {@code m} moves a key only to one of the new buckets {@code [n, m)}, and each
 * key moves with probability {@code (m - n) / m}, the minimum for any balanced scheme. Runs in
 * {@code O(log n)} expected steps, no memory, no allocation.
 *
 * <p>The arithmetic is the paper's: the linear congruential step {@code k * 2862933555777941757 + 1}
 * (mod 2^64) and {@code j = (b + 1) * (2^31 / ((k >>> 33) + 1))} in double precision. The paper's
 * check value {@code jump(256, 1024) == 520} is asserted in the tests.
 *
 * <p>The loop keeps the bucket numbers as doubles: the paper's {@code (b + 1) * r} with {@code b}
 * converted from a {@code long} is {@code (floor(j) + 1.0) * r} with {@code j} kept as a double,
 * exactly (every bucket number is below 2^31, so it and its successor are exact doubles; and
 * {@code (long) j < n} iff {@code j < n} for {@code j >= 0} and an integer {@code n}). That takes the
 * two integer/double conversions off the loop's serial chain, which is what the loop's time is:
 * the divisions depend only on the key sequence and run ahead.
 */
final class Jump {
  private Jump() {}

  private static final double TWO_31 = 1L << 31;

  static int bucket(long key, int numBuckets) {
    Partitions.checkCount(numBuckets);
    double b;
    double j = 0;
    do { // the paper's while (j < n): j = 0 < n on entry
      b = j;
      key = key * 2862933555777941757L + 1;
      j = Math.floor((b + 1) * (TWO_31 / (double) ((key >>> 33) + 1)));
    } while (j < numBuckets);
    return (int) b;
  }
}
