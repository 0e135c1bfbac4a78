package io.github.routingkit.hash;

import io.github.routingkit.testing.EdgeKeys;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The paths of {@link KafkaJsLegacyMurmur2} against each other (the vectors of KafkaJS itself are
 * in {@code compat.CrossClientVectorsTest}): text hashes like its UTF-8 bytes, a range like its
 * copy, and the double product like JavaScript's for the extreme int32 inputs.
 */
class KafkaJsLegacyMurmur2Test {

  @Test
  void textHashesLikeItsUtf8BytesAndRangesLikeCopies() {
    long seed = 19;
    Random r = new Random(seed);
    for (int i = 0; i < 20_000; i++) {
      String s = EdgeKeys.randomString(r, r.nextInt(40));
      byte[] utf8 = s.getBytes(UTF_8);
      assertThat(KafkaJsLegacyMurmur2.hash(s))
          .as("seed %d, key %s", seed, s.chars().mapToObj(Integer::toHexString).toList())
          .isEqualTo(KafkaJsLegacyMurmur2.hash(utf8, 0, utf8.length));
      int pad = r.nextInt(5);
      byte[] padded = new byte[utf8.length + 2 * pad];
      Arrays.fill(padded, (byte) 0xFF); // bytes past the range must not leak into the padded block
      System.arraycopy(utf8, 0, padded, pad, utf8.length);
      assertThat(KafkaJsLegacyMurmur2.hash(padded, pad, utf8.length))
          .as("seed %d, pad %d", seed, pad)
          .isEqualTo(KafkaJsLegacyMurmur2.hash(utf8, 0, utf8.length));
    }
    for (String s : EdgeKeys.strings()) {
      byte[] utf8 = s.getBytes(UTF_8);
      assertThat(KafkaJsLegacyMurmur2.hash(s)).isEqualTo(KafkaJsLegacyMurmur2.hash(utf8, 0, utf8.length));
    }
  }

  @Test
  void productIsTheRoundedDoubleReadAsInt32() {
    // Small products are exact: the same as the Java client's int multiply.
    assertThat(KafkaJsLegacyMurmur2.mulM(1)).isEqualTo(0x5bd1e995);
    assertThat(KafkaJsLegacyMurmur2.mulM(-1)).isEqualTo(-0x5bd1e995);
    // -2^31 * 0x5bd1e995 is a multiple of 2^31, exact as a double: low 32 bits 0x80000000.
    assertThat(KafkaJsLegacyMurmur2.mulM(Integer.MIN_VALUE)).isEqualTo(Integer.MIN_VALUE);
    // 0x7fffffff * 0x5bd1e995 = 3308163075331200619 needs 62 bits; the double rounds it to a
    // multiple of 2^9, 3308163075331200512, whose low 32 bits are 0x242e1600; the exact product's
    // (the Java client's int multiply) are 0x242e166b.
    assertThat(0x7fffffff * 0x5bd1e995).isEqualTo(0x242e166b);
    assertThat(KafkaJsLegacyMurmur2.mulM(0x7fffffff)).isEqualTo(0x242e1600);
  }
}
