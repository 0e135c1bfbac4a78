package io.github.routingkit.placement;

import io.github.routingkit.Routers;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.SampleKeys;

import io.github.routingkit.placement.Jump;
import io.github.routingkit.placement.Placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** Jump placement: consistency on the shipped real sample and as a property. */
class JumpPlacementTest {

  /** The 200,000 real npm names of the shared data set, found as {@link SampleKeys} finds them. */
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

  @Property(tries = 300)
  void growingByOneMovesOnlyToTheNewPartition(
      @ForAll long key, @ForAll @IntRange(min = 1, max = 5000) int n) {
    int before = Placement.jump(key, n);
    int after = Placement.jump(key, n + 1);
    assertThat(before).isBetween(0, n - 1);
    assertThat(after == before || after == n).isTrue();
  }

  @Property(tries = 300)
  void jumpOnAScheme32BitHashIsInRange(@ForAll int hash, @ForAll @IntRange(min = 1, max = 100_000) int n) {
    assertThat(Placement.JUMP.place(hash, n)).isBetween(0, n - 1);
  }
}
