package io.github.routingkit.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Keys that break routers, and the partition counts each key is checked at. */
public final class EdgeKeys {
  private EdgeKeys() {}

  /** Strings whose {@code hashCode()} is {@link Integer#MIN_VALUE} (Math.abs stays negative). */
  public static final List<String> MIN_VALUE_HASH_CODE =
      List.of("polygenelubricants", "GydZG_", "DESIGNING WORKHOUSES");

  /** 1 MiB. */
  public static final int MIB = 1 << 20;

  /** Text edge cases: empty, CJK, emoji (surrogate pairs), unpaired surrogates, MIN_VALUE hashCode. */
  public static List<String> strings() {
    List<String> keys = new ArrayList<>(List.of(
        "",
        " ",
        "\0",
        "a",
        "\u007f",
        "\u0080",
        "\u07ff",
        "\u0800",
        "\uffff",
        "\ufffd",
        "日本語のキー",
        "東京/13/渋谷区",
        "한국어",
        "Zürich/ZH/Zürich",
        "😀",
        "user-😀-🚀-👩‍👩‍👧",
        "\uD83D\uDE00\uD83D",       // pair then a high surrogate at the end
        "\uD800",                   // lone high
        "\uDC00",                   // lone low
        "a\uDC00b",                 // low inside ASCII
        "\uDC00\uD800",             // reversed pair
        "\uD800\uD800\uDC00",       // high, then a valid pair
        "\uDBFF\uDFFF",             // U+10FFFF
        "\uD800\uDC00",             // U+10000
        "abc\uD83D"));
    keys.addAll(MIN_VALUE_HASH_CODE);
    return keys;
  }

  /** A 1 MiB ASCII key (as a String of 2^20 chars). */
  public static String mibAscii() {
    StringBuilder sb = new StringBuilder(MIB);
    Random r = new Random(1);
    while (sb.length() < MIB) {
      sb.append((char) ('!' + r.nextInt(94)));
    }
    return sb.toString();
  }

  /** About 1 MiB of mixed text: ASCII, 2-, 3- and 4-byte UTF-8 and a few unpaired surrogates. */
  public static String mibMixed() {
    StringBuilder sb = new StringBuilder(MIB);
    Random r = new Random(2);
    while (sb.length() < MIB / 2) {
      sb.append(randomChar(r));
    }
    return sb.toString();
  }

  /** 1 MiB of random bytes. */
  public static byte[] mibBytes() {
    byte[] b = new byte[MIB];
    new Random(3).nextBytes(b);
    return b;
  }

  /** A random UTF-16 string of {@code len} chars biased towards the awkward ranges. */
  public static String randomString(Random r, int len) {
    char[] c = new char[len];
    for (int i = 0; i < len; i++) {
      c[i] = randomChar(r);
    }
    return new String(c);
  }

  private static char randomChar(Random r) {
    switch (r.nextInt(8)) {
      case 0:
        return (char) r.nextInt(0x80);
      case 1:
        return (char) (0x80 + r.nextInt(0x800 - 0x80));
      case 2:
        return (char) (0x800 + r.nextInt(0x10000 - 0x800));
      case 3:
        return (char) (0xD800 + r.nextInt(0x800)); // any surrogate, paired or not
      case 4:
        return (char) (0xFFF0 + r.nextInt(0x10));
      default:
        return (char) ('a' + r.nextInt(26));
    }
  }

  /**
   * Partition counts to check key number {@code i} at: two that sweep 1..1000 as {@code i} grows
   * (so every count is checked on many keys) and a few fixed ones.
   */
  public static int[] countsFor(long i) {
    return new int[] {
        (int) (1 + i % 1000),
        (int) (1 + (i * 7919 + 13) % 1000),
        1, 2, 12, 997,
    };
  }
}
