package io.github.routingkit.pulsar;

import io.github.routingkit.hash.HashScheme;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.pulsar.client.api.Range;

/**
 * Predicts which consumer of a Pulsar {@code Key_Shared} subscription receives a key: the read-side
 * routing layer, decided by the broker's sticky-key consumer selector. "Same key, same partition"
 * (the producer's {@code MessageRouter}) and "same key, same consumer" (this class) are separate
 * guarantees.
 *
 * <h2>What the broker does (Pulsar 4.x, read from the 4.2.4 sources)</h2>
 *
 * <p><b>Sticky key</b> ({@code Commands.resolveStickyKey}): the message's ordering key if it has
 * one; else its key (a {@code String} key as its UTF-8 bytes, a key set with {@code keyBytes(...)}
 * as the original bytes, Base64-decoded); else {@code producerName + "-" + sequenceId}. Pass that
 * byte array (or the String key) to the methods here. With producer batching the whole batch
 * shares the first message's key, so use {@code BatcherBuilder.KEY_BASED} or no batching.
 *
 * <p><b>Slot</b> ({@code StickyKeyConsumerSelectorUtils.makeStickyKeyHash}): {@code h =
 * Murmur3_32(stickyKey) & 0x7fffffff} (MurmurHash3 x86_32, seed 0, exactly
 * {@link HashScheme#PULSAR_MURMUR3}), then {@code h % size + start} over the selector's key-hash
 * range, and a result of 0 becomes 1 (0 means "no hash" in the dispatcher):
 * <ul>
 *   <li>{@link Selector#CONSISTENT_HASHING}: range {@code [1, 65535]}, slot {@code h % 65535 + 1};
 *   <li>{@link Selector#AUTO_SPLIT} and {@link Selector#STICKY}: range {@code [0, 65535]}, slot
 *       {@code h % 65536}, with 0 mapped to 1 (so slot 0 never receives a key);
 *   <li>{@link Selector#CONSISTENT_HASHING_CLASSIC}: range {@code [1, 2^31 - 2]}, slot
 *       {@code h % (2^31 - 2) + 1}.
 * </ul>
 *
 * <p><b>Selectors</b> (chosen by the subscription's {@code KeySharedMode} and the broker config):
 * <ul>
 *   <li>{@code ConsistentHashingStickyKeyConsumerSelector}, the default for {@code AUTO_SPLIT}
 *       mode ({@code subscriptionKeySharedUseConsistentHashing=true}, {@code
 *       subscriptionKeySharedConsistentHashingReplicaPoints=100}). Each consumer puts {@code points}
 *       points on a ring; point {@code i} of a consumer is the slot of the bytes of {@code name + "\0"
 *       + nameIndex + "\0" + i}, where {@code nameIndex} is the lowest index not used by a connected
 *       consumer of the same name (0 for unique names). A key goes to the consumer of the first point
 *       at or after its slot, wrapping around. A point that collides with an existing point stays
 *       with the consumer that placed it first; later ones queue behind it and take over in order
 *       when it leaves. So join order matters only for collisions.
 *   <li>{@code HashRangeAutoSplitStickyKeyConsumerSelector} ({@code
 *       subscriptionKeySharedUseConsistentHashing=false}): the first consumer owns the whole range
 *       (upper bound 65536); each later consumer takes the upper half of the biggest range (the
 *       lowest one on ties), so ownership depends on join order. When the owner of the top range
 *       leaves, the consumer of the range just below takes over the top; otherwise a leaving
 *       consumer's range merges into the range above it.
 *   <li>{@code HashRangeExclusiveStickyKeyConsumerSelector}, for {@code KeySharedMode.STICKY}
 *       ({@code KeySharedPolicy.stickyHashRange()}): each consumer owns the inclusive ranges it
 *       declared; overlapping ranges are rejected; slots no consumer declared (gaps) are not
 *       delivered to anybody: their messages stay in the backlog. See
 *       {@link #validateStickyRanges(Map, Iterable)}.
 *   <li>With {@code subscriptionKeySharedUseClassicPersistentImplementation=true} (the pre-4.0
 *       dispatcher, still available), consistent hashing runs over {@code [1, 2^31 - 2]}:
 *       {@link Selector#CONSISTENT_HASHING_CLASSIC}. Non-persistent topics use the 4.x ranges.
 * </ul>
 *
 * <p><b>Where 3.x differed</b>: the sticky key hash was the full 31-bit Murmur3 value; ring points
 * were {@code Murmur3(name + i)} over the full 31-bit range (no separator, no name index), and
 * colliding points kept a name-sorted list from which {@code hash % size} picked; the range
 * selectors took {@code hash % 65536} when selecting. Predictions here are for 4.x brokers only.
 *
 * <p><b>Exactness</b>: predictions are exact for the broker's state after the given consumers
 * joined in the given order and the given ones left (as {@link #join} and {@link #leave} replay
 * them), with every consumer connected before messages are dispatched. Ring points are hashed from
 * the UTF-8 bytes of the consumer name; the broker uses its JVM's default charset, which is UTF-8
 * from JDK 18 on (and on JDK 17 under a UTF-8 locale), so non-ASCII names need that. Verified
 * against a real 4.2.4 broker and against the broker's own selector classes (see the
 * routing-examples tests).
 *
 * <p>Instances are immutable and thread-safe; {@link #join} and {@link #leave} return new ones.
 */
public final class KeySharedPredictor {

  /** The size of the 4.x hash range of the range selectors: slots are in {@code [0, 65536)}. */
  public static final int HASH_RANGE_SIZE = 65536;

  /** The broker's default {@code subscriptionKeySharedConsistentHashingReplicaPoints}: 100. */
  public static final int DEFAULT_REPLICA_POINTS = 100;

  /** The most points per consumer: the ring has {@value #HASH_RANGE_SIZE} slots. */
  public static final int MAX_POINTS = HASH_RANGE_SIZE;

  /** The most ring points over all joins (joins x points), bounding time and memory. */
  static final long MAX_RING_WORK = 10_000_000L;

  /** The broker's sticky-key selectors. */
  public enum Selector {
    /** 4.x default: consistent hashing over slots {@code [1, 65535]}. */
    CONSISTENT_HASHING(1, HASH_RANGE_SIZE - 1),
    /** Consistent hashing in the classic (pre-4.0) persistent dispatcher: slots {@code [1, 2^31 - 2]}. */
    CONSISTENT_HASHING_CLASSIC(1, Integer.MAX_VALUE - 1),
    /** Auto-split hash ranges over slots {@code [0, 65535]}; depends on join order. */
    AUTO_SPLIT(0, HASH_RANGE_SIZE - 1),
    /** Sticky (exclusive) hash ranges declared by the consumers, over slots {@code [0, 65535]}. */
    STICKY(0, HASH_RANGE_SIZE - 1);

    private final int first;
    private final int last;

    Selector(int first, int last) {
      this.first = first;
      this.last = last;
    }

    /** Returns the lowest slot of this selector's key-hash range. */
    public int firstSlot() {
      return first;
    }

    /** Returns the highest slot (inclusive) of this selector's key-hash range. */
    public int lastSlot() {
      return last;
    }

    /**
     * Returns the slot of a sticky key under this selector: in {@code [max(1, firstSlot()),
     * lastSlot()]}.
     *
     * @throws NullPointerException if {@code stickyKey} is null
     */
    public int slot(byte[] stickyKey) {
      return slotOfHash(HashScheme.PULSAR_MURMUR3.hash(stickyKey));
    }

    /**
     * Returns the slot of a String key (hashed as its UTF-8 bytes, as the broker sees it).
     *
     * @throws NullPointerException if {@code key} is null
     */
    public int slot(CharSequence key) {
      return slotOfHash(HashScheme.PULSAR_MURMUR3.hash(key));
    }

    int slotOfHash(int nonNegativeHash) {
      int size = last - first + 1;
      int s = nonNegativeHash % size + first;
      return s == 0 ? 1 : s;
    }
  }

  private static final int NO_CONSUMER = -1;

  private final Selector selector;
  private final int points;
  /** Connected consumers in join order. */
  private final List<String> names;
  /** Sticky mode: declared ranges per connected consumer, aligned with {@link #names}. */
  private final List<List<Range>> declared;
  /** Sorted lookup keys: ring points, range upper bounds, or sticky range starts. */
  private final int[] keys;
  /** Consumer index (into {@link #names}) owning each key. */
  private final int[] owners;
  /** Sticky mode only: the inclusive end of the range starting at {@code keys[i]}. */
  private final int[] ends;
  /** Events replayed to reach this state, for join/leave. */
  private final List<Event> history;

  private record Event(String name, List<Range> ranges, boolean join) {}

  private KeySharedPredictor(Selector selector, int points, List<Event> history) {
    this.selector = selector;
    this.points = points;
    this.history = List.copyOf(history);
    State state = replay(selector, points, this.history);
    this.names = List.copyOf(state.names);
    this.declared = state.declared;
    this.keys = state.keys;
    this.owners = state.owners;
    this.ends = state.ends;
  }

  // ---------------------------------------------------------------------------------------------
  // Factories

  /**
   * The 4.x default selector with the default 100 points per consumer.
   *
   * @param consumers consumer names in join order (duplicates allowed: they get distinct name
   *     indexes, as in the broker)
   * @throws NullPointerException if the list or a name is null
   */
  public static KeySharedPredictor consistentHashing(List<String> consumers) {
    return consistentHashing(consumers, DEFAULT_REPLICA_POINTS);
  }

  /**
   * The 4.x consistent-hashing selector with {@code points} points per consumer
   * ({@code subscriptionKeySharedConsistentHashingReplicaPoints}).
   *
   * @param consumers consumer names in join order
   * @param points points per consumer, in [1, {@value #MAX_POINTS}]
   * @throws IllegalArgumentException if {@code points} is outside [1, {@value #MAX_POINTS}] or
   *     the consumers' joins times {@code points} exceed 10,000,000
   * @throws NullPointerException if the list or a name is null
   */
  public static KeySharedPredictor consistentHashing(List<String> consumers, int points) {
    return ofJoins(Selector.CONSISTENT_HASHING, consumers, points);
  }

  /**
   * Consistent hashing in the classic persistent dispatcher
   * ({@code subscriptionKeySharedUseClassicPersistentImplementation=true}).
   *
   * @throws IllegalArgumentException if {@code points} is outside [1, {@value #MAX_POINTS}] or the
   *     joins times {@code points} exceed 10,000,000
   * @throws NullPointerException if the list or a name is null
   */
  public static KeySharedPredictor consistentHashingClassic(List<String> consumers, int points) {
    return ofJoins(Selector.CONSISTENT_HASHING_CLASSIC, consumers, points);
  }

  /**
   * The auto-split hash-range selector ({@code subscriptionKeySharedUseConsistentHashing=false}).
   *
   * @param consumers consumer names in join order (the order decides the ranges)
   * @throws IllegalArgumentException if more than 65536 consumers are given (the broker rejects
   *     the consumer that finds no range left to split)
   * @throws NullPointerException if the list or a name is null
   */
  public static KeySharedPredictor autoSplit(List<String> consumers) {
    return ofJoins(Selector.AUTO_SPLIT, consumers, 0);
  }

  /**
   * The sticky (exclusive) hash-range selector: each consumer with the inclusive ranges it passes
   * to {@code KeySharedPolicy.stickyHashRange().ranges(...)}. Gaps are allowed (their keys are
   * delivered to nobody); everything the client or broker would reject is rejected here.
   *
   * @param rangesByConsumer ranges per consumer name, in join order (iteration order)
   * @throws IllegalArgumentException if a consumer has no ranges, a range is outside {@code [0,
   *     65535]}, or two ranges overlap (of one consumer or of two); the message names the consumer
   *     and ranges. {@link #validateStickyRanges(Map, Iterable)} reports all problems at once.
   * @throws NullPointerException if the map, a name, a range list or a range is null
   */
  public static KeySharedPredictor sticky(Map<String, ? extends Collection<Range>> rangesByConsumer) {
    Objects.requireNonNull(rangesByConsumer, "rangesByConsumer");
    List<Event> events = new ArrayList<>();
    rangesByConsumer.forEach(
        (name, ranges) -> events.add(new Event(
            Objects.requireNonNull(name, "consumer name"), copyRanges(name, ranges), true)));
    return new KeySharedPredictor(Selector.STICKY, 0, events);
  }

  private static KeySharedPredictor ofJoins(Selector selector, List<String> consumers, int points) {
    Objects.requireNonNull(consumers, "consumers");
    if (selector != Selector.AUTO_SPLIT && (points < 1 || points > MAX_POINTS)) {
      throw new IllegalArgumentException(
          "subscriptionKeySharedConsistentHashingReplicaPoints value was " + points
              + ", must be in [1, " + MAX_POINTS + "] (the ring has " + HASH_RANGE_SIZE
              + " slots)");
    }
    List<Event> events = new ArrayList<>(consumers.size());
    for (String name : consumers) {
      events.add(new Event(Objects.requireNonNull(name, "consumer name"), null, true));
    }
    return new KeySharedPredictor(selector, points, events);
  }

  private static List<Range> copyRanges(String name, Collection<Range> ranges) {
    Objects.requireNonNull(ranges, () -> "ranges of consumer " + name);
    List<Range> copy = new ArrayList<>(ranges.size());
    for (Range r : ranges) {
      copy.add(Objects.requireNonNull(r, () -> "a range of consumer " + name));
    }
    return List.copyOf(copy);
  }

  // ---------------------------------------------------------------------------------------------
  // Membership changes

  /**
   * Returns the prediction after one more consumer joins (consistent hashing or auto-split).
   *
   * @throws IllegalStateException for {@link Selector#STICKY} (use {@link #join(String, Collection)})
   * @throws IllegalArgumentException under auto-split when no range is left to split (65536
   *     consumers; the broker rejects that consumer)
   * @throws NullPointerException if {@code consumer} is null
   */
  public KeySharedPredictor join(String consumer) {
    Objects.requireNonNull(consumer, "consumer");
    if (selector == Selector.STICKY) {
      throw new IllegalStateException("a sticky consumer joins with its ranges: join(name, ranges)");
    }
    List<Event> events = new ArrayList<>(history);
    events.add(new Event(consumer, null, true));
    return new KeySharedPredictor(selector, points, events);
  }

  /**
   * Returns the prediction after a sticky consumer joins with its ranges.
   *
   * @throws IllegalStateException if this is not {@link Selector#STICKY}
   * @throws IllegalArgumentException as {@link #sticky(Map)}, e.g. if a range overlaps a connected
   *     consumer's range (the broker rejects that consumer)
   */
  public KeySharedPredictor join(String consumer, Collection<Range> ranges) {
    Objects.requireNonNull(consumer, "consumer");
    if (selector != Selector.STICKY) {
      throw new IllegalStateException("only sticky consumers declare ranges; use join(name)");
    }
    List<Event> events = new ArrayList<>(history);
    events.add(new Event(consumer, copyRanges(consumer, ranges), true));
    return new KeySharedPredictor(selector, points, events);
  }

  /**
   * Returns the prediction after the earliest-joined connected consumer named {@code consumer}
   * leaves.
   *
   * @throws IllegalArgumentException if no connected consumer has that name
   * @throws NullPointerException if {@code consumer} is null
   */
  public KeySharedPredictor leave(String consumer) {
    Objects.requireNonNull(consumer, "consumer");
    if (!names.contains(consumer)) {
      throw new IllegalArgumentException(
          "consumer '" + consumer + "' is not connected; connected: " + names);
    }
    List<Event> events = new ArrayList<>(history);
    events.add(new Event(consumer, null, false));
    return new KeySharedPredictor(selector, points, events);
  }

  // ---------------------------------------------------------------------------------------------
  // Queries

  /** Returns the selector this prediction models. */
  public Selector selector() {
    return selector;
  }

  /** Returns the points per consumer (consistent hashing), else 0. */
  public int points() {
    return points;
  }

  /** Returns the connected consumers' names in join order; indexes below refer to this list. */
  public List<String> consumers() {
    return names;
  }

  /** Returns the slot of a sticky key under this selector; see {@link Selector#slot(byte[])}. */
  public int slot(byte[] stickyKey) {
    return selector.slot(stickyKey);
  }

  /** Returns the slot of a String key under this selector (its UTF-8 bytes). */
  public int slot(CharSequence key) {
    return selector.slot(key);
  }

  /**
   * Returns the index in {@link #consumers()} of the consumer that receives the given slot, or -1
   * if nobody does (no consumers, or a sticky gap). Slots outside the selector's range are treated
   * as the broker's {@code select(int)} treats them: consistent hashing wraps around, auto-split
   * finds nobody above 65536, sticky finds nobody outside the declared ranges.
   */
  public int ownerIndexOfSlot(int slot) {
    if (keys.length == 0) {
      return NO_CONSUMER;
    }
    if (selector == Selector.STICKY) {
      int i = floorIndex(keys, slot);
      return i >= 0 && slot <= ends[i] ? owners[i] : NO_CONSUMER;
    }
    int i = ceilingIndex(keys, slot);
    if (i == keys.length) {
      return selector == Selector.AUTO_SPLIT ? NO_CONSUMER : owners[0];
    }
    return owners[i];
  }

  /** Returns the index in {@link #consumers()} of the receiver of a sticky key, or -1 for nobody. */
  public int ownerIndex(byte[] stickyKey) {
    return ownerIndexOfSlot(slot(stickyKey));
  }

  /** Returns the index in {@link #consumers()} of the receiver of a String key, or -1 for nobody. */
  public int ownerIndex(CharSequence key) {
    return ownerIndexOfSlot(slot(key));
  }

  /**
   * Returns the name of the consumer that receives a sticky key (the ordering key if set, else the
   * key bytes), or empty if nobody does.
   */
  public Optional<String> consumerOf(byte[] stickyKey) {
    return nameAt(ownerIndex(stickyKey));
  }

  /** Returns the name of the consumer that receives a String key, or empty if nobody does. */
  public Optional<String> consumerOf(CharSequence key) {
    return nameAt(ownerIndex(key));
  }

  /**
   * Returns the receiver of a message with the given key and ordering key, exactly as the broker
   * resolves the sticky key: the ordering key if non-null, else the key's UTF-8 bytes.
   *
   * @throws NullPointerException if both are null
   */
  public Optional<String> consumerOf(String key, byte[] orderingKey) {
    if (orderingKey != null) {
      return consumerOf(orderingKey);
    }
    return consumerOf(Objects.requireNonNull(key, "key and orderingKey are both null"));
  }

  private Optional<String> nameAt(int index) {
    return index < 0 ? Optional.empty() : Optional.of(names.get(index));
  }

  /**
   * Returns the inclusive slot ranges the consumer at {@code index} receives, in ascending order,
   * adjacent ranges merged; the broker reports the same ranges in its consumer stats
   * ({@code keyHashRanges}) except that it does not merge ranges across a ring wrap-around.
   *
   * @throws IndexOutOfBoundsException if {@code index} is not in {@code [0, consumers().size())}
   */
  public List<Range> hashRanges(int index) {
    Objects.checkIndex(index, names.size());
    if (selector == Selector.STICKY) {
      List<Range> own = new ArrayList<>(declared.get(index));
      own.sort(null);
      return List.copyOf(own);
    }
    List<Range> result = new ArrayList<>();
    int start = selector.firstSlot();
    for (int i = 0; i < keys.length; i++) {
      int end = Math.min(keys[i], selector.lastSlot());
      if (owners[i] == index && start <= end) {
        addMerged(result, start, end);
      }
      start = end + 1;
    }
    if (selector != Selector.AUTO_SPLIT && keys.length > 0 && owners[0] == index
        && start <= selector.lastSlot()) {
      addMerged(result, start, selector.lastSlot()); // wrap-around to the first point's owner
    }
    return List.copyOf(result);
  }

  private static void addMerged(List<Range> ranges, int start, int end) {
    if (!ranges.isEmpty() && ranges.get(ranges.size() - 1).getEnd() + 1 == start) {
      Range last = ranges.remove(ranges.size() - 1);
      ranges.add(Range.of(last.getStart(), end));
    } else {
      ranges.add(Range.of(start, end));
    }
  }

  /**
   * Counts how a key sample (String keys, as UTF-8) spreads over the consumers.
   *
   * @throws NullPointerException if the sample or a key is null
   */
  public KeyShare shareOf(Iterable<? extends CharSequence> keys) {
    long[] counts = new long[names.size()];
    long nobody = 0;
    for (CharSequence key : keys) {
      int i = ownerIndex(key);
      if (i < 0) {
        nobody++;
      } else {
        counts[i]++;
      }
    }
    return new KeyShare(names, counts, nobody);
  }

  /**
   * Counts how a sample of sticky keys (bytes) spreads over the consumers.
   *
   * @throws NullPointerException if the sample or a key is null
   */
  public KeyShare shareOfBytes(Iterable<byte[]> stickyKeys) {
    long[] counts = new long[names.size()];
    long nobody = 0;
    for (byte[] key : stickyKeys) {
      int i = ownerIndex(key);
      if (i < 0) {
        nobody++;
      } else {
        counts[i]++;
      }
    }
    return new KeyShare(names, counts, nobody);
  }

  // ---------------------------------------------------------------------------------------------
  // Sticky range validation

  /**
   * Checks sticky hash ranges without throwing: overlaps (within a consumer and between
   * consumers), bounds outside {@code [0, 65535]}, consumers without ranges, and gaps (slots no
   * consumer owns, whose messages nobody receives), with the share of {@code keySample} (String
   * keys, hashed as UTF-8) that falls into the gaps.
   *
   * @param rangesByConsumer ranges per consumer name
   * @param keySample keys to measure the gap share on (may be empty)
   * @throws NullPointerException if an argument, a name, a range list, a range or a key is null
   */
  public static StickyRangeReport validateStickyRanges(
      Map<String, ? extends Collection<Range>> rangesByConsumer,
      Iterable<? extends CharSequence> keySample) {
    Objects.requireNonNull(keySample, "keySample");
    return StickyRangeReport.<CharSequence>of(
        copyAll(rangesByConsumer), keySample, (CharSequence key) -> Selector.STICKY.slot(key));
  }

  /**
   * As {@link #validateStickyRanges(Map, Iterable)}, for a sample of sticky keys given as bytes.
   */
  public static StickyRangeReport validateStickyRangesBytes(
      Map<String, ? extends Collection<Range>> rangesByConsumer, Iterable<byte[]> keySample) {
    Objects.requireNonNull(keySample, "keySample");
    return StickyRangeReport.<byte[]>of(
        copyAll(rangesByConsumer), keySample, (byte[] key) -> Selector.STICKY.slot(key));
  }

  private static Map<String, List<Range>> copyAll(
      Map<String, ? extends Collection<Range>> rangesByConsumer) {
    Objects.requireNonNull(rangesByConsumer, "rangesByConsumer");
    Map<String, List<Range>> copy = new LinkedHashMap<>();
    rangesByConsumer.forEach(
        (name, ranges) -> copy.put(Objects.requireNonNull(name, "consumer name"),
            copyRanges(name, ranges)));
    return copy;
  }

  @Override
  public String toString() {
    return "KeySharedPredictor{" + selector
        + (points > 0 ? ", points=" + points : "") + ", consumers=" + names + '}';
  }

  // ---------------------------------------------------------------------------------------------
  // Replay of the broker's selector state

  private static final class State {
    final List<String> names = new ArrayList<>();
    List<List<Range>> declared = List.of();
    int[] keys = new int[0];
    int[] owners = new int[0];
    int[] ends = null;
  }

  private static State replay(Selector selector, int points, List<Event> events) {
    switch (selector) {
      case CONSISTENT_HASHING:
      case CONSISTENT_HASHING_CLASSIC:
        return replayRing(selector, points, events);
      case AUTO_SPLIT:
        return replayAutoSplit(events);
      default:
        return replaySticky(events);
    }
  }

  /** Member ids are event indexes of joins; converted to consumer indexes at the end. */
  private static State replayRing(Selector selector, int points, List<Event> events) {
    long joins = events.stream().filter(e -> e.join).count();
    if (joins * points > MAX_RING_WORK) {
      // each join hashes `points` ring points: Integer.MAX_VALUE points hung the caller
      throw new IllegalArgumentException("ring of " + joins + " consumer joins x " + points
          + " points = " + joins * points + " points, at most " + MAX_RING_WORK
          + " are supported");
    }
    TreeMap<Integer, List<Integer>> ring = new TreeMap<>(); // [selected, colliders...]
    Map<String, BitSet> usedNameIndexes = new HashMap<>();
    Map<Integer, Integer> nameIndexOf = new HashMap<>();
    List<Integer> connected = new ArrayList<>(); // member ids in join order
    StringBuilder sb = new StringBuilder();
    for (int id = 0; id < events.size(); id++) {
      Event e = events.get(id);
      if (e.join) {
        BitSet used = usedNameIndexes.computeIfAbsent(e.name, k -> new BitSet());
        int nameIndex = used.nextClearBit(0);
        used.set(nameIndex);
        nameIndexOf.put(id, nameIndex);
        connected.add(id);
        for (int i = 0; i < points; i++) {
          int point = ringPoint(selector, sb, e.name, nameIndex, i);
          ring.computeIfAbsent(point, k -> new ArrayList<>(1)).add(id);
        }
      } else {
        int member = firstConnected(events, connected, e.name);
        connected.remove(Integer.valueOf(member));
        int nameIndex = nameIndexOf.get(member);
        for (int i = 0; i < points; i++) {
          int point = ringPoint(selector, sb, e.name, nameIndex, i);
          List<Integer> entry = ring.get(point);
          if (entry != null) {
            entry.removeIf(m -> m == member);
            if (entry.isEmpty()) {
              ring.remove(point);
            }
          }
        }
        BitSet used = usedNameIndexes.get(e.name);
        used.clear(nameIndex);
      }
    }
    State s = new State();
    Map<Integer, Integer> indexOfMember = new HashMap<>();
    for (int member : connected) {
      indexOfMember.put(member, s.names.size());
      s.names.add(events.get(member).name);
    }
    s.keys = new int[ring.size()];
    s.owners = new int[ring.size()];
    int k = 0;
    for (Map.Entry<Integer, List<Integer>> entry : ring.entrySet()) {
      s.keys[k] = entry.getKey();
      s.owners[k] = indexOfMember.get(entry.getValue().get(0));
      k++;
    }
    return s;
  }

  private static int ringPoint(
      Selector selector, StringBuilder sb, String name, int nameIndex, int pointIndex) {
    sb.setLength(0);
    sb.append(name).append('\0').append(nameIndex).append('\0').append(pointIndex);
    return selector.slot(sb);
  }

  private static int firstConnected(List<Event> events, List<Integer> connected, String name) {
    for (int member : connected) {
      if (events.get(member).name.equals(name)) {
        return member;
      }
    }
    throw new IllegalArgumentException("consumer '" + name + "' is not connected");
  }

  private static State replayAutoSplit(List<Event> events) {
    TreeMap<Integer, Integer> rangeMap = new TreeMap<>(); // upper bound (inclusive) -> member
    Map<Integer, Integer> upperOf = new HashMap<>();
    List<Integer> connected = new ArrayList<>();
    for (int id = 0; id < events.size(); id++) {
      Event e = events.get(id);
      if (e.join) {
        if (rangeMap.isEmpty()) {
          rangeMap.put(HASH_RANGE_SIZE, id);
          upperOf.put(id, HASH_RANGE_SIZE);
        } else {
          int biggest = HASH_RANGE_SIZE;
          int slots = 0;
          int lower = 0;
          for (int upper : rangeMap.keySet()) {
            if (upper - lower > slots) {
              slots = upper - lower;
              biggest = upper;
            }
            lower = upper;
          }
          Integer below = rangeMap.lowerKey(biggest);
          int low = below == null ? 0 : below;
          if (biggest - low <= 1) {
            throw new IllegalArgumentException("consumer '" + e.name + "' cannot join: no hash range"
                + " left to split among " + rangeMap.size() + " consumers");
          }
          int split = biggest - ((biggest - low) >> 1);
          rangeMap.put(split, id);
          upperOf.put(id, split);
        }
        connected.add(id);
      } else {
        int member = firstConnected(events, connected, e.name);
        connected.remove(Integer.valueOf(member));
        int upper = upperOf.remove(member);
        if (upper == HASH_RANGE_SIZE && rangeMap.size() > 1) {
          Map.Entry<Integer, Integer> lowerEntry = rangeMap.lowerEntry(upper);
          rangeMap.put(upper, lowerEntry.getValue());
          rangeMap.remove(lowerEntry.getKey());
          upperOf.put(lowerEntry.getValue(), upper);
        } else {
          rangeMap.remove(upper);
        }
      }
    }
    State s = new State();
    Map<Integer, Integer> indexOfMember = new HashMap<>();
    for (int member : connected) {
      indexOfMember.put(member, s.names.size());
      s.names.add(events.get(member).name);
    }
    s.keys = new int[rangeMap.size()];
    s.owners = new int[rangeMap.size()];
    int k = 0;
    for (Map.Entry<Integer, Integer> entry : rangeMap.entrySet()) {
      s.keys[k] = entry.getKey();
      s.owners[k] = indexOfMember.get(entry.getValue());
      k++;
    }
    return s;
  }

  private static State replaySticky(List<Event> events) {
    List<Integer> connected = new ArrayList<>();
    for (int id = 0; id < events.size(); id++) {
      Event e = events.get(id);
      if (e.join) {
        for (int other : connected) {
          if (events.get(other).name.equals(e.name)) {
            throw new IllegalArgumentException(
                "sticky consumer '" + e.name + "' is already connected; names must be unique here");
          }
        }
        checkOwnRanges(e.name, e.ranges);
        for (int other : connected) {
          for (Range mine : e.ranges) {
            for (Range theirs : events.get(other).ranges) {
              if (mine.intersect(theirs) != null) {
                throw new IllegalArgumentException("sticky range " + mine + " of consumer '" + e.name
                    + "' overlaps range " + theirs + " of consumer '" + events.get(other).name
                    + "' (the broker rejects the later consumer)");
              }
            }
          }
        }
        connected.add(id);
      } else {
        connected.remove(Integer.valueOf(firstConnected(events, connected, e.name)));
      }
    }
    State s = new State();
    List<List<Range>> declared = new ArrayList<>();
    List<int[]> entries = new ArrayList<>(); // start, end, consumer index
    for (int member : connected) {
      int index = s.names.size();
      s.names.add(events.get(member).name);
      declared.add(events.get(member).ranges);
      for (Range r : events.get(member).ranges) {
        entries.add(new int[] {r.getStart(), r.getEnd(), index});
      }
    }
    entries.sort((a, b) -> Integer.compare(a[0], b[0]));
    s.declared = List.copyOf(declared);
    s.keys = new int[entries.size()];
    s.ends = new int[entries.size()];
    s.owners = new int[entries.size()];
    for (int i = 0; i < entries.size(); i++) {
      s.keys[i] = entries.get(i)[0];
      s.ends[i] = entries.get(i)[1];
      s.owners[i] = entries.get(i)[2];
    }
    return s;
  }

  private static void checkOwnRanges(String name, List<Range> ranges) {
    if (ranges.isEmpty()) {
      throw new IllegalArgumentException(
          "sticky consumer '" + name + "' has no ranges; KeySharedPolicy.stickyHashRange() needs at"
              + " least one");
    }
    for (int i = 0; i < ranges.size(); i++) {
      Range r = ranges.get(i);
      if (r.getStart() < 0 || r.getEnd() >= HASH_RANGE_SIZE) {
        throw new IllegalArgumentException("sticky range " + r + " of consumer '" + name
            + "' is outside [0, 65535]");
      }
      for (int j = i + 1; j < ranges.size(); j++) {
        if (r.intersect(ranges.get(j)) != null) {
          throw new IllegalArgumentException("sticky ranges " + r + " and " + ranges.get(j)
              + " of consumer '" + name + "' overlap");
        }
      }
    }
  }

  // ---------------------------------------------------------------------------------------------

  /** Index of the first key >= v, or {@code keys.length}. */
  private static int ceilingIndex(int[] keys, int v) {
    int i = Arrays.binarySearch(keys, v);
    return i >= 0 ? i : -(i + 1);
  }

  /** Index of the last key <= v, or -1. */
  private static int floorIndex(int[] keys, int v) {
    int i = Arrays.binarySearch(keys, v);
    return i >= 0 ? i : -(i + 1) - 1;
  }
}
