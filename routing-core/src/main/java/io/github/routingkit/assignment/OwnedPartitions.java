package io.github.routingkit.assignment;

/**
 * Owned partitions given as partition numbers per topic position, for
 * {@link AssignmentPolicy#assign(java.util.List, java.util.List, OwnedPartitions, RebalanceMode)}:
 * the form an adapter can produce from its API's own per-topic sets without a
 * {@link PartitionRef} (and a topic-name lookup) per owned partition.
 *
 * <p>The policy calls {@link #forEachOwned} once per member, on the calling thread, during the
 * {@code assign} call; implementations need not be thread-safe beyond that.
 */
@FunctionalInterface
public interface OwnedPartitions {
  /**
   * Reports what member {@code member} owns: calls {@code sink} once per topic of which it owns
   * partitions (any order; a topic may be reported more than once).
   *
   * @param member the member's position in the {@code members} list given to {@code assign}, in
   *     {@code [0, members.size())}
   * @param sink receives the claims; it reads the array before returning, so the caller may reuse
   *     one buffer for every call
   */
  void forEachOwned(int member, Sink sink);

  /** Receives the partitions one member owns of one topic. */
  @FunctionalInterface
  interface Sink {
    /**
     * @param topic the topic's position in the {@code topics} list given to {@code assign}; a
     *     position outside {@code [0, topics.size())} (a topic the group does not know) is ignored
     * @param partitions the owned partition numbers in {@code partitions[0..count)}, any order;
     *     numbers outside {@code [0, partitions of the topic)} are ignored
     * @param count how many entries of {@code partitions} are set, {@code >= 0}
     */
    void accept(int topic, int[] partitions, int count);

    /**
     * Receives the partitions one member owns of one topic as a range of an array: the same as
     * {@code accept(topic, Arrays.copyOfRange(partitions, from, to), to - from)}, which is what
     * this default does; the policy's own sinks read the range in place, so an adapter whose sets
     * are ranges of a shared array need not copy them.
     *
     * @param topic as for {@link #accept(int, int[], int)}
     * @param partitions the owned partition numbers in {@code partitions[from..to)}, any order
     * @param from the first index, {@code >= 0}
     * @param to one past the last index, {@code from <= to <= partitions.length}
     * @throws IndexOutOfBoundsException if the range is not within the array
     */
    default void accept(int topic, int[] partitions, int from, int to) {
      accept(topic, java.util.Arrays.copyOfRange(partitions, from, to), to - from);
    }
  }
}
