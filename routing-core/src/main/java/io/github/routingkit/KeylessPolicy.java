package io.github.routingkit;

import java.util.concurrent.ThreadLocalRandom;

/**
 * How a router places messages without a key. Keyless placement never influences keyed routing.
 *
 * <p>Thread-safety: the choosers returned by {@link #newChooser()} are safe for concurrent use.
 */
public enum KeylessPolicy {

  /**
   * Cycles through the partitions: across all threads together, the k-th keyless message goes to
   * partition {@code k mod n}, so counts differ by at most one between partitions at any moment the
   * partition count is stable. The counter is a 64-bit atomic: it does not wrap in practice (2^63
   * messages), so the cycle never skips or repeats a partition as a 32-bit counter would at
   * overflow. The counter is per router instance, padded against false sharing.
   */
  ROUND_ROBIN("round-robin") {
    @Override
    public Chooser newChooser() {
      return new RoundRobin(1);
    }
  },

  /**
   * Sticky round-robin: keyless messages fill one partition for {@value #STICKY_RUN} consecutive
   * messages (counted across all threads using the router), then move on to the next partition in
   * order. The producer can then batch them: per-message round-robin leaves every batch nearly
   * empty, the problem kafka-clients' sticky partitioning (KIP-480) solved, and the reason
   * pulsar-client's RoundRobin router switches partition only per batching time window. Over any
   * whole cycle of {@code STICKY_RUN × n} messages every partition gets exactly
   * {@code STICKY_RUN}; at any moment counts differ by at most {@code STICKY_RUN}. Unlike
   * kafka-clients' built-in, it does not react to batch completion or broker load (kafka-clients
   * 4.x gives partitioners no batch events).
   */
  STICKY("sticky") {
    @Override
    public Chooser newChooser() {
      return new RoundRobin(STICKY_RUN);
    }
  },

  /**
   * Chooses a partition uniformly at random with {@link ThreadLocalRandom} (no shared
   * {@code Random}, so no contention between threads).
   */
  RANDOM("random") {
    @Override
    public Chooser newChooser() {
      return numPartitions -> ThreadLocalRandom.current().nextInt(numPartitions);
    }
  },

  /**
   * {@code kafka-sticky}, the Kafka adapter's default: there ({@code RoutingPartitioner} in
   * routing-kafka, specs without segment or version layers) keyless records batch as with
   * kafka-clients' built-in partitioner ({@code BatchStickyKeyless}: one partition per topic until
   * {@code batch.size} bytes went to it and its batch is full or sent). routing-core sees no
   * batches, so a core router built from such a spec outside that adapter (a {@link KeyRouter}
   * from {@code RoutingSpec.keyRouter()}, the Pulsar adapter, the test kit) uses the nearest core
   * policy, {@link #STICKY}: exactly its chooser, {@value #STICKY_RUN} messages per partition in
   * turn. The value exists so that one producer config (e.g. the README's Kafka quick start)
   * parses everywhere and round-trips through {@code toString}, {@code toMap} and serialization.
   */
  KAFKA_STICKY("kafka-sticky") {
    @Override
    public Chooser newChooser() {
      return new RoundRobin(STICKY_RUN);
    }
  },

  /**
   * Every keyless message of one router goes to the same partition, chosen at random when the
   * router is created (and afresh when it is deserialized): pulsar-client-cpp's
   * {@code UseSinglePartition} routing mode ({@code SinglePartitionMessageRouter}), the C++,
   * Python and Node.js clients' default before C++ client 4.0, where each producer picks one random
   * partition for all its messages without a partition key. Here the choice is a random 31-bit
   * value taken modulo the partition count of each call, so it stays in range when the count
   * changes (the C++ client keeps the index it drew for the first count). Different producers
   * spread over the partitions only by chance: with few producers, keyless traffic is skewed.
   */
  SINGLE_PARTITION("single-partition") {
    @Override
    public Chooser newChooser() {
      int pick = ThreadLocalRandom.current().nextInt() & Integer.MAX_VALUE;
      return numPartitions -> pick % numPartitions;
    }
  };

  /** Consecutive keyless messages {@link #STICKY} sends to one partition before moving on. */
  public static final int STICKY_RUN = 64;

  private final String id;

  KeylessPolicy(String id) {
    this.id = id;
  }

  /** Returns the identifier used in {@code routing.keyless}, e.g. {@code round-robin}. */
  public String id() {
    return id;
  }

  /**
   * Returns the policy with the given {@link #id()}.
   *
   * @throws IllegalArgumentException if no policy has that identifier
   */
  public static KeylessPolicy fromId(String id) {
    for (KeylessPolicy policy : values()) {
      if (policy.id.equals(id)) {
        return policy;
      }
    }
    throw new IllegalArgumentException("unknown keyless policy '" + id + "', must be one of " + ids());
  }

  /** Returns the identifiers of all policies, e.g. for error messages. */
  public static String ids() {
    StringBuilder sb = new StringBuilder("[");
    for (KeylessPolicy policy : values()) {
      sb.append(sb.length() > 1 ? ", " : "").append(policy.id);
    }
    return sb.append(']').toString();
  }

  /**
   * Creates the chooser that carries out this policy for one router: a new round-robin counter for
   * {@link #ROUND_ROBIN}, {@link #STICKY} and {@link #KAFKA_STICKY}, a stateless chooser for
   * {@link #RANDOM}, a new random partition for {@link #SINGLE_PARTITION}. Thread-safe.
   */
  public abstract Chooser newChooser();

  /** Carries out a keyless policy for one router; safe for concurrent use. */
  @FunctionalInterface
  public interface Chooser {
    /**
     * Returns a partition in {@code [0, numPartitions)}.
     *
     * @param numPartitions the number of partitions to choose from, already checked to be at least 1
     */
    int choose(int numPartitions);
  }

  /**
   * A 64-bit round-robin counter on its own cache line: the padding superclasses keep other hot
   * fields out of the 128 bytes around {@code value} (the Caffeine / JCTools layout trick; the JVM
   * keeps superclass fields before subclass fields).
   */
  static final class RoundRobin extends RoundRobinValue implements Chooser {
    @SuppressWarnings("unused")
    private long q00, q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15;

    /** Messages per partition before moving on: 1 for round-robin, {@link #STICKY_RUN} sticky. */
    private final long run;

    RoundRobin(long run) {
      this.run = run;
    }

    @Override
    public int choose(int numPartitions) {
      long ticket = (long) VALUE.getAndAdd(this, 1L);
      return (int) Math.floorMod(Math.floorDiv(ticket, run), (long) numPartitions);
    }

    /** Visible for tests: positions the counter, e.g. just before a 32-bit overflow. */
    void set(long next) {
      VALUE.setVolatile(this, next);
    }
  }

  /** Left padding of {@link RoundRobin}. */
  abstract static class RoundRobinPad {
    @SuppressWarnings("unused")
    private long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
  }

  /** The counter of {@link RoundRobin}. */
  abstract static class RoundRobinValue extends RoundRobinPad {
    static final java.lang.invoke.VarHandle VALUE;

    static {
      try {
        VALUE = java.lang.invoke.MethodHandles.lookup()
            .findVarHandle(RoundRobinValue.class, "value", long.class);
      } catch (ReflectiveOperationException e) {
        throw new ExceptionInInitializerError(e);
      }
    }

    @SuppressWarnings("unused")
    volatile long value;
  }
}
