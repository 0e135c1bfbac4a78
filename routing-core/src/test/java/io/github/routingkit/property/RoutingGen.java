package io.github.routingkit.property;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Generators of the routing domain: keys that break routers (with the classic edge keys always
 * tried first) and partition counts (with 1 and 10,000 always tried first).
 */
public final class RoutingGen {
  /** Strings whose {@code hashCode()} is {@link Integer#MIN_VALUE}. */
  public static final List<String> MIN_VALUE_HASH = List.of("polygenelubricants", "GydZG_", "DESIGNING WORKHOUSES");

  /** The keys every key property tries first. */
  public static final List<String> EDGE_KEYS = List.of("", "polygenelubricants", "GydZG_",
      "DESIGNING WORKHOUSES", "a", "é", "日本語", "\uD83D\uDE00", "\uD800", "x\uDC00y", "\u0000",
      "@types/node", "1700000000000", "x".repeat(100 * 1024));

  private RoutingGen() {}

  /** Partition counts in {@code [1, 10000]}; edge cases 1, 2, 10,000. */
  public static Gen<Integer> partitions() {
    return partitions(1, 10_000);
  }

  /** Partition counts in {@code [min, max]}; edge cases min, max and 1, 2, 10,000 if inside. */
  public static Gen<Integer> partitions(int min, int max) {
    Gen<Integer> g = c -> (int) (min + c.draw((long) max - min + 1));
    return g.withEdges(Gen.rangeEdges(min, max, 1, 2, 10_000));
  }

  /**
   * Keys that break routers: any text up to 64 chars, non-ASCII, ill-formed UTF-16, MIN_VALUE
   * hash codes, sequential and truncated ids, Zipf-like hot keys, huge keys (rarely); edge cases
   * {@link #EDGE_KEYS}.
   */
  public static Gen<String> keys() {
    Gen<String> g = Gen.frequency(new int[] {10, 10, 5, 10, 10, 5, 5, 1},
        Gen.strings(0, 64), nonAscii(), illFormed(), minValueHash(), sequentialIds(),
        Gen.of(EDGE_KEYS.subList(0, EDGE_KEYS.size() - 1)),
        Gen.ints(1, 1000).map(r -> "key-" + r), huge());
    return g.withEdges(EDGE_KEYS);
  }

  /** UTF-8 bytes of {@link #keys()}. */
  public static Gen<byte[]> keyBytes() {
    return keys().map(k -> k.getBytes(StandardCharsets.UTF_8));
  }

  /** Well-formed non-ASCII text of 1..40 code points (1- to 4-byte UTF-8). */
  public static Gen<String> nonAscii() {
    int[][] ranges = {{0xA0, 0xFF}, {0x370, 0x3FF}, {0x400, 0x4FF}, {0x300, 0x36F},
        {0x4E00, 0x9FFF}, {0x1F300, 0x1F64F}, {0x10000, 0x1007F}};
    Gen<Integer> cp = c -> {
      int[] r = ranges[c.drawInt(ranges.length)];
      return r[0] + c.drawInt(r[1] - r[0] + 1);
    };
    return cp.list(1, 40).map(cps -> {
      StringBuilder sb = new StringBuilder();
      cps.forEach(sb::appendCodePoint);
      return sb.toString();
    });
  }

  /** Text with unpaired surrogates. */
  public static Gen<String> illFormed() {
    Gen<String> pair = c -> "" + (char) ('a' + c.drawInt(26))
        + (char) (c.drawInt(2) == 0 ? 0xD800 + c.drawInt(0x400) : 0xDC00 + c.drawInt(0x400));
    return pair.list(1, 8).map(l -> String.join("", l));
  }

  /** Strings with {@code hashCode() == Integer.MIN_VALUE}, known and constructed. */
  public static Gen<String> minValueHash() {
    return Gen.oneOf(Gen.of(MIN_VALUE_HASH),
        Gen.strings(Gen.ALPHANUMERIC, 0, 20).map(RoutingGen::withMinValueHashCode));
  }

  /** {@code prefix} plus 7 chars from 'A'..'_' so that {@code hashCode()} is MIN_VALUE. */
  public static String withMinValueHashCode(String prefix) {
    long pow = 1;
    long offset = 0;
    for (int i = 0; i < 7; i++) {
      offset += 'A' * pow;
      pow *= 31;
    }
    long needed = ((long) Integer.MIN_VALUE - (long) prefix.hashCode() * pow - offset) & 0xFFFFFFFFL;
    char[] suffix = new char[7];
    for (int i = 6; i >= 0; i--) {
      suffix[i] = (char) ('A' + needed % 31);
      needed /= 31;
    }
    return prefix + new String(suffix);
  }

  /** Decimal ids from dense blocks and ids with truncated low digits. */
  public static Gen<String> sequentialIds() {
    return c -> {
      long base = 1_000_000_000_000L + c.draw(8_000_000_000_000L);
      return c.drawInt(2) == 0 ? Long.toString(base + c.draw(10_000))
          : Long.toString(base - base % (long) Math.pow(10, 1 + c.drawInt(6)));
    };
  }

  /** Keys of 16 Ki to 256 Ki chars (a random 64-char block repeated). */
  public static Gen<String> huge() {
    return c -> {
      char[] block = new char[64];
      for (int i = 0; i < block.length; i++) {
        block[i] = (char) (' ' + c.drawInt(95));
      }
      int length = 16 * 1024 + c.drawInt(240 * 1024 + 1);
      StringBuilder sb = new StringBuilder(length);
      while (sb.length() < length) {
        sb.append(block, 0, Math.min(block.length, length - sb.length()));
      }
      return sb.toString();
    };
  }
}
