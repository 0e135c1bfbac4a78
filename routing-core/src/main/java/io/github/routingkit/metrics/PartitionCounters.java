package io.github.routingkit.metrics;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;

/**
 * Exact per-partition record counts of one topic, keyed and keyless, cheap to increment from many
 * threads: the counters behind the records-per-partition metrics. Thread-safe; an increment
 * allocates nothing once the table covers the partition.
 */
final class PartitionCounters {
  /*
   * Layout. A table has ROWS rows (a power of two, at most 32) and one shared row. Row r holds the
   * keyed counts of partitions 0..n-1, then their keyless counts, padded by PAD longs (128 bytes,
   * two cache lines: adjacent-line prefetch) from the next row, so threads on different rows never
   * write one cache line.
   *
   * Ownership. A thread uses row (thread id mod ROWS). The first thread to use a row claims it
   * (compare-and-set of owners[r]); its owner then increments with a plain read and an opaque
   * write, no atomic read-modify-write, because nobody else writes that row. A thread whose row is
   * owned by another thread adds to the shared row with an atomic getAndAdd (exact, slower; the
   * producer's own record accumulator locks per partition, so such threads contend there anyway).
   * Every 1024th such increment checks whether the row's owner has terminated and then takes the
   * row over: Thread.isAlive() returning false happens-after every write of the dead owner
   * (JLS 17.4.4), so the new owner continues from its last value. Readers sum every row with opaque reads: a count is exact once the writers are
   * quiet, and never counts a record twice.
   *
   * Growth. A topic that gains partitions gets a larger table; the old one is kept and summed, so
   * a thread still holding it loses no increment.
   */

  /** Longs of padding around each row. */
  static final int PAD = 16;
  /** The most rows a table has. */
  static final int MAX_ROWS = 32;
  /** The most longs one table's rows may take (256 KiB): fewer rows for many partitions. */
  static final int MAX_CELLS = 1 << 15;
  /** The most partitions counted; records of higher partitions count in {@link #untracked()}. */
  static final int MAX_PARTITIONS = 1 << 20;

  /** Shared-row increments between two checks whether a row's owner has terminated, minus one. */
  private static final long TAKEOVER_CHECK = 1023;

  private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
  private static final VarHandle OWNERS = MethodHandles.arrayElementVarHandle(Thread[].class);

  private static final Table[] NO_TABLES = new Table[0];

  private volatile Table table;
  /** Tables replaced by a larger one, still summed (guarded by this). */
  private final List<Table> retired = new ArrayList<>();
  private final java.util.concurrent.atomic.LongAdder untracked =
      new java.util.concurrent.atomic.LongAdder();

  /** Counters for {@code partitions} partitions to start with (grown on demand). */
  PartitionCounters(int partitions) {
    this.table = new Table(Math.max(1, Math.min(partitions, MAX_PARTITIONS)));
  }

  /** Counts one keyed record on {@code partition} (any value; negative ones are ignored). */
  void keyed(int partition) {
    add(partition, 0);
  }

  /** Counts one keyless record on {@code partition}. */
  void keyless(int partition) {
    add(partition, 1);
  }

  private void add(int partition, int kind) {
    Table t = table;
    if (Integer.compareUnsigned(partition, t.partitions) >= 0) { // negative or beyond the table
      if (partition < 0) {
        return;
      }
      if (partition >= MAX_PARTITIONS) {
        untracked.increment();
        return;
      }
      t = grow(partition + 1);
    }
    t.add(kind == 0 ? partition : t.partitions + partition);
  }

  private synchronized Table grow(int partitions) {
    Table t = table;
    if (partitions > t.partitions) {
      retired.add(t);
      t = new Table(Math.min(MAX_PARTITIONS, Math.max(partitions, t.partitions * 2)));
      table = t;
    }
    return t;
  }

  /** The number of partitions the counters cover now (at least the highest counted + 1). */
  int partitions() {
    return table.partitions;
  }

  /** Records of partitions at or above {@value #MAX_PARTITIONS}, which are not counted per partition. */
  long untracked() {
    return untracked.sum();
  }

  /**
   * Adds the keyed counts (kind 0) or keyless counts (kind 1) of partitions {@code 0..out.length-1}
   * to {@code out}.
   */
  void sumInto(int kind, long[] out) {
    Table current;
    List<Table> old;
    synchronized (this) {
      current = table;
      old = new ArrayList<>(retired);
    }
    current.sumInto(kind, out);
    for (Table t : old) {
      t.sumInto(kind, out);
    }
  }

  /** The count of one partition, keyed (kind 0) or keyless (kind 1); allocation-free. */
  long count(int kind, int partition) {
    Table current;
    Table[] old;
    synchronized (this) {
      current = table;
      old = retired.isEmpty() ? NO_TABLES : retired.toArray(NO_TABLES);
    }
    long sum = current.count(kind, partition);
    for (Table t : old) {
      sum += t.count(kind, partition);
    }
    return sum;
  }

  /** The memory of the current table in bytes (its rows, shared row and owners). */
  long memoryBytes() {
    Table t = table;
    return 8L * (t.cells.length + t.shared.length) + 8L * t.owners.length + 64;
  }

  /** One table of counters: rows owned by threads, and the shared row. */
  private static final class Table {
    final int partitions;
    final int width; // 2 * partitions: keyed, then keyless
    final int stride; // width + PAD
    final int mask; // rows - 1
    final long[] cells;
    final long[] shared;
    final Thread[] owners;

    Table(int partitions) {
      this.partitions = partitions;
      this.width = 2 * partitions;
      this.stride = width + PAD;
      int rows = Integer.highestOneBit(Math.max(1, Math.min(MAX_ROWS, MAX_CELLS / stride)));
      this.mask = rows - 1;
      this.cells = new long[PAD + rows * stride];
      this.shared = new long[width];
      this.owners = new Thread[rows];
    }

    void add(int column) {
      Thread me = Thread.currentThread();
      int row = (int) me.getId() & mask;
      if (owners[row] == me) { // our own claim is visible to us without a fence
        int i = PAD + row * stride + column;
        LONGS.setOpaque(cells, i, (long) LONGS.getOpaque(cells, i) + 1);
        return;
      }
      addShared(row, me, column);
    }

    /** The row is not ours: claim it if free, else add to the shared row (and now and then check on its owner). */
    private void addShared(int row, Thread me, int column) {
      Thread owner = (Thread) OWNERS.getVolatile(owners, row);
      if (owner == null && OWNERS.compareAndSet(owners, row, null, me)) {
        add(column);
        return;
      }
      long before = (long) LONGS.getAndAdd(shared, column, 1L);
      if ((before & TAKEOVER_CHECK) == TAKEOVER_CHECK && owner != null && !owner.isAlive()) {
        OWNERS.compareAndSet(owners, row, owner, me); // the dead owner's counts carry on with us
      }
    }

    long count(int kind, int partition) {
      if (partition < 0 || partition >= partitions) {
        return 0;
      }
      int column = kind * partitions + partition;
      long sum = (long) LONGS.getVolatile(shared, column);
      for (int r = 0; r <= mask; r++) {
        sum += (long) LONGS.getOpaque(cells, PAD + r * stride + column);
      }
      return sum;
    }

    void sumInto(int kind, long[] out) {
      int n = Math.min(out.length, partitions);
      int from = kind * partitions;
      for (int r = 0; r <= mask; r++) {
        int base = PAD + r * stride + from;
        for (int p = 0; p < n; p++) {
          out[p] += (long) LONGS.getOpaque(cells, base + p);
        }
      }
      for (int p = 0; p < n; p++) {
        out[p] += (long) LONGS.getVolatile(shared, from + p);
      }
    }
  }
}
