package io.github.routingkit.placement;


import io.github.routingkit.property.Gen;
import io.github.routingkit.property.Property;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The loop as rewritten for speed is the paper's loop, bucket for bucket. */
class JumpExactnessTest {

  /** Lamping &amp; Veach, Figure 1, transcribed to Java. */
  static int paper(long key, int numBuckets) {
    long b = -1;
    long j = 0;
    while (j < numBuckets) {
      b = j;
      key = key * 2862933555777941757L + 1;
      j = (long) ((b + 1) * ((double) (1L << 31) / (double) ((key >>> 33) + 1)));
    }
    return (int) b;
  }

  @Test
  void sameBucketAsThePaper() {
    Property.check(5000, Gen.longs(), Gen.ints(1, Integer.MAX_VALUE), (key, n) -> {
      assertThat(Jump.bucket(key, n)).isEqualTo(paper(key, n));
    });
  }

  @Test
  void sameBucketOnManyKeysAndCounts() {
    SplittableRandom random = new SplittableRandom(5);
    int[] counts = {1, 2, 3, 24, 1024, 1 << 20, Integer.MAX_VALUE - 1, Integer.MAX_VALUE};
    for (int i = 0; i < 200_000; i++) {
      long key = i < 1000 ? i : random.nextLong();
      int n = i % 3 == 0 ? counts[i % counts.length] : 1 + random.nextInt(Integer.MAX_VALUE);
      assertThat(Jump.bucket(key, n)).isEqualTo(paper(key, n));
    }
    assertThat(Jump.bucket(256, 1024)).isEqualTo(520);
  }
}
