package io.github.routingkit.hash;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/**
 * CRC-32 (IEEE 802.3, reflected, the zlib / {@link CRC32} definition) as librdkafka's
 * {@code rd_crc32} computes it for its {@code consistent} partitioners, returned as the bits of the
 * unsigned 32-bit value.
 *
 * <p>Uses the JDK's intrinsic {@link CRC32}, a fresh instance per call and no shared or
 * thread-local state. The instance never leaves this method, so C2's escape analysis removes it:
 * hashing a {@code byte[]} allocates nothing once compiled (0 B/op in routing-benchmarks'
 * {@code OtherClientSchemesBenchmark.librdkafkaCrc32Bytes} with {@code -prof gc}; KeyRouterAllocationTest
 * checks it after warm-up), and it skips the {@link ThreadLocal} lookup an instance per thread
 * would cost. Interpreted or C1-compiled code
 * allocates the small instance. Text is
 * encoded to UTF-8 first (that allocates the encoded bytes).
 */
final class Crc32Hash {
  private Crc32Hash() {}

  static int hash(byte[] data, int offset, int length) {
    CRC32 crc = new CRC32();
    crc.update(data, offset, length);
    return (int) crc.getValue();
  }

  static int hash(CharSequence s) {
    byte[] utf8 = s.toString().getBytes(StandardCharsets.UTF_8);
    return hash(utf8, 0, utf8.length);
  }
}
