package io.github.routingkit;

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
 */
final class Jump {
  private Jump() {}

  static int bucket(long key, int numBuckets) {
    Partitions.checkCount(numBuckets);
    long b = -1;
    long j = 0;
    while (j < numBuckets) {
      b = j;
      key = key * 2862933555777941757L + 1;
      j = (long) ((b + 1) * ((double) (1L << 31) / (double) ((key >>> 33) + 1)));
    }
    return (int) b;
  }
}
