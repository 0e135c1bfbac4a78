package io.github.routingkit.placement;

import io.github.routingkit.Routers;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.testing.SampleKeys;


import io.github.routingkit.property.Gen;
import io.github.routingkit.property.Property;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Jump placement: consistency on the shipped real sample and as a property. */
class JumpPlacementTest {

  /** The 200,000 real npm names shipped with the tests ({@link SampleKeys}). */
  static List<byte[]> npmKeys() {
    List<byte[]> keys = new ArrayList<>(200_000);
    for (String name : SampleKeys.npmNames()) {
      keys.add(name.getBytes(StandardCharsets.UTF_8));
    }
    return keys;
  }

  @Test
  void growing12To16MovesAQuarterOnlyToNewPartitions() throws IOException {
    List<byte[]> keys = npmKeys();
    KeyRouter jump = Routers.consistent();
    KeyRouter modulo = Routers.kafkaDefault();
    int jumpMoved = 0;
    int moduloMoved = 0;
    for (byte[] k : keys) {
      int before = jump.partition(k, 12);
      int after = jump.partition(k, 16);
      if (before != after) {
        jumpMoved++;
        assertThat(after).as("a moved key goes to a new partition").isBetween(12, 15);
      }
      if (modulo.partition(k, 12) != modulo.partition(k, 16)) {
        moduloMoved++;
      }
    }
    double jumpFraction = (double) jumpMoved / keys.size();
    double moduloFraction = (double) moduloMoved / keys.size();
    System.out.printf("12->16 on %d npm names: jump moved %.4f, kafka modulo moved %.4f%n",
        keys.size(), jumpFraction, moduloFraction);
    assertThat(jumpFraction).isLessThanOrEqualTo(0.26).isGreaterThan(0.24);
    assertThat(moduloFraction).isBetween(0.73, 0.77);
  }

  @Test
  void growingByOneMovesOnlyToTheNewPartition() {
    Property.check(300, Gen.longs(), Gen.ints(1, 5000), (key, n) -> {
      int before = Placement.jump(key, n);
      int after = Placement.jump(key, n + 1);
      assertThat(before).isBetween(0, n - 1);
      assertThat(after == before || after == n).isTrue();
    });
  }

  @Test
  void jumpOnAScheme32BitHashIsInRange() {
    Property.check(300, Gen.ints(), Gen.ints(1, 100_000), (hash, n) -> {
      assertThat(Placement.JUMP.place(hash, n)).isBetween(0, n - 1);
    });
  }
}
