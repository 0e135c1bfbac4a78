package io.github.routingkit.router.hotkey;

import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.internal.Bytes;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import net.openhft.hashing.LongHashFunction;

/**
 * Decides which keys are hot: the configured keys, and (with detection) the keys a heavy-hitter
 * summary reports over the messages it counts, one in {@code sample}. Thread-safe; a message is
 * never blocked by another thread's counting. Allocates only when the published hot set changes,
 * once per hot key and hot-set change a copy of the key's bytes (so metrics can name it), and,
 * once, the summary on the first counted message.
 */
final class HotKeyDetector {
  /*
   * Per message the router asks, in this order: drawCount() (does the summary count this one?),
   * mayBeHot() (a filter that is never false for a hot key), and only when either says yes
   * fingerprint(), count() and hotIndex(). Most cold keys thus cost no fingerprint at all when
   * sampling or when only configured keys are hot.
   *
   * Configured keys: sorted fingerprints plus a one-word Bloom filter over (length, first byte,
   * last byte). Detected keys: the summary (HeavyHitterSketch, Space-Saving with decay) behind a
   * try-lock (test and test-and-set: a thread that sees the lock held skips counting the message
   * and does not write the lock's cache line), so detection samples under contention and never
   * blocks. Every 1024 counted messages the hot set is read out and republished as an immutable
   * HotSet when it changed. The summary sits in its own object so the lock word, written twice per
   * counted message, shares no cache line with the read-only fields.
   *
   * Sampling: a per-stripe xorshift generator draws one message in `sample` (pseudo-random, so no
   * periodic key pattern aliases with it; every stripe seeded alike, so one thread's run is
   * reproducible). With sampling the fingerprint's low FILTER_BITS bits are replaced by a cheap
   * hash of the key's length and its first and last 8 bytes, so a HotSet can build its 1024-bit
   * filter from fingerprints alone; two keys then share a fingerprint with probability at most
   * 2^-54 per pair. The candidate stride reads bits 17 and up, XXH3's either way, so sampling does
   * not change a hot key's candidates.
   */

  /** {@link #hotIndex}: the key is not hot. */
  static final int NOT_HOT = Integer.MIN_VALUE;
  /** {@link #hotIndex}: the key is hot by detection only. */
  static final int DETECTED = -1;

  private static final long SAMPLER_SEED = 0x2545F4914F6CDD1DL;
  private static final LongHashFunction TEXT_HASH = LongHashFunction.xx3();
  /** Low fingerprint bits that hold the key's hot-set filter index (1024-bit filter). */
  private static final int FILTER_BITS = 10;
  private static final long FILTER_MASK = (1L << FILTER_BITS) - 1;
  /** Counted messages between two readings of the summary's hot set. */
  private static final int SNAPSHOT_EVERY = 1024;

  private final boolean detect;
  private final int sample;
  private final long[] configured; // sorted fingerprints
  /** Bloom bits of (length, first byte, last byte) of the configured keys; see {@link #mayBeConfigured}. */
  private final long configuredBloom;
  private final Summary summary; // null without detection
  /** Xorshift states of sampled detection, one per stripe (null unless sampled). */
  private final long[] samplers;
  private volatile HotSet detected = HotSet.EMPTY;

  /** A detector of the options' configured keys and, if on, of detected ones. */
  HotKeyDetector(HotKeyOptions o) {
    this.detect = o.detect();
    this.sample = o.sample();
    List<String> keys = o.keys();
    long[] fps = new long[keys.size()];
    long bloom = 0;
    for (int i = 0; i < fps.length; i++) {
      byte[] k = keys.get(i).getBytes(StandardCharsets.UTF_8);
      fps[i] = fingerprint(k, 0, k.length);
      bloom |= bloomBit(k, 0, k.length);
    }
    Arrays.sort(fps);
    this.configured = fps;
    this.configuredBloom = bloom;
    this.summary = detect ? new Summary(HeavyHitterSketch.capacityFor(o.memory()),
        o.window() / sample, o.threshold()) : null;
    this.samplers = detect && sample > 1 ? Stripes.cells(SAMPLER_SEED) : null;
  }

  /** Returns the sorted fingerprints of the configured keys (shared, not copied: do not write). */
  long[] configuredFingerprints() {
    return configured;
  }

  /** Whether the summary counts this message: always with detection and no sampling, one in {@code sample} when sampled. */
  boolean drawCount() {
    return detect && (sample == 1 || sampled());
  }

  /** Whether the key may be hot (configured or in the published hot set); never false for a hot key. */
  boolean mayBeHot(byte[] key, int offset, int length) {
    return mayBeConfigured(key, offset, length)
        || (detect && detected.mayContain(key, offset, length));
  }

  /**
   * Counts a message of the key with fingerprint {@code fp}, unless another thread is counting; a
   * key in the published hot set whose bytes are not known yet has them copied (once per key and
   * hot-set change).
   */
  void count(long fp, byte[] key, int offset, int length) {
    summary.count(fp, key, offset, length, null);
  }

  /** As {@link #count(long, byte[], int, int)} for a text key (fingerprint {@link #fingerprint(CharSequence)}). */
  void count(long fp, CharSequence text) {
    summary.count(fp, null, 0, 0, text);
  }

  /** Returns the index of {@code fp} among the configured keys, {@link #DETECTED} or {@link #NOT_HOT}. */
  int hotIndex(long fp) {
    if (configured.length > 0) {
      int i = Arrays.binarySearch(configured, fp);
      if (i >= 0) {
        return i;
      }
    }
    return detect && Arrays.binarySearch(detected.fingerprints, fp) >= 0 ? DETECTED : NOT_HOT;
  }

  /** Whether the whole array {@code key} is hot now (configured, or detected in the current snapshot). */
  boolean isHot(byte[] key) {
    return hotIndex(fingerprint(key, 0, key.length)) != NOT_HOT;
  }

  /** Returns the number of keys detected hot in the current snapshot (0 without detection). */
  int detectedHotKeys() {
    return detected.fingerprints.length;
  }

  /**
   * Returns the 64-bit fingerprint that identifies a key in the summary and the hot sets: XXH3-64
   * of the key; with sampling, its low {@value #FILTER_BITS} bits hold the key's filter index.
   */
  long fingerprint(byte[] key, int offset, int length) {
    long h = HashScheme.XXH3_64.hash64(key, offset, length);
    return sample == 1 ? h : (h & ~FILTER_MASK) | filterIndex(key, offset, length);
  }

  /**
   * Returns the fingerprint of a text key for a detector that only sees text keys (a
   * {@link HotKeyTracker} fed with text): XXH3-64 of its UTF-16 code units, computed without
   * encoding it (a String is not copied; another CharSequence once). Differs from the fingerprint
   * of the text's UTF-8 bytes.
   */
  static long fingerprint(CharSequence text) {
    return TEXT_HASH.hashChars(text instanceof String ? (String) text : text.toString());
  }

  /**
   * Returns the detected hot keys, hottest first, with their estimated shares of the counted
   * messages (empty without detection or before the summary's warm-up); waits for a counting
   * thread to finish.
   */
  List<HotKeyEstimate> estimates() {
    return detect ? summary.estimates() : Collections.emptyList();
  }

  /** A cheap hash of the key's length and its first and last 8 bytes, in [0, 1024). */
  private static int filterIndex(byte[] key, int offset, int length) {
    int end = offset + length;
    long x = Bytes.word(key, offset, end) * 0x9E3779B97F4A7C15L;
    x ^= Bytes.word(key, Math.max(offset, end - 8), end) + length;
    x *= 0xC2B2AE3D27D4EB4FL;
    return (int) (x >>> (64 - FILTER_BITS));
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

  /** Whether this message is one the sampled summary counts: the stripe's xorshift draws it. */
  private boolean sampled() {
    int index = Stripes.cell();
    long x = (long) Stripes.LONGS.getOpaque(samplers, index);
    x ^= x << 13;
    x ^= x >>> 7;
    x ^= x << 17;
    Stripes.LONGS.setOpaque(samplers, index, x); // threads sharing a stripe may lose a step: harmless
    return ((int) (x >>> 32) & (sample - 1)) == 0;
  }

  /** The detected hot keys as published: sorted fingerprints and the filter of their low bits. */
  private static final class HotSet {
    static final HotSet EMPTY = new HotSet(new long[0]);
    final long[] fingerprints;
    final long[] filter = new long[1 << (FILTER_BITS - 6)];
    /**
     * The keys of {@link #fingerprints} as a byte[] or String, null until a counted message of the
     * key was seen; written and read only under the summary's lock.
     */
    final Object[] names;

    HotSet(long[] sortedFingerprints) {
      this.fingerprints = sortedFingerprints;
      this.names = new Object[sortedFingerprints.length];
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

  /** The heavy-hitter summary behind a try-lock; see the design note above. */
  private final class Summary {
    private final int capacity;
    private final long window;
    private final double threshold;
    private final AtomicInteger busy = new AtomicInteger();
    /** Allocated under the lock by the first count: a router that never counts claims nothing. */
    private HeavyHitterSketch sketch;
    private long[] scratch;
    private int sinceSnapshot;

    Summary(int capacity, long window, double threshold) {
      this.capacity = capacity;
      this.window = window;
      this.threshold = threshold;
    }

    void count(long fp, byte[] key, int offset, int length, CharSequence text) {
      if (busy.getPlain() != 0 || !busy.compareAndSet(0, 1)) {
        return;
      }
      try {
        if (sketch == null) {
          sketch = new HeavyHitterSketch(capacity, window, threshold);
          scratch = new long[sketch.maxHot()];
        }
        sketch.offer(fp);
        if (++sinceSnapshot >= SNAPSHOT_EVERY) {
          sinceSnapshot = 0;
          int k = sketch.hotInto(scratch);
          HotSet current = detected;
          if (!Arrays.equals(scratch, 0, k, current.fingerprints, 0, current.fingerprints.length)) {
            // allocates only when the set changes
            detected = carryNames(current, new HotSet(Arrays.copyOf(scratch, k)));
          }
        }
        name(detected, fp, key, offset, length, text);
      } finally {
        busy.setRelease(0);
      }
    }

    /** Records the key of {@code fp} if it is hot and not named yet (under the lock). */
    private void name(HotSet set, long fp, byte[] key, int offset, int length, CharSequence text) {
      if (set.fingerprints.length == 0) {
        return;
      }
      int i = Arrays.binarySearch(set.fingerprints, fp);
      if (i >= 0 && set.names[i] == null) {
        set.names[i] = text != null ? text.toString()
            : Arrays.copyOfRange(key, offset, offset + length);
      }
    }

    /** The names {@code old} knew of keys still in {@code next} (under the lock). */
    private HotSet carryNames(HotSet old, HotSet next) {
      for (int i = 0, j = 0; i < old.fingerprints.length && j < next.fingerprints.length; ) {
        long a = old.fingerprints[i];
        long b = next.fingerprints[j];
        if (a == b) {
          next.names[j++] = old.names[i++];
        } else if (a < b) {
          i++;
        } else {
          j++;
        }
      }
      return next;
    }

    /** The published hot keys with their shares, hottest first (takes the lock, waiting for it). */
    List<HotKeyEstimate> estimates() {
      while (busy.getPlain() != 0 || !busy.compareAndSet(0, 1)) {
        Thread.onSpinWait();
      }
      List<HotKeyEstimate> out = new ArrayList<>();
      try {
        HotSet set = detected;
        long total = sketch == null ? 0 : sketch.total();
        for (int i = 0; total > 0 && i < set.fingerprints.length; i++) {
          long[] e = sketch.estimate(set.fingerprints[i]);
          if (e == null) {
            continue; // evicted since the set was published
          }
          Object name = set.names[i];
          out.add(new HotKeyEstimate(name instanceof byte[] ? ((byte[]) name).clone() : null,
              name instanceof String ? (String) name : null, Math.min(1, (double) e[0] / total),
              Math.min(1, (double) e[1] / total)));
        }
      } finally {
        busy.setRelease(0);
      }
      out.sort((a, b) -> Double.compare(b.share(), a.share()));
      return out;
    }
  }
}
