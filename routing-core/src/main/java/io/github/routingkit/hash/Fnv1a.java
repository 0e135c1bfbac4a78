package io.github.routingkit.hash;

/**
 * FNV-1a, 32-bit (offset basis {@code 0x811C9DC5}, prime {@code 0x01000193}), over bytes: what Go's
 * {@code hash/fnv.New32a()} computes, the hash behind Sarama's hash partitioners and librdkafka's
 * {@code rd_fnv1a} (before its sign handling). Allocation-free, also for text, which is encoded to
 * UTF-8 on the fly.
 */
final class Fnv1a {
  private Fnv1a() {}

  static final int OFFSET_BASIS = 0x811C9DC5;
  static final int PRIME = 0x01000193;

  static int hash(byte[] data, int offset, int length) {
    int h = OFFSET_BASIS;
    for (int i = offset, end = offset + length; i < end; i++) {
      h = (h ^ (data[i] & 0xFF)) * PRIME;
    }
    return h;
  }

  /** Hashes the UTF-8 encoding of {@code s} without materializing it. */
  static int hash(CharSequence s) {
    int h = OFFSET_BASIS;
    for (int i = 0, n = s.length(); i < n; ) {
      char c = s.charAt(i);
      if (c < 0x80) {
        h = (h ^ c) * PRIME;
        i++;
        continue;
      }
      long e = Utf8.encodeAt(s, i);
      int bytes = Utf8.bytes(e);
      i += Utf8.consumed(e);
      for (int b = 0, count = Utf8.count(e); b < count; b++) {
        h = (h ^ ((bytes >>> (b << 3)) & 0xFF)) * PRIME;
      }
    }
    return h;
  }

  /**
   * librdkafka's {@code rd_fnv1a}: the FNV-1a hash, negated when negative (two's complement, so
   * {@code Integer.MIN_VALUE} stays {@code 0x80000000}), to be read as an unsigned 32-bit value.
   */
  static int librdkafka(int fnv) {
    return fnv < 0 ? -fnv : fnv;
  }
}
