package io.github.routingkit.testkit;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.stats.LoadStatistics;
import io.github.routingkit.stats.PerfectHashBound;
import io.github.routingkit.stats.SkewVerdict;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How a router spreads a key sample over {@code n} partitions, and what to do about it: the
 * per-partition message counts, max/mean, coefficient of variation, Pearson's &chi;&sup2; with its
 * p-value, the hottest keys' shares, and a {@link SkewVerdict} that compares max/mean with what a
 * perfect hash reaches ({@link PerfectHashBound}), so that a small sample is not flagged for the
 * unevenness any hash shows on few keys.
 *
 * <p>Each added key is one message; repeated keys add weight. Two perfect-hash bounds are
 * reported: {@link #samplingP99()} for a sample of this many messages with all keys distinct (the
 * most unevenness chance alone explains at this sample size: the verdict's first test), and
 * {@link #perfectHashExpected()} / {@link #perfectHashP99()} for these very keys and weights, via
 * the effective number of keys {@code (Σw)² / Σw²} (equal to the distinct count when every key
 * occurs equally often): when max/mean is within that, a perfect hash would do no better, and the
 * keys, not the hash, cause the skew. Distinct keys are counted exactly up to
 * {@link Builder#exactKeyLimit(int)} (default: up to 2,000,000, less on small heaps), then estimated by bounded sketches
 * ({@link #distinctKeysExact()} tells which), so memory stays flat for any input size.
 *
 * <p>Verdicts, by max/mean {@code r}: {@link SkewVerdict#WITHIN_PERFECT_HASH_BOUND} when {@code r} is
 * at most {@link #samplingP99()}; otherwise {@link SkewVerdict#SUSPECT_ROUTER} when {@code r >= 1.1}
 * although the keys would spread well ({@link #effectiveKeys()} at least
 * {@value #ROUTER_KEYS_PER_PARTITION} per partition, and {@code r} more than
 * {@value #ROUTER_MARGIN} times both {@link #perfectHashP99()} and {@link #hotKeyFloor()}: neither
 * chance nor the hottest key explains it, the router does); otherwise
 * {@link SkewVerdict#FIX_KEY_DESIGN} above 1.5, {@link SkewVerdict#KEEP_HEADROOM} from 1.1 to 1.5,
 * {@link SkewVerdict#BALANCED} below 1.1.
 *
 * <p>Immutable and thread-safe once built; the {@link Builder} is not thread-safe.
 */
public final class DistributionReport {

  /**
   * Effective keys per partition from which a skew the keys do not explain is blamed on the router
   * ({@link SkewVerdict#ROUTER_KEYS_PER_PARTITION}).
   */
  public static final int ROUTER_KEYS_PER_PARTITION = SkewVerdict.ROUTER_KEYS_PER_PARTITION;
  /**
   * How far above the keys' own bound (perfect-hash p99, hot-key floor) blames the router
   * ({@link SkewVerdict#ROUTER_MARGIN}).
   */
  public static final double ROUTER_MARGIN = SkewVerdict.ROUTER_MARGIN;

  /**
   * One of the hottest keys.
   */
  public static final class KeyShare extends ComponentValue {
    private final String key;
    private final long count;
    private final double share;
    private final int partition;
    private final boolean exact;

    /**
     * Creates the value.
     *
     * @param key the key
     * @param count its messages in the sample; exact, or a lower bound when {@code exact} is false
     * @param share {@code count / messages}, in [0, 1]
     * @param partition where the router puts it, in [0, n); in an {@linkplain #observedBuilder
     *     observed} report the partition it was last seen on, or -1 when the report no longer
     *     tracked it (only the {@value Builder#OBSERVED_TRACKED} most recently seen keys are)
     * @param exact whether {@code count} is exact
     */
    public KeyShare(String key, long count, double share, int partition, boolean exact) {
      this.key = key;
      this.count = count;
      this.share = share;
      this.partition = partition;
      this.exact = exact;
    }

    /** Returns the key. */
    public String key() {
      return key;
    }

    /** Returns its messages in the sample; exact, or a lower bound when {@code exact} is false. */
    public long count() {
      return count;
    }

    /** Returns {@code count / messages}, in [0, 1]. */
    public double share() {
      return share;
    }

    /**
     * Returns where the router puts it, in [0, n); in an {@linkplain #observedBuilder observed}
     * report the partition it was last seen on, or -1 when the report no longer tracked it (only
     * the {@value Builder#OBSERVED_TRACKED} most recently seen keys are).
     */
    public int partition() {
      return partition;
    }

    /** Returns whether {@code count} is exact. */
    public boolean exact() {
      return exact;
    }

    @Override
    Object[] components() {
      return new Object[] {
          "key", key, "count", count, "share", share, "partition", partition, "exact", exact};
    }
  }

  private static final double P99 = 0.99;

  private final String router;
  private final LoadStatistics statistics;
  private final long distinctKeys;
  private final boolean distinctKeysExact;
  private final double effectiveKeys;
  private final double perfectHashExpected;
  private final double perfectHashP99;
  private final double samplingP99;
  private final List<KeyShare> topKeys;
  private final SkewVerdict verdict;
  private final String advice;

  private DistributionReport(Builder b) {
    this.router = b.router == null ? b.source : b.router.toString();
    this.statistics = LoadStatistics.of(b.counts);
    this.distinctKeys = b.tally.distinct();
    this.distinctKeysExact = b.tally.isExact();
    long messages = statistics.total();
    int n = statistics.partitions();
    List<KeyShare> top = new ArrayList<>();
    for (Map.Entry<String, Long> e : b.tally.top(b.topK)) {
      int partition = b.router == null ? b.lastSeen.getOrDefault(e.getKey(), -1)
          : b.router.partition(e.getKey(), n);
      top.add(new KeyShare(e.getKey(), e.getValue(), (double) e.getValue() / messages,
          partition, distinctKeysExact));
    }
    this.topKeys = Collections.unmodifiableList(top);
    if (messages == 0) {
      this.effectiveKeys = 0;
      this.perfectHashExpected = 1;
      this.perfectHashP99 = 1;
      this.samplingP99 = 1;
    } else {
      this.samplingP99 = PerfectHashBound.maxOverMeanQuantile(messages, n, P99);
      this.effectiveKeys = PerfectHashBound.effectiveKeys(messages, b.tally.sumOfSquares());
      this.perfectHashExpected = PerfectHashBound.expectedMaxOverMean(effectiveKeys, n);
      this.perfectHashP99 = PerfectHashBound.maxOverMeanQuantile(effectiveKeys, n, P99);
    }
    verdict = SkewVerdict.of(statistics.maxOverMean(), samplingP99, effectiveKeys, perfectHashP99,
        hotKeyFloorOf(top, n), n);
    this.advice = SkewAdvice.of(this);
  }

  /** The most partitions a report counts (2^20, as the layered routers): per-partition tables. */
  public static final int MAX_PARTITIONS = 1 << 20;

  /**
   * Returns a builder that routes keys with {@code router} over {@code numPartitions} partitions.
   *
   * @throws IllegalArgumentException if {@code numPartitions} is outside [1, {@value #MAX_PARTITIONS}]
   * @throws NullPointerException if {@code router} is null
   */
  public static Builder builder(KeyRouter router, int numPartitions) {
    return new Builder(Objects.requireNonNull(router, "router"), null, numPartitions);
  }

  /**
   * Returns a builder for keys whose partitions were observed rather than computed: messages read
   * from a live topic, each added with {@link Builder#add(CharSequence, int, long)} on the
   * partition it was read from. The statistics and the verdict are those of a routed report; the
   * hottest keys carry the partition they were last seen on.
   *
   * @param source what placed the keys, shown where a routed report shows its router (for
   *     example {@code "observed: kafka topic orders"})
   * @throws IllegalArgumentException if {@code numPartitions} is outside [1, {@value #MAX_PARTITIONS}]
   * @throws NullPointerException if {@code source} is null
   */
  public static Builder observedBuilder(String source, int numPartitions) {
    return new Builder(null, Objects.requireNonNull(source, "source"), numPartitions);
  }

  /**
   * Returns the report of {@code keys} (each element one message) routed by {@code router} over
   * {@code numPartitions} partitions.
   *
   * @throws IllegalArgumentException if {@code numPartitions < 1}
   * @throws NullPointerException if an argument or a key is null
   */
  public static DistributionReport of(
      KeyRouter router, int numPartitions, Iterable<? extends CharSequence> keys) {
    Builder b = builder(router, numPartitions);
    for (CharSequence key : keys) {
      b.add(key);
    }
    return b.build();
  }

  /** Returns the router's {@code toString()}. */
  public String router() {
    return router;
  }

  /** Returns the partition count, at least 1. */
  public int partitions() {
    return statistics.partitions();
  }

  /** Returns the per-partition statistics (counts, max/mean, CV, &chi;&sup2;, p-value). */
  public LoadStatistics statistics() {
    return statistics;
  }

  /** Returns the number of messages (added keys, with repeats). */
  public long messages() {
    return statistics.total();
  }

  /** Returns the max/mean of the partition loads: 1.0 is perfect, {@code n} is one hot partition. */
  public double maxOverMean() {
    return statistics.maxOverMean();
  }

  /** Returns the number of distinct keys; an estimate (about 0.8 % error) if not exact. */
  public long distinctKeys() {
    return distinctKeys;
  }

  /** Returns whether {@link #distinctKeys()} and the top keys' counts are exact. */
  public boolean distinctKeysExact() {
    return distinctKeysExact;
  }

  /** Returns Kish's effective number of keys {@code (Σw)² / Σw²}; 0 for an empty sample. */
  public double effectiveKeys() {
    return effectiveKeys;
  }

  /** Returns the expected max/mean of a perfect hash of {@link #effectiveKeys()} keys. */
  public double perfectHashExpected() {
    return perfectHashExpected;
  }

  /** Returns the 99th percentile of the max/mean of a perfect hash of {@link #effectiveKeys()}. */
  public double perfectHashP99() {
    return perfectHashP99;
  }

  /**
   * Returns the 99th percentile of the max/mean of a perfect hash of {@link #messages()} distinct
   * keys: the most unevenness chance alone explains in a sample of this size (1.0 if empty).
   */
  public double samplingP99() {
    return samplingP99;
  }

  /**
   * Returns {@code max(1, n · p₁)}, the max/mean no key-preserving router can beat because the
   * hottest key alone carries share {@code p₁}.
   */
  public double hotKeyFloor() {
    return hotKeyFloorOf(topKeys, partitions());
  }

  private static double hotKeyFloorOf(List<KeyShare> top, int n) {
    return top.isEmpty() ? 1 : PerfectHashBound.hotKeyFloor(top.get(0).share(), n);
  }

  /** Returns the hottest keys, hottest first (at most {@link Builder#topK(int)}). */
  public List<KeyShare> topKeys() {
    return topKeys;
  }

  /** Returns the verdict. */
  public SkewVerdict verdict() {
    return verdict;
  }

  /** Returns the verdict explained in one or two sentences, with the numbers behind it. */
  public String advice() {
    return advice;
  }

  /** Returns a human-readable report: summary, per-partition table with bars, hottest keys. */
  public String toText() {
    return DistributionReportFormat.text(this, topKeys.size());
  }

  /**
   * Returns {@link #toText()} listing at most {@code keys} of the {@link #topKeys()}.
   *
   * @throws IllegalArgumentException if {@code keys} is negative
   */
  public String toText(int keys) {
    if (keys < 0) {
      throw new IllegalArgumentException("keys was " + keys + ", must be >= 0");
    }
    return DistributionReportFormat.text(this, keys);
  }

  /**
   * Returns the per-partition table as CSV: {@code partition,messages,share,ratio_to_mean}. Each
   * ratio is one division, {@code count * partitions / messages}, so it prints as the shortest
   * decimal of the exact quotient ({@code 0.9765}, not {@code count / mean}'s
   * {@code 0.9764999999999999}).
   */
  public String toCsv() {
    return DistributionReportFormat.csv(this);
  }

  /** Returns the whole report as one JSON object (UTF-8 text, keys in a fixed order). */
  public String toJson() {
    return DistributionReportFormat.json(this);
  }

  @Override
  public String toString() {
    return toText();
  }

  /** Accumulates keys for a {@link DistributionReport}; not thread-safe. */
  public static final class Builder {
    /** How many recently seen keys an observed builder remembers the partition of. */
    public static final int OBSERVED_TRACKED = 65_536;
    private final KeyRouter router;
    private final String source;
    private final Map<String, Integer> lastSeen;
    private final long[] counts;
    private int topK = 10;
    private int exactKeyLimit = defaultExactKeyLimit();
    private int heavyHitters = 10_000;
    private KeyTally tally;

    private Builder(KeyRouter router, String source, int numPartitions) {
      this.router = router;
      this.source = source;
      this.lastSeen = router != null ? null
          : new java.util.LinkedHashMap<String, Integer>(1024, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Integer> eldest) {
              return size() > OBSERVED_TRACKED;
            }
          };
      if (numPartitions < 1 || numPartitions > MAX_PARTITIONS) {
        throw new IllegalArgumentException("numPartitions was " + numPartitions
            + ", must be in [1, " + MAX_PARTITIONS + "]");
      }
      this.counts = new long[numPartitions];
    }

    /**
     * Sets how many of the hottest keys the report lists (default 10).
     *
     * @throws IllegalArgumentException if {@code k < 0}
     * @throws IllegalStateException after the first key was added
     */
    public Builder topK(int k) {
      if (k < 0) {
        throw new IllegalArgumentException("topK was " + k + ", must be >= 0");
      }
      checkNotStarted();
      this.topK = k;
      return this;
    }

    /**
     * Returns the default of {@link #exactKeyLimit(int)}: one distinct key per 512 bytes of the
     * JVM's maximum heap, between 10,000 and 2,000,000 (a short key costs about 130 bytes counted
     * exactly, so exact counting takes at most about a quarter of the heap).
     */
    public static int defaultExactKeyLimit() {
      long byHeap = Runtime.getRuntime().maxMemory() / 512;
      return (int) Math.max(10_000, Math.min(2_000_000, byHeap));
    }

    /**
     * Sets how many distinct keys are counted exactly before switching to bounded sketches
     * (default {@link #defaultExactKeyLimit()}).
     *
     * @throws IllegalArgumentException if {@code limit < 1}
     * @throws IllegalStateException after the first key was added
     */
    public Builder exactKeyLimit(int limit) {
      if (limit < 1) {
        throw new IllegalArgumentException("exactKeyLimit was " + limit + ", must be at least 1");
      }
      checkNotStarted();
      this.exactKeyLimit = limit;
      return this;
    }

    /**
     * Adds one message with key {@code key}, routed as {@link KeyRouter#partition(CharSequence,
     * int)} routes it.
     *
     * @throws NullPointerException if {@code key} is null (keyless messages are not keyed routing)
     */
    public Builder add(CharSequence key) {
      return add(key, 1);
    }

    /**
     * Adds {@code count} messages with key {@code key}.
     *
     * @throws IllegalArgumentException if {@code count < 1}
     * @throws IllegalStateException on an {@linkplain DistributionReport#observedBuilder observed}
     *     builder, which has no router to place the key
     * @throws NullPointerException if {@code key} is null
     */
    public Builder add(CharSequence key, long count) {
      Objects.requireNonNull(key, "key");
      if (router == null) {
        throw new IllegalStateException("an observed builder takes the partition of each key:"
            + " use add(key, partition, count)");
      }
      if (tally == null) {
        tally = new KeyTally(exactKeyLimit, heavyHitters);
      }
      tally.add(key.toString(), count);
      counts[router.partition(key, counts.length)] += count;
      return this;
    }

    /**
     * Adds {@code count} messages with key {@code key} that were read from {@code partition}
     * (observed placement: the router is not asked).
     *
     * @throws IllegalArgumentException if {@code count < 1} or {@code partition} is outside
     *     [0, numPartitions)
     * @throws IllegalStateException on a builder made with a router ({@link
     *     DistributionReport#builder}), whose partitions are computed
     * @throws NullPointerException if {@code key} is null
     */
    public Builder add(CharSequence key, int partition, long count) {
      Objects.requireNonNull(key, "key");
      if (router != null) {
        throw new IllegalStateException("a routed builder computes each key's partition:"
            + " use add(key, count), or observedBuilder for observed partitions");
      }
      if (partition < 0 || partition >= counts.length) {
        throw new IllegalArgumentException("partition was " + partition + ", must be in [0, "
            + counts.length + ")");
      }
      if (count < 1) {
        throw new IllegalArgumentException("count was " + count + ", must be at least 1");
      }
      if (tally == null) {
        tally = new KeyTally(exactKeyLimit, heavyHitters);
      }
      String k = key.toString();
      tally.add(k, count);
      lastSeen.put(k, partition);
      counts[partition] += count;
      return this;
    }

    /** Returns the report of the keys added so far; the builder may keep accumulating. */
    public DistributionReport build() {
      if (tally == null) {
        tally = new KeyTally(exactKeyLimit, heavyHitters);
      }
      return new DistributionReport(this);
    }

    private void checkNotStarted() {
      if (tally != null) {
        throw new IllegalStateException("set options before adding the first key");
      }
    }
  }
}
