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
    return Utf8.hash(s, WORDS);
  }

  /** The algorithm as the text front-end drives it: one byte at a time, 4 to a word. */
  static final Utf8.WordHash WORDS = new Utf8.WordHash() {
    @Override
    int seed(int utf8Length) {
      return OFFSET_BASIS;
    }

    @Override
    boolean needsLength() {
      return false;
    }

    @Override
    int word(int h, int word) {
      h = (h ^ (word & 0xFF)) * PRIME;
      h = (h ^ ((word >>> 8) & 0xFF)) * PRIME;
      h = (h ^ ((word >>> 16) & 0xFF)) * PRIME;
      return (h ^ (word >>> 24)) * PRIME;
    }

    @Override
    int finish(int h, int tail, int tailLength, int utf8Length) {
      for (int b = 0; b < tailLength; b++, tail >>>= 8) {
        h = (h ^ (tail & 0xFF)) * PRIME;
      }
      return h;
    }

    @Override
    int bytes(byte[] data, int offset, int length) {
      return hash(data, offset, length);
    }
  };

  /**
   * librdkafka's {@code rd_fnv1a}: the FNV-1a hash, negated when negative (two's complement, so
   * {@code Integer.MIN_VALUE} stays {@code 0x80000000}), to be read as an unsigned 32-bit value.
   */
  static int librdkafka(int fnv) {
    return fnv < 0 ? -fnv : fnv;
  }
}
