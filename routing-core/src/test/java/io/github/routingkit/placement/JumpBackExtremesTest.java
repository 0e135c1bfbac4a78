package io.github.routingkit.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.routingkit.Routers;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Jump-back placement on extreme hashes and counts: always in range; bad counts are rejected. */
class JumpBackExtremesTest {

  @Test
  void jumpBackEdges() {
    long[] hs = {0, -1, Long.MIN_VALUE, Long.MAX_VALUE, 1, 0x9e3779b97f4a7c15L, -0x9e3779b97f4a7c15L};
    int[] ns = {1, 2, 3, 4, 5, 7, 8, 1 << 30, (1 << 30) + 1, Integer.MAX_VALUE - 1, Integer.MAX_VALUE};
    Random r = new Random(1);
    for (int i = 0; i < 200000; i++) {
      long h = i < hs.length ? hs[i] : r.nextLong();
      for (int n : ns) {
        int p = Placement.jumpBack(h, n);
        assertThat(p).isBetween(0, n - 1);
        int q = Placement.JUMP_BACK.place((int) h, n);
        assertThat(q).isBetween(0, n - 1);
      }
    }
    for (int n : new int[] {0, -1, Integer.MIN_VALUE}) {
      assertThatThrownBy(() -> Placement.jumpBack(1, n)).isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> Routers.consistentJumpBack().partition(new byte[1], n))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> Routers.consistentJumpBack().partition(new byte[1], 0, 1, n))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }
}
