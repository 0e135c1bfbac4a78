package io.github.routingkit.assignment;

/**
 * The replica racks of a group's partitions by global index, as {@link EqualSubscriptions}'s keep
 * order reads them: implemented by {@link GroupIndex} (from its per-partition arrays) and by
 * {@link EqualSubscriptionsWithRacks} (from the topics, for the claimed partitions it asks about).
 * Rack ids are the small ints {@link GroupIndex} gives the members' racks.
 */
interface RackView {
  /**
   * Whether member {@code i} has a rack and partition {@code gp} has known replica racks, none of
   * them member {@code i}'s.
   */
  boolean isRemote(int i, int gp);

  /** The member racks holding a replica of {@code gp}, ascending; null if none. */
  int[] racksOf(int gp);
}
