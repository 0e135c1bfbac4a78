package io.github.routingkit.testkit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.SplittableRandom;

/**
 * Keys that break routers, as seeded {@link Generator}s (plain Java: a {@code Stream}, an
 * {@code Iterator} or a {@code Supplier} of keys, for JUnit's {@code @MethodSource}, QuickTheories
 * or any property-testing library) and as fixed lists for the assertions: the empty key, huge keys, non-ASCII and ill-formed UTF-16 text, strings whose
 * {@code String#hashCode()} is {@link Integer#MIN_VALUE} (on which {@code Math.abs(h) % n} is
 * negative), dense sequential ids, ids with their low digits truncated (timestamps rounded to the
 * second, ids allocated in blocks), Zipf-distributed keys (a few hot keys, a long tail),
 * tenant-prefixed keys and keys drawn from a real sample.
 *
 * <pre>{@code
 * static Stream<String> keys() {
 *   return Stream.concat(Keys.edgeCases().stream(), Keys.routerBreakers().stream(42).limit(1000));
 * }
 *
 * @ParameterizedTest
 * @MethodSource("keys")
 * void staysInRange(String key) { ... }
 * }</pre>
 *
 * <p>Every method returns a new, stateless generator or an immutable list; thread-safe.
 */
public final class Keys {
  /** Strings whose {@code hashCode()} is {@link Integer#MIN_VALUE}, as listed in FACTS. */
  private static final List<String> KNOWN_MIN_VALUE =
      List.of("polygenelubricants", "GydZG_", "DESIGNING WORKHOUSES");

  private Keys() {}

  /** The empty key {@code ""} (a key, not a missing one: clients hash it). */
  public static Generator<String> empty() {
    return random -> "";
  }

  /**
   * Keys of 16 Ki to 256 Ki characters (a random 64-character block repeated), long enough to
   * exercise every tail and block path of a hash.
   */
  public static Generator<String> huge() {
    return random -> {
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
    };
  }

  /**
   * Well-formed non-ASCII text of 1 to 40 code points: Latin-1, Greek, Cyrillic, CJK, combining
   * marks and supplementary-plane emoji (surrogate pairs), so UTF-8 lengths of 1 to 4 bytes occur.
   */
  public static Generator<String> nonAscii() {
    int[][] ranges = {{0xA0, 0xFF}, {0x370, 0x3FF}, {0x400, 0x4FF}, {0x300, 0x36F},
        {0x4E00, 0x9FFF}, {0x1F300, 0x1F64F}, {0x10000, 0x1007F}};
    return random -> {
      int count = 1 + random.nextInt(40);
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < count; i++) {
        int[] r = ranges[random.nextInt(ranges.length)];
        sb.appendCodePoint(r[0] + random.nextInt(r[1] - r[0] + 1));
      }
      return sb.toString();
    };
  }

  /**
   * Text with unpaired surrogates, which has no exact UTF-8 form ({@code getBytes(UTF_8)} writes
   * {@code '?'}), so routers that hash UTF-16 text and routers that hash UTF-8 bytes disagree here.
   */
  public static Generator<String> illFormedUtf16() {
    return random -> {
      StringBuilder sb = new StringBuilder();
      int count = 1 + random.nextInt(8);
      for (int i = 0; i < count; i++) {
        sb.append((char) ('a' + random.nextInt(26)));
        sb.append((char) (random.nextBoolean() ? 0xD800 + random.nextInt(0x400)
            : 0xDC00 + random.nextInt(0x400)));
      }
      return sb.toString();
    };
  }

  /**
   * Strings whose {@code hashCode()} is {@link Integer#MIN_VALUE}: the three well-known ones and
   * generated ones (a random alphanumeric prefix and a 7-character suffix from {@code 'A'..'_'}
   * solved so the hash lands on {@code Integer.MIN_VALUE}).
   */
  public static Generator<String> minValueHashCode() {
    return random -> random.nextBoolean()
        ? KNOWN_MIN_VALUE.get(random.nextInt(KNOWN_MIN_VALUE.size()))
        : withMinValueHashCode(alphanumeric(random, random.nextInt(21)));
  }

  private static String alphanumeric(SplittableRandom random, int length) {
    String alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    StringBuilder sb = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return sb.toString();
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
  public static Generator<String> sequentialIds() {
    return random -> {
      long base = 1_000_000_000L + (long) (random.nextDouble() * 9_000_000_000_000L);
      return Long.toString(base - base % 10_000 + random.nextInt(10_000));
    };
  }

  /**
   * Batches of {@code size} consecutive decimal ids ({@code base, base + 1, ...}), the input on
   * which a hash with poor low-bit mixing piles consecutive ids onto few partitions.
   *
   * @throws IllegalArgumentException if {@code size < 1}
   */
  public static Generator<List<String>> sequentialIdBatches(int size) {
    if (size < 1) {
      throw new IllegalArgumentException("size was " + size + ", must be at least 1");
    }
    return random -> {
      long base = random.nextLong(9_000_000_000_001L);
      List<String> ids = new ArrayList<>(size);
      for (int i = 0; i < size; i++) {
        ids.add(Long.toString(base + i));
      }
      return Collections.unmodifiableList(ids);
    };
  }

  /**
   * Decimal ids whose low 1 to 6 digits are zero (timestamps truncated to the second or minute,
   * ids allocated in blocks of 1000): every key is a multiple of a power of ten.
   */
  public static Generator<String> truncatedLowDigits() {
    return random -> {
      long id = 1_000_000_000_000L + (long) (random.nextDouble() * 8_000_000_000_000L);
      long unit = (long) Math.pow(10, 1 + random.nextInt(6));
      return Long.toString(id - id % unit);
    };
  }

  /**
   * Keys {@code "key-<rank>"} with rank in {@code [1, distinct]} drawn from a Zipf distribution:
   * {@code P(rank) ∝ 1 / rank^exponent} (exponent 1.0: the hottest key takes about
   * {@code 1 / ln(distinct)} of the traffic).
   *
   * @throws IllegalArgumentException if {@code distinct < 1} or {@code exponent} is negative or
   *     not finite
   */
  public static Generator<String> zipf(int distinct, double exponent) {
    double[] cdf = zipfCdf(distinct, exponent);
    return random -> "key-" + zipfRank(cdf, random.nextDouble());
  }

  /**
   * Tenant-prefixed keys {@code "tenant-<t>/<entity>"}: the tenant rank {@code t} in
   * {@code [1, tenants]} is Zipf-distributed with {@code exponent} (a few tenants own most keys, as
   * npm scopes do), the entity a random id in {@code [0, entitiesPerTenant)}.
   *
   * @throws IllegalArgumentException if {@code tenants < 1}, {@code entitiesPerTenant < 1} or the
   *     exponent is negative or not finite
   */
  public static Generator<String> tenantPrefixed(int tenants, double exponent, int entitiesPerTenant) {
    double[] cdf = zipfCdf(tenants, exponent);
    if (entitiesPerTenant < 1) {
      throw new IllegalArgumentException("entitiesPerTenant was " + entitiesPerTenant + ", must be at least 1");
    }
    return random -> "tenant-" + zipfRank(cdf, random.nextDouble()) + "/"
        + random.nextInt(entitiesPerTenant);
  }

  /**
   * Keys drawn uniformly, with replacement, from a real sample (your production keys, or the npm
   * and GeoNames samples under the repository's {@code docs/samples/}).
   *
   * @throws IllegalArgumentException if {@code sample} is empty
   * @throws NullPointerException if {@code sample} is or holds null
   */
  public static Generator<String> sampledFrom(List<String> sample) {
    List<String> copy = List.copyOf(Objects.requireNonNull(sample, "sample"));
    if (copy.isEmpty()) {
      throw new IllegalArgumentException("sample is empty, needs at least one key");
    }
    return random -> copy.get(random.nextInt(copy.size()));
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
      keys.add("key-" + zipfRank(cdf, random.nextDouble()));
    }
    return Collections.unmodifiableList(keys);
  }

  /**
   * Any of the above single-key generators, and any text of up to 64 UTF-16 chars, mixed with
   * weights (huge keys rarely: they are slow to hash). Its values are random; {@link #edgeCases()}
   * lists the keys every test should try first.
   */
  public static Generator<String> routerBreakers() {
    List<Generator<String>> families = List.of(empty(), huge(), nonAscii(), illFormedUtf16(),
        minValueHashCode(), sequentialIds(), truncatedLowDigits(), zipf(1000, 1.0), anyText(64));
    int[] weights = {1, 1, 10, 5, 10, 10, 10, 10, 10};
    int total = 67;
    return random -> {
      int r = random.nextInt(total);
      for (int i = 0; ; i++) {
        r -= weights[i];
        if (r < 0) {
          return families.get(i).next(random);
        }
      }
    };
  }

  /** Text of 0 to {@code maxLength} arbitrary UTF-16 chars (ASCII half the time). */
  private static Generator<String> anyText(int maxLength) {
    return random -> {
      int length = random.nextInt(maxLength + 1);
      StringBuilder sb = new StringBuilder(length);
      for (int i = 0; i < length; i++) {
        sb.append(random.nextBoolean() ? (char) (' ' + random.nextInt(95)) : (char) random.nextInt(0x10000));
      }
      return sb.toString();
    };
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

  private static int zipfRank(double[] cdf, double uniform) {
    int i = Arrays.binarySearch(cdf, uniform);
    return (i >= 0 ? i : Math.min(-i - 1, cdf.length - 1)) + 1;
  }
}
