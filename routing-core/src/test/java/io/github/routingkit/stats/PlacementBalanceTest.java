package io.github.routingkit.stats;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.placement.Placement;
import io.github.routingkit.testing.SampleKeys;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Balance of the consistent placements on the shipped real key sample, judged by the test kit's
 * statistics (a perfect hash's max/mean quantile and the &chi;&sup2; test).
 */
class PlacementBalanceTest {

  private static long[] sampleHashes() {
    List<String> keys = SampleKeys.all();
    long[] hashes = new long[keys.size()];
    for (int i = 0; i < hashes.length; i++) {
      byte[] k = keys.get(i).getBytes(UTF_8);
      hashes[i] = HashScheme.XXH3_64.hash64(k, 0, k.length);
    }
    return hashes;
  }

  /**
   * All 320,000 sample keys at 24 and 1,024 partitions: max/mean within the 99.9 % quantile of a
   * perfect hash of as many keys, and &chi;&sup2; not rejected at p = 0.001.
   */
  @Test
  void isBalancedOnRealKeys() {
    long[] hashes = sampleHashes();
    for (int n : new int[] {24, 1024}) {
      long[] counts = new long[n];
      for (long h : hashes) {
        counts[Placement.jumpBack(h, n)]++;
      }
      LoadStatistics stats = LoadStatistics.of(counts);
      double bound = PerfectHashBound.maxOverMeanQuantile(hashes.length, n, 0.999);
      System.out.printf("jump-back on %d sample keys, %d partitions: %s (perfect-hash p99.9 %.4f)%n",
          hashes.length, n, stats, bound);
      assertThat(stats.maxOverMean()).as("%d partitions", n).isLessThanOrEqualTo(bound);
      assertThat(stats.pValue()).as("%d partitions", n).isGreaterThan(0.001);
    }
  }
}
