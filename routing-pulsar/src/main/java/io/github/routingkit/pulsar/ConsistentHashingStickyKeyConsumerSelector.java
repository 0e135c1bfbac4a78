package io.github.routingkit.pulsar;

import io.github.routingkit.hash.HashScheme;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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
   *   takes over; a queued one leaving just leaves the queue. A consumer whose own points collide
   *   queues behind itself; leaving removes every occurrence;
   * - consumers are told apart by identity, so instances sharing a name are distinct members.
   *
   * State: every placed point as one long, (slot << 32) | arrival, sorted, with its member in a
   * parallel array. A slot's selected member is then simply the first entry of its run (earliest
   * arrival), and the rest of the run is the broker's queue in order: a leave deletes the
   * member's entries and whatever comes first in each run is selected, exactly as the queue's head
   * takes over. select(slot) is one binary search for slot << 32. A join hashes its points into a
   * reused byte buffer (no String per point), sorts them and merges them in; a leave compacts.
   * Both cost O(P) for P connected points, independent of history; copy() is two array copies
   * plus the member maps. Arrival numbers are renumbered (in place, order kept) before they
   * overflow 32 bits.
   */

  private static final class Member {
    private final String name;
    private final int nameIndex;

    private Member(String name, int nameIndex) {
      this.name = name;
      this.nameIndex = nameIndex;
    }

    public String name() {
      return name;
    }

    public int nameIndex() {
      return nameIndex;
    }

    @Override
    public boolean equals(Object o) {
      if (this == o) {
        return true;
      }
      if (!(o instanceof Member)) {
        return false;
      }
      Member other = (Member) o;
      return Objects.equals(name, other.name)
          && nameIndex == other.nameIndex;
    }

    @Override
    public int hashCode() {
      int h = 0;
      h = 31 * h + Objects.hashCode(name);
      h = 31 * h + Integer.hashCode(nameIndex);
      return h;
    }

    @Override
    public String toString() {
      return "Member[name=" + name + ", nameIndex=" + nameIndex + "]";
    }
  }

  private final KeySharedPredictor.Selector selector;
  private final int points;
  private long[] placed;
  private int[] memberOf;
  private int size;
  private long nextArrival;
  private final Map<Integer, Member> members;
  private final Map<String, BitSet> usedNameIndexes;

  private ConsistentHashingStickyKeyConsumerSelector(KeySharedPredictor.Selector selector,
      int points, long[] placed, int[] memberOf, int size, long nextArrival,
      Map<Integer, Member> members, Map<String, BitSet> usedNameIndexes) {
    this.selector = selector;
    this.points = points;
    this.placed = placed;
    this.memberOf = memberOf;
    this.size = size;
    this.nextArrival = nextArrival;
    this.members = members;
    this.usedNameIndexes = usedNameIndexes;
  }

  /**
   * Builds the state after members {@code 0 .. names.size() - 1} joined in that order, in
   * O(P log P) for P = names.size() x points.
   */
  static ConsistentHashingStickyKeyConsumerSelector build(
      KeySharedPredictor.Selector selector, int points, List<String> names) {
    int n = names.size();
    long[] placed = new long[Math.toIntExact((long) n * points)];
    Map<Integer, Member> members = new HashMap<>();
    Map<String, BitSet> used = new HashMap<>();
    PointHasher hasher = new PointHasher(selector);
    int k = 0;
    for (int id = 0; id < n; id++) {
      String name = names.get(id);
      BitSet indexes = used.computeIfAbsent(name, x -> new BitSet());
      int nameIndex = indexes.nextClearBit(0);
      indexes.set(nameIndex);
      members.put(id, new Member(name, nameIndex));
      hasher.start(name, nameIndex);
      for (int i = 0; i < points; i++) {
        placed[k] = ((long) hasher.point(i) << 32) | k; // arrival k: member k / points
        k++;
      }
    }
    Arrays.sort(placed);
    int[] memberOf = new int[placed.length];
    for (int i = 0; i < placed.length; i++) {
      memberOf[i] = (int) placed[i] / points;
    }
    return new ConsistentHashingStickyKeyConsumerSelector(
        selector, points, placed, memberOf, placed.length, placed.length, members, used);
  }

  @Override
  ConsistentHashingStickyKeyConsumerSelector copy() {
    return new ConsistentHashingStickyKeyConsumerSelector(selector, points,
        Arrays.copyOf(placed, size), Arrays.copyOf(memberOf, size), size, nextArrival,
        new HashMap<>(members), new HashMap<>(usedNameIndexes));
  }

  @Override
  void add(int id, String name, List<Range> ranges) {
    if (nextArrival + points > 0xffffffffL) {
      for (int i = 0; i < size; i++) {
        placed[i] = (placed[i] & 0xffffffff00000000L) | i;
      }
      nextArrival = size;
    }
    BitSet indexes = usedNameIndexes.get(name);
    indexes = indexes == null ? new BitSet() : (BitSet) indexes.clone();
    int nameIndex = indexes.nextClearBit(0);
    indexes.set(nameIndex);
    usedNameIndexes.put(name, indexes);
    members.put(id, new Member(name, nameIndex));
    PointHasher hasher = new PointHasher(selector);
    hasher.start(name, nameIndex);
    long[] mine = new long[points];
    for (int i = 0; i < points; i++) {
      mine[i] = ((long) hasher.point(i) << 32) | (nextArrival + i);
    }
    nextArrival += points;
    Arrays.sort(mine);
    long[] merged = new long[size + points];
    int[] owners = new int[merged.length];
    int a = 0;
    int b = 0;
    for (int o = 0; o < merged.length; o++) {
      if (b == points || (a < size && placed[a] < mine[b])) {
        merged[o] = placed[a];
        owners[o] = memberOf[a++];
      } else {
        merged[o] = mine[b++];
        owners[o] = id;
      }
    }
    placed = merged;
    memberOf = owners;
    size = merged.length;
  }

  @Override
  void remove(int id) {
    Member m = members.remove(id);
    int o = 0;
    for (int i = 0; i < size; i++) {
      if (memberOf[i] != id) {
        placed[o] = placed[i];
        memberOf[o++] = memberOf[i];
      }
    }
    size = o;
    BitSet indexes = (BitSet) usedNameIndexes.get(m.name).clone();
    indexes.clear(m.nameIndex);
    if (indexes.isEmpty()) {
      usedNameIndexes.remove(m.name);
    } else {
      usedNameIndexes.put(m.name, indexes);
    }
  }

  @Override
  int ownerOf(int slot) {
    if (size == 0) {
      return NOBODY;
    }
    if (slot < 0) {
      return memberOf[0]; // below every point: the first point's run
    }
    int i = Arrays.binarySearch(placed, 0, size, (long) slot << 32);
    i = i >= 0 ? i : -(i + 1); // the first entry of the first run at or after slot
    return memberOf[i == size ? 0 : i];
  }

  @Override
  List<Range> rangesOf(int id) {
    List<Range> result = new ArrayList<>();
    int start = selector.firstSlot();
    int firstOwner = size == 0 ? NOBODY : memberOf[0];
    for (int i = 0; i < size; ) {
      int slot = (int) (placed[i] >>> 32);
      if (memberOf[i] == id && start <= slot) {
        addMerged(result, start, slot);
      }
      start = slot + 1;
      while (i < size && (int) (placed[i] >>> 32) == slot) {
        i++;
      }
    }
    if (firstOwner == id && start <= selector.lastSlot()) {
      addMerged(result, start, selector.lastSlot()); // wrap-around to the first point's owner
    }
    return result;
  }

  /**
   * The bytes {@code name + "\0" + nameIndex + "\0" + i} (UTF-8) in one reused buffer, hashed to
   * their slot without a String per point.
   */
  private static final class PointHasher {
    private final KeySharedPredictor.Selector selector;
    private byte[] buffer = new byte[64];
    private int prefix;

    PointHasher(KeySharedPredictor.Selector selector) {
      this.selector = selector;
    }

    void start(String name, int nameIndex) {
      byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
      ensure(bytes.length + 24);
      System.arraycopy(bytes, 0, buffer, 0, bytes.length);
      int at = bytes.length;
      buffer[at++] = 0;
      at = digits(nameIndex, at);
      buffer[at++] = 0;
      prefix = at;
    }

    int point(int pointIndex) {
      int end = digits(pointIndex, prefix);
      return selector.slotOfHash(HashScheme.PULSAR_MURMUR3.hash(buffer, 0, end));
    }

    private int digits(int value, int at) {
      int len = 1;
      for (int rest = value / 10; rest > 0; rest /= 10) {
        len++;
      }
      for (int p = at + len - 1; p >= at; p--) {
        buffer[p] = (byte) ('0' + value % 10);
        value /= 10;
      }
      return at + len;
    }

    private void ensure(int capacity) {
      if (buffer.length < capacity) {
        buffer = new byte[capacity];
      }
    }
  }
}
