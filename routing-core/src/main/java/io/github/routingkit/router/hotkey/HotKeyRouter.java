package io.github.routingkit.router.hotkey;

import io.github.routingkit.AbstractKeyRouter;
import io.github.routingkit.KeyRouter;
import io.github.routingkit.KeylessPolicy;
import io.github.routingkit.RoutingConfigException;
import io.github.routingkit.internal.Partitions;

import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

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
 *       {@code 100 / threshold} counted messages. Counts halve every {@code routing.hotkey.window}
 *       messages, so a key that cools down stops being hot.</li>
 *   <li><b>Sampled detection</b> ({@code routing.hotkey.sample = s}, a power of two, default 1):
 *       the summary counts one message in {@code s} on average (pseudo-random, deterministic for
 *       one thread); the bounds above then hold for the counted messages, and a key's share of
 *       them is its true share up to binomial noise (standard deviation
 *       {@code sqrt(share / counted)}). The window stays in real messages and must be at least
 *       {@code 200 * s / threshold}; the warm-up is in counted messages, so a key becomes hot about
 *       {@code s} times later than with exact counting. Cheaper detection on keys that are not
 *       hot, slower reaction to a key that turns hot (figures in docs/performance.md).</li>
 * </ul>
 *
 * <h2>Where a hot key goes</h2>
 * A hot key has {@code d} candidate partitions ({@code routing.hotkey.candidates}, 2 to
 * {@code all}) derived from the key alone: the first is the partition the inner router gives it,
 * the others are distinct and deterministic ({@link #candidates}). Each message picks one
 * candidate by
 * <ul>
 *   <li>{@code least-loaded} (default): the candidate to which this router has sent the fewest
 *       messages from the calling thread's stripe (all messages, hot or not, are counted per
 *       partition: power of d choices);</li>
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
 * <h2>State and thread-safety</h2>
 * With detection, or with {@code least-loaded} / {@code round-robin}, this router keeps mutable
 * state on the keyed path (the summary, per-partition counters, a cycle counter), so the partition
 * of a hot key's message depends on the traffic seen before. Configured keys with
 * {@code value-hash} and no detection is pure ({@link #isPure()}). Thread-safe and never blocking:
 * a thread that finds the summary busy does not count its message. Counters and cycles are kept
 * per stripe of threads ({@code threadId mod 32}), so least-loaded balances each stripe's own
 * messages (with a single thread: exactly this router's messages). Routing a {@code byte[]} key
 * allocates nothing except when the hot set changes, a partition count is first seen, or a thread
 * first routes with least-loaded choice through a stripe for a partition count. Serializable
 * through its configuration: a deserialized router starts with empty detection and counters.
 */
public final class HotKeyRouter extends AbstractKeyRouter {
  /*
   * One job per class: HotKeyDetector decides which keys are hot (configured set, sampler,
   * heavy-hitter summary, filters), HotKeyCandidates derives a hot key's candidates and keeps the
   * per-partition-count spaces, a CandidateChoice per routing.hotkey.choice picks one candidate
   * (LeastLoadedChoice with striped counters, RoundRobinChoice, ValueHashChoice), Stripes holds
   * the per-thread padded cells they share, and HotKeyOptions is the checked configuration. This
   * class composes them on the keyed path and carries the public surface and serialized form.
   */
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
  private final transient HotKeyDetector detector;
  private final transient HotKeyCandidates candidates;
  private final transient CandidateChoice choice;
  /** Whether the choice counts messages that are not hot (least-loaded). */
  private final boolean countsCold;

  private HotKeyRouter(HotKeyOptions o, KeyRouter inner) {
    this.inner = Objects.requireNonNull(inner, "inner");
    this.options = o;
    this.detector = new HotKeyDetector(o);
    this.choice = CandidateChoice.of(o.choice());
    this.countsCold = choice.countsColdKeys();
    this.candidates = new HotKeyCandidates(o.candidates(), detector.configuredFingerprints(), choice);
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
     * @throws IllegalArgumentException as {@link HotKeyOptions}: for a threshold outside (0, 1],
     *     fewer than 2 candidates, a sample that is not a power of two in [1, 1024], or (with
     *     detection) a memory cap below 16 counters or above 64 MiB or a window shorter than
     *     {@code 200 * sample / threshold}
     */
    public HotKeyRouter build() {
      return new HotKeyRouter(new HotKeyOptions(List.copyOf(keys), detect, threshold, memory,
          window != DEFAULT_WINDOW ? window : defaultWindow(threshold, sample), candidates, choice,
          sample), inner);
    }
  }

  @Override
  protected int route(byte[] key, int offset, int length, byte[] value, int n) {
    int base = inner.partition(key, offset, length, n);
    HotKeyDetector det = detector;
    long fp = 0;
    int hot = HotKeyDetector.NOT_HOT;
    boolean counted = det.drawCount();
    if (counted || det.mayBeHot(key, offset, length)) {
      fp = det.fingerprint(key, offset, length);
      if (counted) {
        det.count(fp, key, offset, length);
      }
      hot = n < 2 ? HotKeyDetector.NOT_HOT : det.hotIndex(fp);
    }
    if (hot == HotKeyDetector.NOT_HOT) {
      if (countsCold) {
        choice.countCold(candidates.space(n), base);
      }
      return base;
    }
    HotKeyCandidates.Space space = candidates.space(n);
    int stride = hot >= 0 ? space.configuredStride[hot] : space.stride(fp);
    return choice.choose(space, base, stride, candidates.count(n), value);
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
    return candidates.of(base, detector.fingerprint(key, 0, key.length), numPartitions);
  }

  /** Returns whether {@code key} is hot right now (configured, or detected in the current snapshot). */
  public boolean isHot(byte[] key) {
    return detector.isHot(key);
  }

  /** Returns the number of keys detected hot in the current snapshot (0 without detection). */
  public int detectedHotKeys() {
    return detector.detectedHotKeys();
  }

  /**
   * Returns the keys detected hot right now with their estimated shares of the messages the
   * detector counted, hottest first; empty without detection or before its warm-up of
   * {@code 100 / threshold} counted messages. Configured keys are listed only when detection also
   * finds them hot. A key's bytes are known from the first counted message of it after it became
   * hot ({@link HotKeyEstimate#key()} is null until then). For metrics: it waits for a routing
   * thread that is counting (a few hundred nanoseconds) and allocates the list; never call it per
   * message.
   */
  public List<HotKeyEstimate> hotKeyEstimates() {
    return detector.estimates();
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
    return options.choice() == Choice.VALUE_HASH || inner.needsValue();
  }

  /** Returns whether routing is a pure function of key, value, count and configuration. */
  public boolean isPure() {
    return !options.detect() && options.choice() == Choice.VALUE_HASH;
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
    HotKeyOptions o = options;
    return "HotKeyRouter{keys=" + o.keys().size() + ", detect=" + o.detect()
        + (o.detect() ? String.format(Locale.ROOT, ", threshold=%s, memory=%d, window=%d, sample=%d",
            o.threshold(), o.memory(), o.window(), o.sample()) : "")
        + ", candidates=" + (o.candidates() == ALL ? "all" : String.valueOf(o.candidates()))
        + ", choice=" + o.choice().id() + ", inner=" + inner + '}';
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
      HotKeyOptions o = r.options;
      this.inner = r.inner;
      this.keys = new ArrayList<>(o.keys());
      this.detect = o.detect();
      this.threshold = o.threshold();
      this.memory = o.memory();
      this.window = o.window();
      this.candidates = o.candidates();
      this.choice = o.choice().id();
      this.sample = o.sample();
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
