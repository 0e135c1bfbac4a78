package io.github.routingkit;

import io.github.routingkit.internal.Partitions;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;

/**
 * The consumer side of a routing switch: keeps per-key order when keys move partition at a cutover
 * step marked by a switch marker in every partition (sent by the Kafka or Pulsar
 * {@code SwitchMarkers} helper after the producers switched from {@code oldRouter} to
 * {@code newRouter}).
 *
 * <p>Records of partition {@code p} before its marker were routed by the old router; after it, by
 * the new one. A record after the marker in {@code p} whose key's old partition {@code q} differs
 * from {@code p} is held back until the marker of {@code q} was seen, so every older record of
 * that key (all of them in {@code q}) is handed over first. Markers are never handed to business
 * code; {@link Listener#onMarker} is told of each one, with what changed owner.
 *
 * <p>Memory: the held-back records, at most those that arrive in
 * new partitions before the old partition's marker. Not thread-safe: one per consumer thread.
 *
 * <p><b>Correct only when one consumer reads every partition.</b> In a consumer group it waits
 * for markers of partitions its member does not read and holds their moved keys forever, while
 * the member's commits move past them: those records are lost. Use
 * {@link io.github.routingkit.switching.MemberBarrier} through the Kafka
 * {@code GroupSwitchBarrier} or the Pulsar {@code FailoverSwitchBarrier}, which learn the other
 * partitions' progress from the group and commit only what was handed over.
 *
 * @param <R> the record type (a Kafka ConsumerRecord, a Pulsar Message)
 * @deprecated loses records in a consumer group; use
 *     {@link io.github.routingkit.switching.MemberBarrier} through the adapters' group barriers
 */
@Deprecated
public final class SwitchBarrier<R> {
  /** Told of every marker; may clear local state of the keys that left the partition. */
  public interface Listener {
    /**
     * Called once per partition when its marker arrives, before any record held back for it is
     * released.
     *
     * @param partition the partition whose marker arrived, in [0, numPartitions)
     * @param generation the routing generation the marker carries
     * @param step the rollout step the marker carries
     */
    void onMarker(int partition, String generation, int step);
  }

  private final KeyRouter oldRouter;
  private final KeyRouter newRouter;
  private final int numPartitions;
  private final Listener listener;
  private final boolean[] markerSeen;
  private final List<Deque<R>> held;
  private int markers;

  /**
   * Creates a barrier for one switch.
   *
   * @param oldRouter the router before the step
   * @param newRouter the router after the step
   * @param numPartitions the topic's partition count, in [1, 2^20]
   * @param listener told of each marker
   * @throws NullPointerException if a router or the listener is null
   * @throws IllegalArgumentException if {@code numPartitions} is out of range
   */
  public SwitchBarrier(KeyRouter oldRouter, KeyRouter newRouter, int numPartitions,
      Listener listener) {
    this.oldRouter = Objects.requireNonNull(oldRouter, "oldRouter");
    this.newRouter = Objects.requireNonNull(newRouter, "newRouter");
    this.numPartitions = Partitions.checkCount(numPartitions);
    this.listener = Objects.requireNonNull(listener, "listener");
    this.markerSeen = new boolean[numPartitions];
    this.held = new ArrayList<>(numPartitions);
    for (int i = 0; i < numPartitions; i++) {
      held.add(new ArrayDeque<>());
    }
  }

  /**
   * Offers one record in consumption order and appends what business code may now see to
   * {@code deliver}: the record itself, nothing (held back, or a marker), or, for a marker, the
   * records held back for its partition.
   *
   * @param record the record
   * @param partition its partition, in [0, numPartitions)
   * @param key its key as bytes, or null for a keyless record (never held back)
   * @param generation the marker's generation if the record is a marker, else null
   * @param step the marker's step (ignored unless a marker)
   * @param deliver where deliverable records go, in order
   * @throws IllegalArgumentException if {@code partition} is out of range
   */
  public void offer(R record, int partition, byte[] key, String generation, int step,
      List<? super R> deliver) {
    if (partition < 0 || partition >= numPartitions) {
      throw new IllegalArgumentException("partition was " + partition + ", must be in [0, "
          + numPartitions + ")");
    }
    if (generation != null) {
      if (!markerSeen[partition]) {
        markerSeen[partition] = true;
        markers++;
        listener.onMarker(partition, generation, step);
        deliver.addAll(held.get(partition));
        held.get(partition).clear();
      }
      return;
    }
    if (key == null || !markerSeen[partition]) {
      deliver.add(record);
      return;
    }
    route(record, partition, oldRouter.partition(key, numPartitions), deliver);
  }

  /**
   * As {@link #offer(Object, int, byte[], String, int, List)} for a text key (a Pulsar message
   * key), routed as the producer's router routes a String key.
   */
  public void offer(R record, int partition, CharSequence key, String generation, int step,
      List<? super R> deliver) {
    if (generation != null || key == null) {
      offer(record, partition, (byte[]) null, generation, step, deliver);
      return;
    }
    if (partition < 0 || partition >= numPartitions) {
      throw new IllegalArgumentException("partition was " + partition + ", must be in [0, "
          + numPartitions + ")");
    }
    if (!markerSeen[partition]) {
      deliver.add(record);
      return;
    }
    route(record, partition, oldRouter.partition(key, numPartitions), deliver);
  }

  private void route(R record, int partition, int old, List<? super R> deliver) {
    if (old == partition || markerSeen[old]) {
      deliver.add(record);
    } else {
      held.get(old).add(record);
    }
  }

  /** Whether text {@code key} changes partition at this step. */
  public boolean moves(CharSequence key) {
    return oldRouter.partition(key, numPartitions) != newRouter.partition(key, numPartitions);
  }

  /** Whether {@code key} leaves {@code partition} at this step (old owner, new owner elsewhere). */
  public boolean movedOut(byte[] key, int partition) {
    return oldRouter.partition(key, numPartitions) == partition
        && newRouter.partition(key, numPartitions) != partition;
  }

  /** Whether {@code key} changes partition at this step. */
  public boolean moves(byte[] key) {
    return oldRouter.partition(key, numPartitions) != newRouter.partition(key, numPartitions);
  }

  /** Whether every partition's marker was seen (the switch is complete for this consumer). */
  public boolean complete() {
    return markers == numPartitions;
  }

  /** The number of records held back now. */
  public int heldBack() {
    int n = 0;
    for (Deque<R> d : held) {
      n += d.size();
    }
    return n;
  }
}
