package io.github.routingkit;

/**
 * Maps a 32-bit hash to a partition in {@code [0, numPartitions)}.
 *
 * <p>Thread-safety: stateless, safe from any thread. Every placement returns an in-range value for
 * every {@code int} hash, including {@link Integer#MIN_VALUE}, the value on which
 * {@code Math.abs(h) % n} returns a negative partition.
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

  /** Returns the identifier of this placement, e.g. {@code floor-mod}. */
  public String id() {
    return id;
  }
}
