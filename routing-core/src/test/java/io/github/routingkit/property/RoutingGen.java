package io.github.routingkit.property;

import io.github.routingkit.KeylessPolicy;
import io.github.routingkit.hash.HashScheme;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
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

  /**
   * Valid routing spec strings combining every layer: scheme and placement, or generations;
   * segments, hot keys (configured or detected) and, in about half of them, a canary
   * ({@code routing.canary.share} as a decimal or a percentage, 0 and 1 included) whose new spec
   * is itself layered; about half set {@code routing.keyless} (any policy, {@code kafka-sticky}
   * included).
   */
  public static Gen<String> specs() {
    Gen<String> scheme = Gen.of(HashScheme.values()).map(s -> "routing.scheme=" + s.id());
    Gen<String> placement = Gen.of("native", "modulo", "jump", "jump-back").map(p -> "routing.placement=" + p);
    Gen<String> segments = Gen.of(
        "routing.segment.ranges=a:0-2,b:3-4, routing.segment.exclusive=b",
        "routing.segment.weights=a:3,b:1,*:1, routing.segment.exclusive=a,b",
        "routing.segment.weights=a:1,b:1",
        "routing.segment.ranges=a:0,b:5-9, routing.segment.separator=/");
    Gen<String> hot = Gen.of(
        "routing.hotkey.keys=a:1,b/1,k1, routing.hotkey.choice=value-hash",
        "routing.hotkey.keys=a:1, routing.hotkey.candidates=all, routing.hotkey.choice=round-robin",
        "routing.hotkey.detect=true, routing.hotkey.threshold=0.2, routing.hotkey.window=1000,"
            + " routing.hotkey.memory=2000, routing.hotkey.candidates=3");
    Gen<String> versions = Gen.of(
        "routing.version.generations=v1:kafka-murmur2:native:6,v2:xxh3-64:jump:*,"
            + " routing.version.default=v1",
        "routing.version.generations=old:sarama-fnv1a,new:librdkafka-crc32:jump:9,"
            + " routing.version.default=new, routing.version.separator=#",
        "routing.version.generations=v1:pulsar-murmur3:jump:8,v2:xxh3-64:jump-back:*,"
            + " routing.version.default=v2");
    Gen<String> layered = Gen.combine(scheme, placement, segments.injectNull(0.4),
        hot.injectNull(0.4), versions.injectNull(0.6), (s, p, seg, h, v) -> {
          List<String> parts = new ArrayList<>();
          if (v == null) {
            parts.add(s);
            parts.add(p);
          } else {
            parts.add(v);
          }
          if (seg != null) {
            parts.add(seg);
          }
          if (h != null) {
            parts.add(h);
          }
          return String.join(", ", parts);
        });
    Gen<String> keyless = Gen.of(KeylessPolicy.values()).map(k -> "routing.keyless=" + k.id());
    Gen<String> withKeyless = Gen.combine(layered, keyless.injectNull(0.5),
        (l, k) -> k == null ? l : l + ", " + k);
    return Gen.combine(withKeyless, canaries().injectNull(0.5),
        (old, canary) -> canary == null ? old : old + ", " + canary);
  }

  /** The canary part of {@link #specs()}: a share and a (layered) new spec. */
  public static Gen<String> canaries() {
    Gen<String> share = Gen.oneOf(
        Gen.of("0", "1", "0%", "100%", "0.01", "5%", "0.25", "0.5%", "1e-2", "12.5%"),
        Gen.ints(0, 1000).map(i -> Double.toString(i / 1000.0)));
    Gen<String> next = Gen.of(
        "routing.canary.next.placement=jump",
        "routing.canary.next.scheme=xxh3-64",
        "routing.canary.next.scheme=pulsar-murmur3, routing.canary.next.placement=jump-back",
        "routing.canary.next.scheme=librdkafka-crc32, routing.canary.next.placement=modulo",
        "routing.canary.next.placement=jump, routing.canary.next.segment.ranges=a:0-2,b:3-4,"
            + " routing.canary.next.segment.exclusive=b",
        "routing.canary.next.hotkey.keys=a:1,k1, routing.canary.next.hotkey.choice=value-hash",
        "routing.canary.next.hotkey.detect=true, routing.canary.next.hotkey.memory=2000,"
            + " routing.canary.next.hotkey.threshold=0.2",
        "routing.canary.next.version.generations=v1:kafka-murmur2:native:6,v2:xxh3-64:jump,"
            + " routing.canary.next.version.default=v2");
    return Gen.combine(share, next, (s, n) -> "routing.canary.share=" + s + ", " + n);
  }

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
