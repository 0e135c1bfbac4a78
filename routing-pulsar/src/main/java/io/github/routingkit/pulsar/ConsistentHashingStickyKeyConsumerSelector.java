package io.github.routingkit.pulsar;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.pulsar.client.api.Range;

/**
 * Model of pulsar-broker's {@code ConsistentHashingStickyKeyConsumerSelector} (4.x): each member
 * puts {@code points} points on a ring of slots; a slot goes to the member of the first point at
 * or after it, wrapping around.
 */
final class ConsistentHashingStickyKeyConsumerSelector extends StickyKeySelectorModel {

  /*
   * Broker behaviour modelled (read from the 4.2.4 sources):
   * - point i of a consumer is makeStickyKeyHash(bytes of name + "\0" + nameIndex + "\0" + i);
   *   nameIndex is the lowest index no connected consumer of that name holds
   *   (ConsumerNameIndexTracker), freed when that consumer leaves;
   * - the first consumer to put a point on a slot is selected for it; later ones queue behind it
   *   (colliding consumers) in arrival order; when the selected one leaves, the head of the queue
   *   takes over; a queued one leaving just leaves the queue;
   * - consumers are told apart by identity, so instances sharing a name are distinct members.
   *
   * State: the ring as two parallel sorted arrays (slot, selected member) plus a sparse map of
   * queues for colliding slots. Queues are replaced, never changed in place, and the per-name
   * index sets are copied on write, so copy() is a flat copy of the arrays and maps: time and
   * memory linear in the connected points, independent of how many joins and leaves led here.
   * A join hashes its points and merges them into the ring; a leave rehashes them and compacts.
   */

  private static final int REMOVED = -2;

  private record Member(String name, int nameIndex) {}

  private final KeySharedPredictor.Selector selector;
  private final int points;
  private int[] slots;
  private int[] selected;
  private int size;
  private final Map<Integer, int[]> colliders;
  private final Map<Integer, Member> members;
  private final Map<String, BitSet> usedNameIndexes;

  private ConsistentHashingStickyKeyConsumerSelector(KeySharedPredictor.Selector selector,
      int points, int[] slots, int[] selected, int size, Map<Integer, int[]> colliders,
      Map<Integer, Member> members, Map<String, BitSet> usedNameIndexes) {
    this.selector = selector;
    this.points = points;
    this.slots = slots;
    this.selected = selected;
    this.size = size;
    this.colliders = colliders;
    this.members = members;
    this.usedNameIndexes = usedNameIndexes;
  }

  /**
   * Builds the state after members {@code 0 .. names.length - 1} joined in that order: the same
   * as adding them one by one, in O(P log P) for P = names.length x points.
   */
  static ConsistentHashingStickyKeyConsumerSelector build(
      KeySharedPredictor.Selector selector, int points, List<String> names) {
    /*
     * Without leaves, a slot's selected member is the earliest point placed on it and its queue
     * the later ones in placement order. Sorting (slot, placement sequence) pairs gives exactly
     * that, without the per-join merge.
     */
    int n = names.size();
    long total = (long) n * points;
    long[] placed = new long[(int) total];
    Map<Integer, Member> members = new HashMap<>();
    Map<String, BitSet> used = new HashMap<>();
    StringBuilder sb = new StringBuilder();
    int k = 0;
    for (int id = 0; id < n; id++) {
      String name = names.get(id);
      BitSet indexes = used.computeIfAbsent(name, x -> new BitSet());
      int nameIndex = indexes.nextClearBit(0);
      indexes.set(nameIndex);
      members.put(id, new Member(name, nameIndex));
      for (int i = 0; i < points; i++) {
        placed[k] = ((long) point(selector, sb, name, nameIndex, i) << 32) | k;
        k++;
      }
    }
    Arrays.sort(placed);
    int[] slots = new int[placed.length];
    int[] selected = new int[placed.length];
    Map<Integer, int[]> colliders = new HashMap<>();
    int size = 0;
    for (int i = 0; i < placed.length; ) {
      int slot = (int) (placed[i] >>> 32);
      int j = i + 1;
      while (j < placed.length && (int) (placed[j] >>> 32) == slot) {
        j++;
      }
      slots[size] = slot;
      selected[size] = (int) placed[i] / points;
      size++;
      if (j - i > 1) {
        int[] queue = new int[j - i - 1];
        for (int q = i + 1; q < j; q++) {
          queue[q - i - 1] = (int) placed[q] / points;
        }
        colliders.put(slot, queue);
      }
      i = j;
    }
    return new ConsistentHashingStickyKeyConsumerSelector(
        selector, points, slots, selected, size, colliders, members, used);
  }

  @Override
  ConsistentHashingStickyKeyConsumerSelector copy() {
    return new ConsistentHashingStickyKeyConsumerSelector(selector, points,
        Arrays.copyOf(slots, size), Arrays.copyOf(selected, size), size,
        new HashMap<>(colliders), new HashMap<>(members), new HashMap<>(usedNameIndexes));
  }

  /** Returns the number of connected members. */
  int memberCount() {
    return members.size();
  }

  @Override
  void add(int id, String name, List<Range> ranges) {
    BitSet indexes = usedNameIndexes.get(name);
    indexes = indexes == null ? new BitSet() : (BitSet) indexes.clone();
    int nameIndex = indexes.nextClearBit(0);
    indexes.set(nameIndex);
    usedNameIndexes.put(name, indexes);
    members.put(id, new Member(name, nameIndex));
    StringBuilder sb = new StringBuilder();
    Set<Integer> fresh = new HashSet<>();
    for (int i = 0; i < points; i++) {
      int p = point(selector, sb, name, nameIndex, i);
      if (Arrays.binarySearch(slots, 0, size, p) >= 0 || !fresh.add(p)) {
        enqueue(p, id);
      }
    }
    int[] added = fresh.stream().mapToInt(Integer::intValue).sorted().toArray();
    int[] newSlots = new int[size + added.length];
    int[] newSelected = new int[newSlots.length];
    int a = 0;
    int b = 0;
    for (int o = 0; o < newSlots.length; o++) {
      if (b == added.length || (a < size && slots[a] < added[b])) {
        newSlots[o] = slots[a];
        newSelected[o] = selected[a++];
      } else {
        newSlots[o] = added[b++];
        newSelected[o] = id;
      }
    }
    slots = newSlots;
    selected = newSelected;
    size = newSlots.length;
  }

  private void enqueue(int slot, int id) {
    int[] queue = colliders.get(slot);
    int[] longer = queue == null ? new int[1] : Arrays.copyOf(queue, queue.length + 1);
    longer[longer.length - 1] = id;
    colliders.put(slot, longer);
  }

  @Override
  void remove(int id) {
    Member m = members.remove(id);
    StringBuilder sb = new StringBuilder();
    boolean compact = false;
    for (int i = 0; i < points; i++) {
      int p = point(selector, sb, m.name, m.nameIndex, i);
      int at = Arrays.binarySearch(slots, 0, size, p);
      int[] queue = colliders.get(p);
      if (selected[at] == id) {
        if (queue != null) {
          selected[at] = queue[0];
          putQueue(p, Arrays.copyOfRange(queue, 1, queue.length));
        } else {
          selected[at] = REMOVED;
          compact = true;
        }
      } else if (queue != null) {
        putQueue(p, Arrays.stream(queue).filter(q -> q != id).toArray());
      }
    }
    if (compact) {
      int o = 0;
      for (int i = 0; i < size; i++) {
        if (selected[i] != REMOVED) {
          slots[o] = slots[i];
          selected[o++] = selected[i];
        }
      }
      size = o;
    }
    BitSet indexes = (BitSet) usedNameIndexes.get(m.name).clone();
    indexes.clear(m.nameIndex);
    if (indexes.isEmpty()) {
      usedNameIndexes.remove(m.name);
    } else {
      usedNameIndexes.put(m.name, indexes);
    }
  }

  private void putQueue(int slot, int[] queue) {
    if (queue.length == 0) {
      colliders.remove(slot);
    } else {
      colliders.put(slot, queue);
    }
  }

  @Override
  int ownerOf(int slot) {
    if (size == 0) {
      return NOBODY;
    }
    int i = ceilingIndex(slots, size, slot);
    return selected[i == size ? 0 : i];
  }

  @Override
  List<Range> rangesOf(int id) {
    List<Range> result = new ArrayList<>();
    int start = selector.firstSlot();
    for (int i = 0; i < size; i++) {
      if (selected[i] == id && start <= slots[i]) {
        addMerged(result, start, slots[i]);
      }
      start = slots[i] + 1;
    }
    if (size > 0 && selected[0] == id && start <= selector.lastSlot()) {
      addMerged(result, start, selector.lastSlot()); // wrap-around to the first point's owner
    }
    return result;
  }

  private static int point(KeySharedPredictor.Selector selector, StringBuilder sb, String name,
      int nameIndex, int pointIndex) {
    sb.setLength(0);
    sb.append(name).append('\0').append(nameIndex).append('\0').append(pointIndex);
    return selector.slot(sb);
  }
}
