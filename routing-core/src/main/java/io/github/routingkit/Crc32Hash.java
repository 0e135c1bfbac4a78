package io.github.routingkit;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/**
 * CRC-32 (IEEE 802.3, reflected, the zlib / {@link CRC32} definition) as librdkafka's
 * {@code rd_crc32} computes it for its {@code consistent} partitioners, returned as the bits of the
 * unsigned 32-bit value.
 *
 * <p>Uses the JDK's intrinsic {@link CRC32}. One instance per thread is kept in a
 * {@link ThreadLocal} and reset before each use, so hashing a {@code byte[]} allocates nothing after
 * the thread's first call. Text is encoded to UTF-8 first (that allocates the encoded bytes).
 */
final class Crc32Hash {
  private Crc32Hash() {}

  private static final ThreadLocal<CRC32> CRC = ThreadLocal.withInitial(CRC32::new);

  static int hash(byte[] data, int offset, int length) {
    CRC32 crc = CRC.get();
    crc.reset();
    crc.update(data, offset, length);
    return (int) crc.getValue();
  }

  static int hash(CharSequence s) {
    byte[] utf8 = s.toString().getBytes(StandardCharsets.UTF_8);
    return hash(utf8, 0, utf8.length);
  }
}
