package io.github.routingkit.assignment;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A topic whose partitions the group shares out: its name, partition count, the racks that hold a
 * replica of each partition (for rack locality) and a relative weight (the load one of its
 * partitions counts for).
 *
 * @param name the topic name, not null
 * @param partitions the partition count, {@code >= 0}
 * @param replicaRacks for each partition {@code p} in {@code [0, partitions)}, the set of racks
 *     holding a replica of {@code p}; an empty list means "racks unknown" for every partition
 * @param weight the load of one partition of this topic, in {@code [1, }{@value #MAX_WEIGHT}{@code ]}
 */
public record AssignableTopic(String name, int partitions, List<Set<String>> replicaRacks, int weight) {
  /** The largest topic weight. */
  public static final int MAX_WEIGHT = 1_000;

  /**
   * Creates the value; the rack lists are copied.
   *
   * @throws NullPointerException if {@code name} or {@code replicaRacks} (or an element) is null
   * @throws IllegalArgumentException if {@code partitions < 0}, the weight is outside
   *     {@code [1, 1000]}, or {@code replicaRacks} is neither empty nor of size {@code partitions}
   */
  public AssignableTopic {
    Objects.requireNonNull(name, "name");
    if (partitions < 0) {
      throw new IllegalArgumentException("topic " + name + ": partitions must be >= 0, was " + partitions);
    }
    if (weight < 1 || weight > MAX_WEIGHT) {
      throw new IllegalArgumentException(
          "topic " + name + ": weight must be in [1, " + MAX_WEIGHT + "], was " + weight);
    }
    if (!replicaRacks.isEmpty() && replicaRacks.size() != partitions) {
      throw new IllegalArgumentException("topic " + name + ": replicaRacks must be empty or have "
          + partitions + " entries, had " + replicaRacks.size());
    }
    Set<?>[] copy = new Set<?>[replicaRacks.size()];
    int p = 0;
    for (Set<String> rs : replicaRacks) {
      copy[p++] = Set.copyOf(rs); // the set itself when it is already immutable
    }
    @SuppressWarnings("unchecked")
    List<Set<String>> copied = (List<Set<String>>) (List<?>) Arrays.asList(copy);
    replicaRacks = Collections.unmodifiableList(copied); // copy is not shared: one array, not two
  }

  /** A topic of weight 1 whose replica racks are unknown. */
  public static AssignableTopic of(String name, int partitions) {
    return new AssignableTopic(name, partitions, List.of(), 1);
  }

  /** Returns this topic with the given weight. */
  public AssignableTopic withWeight(int newWeight) {
    return new AssignableTopic(name, partitions, replicaRacks, newWeight);
  }

  /** Returns the racks holding a replica of partition {@code p} (empty if unknown). */
  public Set<String> racksOf(int p) {
    return replicaRacks.isEmpty() ? Set.of() : replicaRacks.get(p);
  }
}
