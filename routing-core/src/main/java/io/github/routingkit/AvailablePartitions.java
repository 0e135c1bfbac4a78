package io.github.routingkit;

/**
 * The partitions that can take a message right now (Kafka: those with a leader), as an adapter
 * sees them, handed to {@link KeyRouter#keylessPartition(int, AvailablePartitions)} so that the
 * keyless policy, not the adapter, decides how to avoid unavailable partitions.
 *
 * <p>Implementations are views over the client's metadata; they are read on the calling thread
 * only and need not be thread-safe.
 */
public interface AvailablePartitions {

  /** Returns the number of available partitions, at least 0. */
  int count();

  /**
   * Returns the partition number of the {@code index}-th available partition.
   *
   * @param index in {@code [0, count())}
   * @return a partition in {@code [0, numPartitions)} of the topic
   */
  int get(int index);

  /** Returns whether {@code partition} is available; the default scans {@link #get}. */
  default boolean contains(int partition) {
    for (int i = 0, n = count(); i < n; i++) {
      if (get(i) == partition) {
        return true;
      }
    }
    return false;
  }
}
