package io.github.routingkit.placement;

import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.internal.Partitions;

/**
 * Maps a key hash to a partition in {@code [0, numPartitions)}.
 *
 * <p>The modulo placements ({@link #FLOOR_MOD}, {@link #KAFKA_TO_POSITIVE}, {@link #UNSIGNED_MOD},
 * {@link #ABS_REMAINDER}) each reproduce one client's arithmetic on a 32-bit hash; they move most
 * keys when the partition count changes (n &rarr; m moves {@code 1 - min(n, m) / lcm(n, m)} of the
 * keys: 12 &rarr; 16 moves 75 %). {@link #JUMP} and {@link #JUMP_BACK} are consistent: n &rarr; m
 * moves only {@code |m - n| / max(n, m)} of the keys, and only to or from the added or removed
 * partitions. They are two different consistent mappings: switching a topic from one to the other
 * moves about {@code 1 - 1/n} of its keys, as a change of hash scheme does.
 *
 * <p>Thread-safety: stateless, safe from any thread. Every placement returns an in-range value for
 * every hash, including {@link Integer#MIN_VALUE}, the value on which {@code Math.abs(h) % n}
 * returns a negative partition.
 */
public enum Placement {

  /**
   * {@code Math.floorMod(hash, n)}: the sign-safe modulo pulsar-client's {@code signSafeMod}
   * applies.
   */
  FLOOR_MOD("floor-mod") {
    @Override
    public int place(int hash, int numPartitions) {
      return Math.floorMod(hash, Partitions.checkCount(numPartitions));
    }
  },

  /**
   * {@code (hash & 0x7fffffff) % n}: kafka-clients' {@code Utils#toPositive} then modulo, the keyed
   * path of the default partitioning (not {@code Math.abs}: the two differ on negative hashes).
   */
  KAFKA_TO_POSITIVE("to-positive") {
    @Override
    public int place(int hash, int numPartitions) {
      return (hash & 0x7fffffff) % Partitions.checkCount(numPartitions);
    }
  },

  /**
   * {@code Integer.remainderUnsigned(hash, n)}: the hash read as an unsigned 32-bit value, then
   * modulo, as C computes {@code uint32_t % int32_t}. librdkafka's {@code consistent} and
   * {@code fnv1a} partitioners ({@code rd_crc32(key) % partition_cnt},
   * {@code rd_fnv1a(key) % partition_cnt} in {@code src/rdkafka_msg.c}).
   */
  UNSIGNED_MOD("unsigned-mod") {
    @Override
    public int place(int hash, int numPartitions) {
      return Integer.remainderUnsigned(hash, Partitions.checkCount(numPartitions));
    }
  },

  /**
   * {@code |hash % n|} with Java's (and Go's) truncating remainder: Sarama's
   * {@code NewHashPartitioner} ({@code int32(hash) % numPartitions}, negated if negative). Differs
   * from {@link #KAFKA_TO_POSITIVE} on most negative hashes (for n &gt; 2); always in range, also
   * for {@link Integer#MIN_VALUE}.
   */
  ABS_REMAINDER("abs-remainder") {
    @Override
    public int place(int hash, int numPartitions) {
      return Math.abs(hash % Partitions.checkCount(numPartitions));
    }
  },

  /**
   * Jump consistent hash (Lamping &amp; Veach 2014) of a 64-bit key hash: growing the partition
   * count from n to m moves a key with probability {@code (m - n) / m} (the minimum possible), and
   * a key that moves goes to one of the new partitions {@code [n, m)}, never from one old partition
   * to another. {@link #place(int, int)} jumps on the 32-bit hash read as unsigned;
   * {@link #place64(long, int)} on a full 64-bit hash (what {@link HashScheme#XXH3_64} provides).
   * Gives up: nothing on balance, but it is not what any client's built-in does, so keys placed with
   * it land elsewhere than with the client's default partitioner. Cost: {@code O(log n)} steps.
   */
  JUMP("jump") {
    @Override
    public int place(int hash, int numPartitions) {
      return Jump.bucket(hash & 0xFFFFFFFFL, numPartitions);
    }

    @Override
    public int place64(long hash, int numPartitions) {
      return Jump.bucket(hash, numPartitions);
    }
  },

  /**
   * JumpBackHash (Otmar Ertl, "JumpBackHash: Say Goodbye to the Modulo Operation to Distribute Keys
   * Uniformly to Buckets", arXiv:2403.18682, 2024) of a
   * 64-bit key hash: the same guarantees as {@link #JUMP} (growing n to m moves a key with
   * probability {@code (m - n) / m}, only onto one of the new partitions {@code [n, m)}; each
   * partition gets {@code 1/n} of the keys), in {@code O(1)} expected time with integer arithmetic
   * only, where {@link #JUMP} takes about {@code ln n + 1} dependent steps.
   *
   * <p>It is a different mapping from {@link #JUMP}: the same key generally lands on a different
   * partition, so moving a topic between the two moves about {@code 1 - 1/n} of its keys.
   * Bit-exact with Dynatrace hash4j's {@code ConsistentHashing.jumpBackHash(
   * PseudoRandomGeneratorProvider.splitMix64_V1())} (hash4j 0.25.0; {@code jumpBackHashSplitMix64()}
   * in later releases) fed the same 64-bit value: {@link #place64(long, int)} feeds the 64-bit hash
   * as it is (for {@link HashScheme#XXH3_64} the full XXH3 hash), {@link #place(int, int)} the 32-bit
   * hash read as unsigned ({@code hash & 0xFFFFFFFFL}), the same widening as {@link #JUMP} and
   * {@link HashScheme#hash64}. Agrees with no client's built-in partitioner.
   */
  JUMP_BACK("jump-back") {
    @Override
    public int place(int hash, int numPartitions) {
      return JumpBack.bucket(hash & 0xFFFFFFFFL, numPartitions);
    }

    @Override
    public int place64(long hash, int numPartitions) {
      return JumpBack.bucket(hash, numPartitions);
    }
  };

  private final String id;

  Placement(String id) {
    this.id = id;
  }

  /**
   * Returns the partition of a key with the given hash.
   *
   * @return a partition in {@code [0, numPartitions)}
   * @throws IllegalArgumentException if {@code numPartitions < 1}
   */
  public abstract int place(int hash, int numPartitions);

  /**
   * Returns the partition of a key with the given 64-bit hash ({@link HashScheme#hash64}). The
   * modulo placements use its low 32 bits ({@code place((int) hash, n)}), so for a 32-bit scheme
   * (whose {@code hash64} is the unsigned 32-bit hash) both methods agree; {@link #JUMP} and
   * {@link #JUMP_BACK} use all 64.
   *
   * @return a partition in {@code [0, numPartitions)}
   * @throws IllegalArgumentException if {@code numPartitions < 1}
   */
  public int place64(long hash, int numPartitions) {
    return place((int) hash, numPartitions);
  }

  /**
   * Returns the placement with the given {@link #id()}.
   *
   * @throws IllegalArgumentException if no placement has that identifier
   */
  public static Placement fromId(String id) {
    for (Placement p : values()) {
      if (p.id.equals(id)) {
        return p;
      }
    }
    throw new IllegalArgumentException("unknown placement '" + id + "'");
  }

  /** Returns the partition of a 64-bit key under jump consistent hashing, in {@code [0, n)}. */
  public static int jump(long key, int numPartitions) {
    return Jump.bucket(key, numPartitions);
  }

  /**
   * Returns the partition of a 64-bit key under JumpBackHash ({@link #JUMP_BACK}), in
   * {@code [0, numPartitions)}; equal to hash4j's {@code jumpBackHash(splitMix64_V1())
   * .getBucket(key, numPartitions)}. Pure, allocation-free, safe from any thread.
   *
   * @throws IllegalArgumentException if {@code numPartitions < 1}
   */
  public static int jumpBack(long key, int numPartitions) {
    return JumpBack.bucket(key, numPartitions);
  }

  /** Returns the identifier of this placement, e.g. {@code floor-mod}. */
  public String id() {
    return id;
  }
}
