package io.github.routingkit.testkit;

import io.github.routingkit.KeyRouter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.opentest4j.AssertionFailedError;

/**
 * Fluent assertions on a {@link KeyRouter}; obtain one with {@link RoutingAssertions#assertThat}.
 *
 * <p>The checks that take no key set use the <em>probe keys</em>: {@link Keys#edgeCases()} plus
 * 2,000 Zipf keys, 1,000 sequential ids and 500 ids with truncated low digits (reproducible; change
 * them with {@link #usingKeys}), and the <em>probe partition counts</em> 1, 2, 3, 5, 7, 8, 12, 16,
 * 24, 25, 31, 64, 100, 127, 1000 (change them with {@link #usingPartitionCounts}). Every failure
 * is an {@link AssertionFailedError} naming the key, the partition count and the partitions.
 *
 * <p>Not thread-safe: use one instance per test.
 */
public final class RouterAssert {
  private static final int[] DEFAULT_COUNTS = {1, 2, 3, 5, 7, 8, 12, 16, 24, 25, 31, 64, 100, 127, 1000};
  private static final int THREADS = 4;
  private static final int ROUNDS = 3;

  private final KeyRouter router;
  private List<String> keys;
  private int[] counts = DEFAULT_COUNTS;

  RouterAssert(KeyRouter router) {
    this.router = Objects.requireNonNull(router, "router");
  }

  /** Returns the default probe keys (see the class comment); a new, unmodifiable list. */
  public static List<String> probeKeys() {
    List<String> keys = new ArrayList<>(Keys.edgeCases());
    keys.addAll(Keys.zipfSample(2000, 5000, 1.0, 7));
    for (int i = 0; i < 1000; i++) {
      keys.add(Long.toString(4_200_000_000L + i));
    }
    for (int i = 0; i < 500; i++) {
      keys.add(Long.toString(1_700_000_000_000L + i * 1000L));
    }
    return Collections.unmodifiableList(keys);
  }

  /**
   * Replaces the probe keys used by the checks without a key argument.
   *
   * @throws IllegalArgumentException if {@code probe} is empty
   * @throws NullPointerException if {@code probe} or a key is null
   */
  public RouterAssert usingKeys(Collection<String> probe) {
    if (probe.isEmpty()) {
      throw new IllegalArgumentException("probe keys were empty, must hold at least one key");
    }
    List<String> copy = new ArrayList<>(probe.size());
    for (String k : probe) {
      copy.add(Objects.requireNonNull(k, "probe key"));
    }
    this.keys = copy;
    return this;
  }

  /**
   * Replaces the probe partition counts.
   *
   * @throws IllegalArgumentException if none is given or one is below 1
   */
  public RouterAssert usingPartitionCounts(int... partitionCounts) {
    if (partitionCounts.length == 0) {
      throw new IllegalArgumentException("partition counts were empty");
    }
    for (int n : partitionCounts) {
      if (n < 1) {
        throw new IllegalArgumentException("partition count was " + n + ", must be at least 1");
      }
    }
    this.counts = partitionCounts.clone();
    return this;
  }

  /**
   * Asserts that routing is a pure function of the key: for every probe key and count, two calls
   * give the same partition, and the {@code byte[]}, offset-range and {@code CharSequence} forms
   * agree for keys that are well-formed UTF-16 (ill-formed text has no exact UTF-8 form).
   */
  public RouterAssert isDeterministic() {
    for (String key : keys()) {
      byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
      byte[] padded = new byte[bytes.length + 6];
      System.arraycopy(bytes, 0, padded, 3, bytes.length);
      boolean wellFormed = isWellFormed(key);
      for (int n : counts) {
        int first = router.partition(key, n);
        int second = router.partition(key, n);
        if (first != second) {
          fail("not deterministic: key " + describe(key) + " with " + n
              + " partitions went to partition " + first + ", then to " + second);
        }
        int b1 = router.partition(bytes, n);
        int b2 = router.partition(bytes.clone(), n);
        if (b1 != b2) {
          fail("not deterministic: the UTF-8 bytes of key " + describe(key) + " with " + n
              + " partitions went to partition " + b1 + ", then to " + b2);
        }
        int ranged = router.partition(padded, 3, bytes.length, n);
        if (ranged != b1) {
          fail("byte ranges disagree: key " + describe(key) + " with " + n + " partitions: as a"
              + " whole array partition " + b1 + ", as a range of a larger array partition " + ranged);
        }
        if (wellFormed && first != b1) {
          fail("String and UTF-8 bytes disagree: key " + describe(key) + " with " + n
              + " partitions: as text partition " + first + ", as bytes partition " + b1);
        }
      }
    }
    return this;
  }

  /**
   * Asserts that for every partition count from 1 to {@code maxPartitions} and every probe key,
   * keyed routing (text and UTF-8 bytes) and keyless routing ({@code null} key) return a partition
   * in {@code [0, n)} without throwing, and that a count below 1 is rejected with an
   * {@link IllegalArgumentException}. Any other exception a probe throws (an
   * {@code ArithmeticException} of a router dividing by 0 partitions included) fails the assertion
   * with that probe ("... threw ... for numPartitions=0") and the exception as its cause.
   *
   * @throws IllegalArgumentException if {@code maxPartitions < 1}
   */
  public RouterAssert staysInRange(int maxPartitions) {
    if (maxPartitions < 1) {
      throw new IllegalArgumentException("maxPartitions was " + maxPartitions + ", must be >= 1");
    }
    List<String> probe = keys();
    List<byte[]> bytes = new ArrayList<>(probe.size());
    for (String k : probe) {
      bytes.add(k.getBytes(StandardCharsets.UTF_8));
    }
    for (int n = 1; n <= maxPartitions; n++) {
      for (int i = 0; i < probe.size(); i++) {
        int p = routeOrFail(probe.get(i), n);
        if (p < 0 || p >= n) {
          fail("out of range: key " + describe(probe.get(i)) + " with " + n
              + " partitions went to partition " + p + ", must be in [0, " + n + ")");
        }
        try {
          p = router.partition(bytes.get(i), n);
        } catch (RuntimeException e) {
          throw new AssertionFailedError(router + " threw " + e + " for the UTF-8 bytes of key "
              + describe(probe.get(i)) + " with " + n + " partitions", e);
        }
        if (p < 0 || p >= n) {
          fail("out of range: the UTF-8 bytes of key " + describe(probe.get(i)) + " with " + n
              + " partitions went to partition " + p + ", must be in [0, " + n + ")");
        }
      }
      for (int i = 0; i < 3; i++) {
        int p;
        try {
          p = router.partition((byte[]) null, n);
        } catch (RuntimeException e) {
          throw new AssertionFailedError(router + " threw " + e + " for a keyless message (null"
              + " key) with " + n + " partitions, must route it by its keyless policy", e);
        }
        if (p < 0 || p >= n) {
          fail("out of range: a keyless message with " + n + " partitions went to partition " + p);
        }
      }
    }
    for (int bad : new int[] {0, -1, Integer.MIN_VALUE}) {
      try {
        int p = router.partition("key", bad);
        fail("accepted " + bad + " partitions: key 'key' went to partition " + p
            + ", must throw IllegalArgumentException");
      } catch (IllegalArgumentException expected) {
        // the contract
      } catch (RuntimeException e) {
        throw new AssertionFailedError(router + " threw " + e + " for numPartitions=" + bad
            + " (key 'key'), must throw IllegalArgumentException", e);
      }
    }
    return this;
  }

  /**
   * Asserts that {@value #THREADS} threads routing the probe keys at the same time, {@value #ROUNDS}
   * rounds each, get exactly what one thread gets in every round. A race shows up only when the
   * threads happen to interleave, so a pass is evidence, not proof.
   */
  public RouterAssert isThreadSafe() {
    List<String> probe = keys();
    int[][] expected = route(router, probe);
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<List<int[][]>>> results = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        results.add(pool.submit(() -> {
          start.await();
          List<int[][]> rounds = new ArrayList<>(ROUNDS);
          for (int round = 0; round < ROUNDS; round++) {
            rounds.add(route(router, probe));
          }
          return rounds;
        }));
      }
      start.countDown();
      for (Future<List<int[][]>> f : results) {
        for (int[][] got : f.get(5, TimeUnit.MINUTES)) { // every round: a race in any one counts
          compare(expected, got, probe, "under " + THREADS + " concurrent threads");
        }
      }
    } catch (java.util.concurrent.ExecutionException e) {
      throw new AssertionFailedError("router threw under concurrent use: " + e.getCause(), e.getCause());
    } catch (java.util.concurrent.TimeoutException | InterruptedException e) {
      throw new AssertionFailedError("router did not finish under concurrent use: " + e, e);
    } finally {
      pool.shutdownNow();
    }
    return this;
  }

  /**
   * Asserts that the router survives Java serialization and that the copy routes every probe key
   * exactly as the original.
   */
  public RouterAssert survivesSerialization() {
    KeyRouter copy;
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
        out.writeObject(router);
      }
      try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
        copy = (KeyRouter) in.readObject();
      }
    } catch (IOException | ClassNotFoundException | ClassCastException e) {
      throw new AssertionFailedError("serialization round trip of " + router + " failed: " + e, e);
    }
    compare(route(router, keys()), route(copy, keys()), keys(), "after a serialization round trip");
    return this;
  }

  /**
   * Asserts that the router puts every probe key on the same partition as {@code reference}, for
   * every probe partition count (as text and as UTF-8 bytes).
   *
   * @throws NullPointerException if {@code reference} is null
   */
  public RouterAssert agreesWith(KeyRouter reference) {
    Objects.requireNonNull(reference, "reference");
    for (String key : keys()) {
      byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
      for (int n : counts) {
        int ours = router.partition(bytes, n);
        int theirs = reference.partition(bytes, n);
        if (ours != theirs) {
          fail("disagrees with " + reference + ": key " + describe(key) + " with " + n
              + " partitions went to partition " + ours + ", the reference picks " + theirs);
        }
      }
    }
    return this;
  }

  /**
   * Asserts that {@code keys} (each one message) spread over {@code numPartitions} partitions with
   * max/mean at most {@code maxOverMean}; the failure message is the whole
   * {@link DistributionReport}, hottest partition and keys included.
   *
   * @throws IllegalArgumentException if {@code numPartitions < 1} or {@code maxOverMean < 1}
   */
  public RouterAssert isBalancedOn(Iterable<? extends CharSequence> keys, int numPartitions,
      double maxOverMean) {
    if (!(maxOverMean >= 1)) {
      throw new IllegalArgumentException("maxOverMean was " + maxOverMean + ", must be >= 1");
    }
    DistributionReport report = DistributionReport.of(router, numPartitions, keys);
    if (report.maxOverMean() > maxOverMean) {
      fail("not balanced: max/mean " + Text.dec(report.maxOverMean(), 4) + " exceeds "
          + maxOverMean + " on " + numPartitions + " partitions; partition "
          + report.statistics().hottestPartition() + " holds " + report.statistics().max()
          + " of " + report.messages() + " messages\n" + report.toText());
    }
    return this;
  }

  /**
   * Asserts {@link #isBalancedOn(Iterable, int, double)} at 24 partitions.
   */
  public RouterAssert isBalancedOn(Iterable<? extends CharSequence> keys, double maxOverMean) {
    return isBalancedOn(keys, 24, maxOverMean);
  }

  /**
   * Asserts that going from {@code fromPartitions} to {@code toPartitions} moves at most
   * {@code fraction} of {@code keys} (each one message); the failure names moved keys and the
   * {@code (m − n) / m} minimum.
   *
   * @throws IllegalArgumentException if a count is below 1 or {@code fraction} is outside [0, 1]
   */
  public RouterAssert movesAtMost(double fraction, int fromPartitions, int toPartitions,
      Iterable<? extends CharSequence> keys) {
    if (!(fraction >= 0 && fraction <= 1)) {
      throw new IllegalArgumentException("fraction was " + fraction + ", must be in [0, 1]");
    }
    ResizeReport report = ResizeReport.builder(fromPartitions, toPartitions)
        .router(router.toString(), router).addAll(keys).build();
    ResizeReport.Row row = report.rows().get(0);
    if (row.movedFraction() > fraction) {
      StringBuilder examples = new StringBuilder();
      int shown = 0;
      for (CharSequence key : keys) {
        int a = router.partition(key, fromPartitions);
        int b = router.partition(key, toPartitions);
        if (a != b) {
          examples.append("\n  key ").append(describe(key.toString())).append(": partition ")
              .append(a).append(" -> ").append(b);
          if (++shown == 5) {
            break;
          }
        }
      }
      fail("moves too much: " + fromPartitions + " -> " + toPartitions + " partitions moved "
          + Text.pct(row.movedFraction()) + " of " + row.total() + " keys, at most "
          + Text.pct(fraction) + " allowed (the minimum a balanced scheme must move of uniform"
          + " keys is "
          + Text.pct(report.minimumFraction()) + "); for example:" + examples);
    }
    return this;
  }

  /**
   * Asserts tenant isolation on {@code numPartitions} partitions: every key of an exclusive tenant
   * lands in that tenant's partitions, and no key of any other tenant lands in them.
   *
   * @param keys the key sample
   * @param numPartitions the partition count
   * @param tenantOf the tenant of a key (e.g. its prefix); may return null for keys without one
   * @param exclusivePartitions each exclusive tenant's partitions
   * @throws IllegalArgumentException if {@code numPartitions < 1} or two tenants claim a partition
   * @throws NullPointerException if an argument is null
   */
  public RouterAssert isolatesTenants(Iterable<? extends CharSequence> keys, int numPartitions,
      Function<? super String, String> tenantOf, Map<String, ? extends Set<Integer>> exclusivePartitions) {
    if (numPartitions < 1) {
      throw new IllegalArgumentException("numPartitions was " + numPartitions + ", must be >= 1");
    }
    String[] owner = new String[numPartitions];
    for (Map.Entry<String, ? extends Set<Integer>> e : exclusivePartitions.entrySet()) {
      for (int p : e.getValue()) {
        if (p < 0 || p >= numPartitions) {
          throw new IllegalArgumentException("tenant " + e.getKey() + " claims partition " + p
              + ", outside [0, " + numPartitions + ")");
        }
        if (owner[p] != null) {
          throw new IllegalArgumentException("partition " + p + " is claimed by tenants "
              + owner[p] + " and " + e.getKey());
        }
        owner[p] = e.getKey();
      }
    }
    for (CharSequence k : keys) {
      String key = k.toString();
      String tenant = tenantOf.apply(key);
      int p = router.partition(key, numPartitions);
      Set<Integer> own = tenant == null ? null : exclusivePartitions.get(tenant);
      if (own != null && !own.contains(p)) {
        fail("tenant not isolated: key " + describe(key) + " of exclusive tenant " + tenant
            + " went to partition " + p + " with " + numPartitions + " partitions, outside its "
            + new java.util.TreeSet<>(own));
      }
      if (own == null && owner[p] != null) {
        fail("tenant not isolated: key " + describe(key) + " of tenant " + tenant + " went to"
            + " partition " + p + " with " + numPartitions + " partitions, which is exclusive to "
            + owner[p]);
      }
    }
    return this;
  }

  private int routeOrFail(String key, int n) {
    try {
      return router.partition(key, n);
    } catch (RuntimeException e) {
      throw new AssertionFailedError(router + " threw " + e + " for key " + describe(key)
          + " with " + n + " partitions", e);
    }
  }

  private List<String> keys() {
    if (keys == null) {
      keys = probeKeys();
    }
    return keys;
  }

  private int[][] route(KeyRouter r, List<String> probe) {
    int[][] out = new int[probe.size()][counts.length];
    for (int i = 0; i < probe.size(); i++) {
      for (int j = 0; j < counts.length; j++) {
        out[i][j] = r.partition(probe.get(i), counts[j]);
      }
    }
    return out;
  }

  private void compare(int[][] expected, int[][] got, List<String> probe, String when) {
    for (int i = 0; i < expected.length; i++) {
      if (!Arrays.equals(expected[i], got[i])) {
        for (int j = 0; j < counts.length; j++) {
          if (expected[i][j] != got[i][j]) {
            fail("changed " + when + ": key " + describe(probe.get(i)) + " with " + counts[j]
                + " partitions went to partition " + got[i][j] + ", expected "
                + expected[i][j]);
          }
        }
      }
    }
  }

  private static boolean isWellFormed(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c)) {
        if (i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1))) {
          return false;
        }
        i++;
      } else if (Character.isLowSurrogate(c)) {
        return false;
      }
    }
    return true;
  }

  private String describe(String key) {
    return Text.shortKey(key);
  }

  private void fail(String message) {
    throw new AssertionFailedError(router + " " + message);
  }
}
