package io.github.routingkit.router.hotkey;

import io.github.routingkit.AbstractKeyRouter;
import io.github.routingkit.KeyRouter;
import io.github.routingkit.KeylessPolicy;
import io.github.routingkit.RoutingConfigException;
import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.internal.Bytes;
import io.github.routingkit.internal.Partitions;
import io.github.routingkit.router.segment.SegmentRouter;

import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Spreads hot keys over several partitions and leaves every other key where the inner router puts
 * it: the answer to one key carrying a large share of the traffic, which any router that keeps a
 * key on one partition cannot balance (its partition gets at least that share).
 *
 * <h2>Which keys are hot</h2>
 * <ul>
 *   <li><b>Configured</b> keys ({@code routing.hotkey.keys}), matched by their UTF-8 bytes.</li>
 *   <li><b>Detected</b> keys ({@code routing.hotkey.detect=true}): a Space-Saving heavy-hitter
 *       summary over 64-bit key fingerprints with a decaying window reports the keys whose share
 *       of recent messages is at least {@code routing.hotkey.threshold}. Memory is fixed at
 *       construction and capped by {@code routing.hotkey.memory} (default 65536 bytes: 1024
 *       counters, 41,120 bytes); {@link #detectorMemoryBytes()} reports it. Error: a count is
 *       over-estimated by at most {@code N / counters} ({@code N} the decayed message count), a key
 *       is reported only if its guaranteed share of the counted messages reaches the threshold (a
 *       key whose share of the counted messages is below the threshold is never reported) and any
 *       key whose share exceeds {@code threshold + 1/counters} is, after a warm-up of
 *       {@code 100 / threshold} messages (so that noise in a short prefix does not make a key
 *       hot). Counts halve every
 *       {@code routing.hotkey.window} messages, so a key that cools down stops being hot.</li>
 *   <li><b>Sampled detection</b> ({@code routing.hotkey.sample = s}, a power of two, default 1):
 *       the summary counts one message in {@code s} on average, picked by a per-stripe xorshift
 *       generator (pseudo-random, so no periodic key pattern aliases with it; deterministic for
 *       one thread), and a message that is not counted is checked against the hot set through a
 *       1024-bit filter over its length and its first and last 8 bytes, so most cold keys cost
 *       no fingerprint at all. The bounds above then hold for the counted messages; a key's share
 *       of them is its true share up to binomial noise (standard deviation
 *       {@code sqrt(share / counted)}). The window stays in real messages (the summary halves
 *       every {@code window / s} counted ones, which must be at least {@code 200 / threshold}, so
 *       {@code window >= 200 * s / threshold}); the warm-up of {@code 100 / threshold} is in
 *       counted messages, {@code s} times as many real ones, so a key becomes hot about {@code s}
 *       times later than with exact counting.
 *       That is the trade: cheaper detection on keys that are not hot, slower reaction to a key that
 *       turns hot (routing-benchmarks' StrategyBenchmark; figures in docs/performance.md).</li>
 * </ul>
 *
 * <h2>Where a hot key goes</h2>
 * A hot key has {@code d} candidate partitions ({@code routing.hotkey.candidates}, 2 to
 * {@code all}) derived from the key alone: the first is the partition the inner router gives it,
 * the others step from there by a key-derived stride coprime with the partition count, so they are
 * distinct and deterministic. Each message picks one candidate by
 * <ul>
 *   <li>{@code least-loaded} (default): the candidate to which this router has sent the fewest
 *       messages from the calling thread's stripe (all messages, hot or not, are counted per
 *       partition: power of d choices; see State for the stripes);</li>
 *   <li>{@code round-robin}: the next candidate in a cycle of the router (per stripe);</li>
 *   <li>{@code value-hash}: the candidate at {@code murmur2(value) mod d}, a pure function of key and
 *       value (a transactional producer that retries a record gets the same partition); a
 *       {@code null} value takes the first candidate. Needs
 *       {@link #partition(byte[], byte[], int)}, which the RoutingKit adapters call.</li>
 * </ul>
 *
 * <h2>Guarantees and what it gives up</h2>
 * A key that is never hot keeps exactly the inner router's partition, with its per-key ordering.
 * A hot key lands only on its {@code d} candidates, but <b>loses per-key ordering</b> across them:
 * its messages are ordered within each partition only. Consumers of a hot key must tolerate that
 * (or use {@code value-hash} with a value-derived ordering unit, such as an entity inside the key).
 *
 * <h2>State (the documented exception to pure keyed routing)</h2>
 * With detection, or with {@code least-loaded} / {@code round-robin}, this router keeps mutable
 * state on the keyed path (the summary, per-partition counters, a cycle counter), so the partition
 * of a hot key's message depends on the traffic seen before. Configured keys with
 * {@code value-hash} and no detection is pure: a function of (key, value, partition count,
 * configuration). All state is thread-safe: the summary is updated under a lock that a thread skips
 * (without counting the message) when another holds it, so detection samples under contention and
 * never blocks; the hot set is checked every 1024 counted messages and republished as an
 * immutable snapshot when it changed. The load counters and the round-robin cycle are
 * <em>striped</em>: 32 stripes, a thread uses stripe {@code threadId mod 32} and reads and writes
 * only its own, each stripe padded onto its own cache lines, so threads routing through one router
 * neither contend nor false-share. Least-loaded therefore balances each stripe's own messages
 * (with a single thread: exactly this router's messages), and the sum over stripes is balanced
 * because each part is; two threads in one stripe share its counters, whose increments are not
 * atomic (a lost increment only blurs the load signal). Routing a {@code byte[]} key allocates
 * nothing except when the hot set changes, a partition count is first seen, or a thread first routes
 * with least-loaded choice through a stripe for a partition count. Serializable through its
 * configuration: a deserialized router starts with empty detection and counters.
 */
public final class HotKeyRouter extends AbstractKeyRouter {
  private static final long serialVersionUID = 1L;

  static final String KEYS = "routing.hotkey.keys";
  static final String DETECT = "routing.hotkey.detect";
  static final String THRESHOLD = "routing.hotkey.threshold";
  /** The property naming the detector memory, for error messages of composed routers. */
  public static final String MEMORY = "routing.hotkey.memory";
  /** The largest {@code routing.hotkey.memory}: 64 MiB, enough counters for any threshold whose warm-up fits a window. */
  public static final int MAX_MEMORY = 64 << 20;
  static final String WINDOW = "routing.hotkey.window";
  static final String CANDIDATES = "routing.hotkey.candidates";
  static final String CHOICE = "routing.hotkey.choice";
  static final String SAMPLE = "routing.hotkey.sample";
  /** Builder marker: no window set, use {@link #defaultWindow}. */
  private static final long DEFAULT_WINDOW = Long.MIN_VALUE;

  /**
   * {@code max(100000, 200 * sample / threshold)}: 100000 messages unless the warm-up needs more;
   * 100000 if even that bound overflows a long (the window check then reports it).
   */
  public static long defaultWindow(double threshold, int sample) {
    double needed = minWindow(threshold, sample);
    return needed > 100_000 && needed < 0x1p63 ? (long) needed : 100_000;
  }

  /**
   * {@code 200 * sample / threshold}, the shortest window whose counted messages cover twice the
   * warm-up: an integer-valued double (ceil, times powers of two). For a tiny threshold it exceeds
   * any long; 0x1p63 is Long.MAX_VALUE + 1, so a bound of 2^63 or more does not fit either.
   */
  static double minWindow(double threshold, int sample) {
    return 2 * Math.ceil(100 / threshold) * sample;
  }
  /** The largest {@code routing.hotkey.sample}. */
  static final int MAX_SAMPLE = 1024;
  /** The rule a {@code routing.hotkey.sample} value breaks, for error messages. */
  public static final String SAMPLE_RULE = "must be a power of two from 1 to " + MAX_SAMPLE;

  /** Whether {@code sample} is a power of two in {@code [1, MAX_SAMPLE]}. */
  public static boolean isValidSample(int sample) {
    return sample >= 1 && sample <= MAX_SAMPLE && Integer.bitCount(sample) == 1;
  }

  /** {@code routing.hotkey.candidates=all}: every partition is a candidate. */
  public static final int ALL = Integer.MAX_VALUE;

  /** How a hot key's message picks one of its candidates. */
  public enum Choice {
    /** The candidate with the fewest messages sent by this router (per stripe) so far (stateful). */
    LEAST_LOADED("least-loaded"),
    /** The next candidate in a per-router cycle (stateful). */
    ROUND_ROBIN("round-robin"),
    /** {@code murmur2(value) mod d}: pure. */
    VALUE_HASH("value-hash");

    private final String id;

    Choice(String id) {
      this.id = id;
    }

    /** Returns the identifier used in {@code routing.hotkey.choice}. */
    public String id() {
      return id;
    }

    public static Choice fromId(String id, String property) {
      for (Choice c : values()) {
        if (c.id.equals(id)) {
          return c;
        }
      }
      throw new RoutingConfigException(property, id,
          "must be one of [least-loaded, round-robin, value-hash]");
    }
  }

  private final KeyRouter inner;
  private final transient HotKeyOptions options;
  private final List<String> configuredKeys;
  private final boolean detect;
  private final double threshold;
  private final int memory;
  private final long window;
  private final int candidates;
  private final Choice choice;
  private final int sample;

  private final transient long[] configured; // sorted fingerprints
  /** Bloom bits of (length, first byte, last byte) of the configured keys; see {@link #mayBeConfigured}. */
  private final transient long configuredBloom;
  private final transient Detector detector; // null without detection
  private transient volatile HotSet detected;
  private final transient AtomicReferenceArray<Space> spaces;
  /**
   * The first space created, read before the table (the usual single partition count skips the
   * table's volatile read): a racy plain field holding an object whose fields are final, so any
   * thread that sees it sees it fully built.
   */
  private transient Space lastSpace;
  /** Round-robin cycle counters, one per stripe, {@link #PAD} longs apart (null unless round-robin). */
  private final transient long[] cycles;
  /** Xorshift states of sampled detection, one per stripe, {@link #PAD} longs apart (null unless sampled). */
  private final transient long[] samplers;

  private HotKeyRouter(HotKeyOptions o, KeyRouter inner) {
    this.inner = Objects.requireNonNull(inner, "inner");
    this.options = o;
    this.configuredKeys = o.keys();
    this.detect = o.detect();
    this.threshold = o.threshold();
    this.memory = o.memory();
    this.window = o.window();
    this.candidates = o.candidates();
    this.choice = o.choice();
    this.sample = o.sample();
    int capacity = HeavyHitterSketch.capacityFor(memory);
    long[] fps = new long[configuredKeys.size()];
    for (int i = 0; i < fps.length; i++) {
      byte[] k = configuredKeys.get(i).getBytes(StandardCharsets.UTF_8);
      fps[i] = fingerprint(k, 0, k.length);
    }
    Arrays.sort(fps);
    this.configured = fps;
    long bloom = 0;
    for (String k : configuredKeys) {
      byte[] bytes = k.getBytes(StandardCharsets.UTF_8);
      bloom |= bloomBit(bytes, 0, bytes.length);
    }
    this.configuredBloom = bloom;
    this.detector = detect ? new Detector(capacity, window / sample, threshold) : null;
    this.detected = HotSet.EMPTY;
    this.spaces = new AtomicReferenceArray<>(SPACE_SLOTS);
    this.cycles = choice == Choice.ROUND_ROBIN ? stripedCells(0) : null;
    // every stripe seeded alike: one thread's run is reproducible
    this.samplers = detect && sample > 1 ? stripedCells(SAMPLER_SEED) : null;
  }

  /**
   * Returns a hot-key router with the given options over {@code inner}; its detector (if any) is
   * allocated when it first counts a message.
   *
   * @throws NullPointerException if an argument is null
   */
  public static HotKeyRouter of(HotKeyOptions options, KeyRouter inner) {
    return new HotKeyRouter(Objects.requireNonNull(options, "options"), inner);
  }

  /** Returns the options. */
  public HotKeyOptions options() {
    return options;
  }

  /** Returns a builder of a hot-key router over {@code inner}. */
  public static Builder builder(KeyRouter inner) {
    return new Builder(Objects.requireNonNull(inner, "inner"));
  }

  /**
   * Builds a {@link HotKeyRouter}. Defaults: no keys, no detection, threshold 0.01, memory 65536,
   * window {@code max(100000, 200 * sample / threshold)}, sample 1 (count every message),
   * 8 candidates, least-loaded.
   */
  public static final class Builder {
    private final KeyRouter inner;
    private final Set<String> keys = new LinkedHashSet<>();
    private boolean detect;
    private double threshold = 0.01;
    private int memory = 65536;
    private long window = DEFAULT_WINDOW;
    private int candidates = 8;
    private Choice choice = Choice.LEAST_LOADED;
    private int sample = 1;

    private Builder(KeyRouter inner) {
      this.inner = inner;
    }

    /** Adds configured hot keys (matched by their UTF-8 bytes). */
    public Builder hotKeys(Collection<String> keys) {
      for (String k : keys) {
        this.keys.add(Objects.requireNonNull(k, "hot key"));
      }
      return this;
    }

    /** Turns online detection on or off (default off). */
    public Builder detect(boolean detect) {
      this.detect = detect;
      return this;
    }

    /** The share of recent messages from which a detected key is hot, in (0, 1]; default 0.01. */
    public Builder threshold(double threshold) {
      this.threshold = threshold;
      return this;
    }

    /** The detector's memory cap in bytes (default 65536). */
    public Builder memoryBytes(int memory) {
      this.memory = memory;
      return this;
    }

    /** Messages after which the detector's counts halve (default {@code max(100000, 200 * sample / threshold)}). */
    public Builder window(long window) {
      this.window = window;
      return this;
    }

    /** Candidate partitions per hot key, at least 2, or {@link #ALL} (default 8). */
    public Builder candidates(int candidates) {
      this.candidates = candidates;
      return this;
    }

    /** How a message picks a candidate (default least-loaded). */
    public Builder choice(Choice choice) {
      this.choice = choice;
      return this;
    }

    /**
     * Detection counts one message in {@code sample} on average (a power of two from 1 to
     * {@value HotKeyRouter#MAX_SAMPLE}; default 1, every message); see the class Javadoc for what
     * sampling trades.
     */
    public Builder sample(int sample) {
      this.sample = sample;
      return this;
    }

    /**
     * Builds the router.
     *
     * @throws RoutingConfigException for a threshold outside (0, 1], fewer than 2 candidates, a
     *     sample that is not a power of two in [1, 1024], or (with detection) a memory cap below
     *     16 counters or above 64 MiB or a window shorter than {@code 200 * sample / threshold}
     */
    public HotKeyRouter build() {
      return new HotKeyRouter(new HotKeyOptions(List.copyOf(keys), detect, threshold, memory,
          window != DEFAULT_WINDOW ? window : defaultWindow(threshold, sample), candidates, choice,
          sample), inner);
    }
  }

  /**
   * Stripes of the per-partition load counters and round-robin cycles. A thread uses stripe
   * {@code threadId mod STRIPES} (thread ids are handed out in sequence, so up to 32 threads
   * started together get a stripe each) and reads and writes only that stripe: routing threads do
   * not share counters, so they neither contend nor false-share.
   */
  private static final int STRIPES = 32;
  /** Longs of padding around each stripe's counters: 128 bytes, two cache lines (adjacent-line prefetch). */
  private static final int PAD = 16;
  private static final int SPACE_SLOTS = 64;
  /** Partition counts up to which a space tabulates the stride of every fingerprint residue. */
  private static final int STRIDE_TABLE_LIMIT = 4096;
  private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
  private static final long SAMPLER_SEED = 0x2545F4914F6CDD1DL;
  /** Low fingerprint bits that hold the key's hot-set filter index (1024-bit filter). */
  private static final int FILTER_BITS = 10;
  private static final long FILTER_MASK = (1L << FILTER_BITS) - 1;

  /**
   * The 64-bit fingerprint that identifies a key in the summary and the hot sets: XXH3-64 of the
   * key; with sampling, its low {@value #FILTER_BITS} bits are replaced by {@link #filterIndex}, so
   * the hot set's filter can be built from fingerprints alone (two keys then share a fingerprint
   * with probability at most {@code 2^-54} per pair). The candidate stride reads bits 17 and up,
   * which are XXH3's either way, so sampling does not change a hot key's candidates.
   */
  private long fingerprint(byte[] key, int offset, int length) {
    long h = HashScheme.XXH3_64.hash64(key, offset, length);
    return sample == 1 ? h : (h & ~FILTER_MASK) | filterIndex(key, offset, length);
  }

  /** A cheap hash of the key's length and its first and last 8 bytes, in [0, 1024). */
  private static int filterIndex(byte[] key, int offset, int length) {
    int end = offset + length;
    long x = Bytes.word(key, offset, end) * 0x9E3779B97F4A7C15L;
    x ^= Bytes.word(key, Math.max(offset, end - 8), end) + length;
    x *= 0xC2B2AE3D27D4EB4FL;
    return (int) (x >>> (64 - FILTER_BITS));
  }

  /** The detected hot keys as published: sorted fingerprints and the filter of their low bits. */
  private static final class HotSet {
    static final HotSet EMPTY = new HotSet(new long[0]);
    final long[] fingerprints;
    final long[] filter = new long[1 << (FILTER_BITS - 6)];

    HotSet(long[] sortedFingerprints) {
      this.fingerprints = sortedFingerprints;
      for (long fp : sortedFingerprints) {
        int i = (int) (fp & FILTER_MASK);
        filter[i >>> 6] |= 1L << i;
      }
    }

    /** Never false for a key in the set; the filter is not even read while the set is empty. */
    boolean mayContain(byte[] key, int offset, int length) {
      if (fingerprints.length == 0) {
        return false;
      }
      int i = filterIndex(key, offset, length);
      return (filter[i >>> 6] & (1L << i)) != 0;
    }
  }

  /** Whether this message is one the sampled summary counts: the stripe's xorshift draws it. */
  private boolean sampled() {
    int index = stripeCell();
    long x = (long) LONGS.getOpaque(samplers, index);
    x ^= x << 13;
    x ^= x >>> 7;
    x ^= x << 17;
    LONGS.setOpaque(samplers, index, x); // threads sharing a stripe may lose a step: harmless
    return ((int) (x >>> 32) & (sample - 1)) == 0;
  }

  private static int stripe() {
    return (int) Thread.currentThread().getId() & (STRIPES - 1);
  }

  /** One long per stripe, each {@link #PAD} longs from the next and from the array's ends. */
  private static long[] stripedCells(long initial) {
    long[] cells = new long[(STRIPES + 1) * PAD];
    for (int s = 0; s < STRIPES; s++) {
      cells[(s + 1) * PAD] = initial;
    }
    return cells;
  }

  /** The calling thread's cell in an array from {@link #stripedCells}. */
  private static int stripeCell() {
    return (stripe() + 1) * PAD;
  }

  /**
   * What routing over one partition space of size {@code n} needs beyond the configuration: the
   * strides of the configured keys, a table of strides for any fingerprint (for {@code n} up to
   * {@value #STRIDE_TABLE_LIMIT}; {@link #stride(long, int)} is a loop of divisions) and, for
   * least-loaded choice, the load counters, one row of {@code n} counters per stripe, allocated when
   * a thread of that stripe first routes (8 bytes per partition plus 256 bytes of padding per
   * row). Created when a partition count is first seen.
   */
  private static final class Space {
    final int n;
    final int[] configuredStride;
    final int[] strideFrom; // strideFrom[s] = stride(fp, n) for s = 1 + (fp >>> 17) mod (n - 1)
    final AtomicReferenceArray<long[]> rows; // null unless least-loaded

    Space(int n, long[] configured, boolean loads) {
      this.n = n;
      this.configuredStride = new int[configured.length];
      for (int i = 0; i < configured.length; i++) {
        configuredStride[i] = HotKeyRouter.stride(configured[i], n);
      }
      if (n > 2 && n <= STRIDE_TABLE_LIMIT) {
        // the first s' >= s coprime with n; one exists since gcd(n - 1, n) = 1
        strideFrom = new int[n];
        for (int s = n - 1, next = n - 1; s >= 1; s--) {
          if (gcd(s, n) == 1) {
            next = s;
          }
          strideFrom[s] = next;
        }
      } else {
        strideFrom = null;
      }
      this.rows = loads ? new AtomicReferenceArray<>(STRIPES) : null;
    }

    int stride(long fp) {
      return strideFrom != null
          ? strideFrom[1 + (int) ((fp >>> 17) % (n - 1))] // fp >>> 17 >= 0: % is remainderUnsigned
          : HotKeyRouter.stride(fp, n);
    }

    /** The calling thread's counters: partition p at index {@code PAD + p}. */
    long[] row() {
      int s = stripe();
      long[] row = rows.get(s);
      if (row == null) {
        row = new long[n + 2 * PAD];
        if (!rows.compareAndSet(s, null, row)) {
          row = rows.get(s);
        }
      }
      return row;
    }
  }

  /**
   * The space for partition count {@code n}. A {@link SegmentRouter} above this router calls it
   * with each segment's range size, and one producer may route topics of several sizes, so spaces
   * are kept per size in a small two-choice table (64 slots; a size may sit in slot
   * {@code n mod 64} or in a second slot from a multiplicative hash of {@code n}): switching
   * between sizes neither allocates nor loses counts unless three sizes contend for the same two
   * slots. Segments of equal size share counters (their partitions are balanced together), which
   * only blurs the load signal.
   */
  private Space spaceFor(int n) {
    Space last = lastSpace;
    if (last != null && last.n == n) { // the first space stays cached; others are in the table
      return last;
    }
    int first = n & (SPACE_SLOTS - 1);
    Space space = spaces.get(first);
    if (space == null || space.n != n) {
      int second = (n * 0x9E3779B9) >>> (32 - Integer.numberOfTrailingZeros(SPACE_SLOTS));
      Space other = spaces.get(second);
      if (other != null && other.n == n) {
        space = other;
      } else {
        Space created = new Space(Partitions.checkTableCount(n, "HotKeyRouter"), configured,
            choice == Choice.LEAST_LOADED);
        if (space == null) {
          spaces.set(first, created);
        } else if (other == null) {
          spaces.set(second, created);
        } else {
          spaces.set(first, created); // both slots hold other sizes: the first one is replaced
        }
        space = created;
      }
    }
    if (last == null) {
      lastSpace = space; // written once: segments switching sizes must not write a shared line
    }
    return space;
  }

  /** Increments a counter that only the threads of one stripe write (no atomic read-modify-write). */
  private static void increment(long[] counters, int index) {
    LONGS.setOpaque(counters, index, (long) LONGS.getOpaque(counters, index) + 1);
  }

  @Override
  protected int route(byte[] key, int offset, int length, byte[] value, int n) {
    int base = inner.partition(key, offset, length, n);
    long fp = 0;
    int hot = NOT_HOT;
    boolean counted = detect && (sample == 1 || sampled());
    if (counted || mayBeConfigured(key, offset, length)
        || (detect && detected.mayContain(key, offset, length))) {
      fp = fingerprint(key, offset, length);
      if (counted) {
        detector.count(fp);
      }
      hot = n < 2 ? NOT_HOT : hotIndex(fp);
    }
    if (hot == NOT_HOT) {
      if (choice == Choice.LEAST_LOADED) {
        increment(spaceFor(n).row(), PAD + base);
      }
      return base;
    }
    Space space = spaceFor(n);
    int stride = hot >= 0 ? space.configuredStride[hot] : space.stride(fp);
    int d = Math.min(candidates, n);
    switch (choice) {
      case VALUE_HASH: {
        int c = value == null ? 0 : Math.floorMod(HashScheme.KAFKA_MURMUR2.hash(value, 0, value.length), d);
        return candidate(base, stride, c, n);
      }
      case ROUND_ROBIN: {
        int index = stripeCell();
        long c = (long) LONGS.getOpaque(cycles, index);
        LONGS.setOpaque(cycles, index, c + 1);
        return candidate(base, stride, (int) Math.floorMod(c, (long) d), n);
      }
      default: {
        long[] row = space.row();
        int best = base;
        long bestLoad = (long) LONGS.getOpaque(row, PAD + base);
        for (int i = 1, p = base; i < d; i++) {
          p = p < n - stride ? p + stride : p - (n - stride); // candidate(base, stride, i, n)
          long l = (long) LONGS.getOpaque(row, PAD + p);
          if (l < bestLoad) {
            best = p;
            bestLoad = l;
          }
        }
        increment(row, PAD + best);
        return best;
      }
    }
  }

  /** {@link #hotIndex}: the key is not hot. */
  private static final int NOT_HOT = Integer.MIN_VALUE;
  /** {@link #hotIndex}: the key is hot by detection only. */
  private static final int DETECTED = -1;

  /** Returns the index of {@code fp} among the configured keys, {@link #DETECTED} or {@link #NOT_HOT}. */
  private int hotIndex(long fp) {
    if (configured.length > 0) {
      int i = Arrays.binarySearch(configured, fp);
      if (i >= 0) {
        return i;
      }
    }
    return detect && Arrays.binarySearch(detected.fingerprints, fp) >= 0 ? DETECTED : NOT_HOT;
  }

  private static long bloomBit(byte[] key, int offset, int length) {
    int h = length == 0 ? 0 : (length * 31 + key[offset]) * 31 + key[offset + length - 1];
    return 1L << (h * 0x9E3779B9 >>> 26);
  }

  /**
   * Whether the key may be a configured hot key: a one-word Bloom filter over its length and its
   * first and last bytes, so most keys that are not configured skip the fingerprint (an XXH3 pass).
   * Never false for a configured key.
   */
  private boolean mayBeConfigured(byte[] key, int offset, int length) {
    return configured.length > 0 && (configuredBloom & bloomBit(key, offset, length)) != 0;
  }

  private static int candidate(int base, int stride, int i, int n) {
    return (int) ((base + (long) i * stride) % n);
  }

  /** A key-derived step in [1, n) coprime with n, so the first n candidates are all distinct. */
  private static int stride(long fp, int n) {
    if (n <= 2) {
      return 1;
    }
    int s = 1 + (int) Long.remainderUnsigned(fp >>> 17, n - 1);
    while (gcd(s, n) != 1) {
      s = s == n - 1 ? 1 : s + 1;
    }
    return s;
  }

  private static int gcd(int a, int b) {
    while (b != 0) {
      int t = a % b;
      a = b;
      b = t;
    }
    return a;
  }

  private boolean isHot(long fp) {
    return hotIndex(fp) != NOT_HOT;
  }

  /**
   * The heavy-hitter summary and what goes with it, behind a try-lock: a thread that finds it held
   * skips counting the message (detection samples under contention and never blocks the send
   * path). Its own object, so the lock word, written twice per message, shares no cache line with
   * the router's read-only fields.
   */
  private final class Detector {
    private final int capacity;
    private final long window;
    private final double threshold;
    private final AtomicInteger busy = new AtomicInteger();
    /** Allocated under the lock by the first count: a router that never counts claims nothing. */
    private HeavyHitterSketch sketch;
    private long[] scratch;
    private int sinceSnapshot;

    Detector(int capacity, long window, double threshold) {
      this.capacity = capacity;
      this.window = window;
      this.threshold = threshold;
    }

    void count(long fp) {
      // test and test-and-set: a thread that sees the lock held does not write its cache line
      if (busy.getPlain() != 0 || !busy.compareAndSet(0, 1)) {
        return;
      }
      try {
        if (sketch == null) {
          sketch = new HeavyHitterSketch(capacity, window, threshold);
          scratch = new long[sketch.maxHot()];
        }
        sketch.offer(fp);
        if (++sinceSnapshot >= 1024) {
          sinceSnapshot = 0;
          int k = sketch.hotInto(scratch);
          long[] current = detected.fingerprints;
          if (!Arrays.equals(scratch, 0, k, current, 0, current.length)) {
            // allocates only when the hot set changes
            detected = new HotSet(Arrays.copyOf(scratch, k));
          }
        }
      } finally {
        busy.setRelease(0);
      }
    }
  }

  /**
   * Returns the candidate partitions of {@code key} for {@code numPartitions}, first the inner
   * router's partition: where the key's messages go while it is hot. A pure function of key, count
   * and configuration.
   *
   * @return {@code min(d, numPartitions)} distinct partitions in {@code [0, numPartitions)}
   * @throws IllegalArgumentException if {@code numPartitions < 1}, or above 2^20 (the most a hot
   *     key can be routed over: its partition space is tabulated, so routing it there throws too)
   */
  public int[] candidates(byte[] key, int numPartitions) {
    Partitions.checkTableCount(numPartitions, "HotKeyRouter");
    int base = inner.partition(key, 0, key.length, numPartitions);
    int d = Math.min(candidates, numPartitions);
    int stride = stride(fingerprint(key, 0, key.length), numPartitions);
    int[] out = new int[d];
    for (int i = 0; i < d; i++) {
      out[i] = candidate(base, stride, i, numPartitions);
    }
    return out;
  }

  /** Returns whether {@code key} is hot right now (configured, or detected in the current snapshot). */
  public boolean isHot(byte[] key) {
    return isHot(fingerprint(key, 0, key.length));
  }

  /** Returns the number of keys detected hot in the current snapshot (0 without detection). */
  public int detectedHotKeys() {
    return detected.fingerprints.length;
  }

  /**
   * Returns the detector's fixed memory footprint in bytes (0 without detection): at most the
   * configured cap. Least-loaded choice keeps another 8 bytes per partition (plus 256 bytes) for
   * each stripe of routing threads, per partition count.
   */
  public int detectorMemoryBytes() {
    return options.detectorMemoryBytes();
  }

  @Override
  public long claimedMemoryBytes() {
    return options.detectorMemoryBytes() + inner.claimedMemoryBytes();
  }

  @Override
  public boolean needsValue() {
    return choice == Choice.VALUE_HASH || inner.needsValue();
  }

  /** Returns whether routing is a pure function of key, value, count and configuration. */
  public boolean isPure() {
    return !detect && choice == Choice.VALUE_HASH;
  }

  @Override
  public int keylessPartition(int numPartitions) {
    return inner.keylessPartition(numPartitions);
  }

  @Override
  public KeylessPolicy keylessPolicy() {
    return inner.keylessPolicy();
  }

  /** Returns the router that places keys that are not hot. */
  public KeyRouter inner() {
    return inner;
  }

  @Override
  public String toString() {
    return "HotKeyRouter{keys=" + configuredKeys.size() + ", detect=" + detect
        + (detect ? String.format(Locale.ROOT, ", threshold=%s, memory=%d, window=%d, sample=%d",
            threshold, memory, window, sample) : "")
        + ", candidates=" + (candidates == ALL ? "all" : String.valueOf(candidates))
        + ", choice=" + choice.id + ", inner=" + inner + '}';
  }

  private Object writeReplace() {
    return new Proxy(this);
  }

  private void readObject(ObjectInputStream in) throws InvalidObjectException {
    throw new InvalidObjectException("HotKeyRouter is deserialized through its proxy");
  }

  /** Serialized form: the configuration; detection and counters start empty. */
  private static final class Proxy implements Serializable {
    private static final long serialVersionUID = 1L;
    private final KeyRouter inner;
    private final ArrayList<String> keys;
    private final boolean detect;
    private final double threshold;
    private final int memory;
    private final long window;
    private final int candidates;
    private final String choice;
    private final int sample; // 0 in a stream written before sampling existed: count every message

    Proxy(HotKeyRouter r) {
      this.inner = r.inner;
      this.keys = new ArrayList<>(r.configuredKeys);
      this.detect = r.detect;
      this.threshold = r.threshold;
      this.memory = r.memory;
      this.window = r.window;
      this.candidates = r.candidates;
      this.choice = r.choice.id;
      this.sample = r.sample;
    }

    private Object readResolve() throws InvalidObjectException {
      try {
        return builder(inner).hotKeys(keys).detect(detect).threshold(threshold)
            .memoryBytes(memory).window(window).candidates(candidates)
            .choice(Choice.fromId(choice, CHOICE)).sample(sample == 0 ? 1 : sample).build();
      } catch (RuntimeException e) {
        InvalidObjectException ex = new InvalidObjectException("corrupt HotKeyRouter: "
            + e.getMessage());
        ex.initCause(e);
        throw ex;
      }
    }
  }
}
