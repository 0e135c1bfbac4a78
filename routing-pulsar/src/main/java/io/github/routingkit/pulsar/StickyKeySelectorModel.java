package io.github.routingkit.pulsar;

import java.util.Arrays;
import java.util.List;
import org.apache.pulsar.client.api.Range;

/**
 * The ownership state of one broker sticky-key consumer selector: which member (a join number, see
 * {@link ConsumerHandle}) owns which slot. One subclass per pulsar-broker selector class, named
 * after it. Instances are mutable and not thread-safe; {@link KeySharedPredictor} copies one before
 * changing it, so every predictor it hands out stays immutable.
 */
abstract class StickyKeySelectorModel {

  /** Returned by {@link #ownerOf(int)} when no member receives the slot. */
  static final int NOBODY = -1;

  /** Returns an independent copy; costs time and memory linear in the state, not in history. */
  abstract StickyKeySelectorModel copy();

  /**
   * Connects member {@code id} as the broker's {@code addConsumer} does.
   *
   * @param ranges the declared ranges (exclusive selector), else null
   * @throws IllegalArgumentException if the broker would reject the consumer; the state is then
   *     unchanged
   */
  abstract void add(int id, String name, List<Range> ranges);

  /** Disconnects member {@code id} (which must be connected) as {@code removeConsumer} does. */
  abstract void remove(int id);

  /** Returns the member that receives {@code slot}, as the broker's {@code select(int)}, or NOBODY. */
  abstract int ownerOf(int slot);

  /**
   * Returns the inclusive ranges member {@code id} receives, ascending, adjacent ranges merged, as
   * the broker's {@code getConsumerHashAssignmentsSnapshot()} reports them.
   */
  abstract List<Range> rangesOf(int id);

  /** Index of the first key {@code >= v} in {@code keys[0, n)}, or {@code n}. */
  static int ceilingIndex(int[] keys, int n, int v) {
    int i = Arrays.binarySearch(keys, 0, n, v);
    return i >= 0 ? i : -(i + 1);
  }

  /** Index of the last key {@code <= v} in {@code keys[0, n)}, or -1. */
  static int floorIndex(int[] keys, int n, int v) {
    int i = Arrays.binarySearch(keys, 0, n, v);
    return i >= 0 ? i : -(i + 1) - 1;
  }

  /** Appends {@code [start, end]} to {@code ranges}, merging it into the last one if adjacent. */
  static void addMerged(List<Range> ranges, int start, int end) {
    if (!ranges.isEmpty() && ranges.get(ranges.size() - 1).getEnd() + 1 == start) {
      Range last = ranges.remove(ranges.size() - 1);
      ranges.add(Range.of(last.getStart(), end));
    } else {
      ranges.add(Range.of(start, end));
    }
  }
}
