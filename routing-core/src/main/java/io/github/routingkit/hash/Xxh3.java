package io.github.routingkit.hash;

import java.nio.charset.StandardCharsets;
import net.openhft.hashing.LongHashFunction;

/**
 * XXH3 64-bit, seed 0 ({@code XXH3_64bits}), from zero-allocation-hashing's
 * {@link LongHashFunction#xx3()}. Hashing a {@code byte[]} range allocates nothing; text is encoded
 * to UTF-8 first (that allocates the encoded bytes).
 */
final class Xxh3 {
  private Xxh3() {}

  private static final LongHashFunction XX3 = LongHashFunction.xx3();

  static long hash(byte[] data, int offset, int length) {
    return XX3.hashBytes(data, offset, length);
  }

  static long hash(CharSequence s) {
    byte[] utf8 = s.toString().getBytes(StandardCharsets.UTF_8);
    return XX3.hashBytes(utf8, 0, utf8.length);
  }
}
