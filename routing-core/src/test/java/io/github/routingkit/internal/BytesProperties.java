package io.github.routingkit.internal;


import io.github.routingkit.property.Gen;
import io.github.routingkit.property.Property;
import java.util.Random;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;


/** The word-at-a-time separator search finds exactly what a byte-by-byte search finds. */
class BytesProperties {

  /** Few distinct byte values (including 0x00, 0x7F, 0x80, 0xFF), so matches and near-matches are common. */
  Gen<byte[]> keys() {
    return Gen.bytes(Gen.of((byte) 0, (byte) 1, (byte) ':', (byte) '|', (byte) 0x7F, (byte) 0x80,
        (byte) 0x81, (byte) 0xFF, (byte) 0xFE), 0, 70);
  }
  Gen<byte[]> patterns() {
    return Gen.bytes(Gen.of((byte) 0, (byte) ':', (byte) '|', (byte) 0x80, (byte) 0xFF), 1, 3);
  }

  @Test
  void indexOfIsTheFirstOccurrence() {
    Property.check(3000, keys(), patterns(), Gen.ints(0, 70), Gen.ints(0, 70), (key, pattern, a, b) -> {
      int offset = Math.min(Math.min(a, b), key.length);
      int length = Math.min(Math.max(a, b), key.length) - offset;
      assertThat(Bytes.indexOf(key, offset, length, pattern))
          .isEqualTo(naive(key, offset, length, pattern));
    });
  }

  private static int naive(byte[] key, int offset, int length, byte[] pattern) {
    for (int i = offset; i + pattern.length <= offset + length; i++) {
      boolean match = true;
      for (int j = 0; j < pattern.length; j++) {
        match &= key[i + j] == pattern[j];
      }
      if (match) {
        return i;
      }
    }
    return -1;
  }

  @Test
  void equalWordsAndLengthsMeanEqualPrefixes() {
    Property.check(2000, keys(), keys(), Gen.ints(0, 70), Gen.ints(0, 70), (a, b, from, len) -> {
      int fa = Math.min(from, a.length);
      int fb = Math.min(from / 2, b.length);
      int n = Math.min(Math.min(len, a.length - fa), b.length - fb);
      int m = Math.min(8, n);
      boolean same = java.util.Arrays.equals(a, fa, fa + m, b, fb, fb + m);
      assertThat(Bytes.word(a, fa, fa + n) == Bytes.word(b, fb, fb + n)).isEqualTo(same);
      assertThat(Bytes.word(a, fa, fa + n)).isEqualTo(Bytes.word(
          java.util.Arrays.copyOfRange(a, fa, fa + n), 0, n)); // near the end of the array too
    });
  }

  @Test
  void bytesWordBounds() {
    Random rnd = new Random(3);
    for (int size = 0; size <= 20; size++) {
      byte[] a = new byte[size];
      rnd.nextBytes(a);
      for (int from = 0; from <= size; from++) {
        for (int to = from; to <= size; to++) {
          long w = Bytes.word(a, from, to);
          long e = 0;
          int n = Math.min(8, to - from);
          for (int i = n - 1; i >= 0; i--) e = (e << 8) | (a[from + i] & 0xFF);
          assertThat(w).isEqualTo(e);
        }
      }
    }
  }
}
