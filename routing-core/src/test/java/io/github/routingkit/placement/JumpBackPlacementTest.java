package io.github.routingkit.placement;

import io.github.routingkit.Routers;

import io.github.routingkit.testing.SampleKeys;

import io.github.routingkit.hash.HashScheme;

import io.github.routingkit.property.Gen;
import io.github.routingkit.property.Property;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * JumpBackHash placement: range, determinism, consistency and balance, as properties and on the
 * shipped real key sample (fixed keys and a fixed hash, so the sample assertions are deterministic;
 * their bounds are those a perfect hash meets, so they would catch a biased or inconsistent mapping).
 */
class JumpBackPlacementTest {

  private static long[] sampleHashes() {
    List<String> keys = SampleKeys.all();
    long[] hashes = new long[keys.size()];
    for (int i = 0; i < hashes.length; i++) {
      byte[] k = keys.get(i).getBytes(UTF_8);
      hashes[i] = HashScheme.XXH3_64.hash64(k, 0, k.length);
    }
    return hashes;
  }

  // --- properties ---------------------------------------------------------------------------------

  @Test
  void staysInRange() {
    Property.check(2000, Gen.longs(), Gen.ints(1, 10_000), (hash, n) -> {
      assertThat(Placement.JUMP_BACK.place64(hash, n)).isBetween(0, n - 1);
      assertThat(Placement.JUMP_BACK.place(hash.intValue(), n)).isBetween(0, n - 1);
    });
  }

  @Test
  void isDeterministic() {
    Property.check(500, Gen.bytes(0, 255), Gen.ints(1, 10_000), (key, n) -> {
      int first = Routers.consistentJumpBack().partition(key, n);
      assertThat(Routers.consistentJumpBack().partition(key, n)).isEqualTo(first);
      assertThat(Routers.consistentJumpBack().partition(key.clone(), n)).isEqualTo(first);
      assertThat(Placement.jumpBack(HashScheme.XXH3_64.hash64(key, 0, key.length), n)).isEqualTo(first);
    });
  }

  @Test
  void growingByOneMovesOnlyToTheNewPartition() {
    Property.check(2000, Gen.longs(), Gen.ints(1, 10_000), (hash, n) -> {
      int before = Placement.jumpBack(hash, n);
      int after = Placement.jumpBack(hash, n + 1);
      assertThat(after == before || after == n).as("%d -> %d on %d -> %d", before, after, n, n + 1)
          .isTrue();
    });
  }

  @Test
  void growingMovesOnlyOntoNewPartitions() {
    Property.check(1000, Gen.longs(), Gen.ints(1, 10_000), Gen.ints(1, 10_000), (hash, n, m) -> {
      Assumptions.assumeTrue(n < m);
      int before = Placement.jumpBack(hash, n);
      int after = Placement.jumpBack(hash, m);
      assertThat(after == before || (after >= n && after < m)).isTrue();
    });
  }

  // --- the real sample ----------------------------------------------------------------------------

  /** Every key, every step 1 -> 2 -> ... -> 1100: a moved key always lands on the one new partition. */
  @Test
  void stepByStepGrowthOnRealKeysMovesOnlyOntoTheNewPartition() {
    long[] hashes = sampleHashes();
    for (int i = 0; i < 20_000; i++) {
      int before = Placement.jumpBack(hashes[i], 1);
      for (int n = 2; n <= 1100; n++) {
        int after = Placement.jumpBack(hashes[i], n);
        if (after != before && after != n - 1) {
          assertThat(after).as("key %d: %d -> %d partitions", i, n - 1, n).isEqualTo(before);
        }
        before = after;
      }
    }
  }

  /**
   * 12 -> 16 on all 320,000 sample keys moves 25 % (a perfect consistent hash: standard deviation
   * 0.08 %, so [24.5 %, 25.5 %] is over six of them), all onto partitions 12-15; plain modulo moves
   * 75 %; and switching from {@link Placement#JUMP} to {@link Placement#JUMP_BACK} at 24 partitions
   * moves 1 - 1/24 = 95.8 %, as switching between any two unrelated mappings does.
   */
  @Test
  void growing12To16MovesAQuarterAllOntoNewPartitions() {
    long[] hashes = sampleHashes();
    int moved = 0;
    int switched = 0;
    for (long h : hashes) {
      int before = Placement.jumpBack(h, 12);
      int after = Placement.jumpBack(h, 16);
      if (before != after) {
        moved++;
        assertThat(after).as("a moved key goes to a new partition").isBetween(12, 15);
      }
      if (Placement.jump(h, 24) != Placement.jumpBack(h, 24)) {
        switched++;
      }
    }
    double fraction = (double) moved / hashes.length;
    double switchedFraction = (double) switched / hashes.length;
    System.out.printf("jump-back 12->16 on %d sample keys: moved %.4f; jump -> jump-back at 24: %.4f%n",
        hashes.length, fraction, switchedFraction);
    assertThat(fraction).isBetween(0.245, 0.255);
    assertThat(switchedFraction).isBetween(0.95, 0.965);
  }

}
