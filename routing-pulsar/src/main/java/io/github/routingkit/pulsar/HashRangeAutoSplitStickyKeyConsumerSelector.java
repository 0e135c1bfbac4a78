package io.github.routingkit.pulsar;

import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;
import org.apache.pulsar.client.api.Range;

/**
 * Model of pulsar-broker's {@code HashRangeAutoSplitStickyKeyConsumerSelector} (4.x): members own
 * contiguous ranges {@code (lower, upper]} of the slots, the top one ending at 65536; a joining
 * member takes the lower half of the biggest range.
 */
final class HashRangeAutoSplitStickyKeyConsumerSelector extends StickyKeySelectorModel {

  /*
   * Broker behaviour modelled (read from the 4.2.4 sources):
   * - the first consumer owns upper bound 65536 (rangeSize), i.e. every slot;
   * - a later one splits the biggest range (lower, upper] (size upper - lower, lower = 0 below the
   *   first bound; on ties the lowest range) at split = upper - (size >> 1) and owns
   *   (lower, split]: the LOWER half; the old owner keeps (split, upper];
   * - a range of size 1 cannot be split: the consumer is rejected (ConsumerAssignException), so
   *   at most 65536 consumers connect;
   * - when the owner of the top range (upper 65536) leaves and others remain, the owner of the
   *   range just below takes over upper bound 65536 (its old bound disappears); any other
   *   leaver's bound just disappears, so its range joins the range above it;
   * - select(slot) is the ceiling bound's owner; slot 0 belongs to the lowest range.
   *
   * State: sorted upper bounds with their owners. A join scans for the biggest range (O(n)) and
   * inserts; a leave deletes: both linear in the connected consumers, independent of history.
   * build() replays n joins from empty with a priority queue of ranges in O(n log n): the rule
   * "biggest, then lowest" is an order on (size desc, upper asc).
   */

  private static final int TOP = KeySharedPredictor.HASH_RANGE_SIZE;

  private int[] uppers;
  private int[] owners;
  private int size;

  private HashRangeAutoSplitStickyKeyConsumerSelector(int[] uppers, int[] owners, int size) {
    this.uppers = uppers;
    this.owners = owners;
    this.size = size;
  }

  /**
   * Builds the state after members {@code 0 .. count - 1} joined in that order.
   *
   * @throws IllegalArgumentException if more than 65536 join, naming the first rejected one
   */
  static HashRangeAutoSplitStickyKeyConsumerSelector build(List<String> names) {
    int n = names.size();
    if (n > TOP) {
      throw rejected(names.get(TOP), TOP);
    }
    int[] ownerAt = new int[TOP + 1];
    Arrays.fill(ownerAt, NOBODY);
    // a range (upper - size, upper] as one long ordered by size descending, then upper ascending
    PriorityQueue<Long> ranges = new PriorityQueue<>();
    for (int id = 0; id < n; id++) {
      if (id == 0) {
        ownerAt[TOP] = id;
        ranges.add(range(TOP, TOP));
        continue;
      }
      long biggest = ranges.poll();
      int upper = (int) (biggest & 0x1ffff);
      int rangeSize = TOP - (int) (biggest >>> 17);
      int split = upper - (rangeSize >> 1);
      ownerAt[split] = id;
      ranges.add(range(split, split - (upper - rangeSize)));
      ranges.add(range(upper, upper - split));
    }
    int[] uppers = new int[n];
    int[] owners = new int[n];
    int k = 0;
    for (int u = 0; u <= TOP; u++) {
      if (ownerAt[u] != NOBODY) {
        uppers[k] = u;
        owners[k++] = ownerAt[u];
      }
    }
    return new HashRangeAutoSplitStickyKeyConsumerSelector(uppers, owners, k);
  }

  private static long range(int upper, int rangeSize) {
    return ((long) (TOP - rangeSize) << 17) | upper;
  }

  private static IllegalArgumentException rejected(String name, int connected) {
    return new IllegalArgumentException("consumer '" + name + "' cannot join: no hash range left to"
        + " split among " + connected + " consumers (the broker rejects it; at most " + TOP
        + " consumers connect under auto-split)");
  }

  @Override
  HashRangeAutoSplitStickyKeyConsumerSelector copy() {
    return new HashRangeAutoSplitStickyKeyConsumerSelector(
        Arrays.copyOf(uppers, size), Arrays.copyOf(owners, size), size);
  }

  @Override
  void add(int id, String name, List<Range> ranges) {
    if (size == 0) {
      uppers = new int[] {TOP};
      owners = new int[] {id};
      size = 1;
      return;
    }
    int best = 0;
    int bestSize = 0;
    int lower = 0;
    for (int i = 0; i < size; i++) {
      if (uppers[i] - lower > bestSize) {
        bestSize = uppers[i] - lower;
        best = i;
      }
      lower = uppers[i];
    }
    if (bestSize <= 1) {
      throw rejected(name, size);
    }
    int split = uppers[best] - (bestSize >> 1);
    int[] newUppers = new int[size + 1];
    int[] newOwners = new int[size + 1];
    System.arraycopy(uppers, 0, newUppers, 0, best);
    System.arraycopy(owners, 0, newOwners, 0, best);
    newUppers[best] = split;
    newOwners[best] = id;
    System.arraycopy(uppers, best, newUppers, best + 1, size - best);
    System.arraycopy(owners, best, newOwners, best + 1, size - best);
    uppers = newUppers;
    owners = newOwners;
    size++;
  }

  @Override
  void remove(int id) {
    int at = 0;
    while (owners[at] != id) {
      at++;
    }
    if (uppers[at] == TOP && size > 1) {
      owners[at] = owners[at - 1]; // the range below takes over the top bound
      at--;
    }
    System.arraycopy(uppers, at + 1, uppers, at, size - at - 1);
    System.arraycopy(owners, at + 1, owners, at, size - at - 1);
    size--;
  }

  @Override
  int ownerOf(int slot) {
    int i = ceilingIndex(uppers, size, slot);
    return i == size ? NOBODY : owners[i];
  }

  @Override
  List<Range> rangesOf(int id) {
    int lower = 0;
    for (int i = 0; i < size; i++) {
      if (owners[i] == id) {
        // the broker reports [lower + 1, upper] (from 0 for the lowest), the top one ending at 65536
        return List.of(Range.of(i == 0 ? 0 : lower + 1, uppers[i]));
      }
      lower = uppers[i];
    }
    return List.of();
  }
}
