package io.github.routingkit.switching;

import io.github.routingkit.switching.SwitchPlan.MarkerVerdict;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The switch barrier of one consumer-group member: a state machine without I/O that decides, for
 * each record the member reads, whether business code may see it now, so that per key every
 * record routed before a switch step is handed to business code before any record routed after
 * it, whichever members own the key's old and new partitions. The Kafka and Pulsar adapters feed
 * it records, markers, revocations and what the group published; it never blocks.
 *
 * <h2>Rule</h2>
 * A record of a key that the {@link SwitchPlan} moves at step {@code s} from partition {@code q}
 * to {@code p}, read from {@code p}, was routed after the step; it is handed over only once
 * {@code q} has <em>passed</em> step {@code s}: its marker of step {@code s} was read and every
 * record before it handed to business code (by this member, {@link #offerMarker}, or by whichever
 * member owned {@code q}, as learned from the group, {@link #progress}). Until then it is held
 * back. Every other record is handed over at once: records on their old partition, keys that do
 * not move, keyless records, and records on a partition the plan gives neither old nor new
 * (counted, {@link SwitchCounts#unplannedRecords}). A record of a moving key on its old partition after that
 * partition's marker was routed by a producer that had not switched when the markers were sent
 * (clock skew beyond its bound, or a producer off the plan): it is handed over and counted
 * ({@link SwitchCounts#lateRecords}).
 *
 * <h2>Markers</h2>
 * Only markers the plan {@link SwitchPlan#verdict accepts} count; any other is ignored and
 * counted by its verdict ({@link #ignoredMarkers}). Markers never reach business code. A replayed
 * marker of a step already passed changes nothing.
 *
 * <h2>Memory and commit safety</h2>
 * A record that must wait is <b>held</b> in memory while fewer than {@code maxHeld} records are
 * held (all partitions together); beyond that it is <b>skipped</b>: only its offset and move are
 * kept (16 bytes), at most {@code maxSkipped} of them, and once it may be delivered the partition
 * is read again from it ({@link #rereads()}: the adapter seeks back; records of the re-read that
 * were already decided are {@link Outcome#DROPPED dropped}, so nothing is handed over twice). The
 * partition itself reads on past held and skipped records, to its marker. Only when both are full
 * is the partition <b>rewound</b> to the record ({@link Outcome#REWIND}: the adapter seeks back to
 * it and pauses the partition until {@link #resumable()} names it); two partitions whose keys move
 * into each other can then wait for each other's markers: the switch is stuck, nothing is lost.
 * Memory: at most {@code maxHeld} records plus {@code 16 * maxSkipped} bytes, one long per
 * partition of the plan, and a few longs per partition read.
 *
 * <p>{@link #safeOffset} is the offset below which every record of a partition was handed over
 * (the first held or skipped record, the rewind point, or past the last record read): committing
 * more would lose waiting records on a crash. {@link #revoked} drops a partition's waiting
 * records uncommitted, so its next owner reads them again.
 *
 * <p>Offsets are per-partition positions, increasing in read order (Kafka offsets; the Pulsar
 * adapter numbers messages itself). Not thread-safe: one instance per consumer thread.
 *
 * @param <R> the record type
 */
public final class MemberBarrier<R> {
  /** What became of one offered record or marker. */
  public enum Outcome {
    /** Appended to the delivery list. */
    DELIVERED,
    /** Held in memory until the partition it waits for passes its step. */
    HELD,
    /** Not kept: remembered by offset, read again once it may be delivered. */
    SKIPPED,
    /**
     * Not taken: hold and skip list are full. The partition must be sought back to this record's
     * offset and paused until {@link #resumable()} names it.
     */
    REWIND,
    /**
     * Not taken: at or after its partition's rewind point (it will be read again), or read again
     * after it was already decided.
     */
    DROPPED,
    /** An accepted marker: the partition passed a step; what waited for it was delivered. */
    MARKER,
    /** A marker the plan does not accept: ignored and counted. */
    IGNORED_MARKER
  }

  private final SwitchPlan plan;
  private final int maxHeld;
  private final int maxSkipped;
  private final long allSteps;
  private final long[] passed;
  private final TreeMap<Integer, PartitionState<R>> parts = new TreeMap<>();
  private final long[] ignored = new long[MarkerVerdict.values().length];
  private int heldCount;
  private int skippedCount;
  private long late;
  private long unplanned;
  private long rewinds;
  private long dropped;

  /**
   * Creates the barrier of one member.
   *
   * @param plan the switch plan the producers follow
   * @param maxHeld the most records held in memory at once, at least 0
   * @param maxSkipped the most records remembered by offset at once, at least 0
   * @throws NullPointerException if {@code plan} is null
   * @throws IllegalArgumentException if a bound is negative
   */
  public MemberBarrier(SwitchPlan plan, int maxHeld, int maxSkipped) {
    this.plan = Objects.requireNonNull(plan, "plan");
    if (maxHeld < 0 || maxSkipped < 0) {
      throw new IllegalArgumentException("maxHeld was " + maxHeld + " and maxSkipped "
          + maxSkipped + ", both must be >= 0");
    }
    this.maxHeld = maxHeld;
    this.maxSkipped = maxSkipped;
    this.allSteps = (1L << plan.steps()) - 1;
    this.passed = new long[plan.numPartitions()];
  }

  /** The plan this barrier guards. */
  public SwitchPlan plan() {
    return plan;
  }

  /**
   * Offers an ordinary record with a byte key (as the producer's router saw it).
   *
   * @param partition its partition, at least 0
   * @param offset its position in the partition, at least 0
   * @param key its key, or null for a keyless record
   * @param deliver where the record goes if business code may see it now
   * @return what became of it
   * @throws IllegalArgumentException if {@code partition} or {@code offset} is negative
   */
  public Outcome offer(R record, int partition, long offset, byte[] key,
      List<? super R> deliver) {
    PartitionState<R> part = part(partition, offset);
    if (part == null || offset < part.highWater) {
      return reread(record, part, offset, deliver);
    }
    return decide(record, partition, offset, key == null ? 0 : plan.move(key), part, deliver);
  }

  /**
   * Offers an ordinary record with a text key (a Pulsar message key), routed as the routers
   * route text. Otherwise as {@link #offer(Object, int, long, byte[], List)}.
   */
  public Outcome offer(R record, int partition, long offset, CharSequence key,
      List<? super R> deliver) {
    PartitionState<R> part = part(partition, offset);
    if (part == null || offset < part.highWater) {
      return reread(record, part, offset, deliver);
    }
    return decide(record, partition, offset, key == null ? 0 : plan.move(key), part, deliver);
  }

  /**
   * Offers a marker read from {@code partition} at {@code offset}. If the plan accepts it, the
   * partition passes the marker's step and every held record that waited for that is appended to
   * {@code deliver}, in partition and offset order.
   *
   * @param timestamp the marker's timestamp in milliseconds since the epoch (for settle instants)
   * @return {@link Outcome#MARKER}, {@link Outcome#IGNORED_MARKER} or {@link Outcome#DROPPED}
   * @throws NullPointerException if {@code marker} is null
   * @throws IllegalArgumentException if {@code partition} or {@code offset} is negative
   */
  public Outcome offerMarker(SwitchMarker marker, int partition, long offset, long timestamp,
      List<? super R> deliver) {
    Objects.requireNonNull(marker, "marker");
    PartitionState<R> part = part(partition, offset);
    if (part == null || offset < part.highWater) {
      dropped++;
      return Outcome.DROPPED;
    }
    part.highWater = offset + 1;
    MarkerVerdict verdict = partition >= passed.length ? MarkerVerdict.WRONG_PARTITION
        : plan.verdict(marker, partition, timestamp);
    if (verdict != MarkerVerdict.ACCEPTED) {
      ignored[verdict.ordinal()]++;
      return Outcome.IGNORED_MARKER;
    }
    int step = plan.stepIndex(marker.step());
    if (part.markerOffsets == null) {
      part.markerOffsets = new long[plan.steps()];
      Arrays.fill(part.markerOffsets, -1);
    }
    if (part.markerOffsets[step] < 0) {
      part.markerOffsets[step] = offset;
    }
    pass(partition, 1L << step, deliver);
    return Outcome.MARKER;
  }

  /**
   * Records what the group published for {@code partition} (another member's claim, or this
   * member's from before a restart): the steps it passed. Every held record that waited for one
   * of them is appended to {@code deliver}, in partition and offset order; skipped ones become
   * due for a re-read ({@link #rereads()}). Bits beyond the plan's steps are ignored; passing is
   * never undone.
   *
   * @throws IllegalArgumentException if {@code partition} is negative
   */
  public void progress(int partition, long passedSteps, List<? super R> deliver) {
    checkPartition(partition);
    if (partition < passed.length) {
      pass(partition, passedSteps & allSteps, deliver);
    }
  }

  /**
   * The steps {@code partition} is known to have passed, as a bit set (bit {@code i} for step
   * index {@code i}): what this member may publish for it ({@link SwitchProgress#encode}).
   */
  public long passedSteps(int partition) {
    checkPartition(partition);
    return partition < passed.length ? passed[partition] : 0;
  }

  /** Whether every partition of the plan passed every step and nothing waits. */
  public boolean complete() {
    if (heldCount > 0 || skippedCount > 0) {
      return false;
    }
    for (long p : passed) {
      if (p != allSteps) {
        return false;
      }
    }
    return true;
  }

  /**
   * Forgets a partition this member no longer reads (revoked or lost): its waiting records are
   * dropped, not delivered, and its offsets forgotten. What the group passed stays known.
   *
   * @return the number of held and skipped records dropped
   */
  public int revoked(int partition) {
    checkPartition(partition);
    PartitionState<R> part = parts.remove(partition);
    if (part == null) {
      return 0;
    }
    heldCount -= part.held.size();
    skippedCount -= part.skipped.size();
    return part.held.size() + part.skipped.size();
  }

  /** Forgets every partition, as {@link #revoked} each; returns the waiting records dropped. */
  public int revokedAll() {
    int n = heldCount + skippedCount;
    parts.clear();
    heldCount = 0;
    skippedCount = 0;
    return n;
  }

  /**
   * The consumer's position in {@code partition} moved to {@code offset} (the adapter sought it,
   * or the client rewound it): records from there on are expected next.
   */
  public void sought(int partition, long offset) {
    checkPartition(partition);
    PartitionState<R> part = parts.get(partition);
    if (part != null) {
      part.position = offset;
    }
  }

  /**
   * The offset below which every record of {@code partition} was handed to business code or was a
   * marker: the offset to commit. -1 if no record of it was offered since it was last revoked.
   */
  public long safeOffset(int partition) {
    checkPartition(partition);
    PartitionState<R> part = parts.get(partition);
    return part == null ? -1 : part.safeOffset();
  }

  /**
   * The partitions to read again, with the offset to seek each to: the first skipped record that
   * may now be delivered, where the consumer is past it. Ascending by partition. After seeking,
   * tell the barrier ({@link #sought}).
   */
  public Map<Integer, Long> rereads() {
    TreeMap<Integer, Long> out = new TreeMap<>();
    for (Map.Entry<Integer, PartitionState<R>> e : parts.entrySet()) {
      PartitionState<R> part = e.getValue();
      for (int i = 0; i < part.skipped.size(); i++) {
        long offset = part.skipped.offset(i);
        if (offset >= part.position) {
          break;
        }
        if (passedFor(part.skipped.move(i))) {
          out.put(e.getKey(), offset);
          break;
        }
      }
    }
    return out;
  }

  /** The rewind point of {@code partition}, or -1 if it is not rewound. */
  public long rewoundAt(int partition) {
    checkPartition(partition);
    PartitionState<R> part = parts.get(partition);
    return part == null ? -1 : part.rewoundAt;
  }

  /**
   * The rewound partitions that may be resumed now: the partition the rewind record waits for
   * passed, or at most half of {@code maxHeld} records are held or of {@code maxSkipped} skipped
   * (for a bound above 0). Ascending.
   */
  public int[] resumable() {
    boolean room = maxHeld > 0 && heldCount <= maxHeld / 2
        || maxSkipped > 0 && skippedCount <= maxSkipped / 2;
    List<Integer> out = new ArrayList<>();
    for (Map.Entry<Integer, PartitionState<R>> e : parts.entrySet()) {
      PartitionState<R> part = e.getValue();
      if (part.rewoundAt >= 0 && (room || passedFor(part.rewindWait))) {
        out.add(e.getKey());
      }
    }
    return out.stream().mapToInt(Integer::intValue).toArray();
  }

  /** The adapter resumed {@code partition} (reading from its rewind point): it is taken again. */
  public void resumed(int partition) {
    checkPartition(partition);
    PartitionState<R> part = parts.get(partition);
    if (part != null) {
      part.position = part.rewoundAt;
      part.rewoundAt = -1;
    }
  }

  /**
   * The partitions whose progress waiting records wait for, with the steps they wait for as a bit
   * set: what to ask the group about. Ascending by partition.
   */
  public Map<Integer, Long> awaited() {
    TreeMap<Integer, Long> out = new TreeMap<>();
    for (PartitionState<R> part : parts.values()) {
      for (PartitionState.Held<R> h : part.held) {
        await(out, h.move());
      }
      for (int i = 0; i < part.skipped.size(); i++) {
        await(out, part.skipped.move(i));
      }
      if (part.rewoundAt >= 0) {
        await(out, part.rewindWait);
      }
    }
    return out;
  }

  private void await(Map<Integer, Long> out, long move) {
    if (!passedFor(move)) {
      out.merge(SwitchPlan.from(move), 1L << SwitchPlan.step(move), (a, b) -> a | b);
    }
  }

  /** The number of records held in memory now, in [0, maxHeld]. */
  public int held() {
    return heldCount;
  }

  /** The number of records skipped (remembered by offset) now, in [0, maxSkipped]. */
  public int skipped() {
    return skippedCount;
  }

  /** The markers ignored so far with verdict {@code verdict}. */
  public long ignoredMarkers(MarkerVerdict verdict) {
    return ignored[verdict.ordinal()];
  }

  /** A snapshot of the counters. */
  public SwitchCounts counts() {
    return new SwitchCounts(Arrays.stream(ignored).sum(), late, unplanned, rewinds, dropped);
  }

  private Outcome decide(R record, int partition, long offset, long move, PartitionState<R> part,
      List<? super R> deliver) {
    if (move != 0) {
      int step = SwitchPlan.step(move);
      int from = SwitchPlan.from(move);
      if (partition == from) {
        long marker = part.markerOffsets == null ? -1 : part.markerOffsets[step];
        if (marker >= 0 && offset > marker) {
          late++;
        }
      } else if (partition != SwitchPlan.to(move)) {
        unplanned++;
      } else if (!passedFor(move) || part.skipped.contains(move)) {
        // a skipped record of the key is read again before any later one is handed over
        return wait(record, offset, move, part);
      }
    }
    part.highWater = offset + 1;
    deliver.add(record);
    return Outcome.DELIVERED;
  }

  private Outcome wait(R record, long offset, long move, PartitionState<R> part) {
    // behind a skipped record, hold nothing: a later record of its key must not overtake it
    if (heldCount < maxHeld && part.skipped.size() == 0) {
      part.held.add(new PartitionState.Held<>(record, offset, move));
      heldCount++;
      part.highWater = offset + 1;
      return Outcome.HELD;
    }
    if (skippedCount < maxSkipped) {
      part.skipped.add(offset, move);
      skippedCount++;
      part.highWater = offset + 1;
      return Outcome.SKIPPED;
    }
    part.rewoundAt = offset;
    part.rewindWait = move;
    part.position = offset;
    rewinds++;
    return Outcome.REWIND;
  }

  /**
   * A record below the high water (read again after a seek) or at a rewind point: a skipped one
   * that may now be delivered is; every other is dropped.
   */
  private Outcome reread(R record, PartitionState<R> part, long offset, List<? super R> deliver) {
    if (part != null) {
      int i = part.skipped.indexOf(offset);
      if (i >= 0) {
        // an earlier skipped record of the same wait was not read again yet (the wait ended
        // during this re-read, which started after it): it goes first, from a later re-read
        if (!passedFor(part.skipped.move(i)) || !part.skipped.firstOfMove(i)) {
          return Outcome.SKIPPED;
        }
        part.skipped.remove(i);
        skippedCount--;
        deliver.add(record);
        return Outcome.DELIVERED;
      }
    }
    dropped++;
    return Outcome.DROPPED;
  }

  private void pass(int partition, long steps, List<? super R> deliver) {
    long fresh = steps & ~passed[partition];
    if (fresh == 0) {
      return;
    }
    passed[partition] |= fresh;
    if (heldCount == 0) {
      return;
    }
    for (PartitionState<R> part : parts.values()) {
      heldCount -= part.release(partition, fresh, deliver);
    }
  }

  private boolean passedFor(long move) {
    return (passed[SwitchPlan.from(move)] >>> SwitchPlan.step(move) & 1) != 0;
  }

  /**
   * The partition's state, or null if the offset is at or after its rewind point; notes the
   * offset as the consumer's position.
   */
  private PartitionState<R> part(int partition, long offset) {
    checkPartition(partition);
    if (offset < 0) {
      throw new IllegalArgumentException("offset was " + offset + ", must be >= 0");
    }
    PartitionState<R> part = parts.computeIfAbsent(partition, p -> new PartitionState<>());
    if (part.rewoundAt >= 0 && offset >= part.rewoundAt) {
      return null;
    }
    part.position = offset + 1;
    return part;
  }

  private static void checkPartition(int partition) {
    if (partition < 0) {
      throw new IllegalArgumentException("partition was " + partition + ", must be >= 0");
    }
  }
}
