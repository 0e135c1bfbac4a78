package io.github.routingkit.hash;

import io.github.routingkit.placement.Placement;

/**
 * The murmur2 variant of KafkaJS's {@code LegacyPartitioner} (the default partitioner of KafkaJS
 * 0.x and 1.x, {@code Partitioners.LegacyPartitioner} in 2.x), bit for bit, including what makes it
 * differ from the Java client's murmur2 (source: {@code src/producer/partitioners/legacy/murmur2.js}
 * of KafkaJS 2.2.4, the same arithmetic as {@code default/murmur2.js} of 0.1.0 &ndash; 1.16.0):
 *
 * <ul>
 *   <li>Every multiplication by {@code m = 0x5bd1e995} is a JavaScript {@code Number} (IEEE 754
 *       double) product of an int32 and {@code m}, rounded to 53 significant bits, then read back as
 *       an int32 ({@code ToInt32}, the low 32 bits of the rounded integer) by the next bitwise
 *       operator. Products beyond 2<sup>53</sup> lose their low bits, so the result differs from the
 *       exact 32-bit product the Java client computes.
 *   <li>The block loop runs {@code i < length / 4} with a fractional bound: {@code ceil(length / 4)}
 *       blocks, the last one (for a length not divisible by 4) made of the tail bytes padded with
 *       zeros (a {@code Buffer} reads {@code undefined} past its end, and {@code undefined & 0xff} is
 *       0). The tail bytes are then folded in a second time, as in the Java client.
 * </ul>
 *
 * <p>The result is the int32 KafkaJS returns; its partitioner places it with
 * {@code (hash & 0x7fffffff) % numPartitions} ({@link Placement#KAFKA_TO_POSITIVE}). Java reproduces
 * the double arithmetic exactly: its {@code double} multiplication is IEEE 754 round-to-nearest-even
 * like JavaScript's, and {@code (int) (long) product} is {@code ToInt32} for the products here
 * (below 2<sup>62</sup> in magnitude). Allocation-free, also for text, which is encoded to UTF-8 on
 * the fly as {@code String.getBytes(UTF_8)} encodes it. Stateless and thread-safe.
 */
final class KafkaJsLegacyMurmur2 {
  private KafkaJsLegacyMurmur2() {}

  private static final int SEED = 0x9747b28c;
  private static final double M = 0x5bd1e995;

  /** {@code ToInt32(x * m)} with the product rounded to a double, as JavaScript computes it. */
  static int mulM(int x) {
    return (int) (long) (x * M);
  }

  private static int block(int h, int k) {
    k = mulM(k);
    k ^= k >>> 24;
    return mulM(h) ^ mulM(k);
  }

  /**
   * Folds in the last {@code tailLength} ({@code length & 3}) bytes, given little-endian in
   * {@code tail}, and finishes the hash.
   */
  private static int finish(int h, int tail, int tailLength) {
    if (tailLength != 0) {
      h = block(h, tail); // the extra, zero-padded block of the fractional loop bound
      h ^= tail; // the switch's cases 3, 2, 1: the tail bytes at bits 16, 8, 0
      h = mulM(h);
    }
    h ^= h >>> 13;
    h = mulM(h);
    return h ^ (h >>> 15);
  }

  static int hash(byte[] data, int offset, int length) {
    int h = SEED ^ length;
    int end4 = offset + (length & ~3);
    for (int i = offset; i < end4; i += 4) {
      h = block(h, (data[i] & 0xFF) | (data[i + 1] & 0xFF) << 8 | (data[i + 2] & 0xFF) << 16
          | data[i + 3] << 24);
    }
    int tail = 0;
    for (int i = length & 3; i > 0; i--) {
      tail = tail << 8 | (data[end4 + i - 1] & 0xFF);
    }
    return finish(h, tail, length & 3);
  }

  /** Hashes {@code s.toString().getBytes(UTF_8)} without materializing it. */
  static int hash(CharSequence s) {
    return Utf8.hash(s, WORDS);
  }

  /** The algorithm as the text front-end drives it. */
  static final Utf8.WordHash WORDS = new Utf8.WordHash() {
    @Override
    int seed(int utf8Length) {
      return SEED ^ utf8Length;
    }

    @Override
    boolean needsLength() {
      return true;
    }

    @Override
    int word(int h, int word) {
      return block(h, word);
    }

    @Override
    int finish(int h, int tail, int tailLength, int utf8Length) {
      return KafkaJsLegacyMurmur2.finish(h, tail, tailLength);
    }

    @Override
    int bytes(byte[] data, int offset, int length) {
      return hash(data, offset, length);
    }
  };
}
