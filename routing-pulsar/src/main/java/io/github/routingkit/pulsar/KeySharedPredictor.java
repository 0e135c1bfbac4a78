package io.github.routingkit.pulsar;

import io.github.routingkit.hash.HashScheme;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.pulsar.client.api.Range;

/**
 * Predicts which consumer of a Pulsar {@code Key_Shared} subscription receives a key, as a 4.x
 * broker's sticky-key consumer selector decides it. This is the read side; "same key, same
 * partition" is the producer's {@code MessageRouter}, a separate guarantee.
 *
 * <p><b>Sticky key and slot.</b> The broker routes a message by its sticky key: the ordering key
 * if set, else the key (a String key as UTF-8 bytes, a {@code keyBytes} key as those bytes). Its
 * slot is {@code (Murmur3_32(stickyKey) & 0x7fffffff) % size + start} over the selector's
 * key-hash range, 0 becoming 1 ({@link Selector#slot(byte[])}; Murmur3 is
 * {@link HashScheme#PULSAR_MURMUR3}). With producer batching a batch shares its first key: use
 * {@code BatcherBuilder.KEY_BASED} or no batching for per-key predictions.
 *
 * <p><b>Selectors</b>, one model each, named after the pulsar-broker class:
 * {@link Selector#CONSISTENT_HASHING} and {@link Selector#CONSISTENT_HASHING_CLASSIC}
 * ({@code ConsistentHashingStickyKeyConsumerSelector}, the 4.x default), {@link
 * Selector#AUTO_SPLIT} ({@code HashRangeAutoSplitStickyKeyConsumerSelector}, with {@code
 * subscriptionKeySharedUseConsistentHashing=false}) and {@link Selector#STICKY} ({@code
 * HashRangeExclusiveStickyKeyConsumerSelector}, {@code KeySharedMode.STICKY}). docs/pulsar.md
 * describes each rule.
 *
 * <p><b>Consumers and instances.</b> The broker tells consumers apart by connection, not by
 * name: several instances may share a {@code consumerName}. Here every join connects a new
 * instance, identified by a {@link ConsumerHandle} (name and join number); {@link
 * #leave(ConsumerHandle)} removes exactly that instance. Under consistent hashing instances of
 * one name get distinct ring points through the broker's name index, so which instance leaves
 * matters. Indexes ({@link #ownerIndexOfSlot}, {@link #hashRanges}) refer to {@link
 * #consumers()}, the connected instances in join order.
 *
 * <p><b>Exactness.</b> Predictions equal the broker's selector state after the same joins and
 * leaves in the same order (checked slot by slot against pulsar-broker 4.2.4's classes and
 * against a running broker in routing-examples). Ring points hash the UTF-8 bytes of the name;
 * the broker uses its default charset (UTF-8 from JDK 18, or under a UTF-8 locale). 3.x brokers
 * hashed differently and are not modelled.
 *
 * <p><b>Cost.</b> A factory with n consumers builds in O(P log P), P = n x points (consistent
 * hashing) or n (ranges); {@link #join} and {@link #leave} cost time and memory linear in the
 * connected state and independent of the history that led to it. At most {@value
 * #MAX_RING_POINTS} ring points may be connected at once.
 *
 * <p>Instances are immutable and thread-safe; {@code join} and {@code leave} return new ones.
 */
public final class KeySharedPredictor {

  /** The size of the 4.x hash range of the range selectors: slots are in {@code [0, 65536)}. */
  public static final int HASH_RANGE_SIZE = 65536;

  /** The broker's default {@code subscriptionKeySharedConsistentHashingReplicaPoints}: 100. */
  public static final int DEFAULT_REPLICA_POINTS = 100;

  /** The most points per consumer: the ring has {@value #HASH_RANGE_SIZE} slots. */
  public static final int MAX_POINTS = HASH_RANGE_SIZE;

  /**
   * The most ring points connected at once (consumers x points): 10,000,000, about 120 MB of
   * state (12 bytes per point). More is rejected with an {@link IllegalArgumentException}.
   */
  public static final long MAX_RING_POINTS = 10_000_000L;

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
     * lastSlot()]} (no key has slot 0).
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

  private final Selector selector;
  private final int points;
  /*
   * A facade: the selector model (one class per broker selector, behind StickyKeySelectorModel)
   * decides which join number owns a slot; the ConsumerRoster says which instances are connected
   * and maps join numbers to indexes; StickyRangeReport checks sticky ranges. This class keeps
   * the two in step on join and leave and answers the queries.
   */
  private final StickyKeySelectorModel model;
  private final ConsumerRoster roster;
  private final List<String> names;

  private KeySharedPredictor(Selector selector, int points, StickyKeySelectorModel model,
      ConsumerRoster roster) {
    this.selector = selector;
    this.points = points;
    this.model = model;
    this.roster = roster;
    this.names = roster.names();
  }

  // ---------------------------------------------------------------------------------------------
  // Factories

  /**
   * The 4.x default selector with the default 100 points per consumer.
   *
   * @param consumers consumer names in join order; a repeated name is another instance
   * @throws IllegalArgumentException if more than 100,000 consumers are given ({@value
   *     #MAX_RING_POINTS} points)
   * @throws NullPointerException if the list or a name is null
   */
  public static KeySharedPredictor consistentHashing(List<String> consumers) {
    return consistentHashing(consumers, DEFAULT_REPLICA_POINTS);
  }

  /**
   * The 4.x consistent-hashing selector with {@code points} points per consumer
   * ({@code subscriptionKeySharedConsistentHashingReplicaPoints}).
   *
   * @param consumers consumer names in join order; a repeated name is another instance
   * @param points points per consumer, in [1, {@value #MAX_POINTS}]
   * @throws IllegalArgumentException if {@code points} is outside [1, {@value #MAX_POINTS}] or
   *     consumers x points exceeds {@value #MAX_RING_POINTS}
   * @throws NullPointerException if the list or a name is null
   */
  public static KeySharedPredictor consistentHashing(List<String> consumers, int points) {
    return ring(Selector.CONSISTENT_HASHING, consumers, points);
  }

  /**
   * Consistent hashing in the classic persistent dispatcher
   * ({@code subscriptionKeySharedUseClassicPersistentImplementation=true}).
   *
   * @throws IllegalArgumentException as {@link #consistentHashing(List, int)}
   * @throws NullPointerException if the list or a name is null
   */
  public static KeySharedPredictor consistentHashingClassic(List<String> consumers, int points) {
    return ring(Selector.CONSISTENT_HASHING_CLASSIC, consumers, points);
  }

  /**
   * The auto-split hash-range selector ({@code subscriptionKeySharedUseConsistentHashing=false}).
   *
   * @param consumers consumer names in join order (the order decides the ranges)
   * @throws IllegalArgumentException if more than {@value #HASH_RANGE_SIZE} consumers are given
   *     (the broker rejects the consumer that finds no range left to split)
   * @throws NullPointerException if the list or a name is null
   */
  public static KeySharedPredictor autoSplit(List<String> consumers) {
    List<String> names = KeySharedChecks.copyNames(consumers);
    return new KeySharedPredictor(Selector.AUTO_SPLIT, 0,
        HashRangeAutoSplitStickyKeyConsumerSelector.build(names), ConsumerRoster.of(names));
  }

  /**
   * The sticky (exclusive) hash-range selector: each consumer with the inclusive ranges it passes
   * to {@code KeySharedPolicy.stickyHashRange().ranges(...)}. Gaps are allowed (their keys are
   * delivered to nobody); everything the client or broker would reject is rejected here. For
   * several instances of one name, {@link #join(String, Collection)} each.
   *
   * @param rangesByConsumer ranges per consumer name, in join order (iteration order)
   * @throws IllegalArgumentException if a consumer has no ranges, a range is outside {@code [0,
   *     65535]}, or two ranges overlap (of one consumer or of two); the message names the consumer
   *     and ranges. {@link #validateStickyRanges(Map, Iterable)} reports all problems at once.
   * @throws NullPointerException if the map, a name, a range list or a range is null
   */
  public static KeySharedPredictor sticky(Map<String, ? extends Collection<Range>> rangesByConsumer) {
    Objects.requireNonNull(rangesByConsumer, "rangesByConsumer");
    HashRangeExclusiveStickyKeyConsumerSelector model =
        HashRangeExclusiveStickyKeyConsumerSelector.empty();
    List<String> names = new ArrayList<>();
    rangesByConsumer.forEach((name, ranges) -> {
      Objects.requireNonNull(name, "consumer name");
      model.add(names.size(), name, KeySharedChecks.copyRanges(name, ranges));
      names.add(name);
    });
    return new KeySharedPredictor(Selector.STICKY, 0, model, ConsumerRoster.of(names));
  }

  private static KeySharedPredictor ring(Selector selector, List<String> consumers, int points) {
    KeySharedChecks.checkPoints(points);
    List<String> names = KeySharedChecks.copyNames(consumers);
    KeySharedChecks.checkRingSize(names.size(), points);
    return new KeySharedPredictor(selector, points,
        ConsistentHashingStickyKeyConsumerSelector.build(selector, points, names),
        ConsumerRoster.of(names));
  }

  // ---------------------------------------------------------------------------------------------
  // Membership changes

  /**
   * Returns the prediction after one more consumer instance joins (consistent hashing or
   * auto-split); {@link #lastJoined()} of the result is its handle.
   *
   * @throws IllegalStateException for {@link Selector#STICKY} (use {@link #join(String, Collection)})
   * @throws IllegalArgumentException under auto-split when no range is left to split ({@value
   *     #HASH_RANGE_SIZE} consumers; the broker rejects that consumer), or when the ring would
   *     exceed {@value #MAX_RING_POINTS} points
   * @throws NullPointerException if {@code consumer} is null
   */
  public KeySharedPredictor join(String consumer) {
    Objects.requireNonNull(consumer, "consumer");
    if (selector == Selector.STICKY) {
      throw new IllegalStateException("a sticky consumer joins with its ranges: join(name, ranges)");
    }
    if (points > 0) {
      KeySharedChecks.checkRingSize(roster.size() + 1L, points);
    }
    return joined(consumer, null);
  }

  /**
   * Returns the prediction after a sticky consumer instance joins with its ranges; instances of
   * one name may join as long as their ranges do not overlap.
   *
   * @throws IllegalStateException if this is not {@link Selector#STICKY}
   * @throws IllegalArgumentException as {@link #sticky(Map)}, e.g. if a range overlaps a connected
   *     consumer's range (the broker rejects that consumer)
   * @throws NullPointerException if an argument or a range is null
   */
  public KeySharedPredictor join(String consumer, Collection<Range> ranges) {
    Objects.requireNonNull(consumer, "consumer");
    if (selector != Selector.STICKY) {
      throw new IllegalStateException("only sticky consumers declare ranges; use join(name)");
    }
    return joined(consumer, KeySharedChecks.copyRanges(consumer, ranges));
  }

  private KeySharedPredictor joined(String consumer, List<Range> ranges) {
    ConsumerRoster grown = roster.with(consumer); // checks the join numbers first
    StickyKeySelectorModel next = model.copy();
    next.add(roster.nextJoinNumber(), consumer, ranges);
    return new KeySharedPredictor(selector, points, next, grown);
  }

  /**
   * Returns the prediction after the given consumer instance leaves.
   *
   * @throws IllegalArgumentException if that instance is not connected here
   * @throws NullPointerException if {@code consumer} is null
   */
  public KeySharedPredictor leave(ConsumerHandle consumer) {
    Objects.requireNonNull(consumer, "consumer");
    int index = roster.indexOf(consumer);
    if (index < 0) {
      throw new IllegalArgumentException(
          "consumer " + consumer + " is not connected; connected: " + handles());
    }
    return left(index);
  }

  /**
   * Returns the prediction after the earliest-joined connected instance named {@code consumer}
   * leaves. When instances share a name and a later one left, use {@link
   * #leave(ConsumerHandle)}: the broker keeps the others' ring points and ranges.
   *
   * @throws IllegalArgumentException if no connected consumer has that name
   * @throws NullPointerException if {@code consumer} is null
   */
  public KeySharedPredictor leave(String consumer) {
    Objects.requireNonNull(consumer, "consumer");
    int index = roster.indexOf(consumer);
    if (index < 0) {
      throw new IllegalArgumentException(
          "consumer '" + consumer + "' is not connected; connected: " + names);
    }
    return left(index);
  }

  private KeySharedPredictor left(int index) {
    StickyKeySelectorModel next = model.copy();
    next.remove(roster.joinNumber(index));
    return new KeySharedPredictor(selector, points, next, roster.without(index));
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

  /** Returns the connected instances' names in join order; indexes below refer to this list. */
  public List<String> consumers() {
    return names;
  }

  /** Returns the connected instances in join order, aligned with {@link #consumers()}. */
  public List<ConsumerHandle> handles() {
    return roster.handles();
  }

  /**
   * Returns the handle of the most recently joined instance that is still connected.
   *
   * @throws IllegalStateException if no consumer is connected
   */
  public ConsumerHandle lastJoined() {
    if (roster.size() == 0) {
      throw new IllegalStateException("no consumer is connected");
    }
    return roster.member(roster.size() - 1);
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
   * Returns the index in {@link #consumers()} of the instance that receives the given slot, or -1
   * if nobody does (no consumers, or a sticky gap). Any int is accepted and answered as the
   * broker's {@code select(int)} would: consistent hashing wraps around, auto-split finds nobody
   * above 65536, sticky finds nobody outside the declared ranges.
   */
  public int ownerIndexOfSlot(int slot) {
    int id = model.ownerOf(slot);
    return id < 0 ? -1 : roster.indexOfJoinNumber(id);
  }

  /** Returns the index in {@link #consumers()} of the receiver of a sticky key, or -1 for nobody. */
  public int ownerIndex(byte[] stickyKey) {
    return ownerIndexOfSlot(slot(stickyKey));
  }

  /** Returns the index in {@link #consumers()} of the receiver of a String key, or -1 for nobody. */
  public int ownerIndex(CharSequence key) {
    return ownerIndexOfSlot(slot(key));
  }

  /** Returns the instance that receives a sticky key, or empty if nobody does. */
  public Optional<ConsumerHandle> ownerOf(byte[] stickyKey) {
    int i = ownerIndex(stickyKey);
    return i < 0 ? Optional.empty() : Optional.of(roster.member(i));
  }

  /** Returns the instance that receives a String key, or empty if nobody does. */
  public Optional<ConsumerHandle> ownerOf(CharSequence key) {
    int i = ownerIndex(key);
    return i < 0 ? Optional.empty() : Optional.of(roster.member(i));
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
   * Returns the receiver of a message with the given key and ordering key, as the broker resolves
   * the sticky key: the ordering key if non-null, else the key's UTF-8 bytes.
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
   * Returns the inclusive slot ranges the instance at {@code index} receives, ascending, as the
   * broker reports them in its consumer stats ({@code keyHashRanges}): consistent hashing merges
   * adjacent ranges within {@code [1, lastSlot()]}; auto-split gives one range, the top one
   * ending at 65536 (the broker's upper bound, not a slot); sticky gives the declared ranges.
   *
   * @throws IndexOutOfBoundsException if {@code index} is not in {@code [0, consumers().size())}
   */
  public List<Range> hashRanges(int index) {
    Objects.checkIndex(index, roster.size());
    return List.copyOf(model.rangesOf(roster.joinNumber(index)));
  }

  /**
   * Counts how a key sample (String keys, as UTF-8) spreads over the consumers.
   *
   * @throws NullPointerException if the sample or a key is null
   */
  public KeyShare shareOf(Iterable<? extends CharSequence> keys) {
    return KeyShare.count(names, keys, this::ownerIndex);
  }

  /**
   * Counts how a sample of sticky keys (bytes) spreads over the consumers.
   *
   * @throws NullPointerException if the sample or a key is null
   */
  public KeyShare shareOfBytes(Iterable<byte[]> stickyKeys) {
    return KeyShare.count(names, stickyKeys, this::ownerIndex);
  }

  // ---------------------------------------------------------------------------------------------
  // Sticky range validation

  /**
   * Checks sticky hash ranges without throwing: overlaps (within a consumer and between
   * consumers), bounds outside {@code [0, 65535]}, consumers without ranges, and gaps (slots in
   * {@code [1, 65535]} no consumer owns, whose messages nobody receives), with the share of
   * {@code keySample} (String keys, hashed as UTF-8) that falls into the gaps.
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
        KeySharedChecks.copyAll(rangesByConsumer), keySample, (CharSequence key) -> Selector.STICKY.slot(key));
  }

  /**
   * As {@link #validateStickyRanges(Map, Iterable)}, for a sample of sticky keys given as bytes.
   *
   * @throws NullPointerException if an argument, a name, a range list, a range or a key is null
   */
  public static StickyRangeReport validateStickyRangesBytes(
      Map<String, ? extends Collection<Range>> rangesByConsumer, Iterable<byte[]> keySample) {
    Objects.requireNonNull(keySample, "keySample");
    return StickyRangeReport.<byte[]>of(
        KeySharedChecks.copyAll(rangesByConsumer), keySample, (byte[] key) -> Selector.STICKY.slot(key));
  }

  @Override
  public String toString() {
    return "KeySharedPredictor{" + selector
        + (points > 0 ? ", points=" + points : "") + ", consumers=" + names + '}';
  }
}
