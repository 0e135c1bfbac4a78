package io.github.routingkit.switching;

import java.util.ArrayList;
import java.util.List;

/**
 * What a {@link MemberBarrier} keeps of one partition it reads: positions, the records held in
 * memory and those skipped (by offset), a rewind point, and where the step markers were read.
 * Not thread-safe.
 *
 * @param <R> the record type
 */
final class PartitionState<R> {
  /** A record held in memory with the move it waits for. */
  static final class Held<R> {
    private final R record;
    private final long offset;
    private final long move;

    Held(R record, long offset, long move) {
      this.record = record;
      this.offset = offset;
      this.move = move;
    }

    R record() {
      return record;
    }

    long offset() {
      return offset;
    }

    long move() {
      return move;
    }
  }

  /** Past the highest offset decided since the partition was (re)assigned. */
  long highWater = -1;
  /** Past the last offset offered (the consumer's position as far as the barrier knows). */
  long position = -1;
  final List<Held<R>> held = new ArrayList<>(0);
  final SkipList skipped = new SkipList();
  long rewoundAt = -1;
  long rewindWait;
  long[] markerOffsets;

  /** The offset below which every record was decided and none waits; -1 if none was read. */
  long safeOffset() {
    long safe = rewoundAt >= 0 ? rewoundAt : highWater;
    if (!held.isEmpty()) {
      safe = Math.min(safe, held.get(0).offset());
    }
    if (skipped.size() > 0) {
      safe = Math.min(safe, skipped.offset(0));
    }
    return safe;
  }

  /**
   * Delivers, in offset order, the held records waiting for {@code from} to pass one of the
   * {@code fresh} steps; returns how many.
   */
  int release(int from, long fresh, List<? super R> deliver) {
    int kept = 0;
    int released = 0;
    for (int i = 0; i < held.size(); i++) {
      Held<R> h = held.get(i);
      if (SwitchPlan.from(h.move()) == from && (fresh >>> SwitchPlan.step(h.move()) & 1) != 0) {
        deliver.add(h.record());
        released++;
      } else {
        held.set(kept++, h);
      }
    }
    held.subList(kept, held.size()).clear();
    return released;
  }
}
