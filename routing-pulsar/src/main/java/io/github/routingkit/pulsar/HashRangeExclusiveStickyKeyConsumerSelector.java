package io.github.routingkit.pulsar;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.pulsar.client.api.Range;

/**
 * Model of pulsar-broker's {@code HashRangeExclusiveStickyKeyConsumerSelector} (4.x), used with
 * {@code KeySharedMode.STICKY}: each member owns the inclusive ranges it declared; slots nobody
 * declared go to nobody.
 */
final class HashRangeExclusiveStickyKeyConsumerSelector extends StickyKeySelectorModel {

  /*
   * Broker behaviour modelled (read from the 4.2.4 sources):
   * - a consumer must declare at least one range; its own ranges must not overlap (sorted by
   *   start, neighbours checked); the client's KeySharedPolicy.validate() also keeps bounds in
   *   [0, 65535];
   * - a consumer whose range overlaps a connected consumer's range is rejected (names do not
   *   matter: instances sharing a name with disjoint ranges all connect);
   * - select(slot) is the range with the greatest start <= slot, if it contains the slot.
   *
   * State: all connected ranges sorted by start, with their owners. A join checks its ranges
   * against their neighbours by binary search and merges them in; a leave compacts.
   */

  private int[] starts;
  private int[] ends;
  private int[] owners;
  private int size;
  private final Map<Integer, String> nameOf;

  private HashRangeExclusiveStickyKeyConsumerSelector(int[] starts, int[] ends, int[] owners,
      int size, Map<Integer, String> nameOf) {
    this.nameOf = nameOf;
    this.starts = starts;
    this.ends = ends;
    this.owners = owners;
    this.size = size;
  }

  static HashRangeExclusiveStickyKeyConsumerSelector empty() {
    return new HashRangeExclusiveStickyKeyConsumerSelector(new int[0], new int[0], new int[0], 0,
        new HashMap<>());
  }

  @Override
  HashRangeExclusiveStickyKeyConsumerSelector copy() {
    return new HashRangeExclusiveStickyKeyConsumerSelector(Arrays.copyOf(starts, size),
        Arrays.copyOf(ends, size), Arrays.copyOf(owners, size), size, new HashMap<>(nameOf));
  }

  /**
   * Throws unless {@code ranges} may be declared by one consumer: non-empty, within
   * {@code [0, 65535]}, no two overlapping.
   */
  static void checkOwnRanges(String name, List<Range> ranges) {
    if (ranges.isEmpty()) {
      throw new IllegalArgumentException("sticky consumer '" + name + "' has no ranges;"
          + " KeySharedPolicy.stickyHashRange() needs at least one");
    }
    for (Range r : ranges) {
      if (r.getStart() < 0 || r.getEnd() >= KeySharedPredictor.HASH_RANGE_SIZE) {
        throw new IllegalArgumentException(
            "sticky range " + r + " of consumer '" + name + "' is outside [0, 65535]");
      }
    }
    List<Range> sorted = new ArrayList<>(ranges);
    sorted.sort(Comparator.comparingInt(Range::getStart));
    for (int i = 1; i < sorted.size(); i++) {
      if (sorted.get(i).getStart() <= sorted.get(i - 1).getEnd()) {
        throw new IllegalArgumentException("sticky ranges " + sorted.get(i - 1) + " and "
            + sorted.get(i) + " of consumer '" + name + "' overlap");
      }
    }
  }

  /** Returns the index of a connected range overlapping {@code r}, or -1. */
  private int conflict(Range r) {
    int f = floorIndex(starts, size, r.getStart());
    if (f >= 0 && ends[f] >= r.getStart()) {
      return f;
    }
    int c = f + 1;
    return c < size && starts[c] <= r.getEnd() ? c : -1;
  }

  @Override
  void add(int id, String name, List<Range> ranges) {
    checkOwnRanges(name, ranges);
    for (Range mine : ranges) {
      int other = conflict(mine);
      if (other >= 0) {
        throw new IllegalArgumentException("sticky range " + mine + " of consumer '" + name
            + "' overlaps range " + Range.of(starts[other], ends[other]) + " of consumer '"
            + nameOf.get(owners[other]) + "' (the broker rejects the later consumer)");
      }
    }
    List<Range> sorted = new ArrayList<>(ranges);
    sorted.sort(Comparator.comparingInt(Range::getStart));
    int total = size + sorted.size();
    int[] s = new int[total];
    int[] e = new int[total];
    int[] o = new int[total];
    int a = 0;
    int b = 0;
    for (int k = 0; k < total; k++) {
      if (b == sorted.size() || (a < size && starts[a] < sorted.get(b).getStart())) {
        s[k] = starts[a];
        e[k] = ends[a];
        o[k] = owners[a++];
      } else {
        s[k] = sorted.get(b).getStart();
        e[k] = sorted.get(b++).getEnd();
        o[k] = id;
      }
    }
    starts = s;
    ends = e;
    owners = o;
    size = total;
    nameOf.put(id, name);
  }

  @Override
  void remove(int id) {
    nameOf.remove(id);
    int k = 0;
    for (int i = 0; i < size; i++) {
      if (owners[i] != id) {
        starts[k] = starts[i];
        ends[k] = ends[i];
        owners[k++] = owners[i];
      }
    }
    size = k;
  }

  @Override
  int ownerOf(int slot) {
    int i = floorIndex(starts, size, slot);
    return i >= 0 && slot <= ends[i] ? owners[i] : NOBODY;
  }

  @Override
  List<Range> rangesOf(int id) {
    List<Range> result = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      if (owners[i] == id) {
        result.add(Range.of(starts[i], ends[i]));
      }
    }
    return result;
  }
}
