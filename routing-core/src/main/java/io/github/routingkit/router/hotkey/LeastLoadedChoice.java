package io.github.routingkit.router.hotkey;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * {@code least-loaded}: the candidate to which the router has sent the fewest messages from the
 * calling thread's {@link Stripes stripe} (every message, hot or not, is counted on its
 * partition: power of d choices). Memory: per partition count, per stripe that routes, 8 bytes
 * per partition plus 256 bytes of padding, allocated when a thread of that stripe first routes.
 */
final class LeastLoadedChoice extends CandidateChoice {
  /*
   * Each stripe balances its own messages (a single thread: exactly this router's messages); the
   * sum over stripes is balanced because each part is. Counters are incremented with opaque
   * writes, no atomic read-modify-write: two threads of one stripe may lose an increment, which
   * only blurs the load signal.
   */

  @Override
  boolean countsColdKeys() {
    return true;
  }

  @Override
  Object newSpaceState(int n) {
    return new Loads(n);
  }

  @Override
  void countCold(HotKeyCandidates.Space space, int base) {
    Stripes.increment(((Loads) space.choiceState).row(), Stripes.PAD + base);
  }

  @Override
  int choose(HotKeyCandidates.Space space, int base, int stride, int d, byte[] value) {
    int n = space.n;
    long[] row = ((Loads) space.choiceState).row();
    int best = base;
    long bestLoad = (long) Stripes.LONGS.getOpaque(row, Stripes.PAD + base);
    for (int i = 1, p = base; i < d; i++) {
      p = p < n - stride ? p + stride : p - (n - stride); // candidate(base, stride, i, n)
      long l = (long) Stripes.LONGS.getOpaque(row, Stripes.PAD + p);
      if (l < bestLoad) {
        best = p;
        bestLoad = l;
      }
    }
    Stripes.increment(row, Stripes.PAD + best);
    return best;
  }

  /** The load counters of one partition count: one row of {@code n} counters per stripe. */
  private static final class Loads {
    private final int n;
    private final AtomicReferenceArray<long[]> rows = new AtomicReferenceArray<>(Stripes.COUNT);

    Loads(int n) {
      this.n = n;
    }

    /** The calling thread's counters: partition p at index {@code PAD + p}. */
    long[] row() {
      int s = Stripes.stripe();
      long[] row = rows.get(s);
      if (row == null) {
        row = new long[n + 2 * Stripes.PAD];
        if (!rows.compareAndSet(s, null, row)) {
          row = rows.get(s);
        }
      }
      return row;
    }
  }
}
