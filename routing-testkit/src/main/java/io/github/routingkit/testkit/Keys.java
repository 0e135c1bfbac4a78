package io.github.routingkit.testkit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;

/**
 * Keys that break routers, as jqwik arbitraries for property tests and as fixed lists for the
 * assertions: the empty key, huge keys, non-ASCII and ill-formed UTF-16 text, strings whose
 * {@code String#hashCode()} is {@link Integer#MIN_VALUE} (on which {@code Math.abs(h) % n} is
 * negative), dense sequential ids, ids with their low digits truncated (timestamps rounded to the
 * second, ids allocated in blocks) and Zipf-distributed keys (a few hot keys, a long tail).
 *
 * <pre>{@code
 * @Property
 * void staysInRange(@ForAll("keys") String key) { ... }
 *
 * @Provide
 * Arbitrary<String> keys() { return Keys.routerBreakers(); }
 * }</pre>
 *
 * <p>Every method returns a new, immutable arbitrary or list; thread-safe.
 */
public final class Keys {
  /** Strings whose {@code hashCode()} is {@link Integer#MIN_VALUE}, as listed in FACTS. */
  private static final List<String> KNOWN_MIN_VALUE =
      List.of("polygenelubricants", "GydZG_", "DESIGNING WORKHOUSES");

  private Keys() {}

  /** The empty key {@code ""} (a key, not a missing one: clients hash it). */
  public static Arbitrary<String> empty() {
    return Arbitraries.just("");
  }

  /**
   * Keys of 16 Ki to 256 Ki characters (a random 64-character block repeated), long enough to
   * exercise every tail and block path of a hash.
   */
  public static Arbitrary<String> huge() {
    return Arbitraries.randomValue(random -> {
      char[] block = new char[64];
      for (int i = 0; i < block.length; i++) {
        block[i] = (char) (' ' + random.nextInt(95));
      }
      int length = 16 * 1024 + random.nextInt(240 * 1024 + 1);
      StringBuilder sb = new StringBuilder(length);
      while (sb.length() < length) {
        sb.append(block, 0, Math.min(block.length, length - sb.length()));
      }
      return sb.toString();
    });
  }

  /**
   * Well-formed non-ASCII text of 1 to 40 code points: Latin-1, Greek, Cyrillic, CJK, combining
   * marks and supplementary-plane emoji (surrogate pairs), so UTF-8 lengths of 1 to 4 bytes occur.
   */
  public static Arbitrary<String> nonAscii() {
    int[][] ranges = {{0xA0, 0xFF}, {0x370, 0x3FF}, {0x400, 0x4FF}, {0x300, 0x36F},
        {0x4E00, 0x9FFF}, {0x1F300, 0x1F64F}, {0x10000, 0x1007F}};
    return Arbitraries.randomValue(random -> {
      int count = 1 + random.nextInt(40);
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < count; i++) {
        int[] r = ranges[random.nextInt(ranges.length)];
        sb.appendCodePoint(r[0] + random.nextInt(r[1] - r[0] + 1));
      }
      return sb.toString();
    });
  }

  /**
   * Text with unpaired surrogates, which has no exact UTF-8 form ({@code getBytes(UTF_8)} writes
   * {@code '?'}), so routers that hash UTF-16 text and routers that hash UTF-8 bytes disagree here.
   */
  public static Arbitrary<String> illFormedUtf16() {
    return Arbitraries.randomValue(random -> {
      StringBuilder sb = new StringBuilder();
      int count = 1 + random.nextInt(8);
      for (int i = 0; i < count; i++) {
        sb.append((char) ('a' + random.nextInt(26)));
        sb.append((char) (random.nextBoolean() ? 0xD800 + random.nextInt(0x400)
            : 0xDC00 + random.nextInt(0x400)));
      }
      return sb.toString();
    });
  }

  /**
   * Strings whose {@code hashCode()} is {@link Integer#MIN_VALUE}: the three well-known ones and
   * generated ones (a random alphanumeric prefix and a 7-character suffix from {@code 'A'..'_'}
   * solved so the hash lands on {@code Integer.MIN_VALUE}).
   */
  public static Arbitrary<String> minValueHashCode() {
    Arbitrary<String> generated = Arbitraries.strings().alpha().numeric().ofMaxLength(20)
        .map(Keys::withMinValueHashCode);
    return Arbitraries.oneOf(Arbitraries.of(KNOWN_MIN_VALUE), generated);
  }

  /**
   * Returns {@code prefix} followed by 7 characters from {@code 'A'..'_'} chosen so that the
   * result's {@code hashCode()} is {@link Integer#MIN_VALUE}.
   */
  public static String withMinValueHashCode(String prefix) {
    // hash(prefix + s) = hash(prefix) * 31^7 + Σ s_i 31^(6-i) (mod 2^32). With s_i = 'A' + d_i and
    // 0 <= d_i < 31 the suffix's base-31 digits cover every residue, because 31^7 > 2^32.
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

  /** Decimal ids from a dense block: {@code base + 0 .. base + 9,999} for a random 10-13 digit base. */
  public static Arbitrary<String> sequentialIds() {
    return Arbitraries.randomValue(random -> {
      long base = 1_000_000_000L + (long) (random.nextDouble() * 9_000_000_000_000L);
      return Long.toString(base - base % 10_000 + random.nextInt(10_000));
    });
  }

  /**
   * Batches of {@code size} consecutive decimal ids ({@code base, base + 1, ...}), the input on
   * which a hash with poor low-bit mixing piles consecutive ids onto few partitions.
   *
   * @throws IllegalArgumentException if {@code size < 1}
   */
  public static Arbitrary<List<String>> sequentialIdBatches(int size) {
    if (size < 1) {
      throw new IllegalArgumentException("size was " + size + ", must be at least 1");
    }
    return Arbitraries.longs().between(0, 9_000_000_000_000L).map(base -> {
      List<String> ids = new ArrayList<>(size);
      for (int i = 0; i < size; i++) {
        ids.add(Long.toString(base + i));
      }
      return Collections.unmodifiableList(ids);
    });
  }

  /**
   * Decimal ids whose low 1 to 6 digits are zero (timestamps truncated to the second or minute,
   * ids allocated in blocks of 1000): every key is a multiple of a power of ten.
   */
  public static Arbitrary<String> truncatedLowDigits() {
    return Arbitraries.randomValue(random -> {
      long id = 1_000_000_000_000L + (long) (random.nextDouble() * 8_000_000_000_000L);
      long unit = (long) Math.pow(10, 1 + random.nextInt(6));
      return Long.toString(id - id % unit);
    });
  }

  /**
   * Keys {@code "key-<rank>"} with rank in {@code [1, distinct]} drawn from a Zipf distribution:
   * {@code P(rank) ∝ 1 / rank^exponent} (exponent 1.0: the hottest key takes about
   * {@code 1 / ln(distinct)} of the traffic).
   *
   * @throws IllegalArgumentException if {@code distinct < 1} or {@code exponent} is negative or
   *     not finite
   */
  public static Arbitrary<String> zipf(int distinct, double exponent) {
    double[] cdf = zipfCdf(distinct, exponent);
    return Arbitraries.randomValue(random -> "key-" + zipfRank(cdf, random));
  }

  /**
   * Returns a reproducible list of {@code size} Zipf-distributed keys ({@link #zipf}) drawn with
   * {@code new Random(seed)}: the same arguments give the same list on every JVM.
   *
   * @throws IllegalArgumentException if {@code size < 0}, {@code distinct < 1} or the exponent
   *     is negative or not finite
   */
  public static List<String> zipfSample(int size, int distinct, double exponent, long seed) {
    if (size < 0) {
      throw new IllegalArgumentException("size was " + size + ", must be >= 0");
    }
    double[] cdf = zipfCdf(distinct, exponent);
    Random random = new Random(seed);
    List<String> keys = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      keys.add("key-" + zipfRank(cdf, random));
    }
    return Collections.unmodifiableList(keys);
  }

  /** Any of the above single-key arbitraries (not huge keys too often: they are slow to hash). */
  public static Arbitrary<String> routerBreakers() {
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(1, empty()),
        net.jqwik.api.Tuple.of(1, huge()),
        net.jqwik.api.Tuple.of(10, nonAscii()),
        net.jqwik.api.Tuple.of(5, illFormedUtf16()),
        net.jqwik.api.Tuple.of(10, minValueHashCode()),
        net.jqwik.api.Tuple.of(10, sequentialIds()),
        net.jqwik.api.Tuple.of(10, truncatedLowDigits()),
        net.jqwik.api.Tuple.of(10, zipf(1000, 1.0)),
        net.jqwik.api.Tuple.of(10, Arbitraries.strings().ofMaxLength(64)));
  }

  /**
   * A fixed list of edge-case keys (about 60): empty, single characters, the
   * {@code MIN_VALUE}-hashCode strings, non-ASCII and ill-formed text, a 100 Ki-character key,
   * sequential and truncated ids. The default key set of {@link RoutingAssertions}.
   */
  public static List<String> edgeCases() {
    List<String> keys = new ArrayList<>(Arrays.asList("", " ", "a", "A", "0", "-1", "\u0000",
        "\n", "key", "21", "foobar", "abc", "a-little-bit-long-string", "k1", "key01",
        "keykeykeykeykey1", "é", "ü", "日本語", "Ελληνικά", "русский", "\uD83D\uDE00",
        "e\u0301", "\uD800", "x\uDC00y", "\uFFFF", "@types/node", "US", "\t\t"));
    keys.addAll(KNOWN_MIN_VALUE);
    keys.add(withMinValueHashCode("tenant-42/"));
    keys.add("x".repeat(100 * 1024));
    for (long i = 0; i < 10; i++) {
      keys.add(Long.toString(1_700_000_000_000L + i));
      keys.add(Long.toString(1_700_000_000_000L + i * 1000));
    }
    keys.add(Long.toString(Long.MAX_VALUE));
    keys.add(Long.toString(Long.MIN_VALUE));
    return Collections.unmodifiableList(keys);
  }

  private static double[] zipfCdf(int distinct, double exponent) {
    if (distinct < 1) {
      throw new IllegalArgumentException("distinct was " + distinct + ", must be at least 1");
    }
    if (!(exponent >= 0) || Double.isInfinite(exponent)) {
      throw new IllegalArgumentException("exponent was " + exponent + ", must be >= 0 and finite");
    }
    double[] cdf = new double[distinct];
    double sum = 0;
    for (int i = 0; i < distinct; i++) {
      sum += 1 / Math.pow(i + 1, exponent);
      cdf[i] = sum;
    }
    for (int i = 0; i < distinct; i++) {
      cdf[i] /= sum;
    }
    return cdf;
  }

  private static int zipfRank(double[] cdf, Random random) {
    int i = Arrays.binarySearch(cdf, random.nextDouble());
    return (i >= 0 ? i : Math.min(-i - 1, cdf.length - 1)) + 1;
  }
}
