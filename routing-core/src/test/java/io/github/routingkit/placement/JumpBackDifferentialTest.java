package io.github.routingkit.placement;

import io.github.routingkit.Routers;

import io.github.routingkit.KeylessPolicy;
import io.github.routingkit.testing.SampleKeys;

import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.router.HashRouter;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.dynatrace.hash4j.consistent.ConsistentBucketHasher;
import com.dynatrace.hash4j.consistent.ConsistentHashing;
import com.dynatrace.hash4j.random.PseudoRandomGeneratorProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link Placement#JUMP_BACK} is Dynatrace hash4j's JumpBackHash bit for bit: the real hash4j code
 * (test scope only) is called on the real sample keys' hashes and on edge hashes, for every
 * partition count up to 1,100 and for large ones up to {@link Integer#MAX_VALUE}.
 */
class JumpBackDifferentialTest {

  /** hash4j's JumpBackHash with the SplitMix64 generator; stateful inside, so one per test. */
  private static ConsistentBucketHasher hash4j() {
    return ConsistentHashing.jumpBackHash(PseudoRandomGeneratorProvider.splitMix64_V1());
  }

  private static final long[] EDGE_HASHES = {
    0, -1, 1, Long.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE + 1, Long.MAX_VALUE - 1,
    0xFFFFFFFFL, 0x80000000L, 0x7FFFFFFFL, 256, -0x9e3779b97f4a7c15L, // the last seeds state 0
  };

  /** Large counts: powers of two and their neighbours, the top of the int range, and seeded others. */
  private static int[] largeCounts() {
    List<Integer> counts = new ArrayList<>();
    for (int k = 11; k <= 30; k++) {
      counts.add((1 << k) - 1);
      counts.add(1 << k);
      counts.add((1 << k) + 1);
    }
    counts.add(1_000_000_007);
    counts.add(Integer.MAX_VALUE - 1);
    counts.add(Integer.MAX_VALUE);
    SplittableRandom random = new SplittableRandom(20240327);
    for (int i = 0; i < 40; i++) {
      counts.add(1101 + random.nextInt(Integer.MAX_VALUE - 1101));
    }
    return counts.stream().mapToInt(Integer::intValue).toArray();
  }

  /** 64-bit hashes: XXH3-64 of the first 100,000 real keys and the edge hashes. */
  private static long[] xxh3Hashes() {
    List<String> keys = SampleKeys.all();
    assertThat(keys.size()).isGreaterThanOrEqualTo(100_000);
    long[] hashes = new long[100_000 + EDGE_HASHES.length];
    for (int i = 0; i < 100_000; i++) {
      hashes[i] = HashScheme.XXH3_64.hash64(keys.get(i).getBytes(UTF_8), 0,
          keys.get(i).getBytes(UTF_8).length);
    }
    System.arraycopy(EDGE_HASHES, 0, hashes, 100_000, EDGE_HASHES.length);
    return hashes;
  }

  @Test
  void everyCountUpTo1100OnTheXxh3HashesOfRealKeysAndEdgeHashes() {
    ConsistentBucketHasher reference = hash4j();
    long[] hashes = xxh3Hashes();
    long compared = 0;
    for (int n = 1; n <= 1100; n++) {
      for (long h : hashes) {
        int ours = Placement.JUMP_BACK.place64(h, n);
        if (ours != reference.getBucket(h, n)) {
          assertThat(ours).as("hash %d, %d partitions", h, n).isEqualTo(reference.getBucket(h, n));
        }
      }
      compared += hashes.length;
    }
    assertThat(compared).isEqualTo(1100L * (100_000 + EDGE_HASHES.length));
  }

  @Test
  void largeCountsUpToIntegerMaxValue() {
    ConsistentBucketHasher reference = hash4j();
    long[] hashes = xxh3Hashes();
    for (int n : largeCounts()) {
      for (long h : hashes) {
        int ours = Placement.jumpBack(h, n);
        if (ours != reference.getBucket(h, n)) {
          assertThat(ours).as("hash %d, %d partitions", h, n).isEqualTo(reference.getBucket(h, n));
        }
      }
    }
  }

  /**
   * The 32-bit schemes feed JumpBackHash their hash read as unsigned, as they feed {@link
   * Placement#JUMP}: {@code place(h, n) == getBucket(h & 0xFFFFFFFFL, n)}, and a router's partition
   * is hash4j's bucket of {@link HashScheme#hash64}, for every scheme, on every real key.
   */
  @Test
  void thirtyTwoBitHashesAreWidenedUnsignedAndRoutersFeedHash64() {
    ConsistentBucketHasher reference = hash4j();
    int[] counts = {1, 2, 3, 12, 16, 24, 25, 100, 1024, 1_000_000, Integer.MAX_VALUE};
    for (int h : new int[] {0, -1, 1, Integer.MIN_VALUE, Integer.MAX_VALUE}) {
      for (int n : counts) {
        assertThat(Placement.JUMP_BACK.place(h, n)).isEqualTo(reference.getBucket(h & 0xFFFFFFFFL, n));
      }
    }
    List<String> keys = SampleKeys.all();
    for (HashScheme scheme : HashScheme.values()) {
      HashRouter router = HashRouter.of(scheme, Placement.JUMP_BACK, KeylessPolicy.ROUND_ROBIN);
      for (int i = 0; i < keys.size(); i++) {
        byte[] key = keys.get(i).getBytes(UTF_8);
        int n = counts[i % counts.length];
        long h = scheme.hash64(key, 0, key.length);
        if (scheme != HashScheme.XXH3_64) {
          assertThat(h).isEqualTo(scheme.hash(key) & 0xFFFFFFFFL);
          assertThat(Placement.JUMP_BACK.place(scheme.hash(key), n))
              .isEqualTo(Placement.JUMP_BACK.place64(h, n));
        }
        int expected = reference.getBucket(h, n);
        if (router.partition(key, n) != expected) {
          assertThat(router.partition(key, n)).as("%s %s n=%d", scheme, keys.get(i), n)
              .isEqualTo(expected);
        }
      }
    }
    assertThat(Routers.consistentJumpBack()).isEqualTo(
        HashRouter.of(HashScheme.XXH3_64, Placement.JUMP_BACK, KeylessPolicy.ROUND_ROBIN));
  }

  @Test
  void badCountsFailAsHash4jDoesAndOneBucketIsZero() {
    ConsistentBucketHasher reference = hash4j();
    for (long h : EDGE_HASHES) {
      assertThat(Placement.jumpBack(h, 1)).isZero().isEqualTo(reference.getBucket(h, 1));
      for (int n : new int[] {0, -1, Integer.MIN_VALUE}) {
        assertThatThrownBy(() -> Placement.jumpBack(h, n))
            .isExactlyInstanceOf(IllegalArgumentException.class)
            .hasMessage("numPartitions was " + n + ", must be at least 1");
        assertThatThrownBy(() -> reference.getBucket(h, n))
            .isInstanceOf(IllegalArgumentException.class);
      }
    }
  }
}
