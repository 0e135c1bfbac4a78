package io.github.routingkit.router.hotkey;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Per-thread stripes of {@code long} cells: the load counters, the round-robin cycles and the
 * sampler states of a hot-key router. A thread uses stripe {@code threadId mod 32} and reads and
 * writes only that stripe's cells, so routing threads neither contend nor false-share.
 */
final class Stripes {
  /*
   * Thread ids are handed out in sequence, so up to 32 threads started together get a stripe
   * each. Each stripe's cell (or row of counters) is padded by PAD longs on both sides: 128 bytes,
   * two cache lines, because of adjacent-line prefetch. Two threads in one stripe share its cells;
   * the cells are read and written with opaque accesses and no atomic read-modify-write, so such
   * threads may lose an increment or a generator step, which only blurs a load signal or repeats
   * a draw.
   */

  /** The number of stripes, a power of two. */
  static final int COUNT = 32;
  /** Longs of padding around each stripe's cells. */
  static final int PAD = 16;
  /** Opaque access to the elements of a {@code long[]}. */
  static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);

  private Stripes() {}

  /** Returns the calling thread's stripe, in {@code [0, COUNT)}. */
  static int stripe() {
    return (int) Thread.currentThread().getId() & (COUNT - 1);
  }

  /** Returns one cell per stripe set to {@code initial}, each {@link #PAD} longs from the next and from the array's ends. */
  static long[] cells(long initial) {
    long[] cells = new long[(COUNT + 1) * PAD];
    for (int s = 0; s < COUNT; s++) {
      cells[(s + 1) * PAD] = initial;
    }
    return cells;
  }

  /** Returns the index of the calling thread's cell in an array from {@link #cells}. */
  static int cell() {
    return (stripe() + 1) * PAD;
  }

  /** Increments a counter that only the threads of one stripe write (no atomic read-modify-write). */
  static void increment(long[] counters, int index) {
    LONGS.setOpaque(counters, index, (long) LONGS.getOpaque(counters, index) + 1);
  }
}
