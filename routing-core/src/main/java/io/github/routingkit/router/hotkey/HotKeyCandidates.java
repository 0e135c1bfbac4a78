package io.github.routingkit.router.hotkey;

import io.github.routingkit.internal.Partitions;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The candidate partitions of a hot key: {@code d = min(candidates, n)} distinct partitions
 * derived from the key alone, the first the inner router's partition, the others stepping from
 * there by a key-derived stride coprime with {@code n}. Also keeps, per partition count, what
 * routing over that count needs (a {@link Space}). Thread-safe.
 */
final class HotKeyCandidates {
  /*
   * Candidate i of a key is (base + i * stride) mod n, stride = the first s >= 1 + (fp >>> 17)
   * mod (n - 1) coprime with n (one exists since gcd(n - 1, n) = 1), so the first n candidates are
   * all distinct. A Space tabulates that search for every residue for n up to STRIDE_TABLE_LIMIT
   * (otherwise it is a loop of divisions per hot message) and the strides of the configured keys.
   *
   * Spaces are kept per size in a small two-choice table (64 slots; a size may sit in slot n mod 64
   * or in a second slot from a multiplicative hash of n): a SegmentRouter above the hot-key router
   * routes with each segment's range size, and one producer may route topics of several sizes, so
   * switching between sizes neither allocates nor loses counts unless three sizes contend for the
   * same two slots. Segments of equal size share a space (and least-loaded counters), which only
   * blurs the load signal. The first space created is also kept in a racy plain field read before
   * the table (the usual single partition count skips the table's volatile read): it holds an
   * object whose fields are final, so any thread that sees it sees it fully built, and it is
   * written once, so segments switching sizes do not write a shared line.
   */

  private static final int SPACE_SLOTS = 64;
  /** Partition counts up to which a space tabulates the stride of every fingerprint residue. */
  static final int STRIDE_TABLE_LIMIT = 4096;

  private final int candidates;
  private final long[] configured;
  private final CandidateChoice choice;
  private final AtomicReferenceArray<Space> spaces = new AtomicReferenceArray<>(SPACE_SLOTS);
  private Space lastSpace;

  /**
   * @param candidates candidates per hot key, at least 2 ({@link HotKeyRouter#ALL}: every partition)
   * @param configured the configured keys' sorted fingerprints
   * @param choice the choice whose per-count state each space carries
   */
  HotKeyCandidates(int candidates, long[] configured, CandidateChoice choice) {
    this.candidates = candidates;
    this.configured = configured;
    this.choice = choice;
  }

  /** Returns {@code min(candidates, n)}. */
  int count(int n) {
    return Math.min(candidates, n);
  }

  /**
   * Returns the candidates of a key with fingerprint {@code fp} whose inner partition is
   * {@code base}, over {@code n} partitions.
   *
   * @throws IllegalArgumentException if {@code n < 1} or {@code n > 2^20}
   */
  int[] of(int base, long fp, int n) {
    Partitions.checkTableCount(n, "HotKeyRouter");
    int d = count(n);
    int stride = stride(fp, n);
    int[] out = new int[d];
    for (int i = 0; i < d; i++) {
      out[i] = candidate(base, stride, i, n);
    }
    return out;
  }

  /** Returns candidate {@code i} from {@code base} with {@code stride} over {@code n} partitions. */
  static int candidate(int base, int stride, int i, int n) {
    return (int) ((base + (long) i * stride) % n);
  }

  /** A key-derived step in [1, n) coprime with n, so the first n candidates are all distinct. */
  static int stride(long fp, int n) {
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

  /**
   * Returns the space for partition count {@code n}, creating it when {@code n} is first seen.
   *
   * @throws IllegalArgumentException if {@code n > 2^20} (a space is tabulated)
   */
  Space space(int n) {
    Space last = lastSpace;
    if (last != null && last.n == n) {
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
            choice.newSpaceState(n));
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
      lastSpace = space;
    }
    return space;
  }

  /**
   * What routing over one partition count {@code n} needs beyond the configuration: the strides of
   * the configured keys, a table of strides for any fingerprint (for {@code n} up to
   * {@value #STRIDE_TABLE_LIMIT}) and the choice's per-count state (least-loaded: the load
   * counters).
   */
  static final class Space {
    final int n;
    final int[] configuredStride;
    private final int[] strideFrom; // strideFrom[s] = stride(fp, n) for s = 1 + (fp >>> 17) mod (n - 1)
    /** The choice's state for this count, from {@link CandidateChoice#newSpaceState}; may be null. */
    final Object choiceState;

    Space(int n, long[] configured, Object choiceState) {
      this.n = n;
      this.configuredStride = new int[configured.length];
      for (int i = 0; i < configured.length; i++) {
        configuredStride[i] = HotKeyCandidates.stride(configured[i], n);
      }
      if (n > 2 && n <= STRIDE_TABLE_LIMIT) {
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
      this.choiceState = choiceState;
    }

    /** Returns the stride of a key with fingerprint {@code fp} over this count. */
    int stride(long fp) {
      return strideFrom != null
          ? strideFrom[1 + (int) ((fp >>> 17) % (n - 1))] // fp >>> 17 >= 0: % is remainderUnsigned
          : HotKeyCandidates.stride(fp, n);
    }
  }
}
