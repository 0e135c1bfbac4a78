package io.github.routingkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.openhft.hashing.LongHashFunction;
import org.junit.jupiter.api.Test;

/** {@link Xxh3}'s own short-input path agrees bit for bit with zero-allocation-hashing's XXH3. */
class Xxh3Properties {
  private static final LongHashFunction XX3 = LongHashFunction.xx3();

  /** Every length 0 to 300 (all branches of the short path and the hand-over at 128), many inputs each. */
  @Test
  void everyLengthAgreesWithTheLibrary() {
    SplittableRandom random = new SplittableRandom(3);
    for (int len = 0; len <= 300; len++) {
      for (int t = 0; t < 200; t++) {
        int offset = random.nextInt(9);
        byte[] data = new byte[offset + len + random.nextInt(9)];
        for (int i = 0; i < data.length; i++) {
          // mostly random bytes; some inputs all 0x00 or all 0xFF (sign and carry edges)
          data[i] = t == 0 ? 0 : t == 1 ? (byte) 0xFF : (byte) random.nextInt(256);
        }
        assertThat(Xxh3.hash(data, offset, len)).as("length %d, try %d", len, t)
            .isEqualTo(XX3.hashBytes(data, offset, len));
      }
    }
  }

  @Property(tries = 500)
  void randomRangesAgree(@ForAll byte[] data, @ForAll @IntRange(min = 0, max = 64) int cut) {
    int offset = Math.min(cut, data.length);
    int len = data.length - offset;
    assertThat(Xxh3.hash(data, offset, len)).isEqualTo(XX3.hashBytes(data, offset, len));
  }

  @Test
  void textIsHashedAsUtf8() {
    String s = "h\u00e9llo \uD83D\uDE00";
    assertThat(Xxh3.hash(s))
        .isEqualTo(XX3.hashBytes(s.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
  }
}
