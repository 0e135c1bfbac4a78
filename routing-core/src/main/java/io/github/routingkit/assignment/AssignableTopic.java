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
 */
public final class AssignableTopic {
  private final String name;
  private final int partitions;
  private final List<Set<String>> replicaRacks;
  private final int weight;

  /** The largest topic weight. */
  public static final int MAX_WEIGHT = 1_000;

  /**
   * Creates the value; the rack lists are copied.
   *
   * @param name the topic name, not null
   * @param partitions the partition count, {@code >= 0}
   * @param replicaRacks for each partition {@code p} in {@code [0, partitions)}, the set of racks
   *     holding a replica of {@code p}; an empty list means "racks unknown" for every partition
   * @param weight the load of one partition of this topic, in {@code [1, }{@value
   *     #MAX_WEIGHT}{@code ]}
   * @throws NullPointerException if {@code name} or {@code replicaRacks} (or an element) is null
   * @throws IllegalArgumentException if {@code partitions < 0}, the weight is outside
   *     {@code [1, 1000]}, or {@code replicaRacks} is neither empty nor of size {@code partitions}
   */
  public AssignableTopic(String name, int partitions, List<Set<String>> replicaRacks, int weight) {
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
    this.name = name;
    this.partitions = partitions;
    this.replicaRacks = replicaRacks;
    this.weight = weight;
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

  /** Returns the topic name, not null. */
  public String name() {
    return name;
  }

  /** Returns the partition count, {@code >= 0}. */
  public int partitions() {
    return partitions;
  }

  /**
   * Returns for each partition {@code p} in {@code [0, partitions)}, the set of racks holding a
   * replica of {@code p}; an empty list means "racks unknown" for every partition.
   */
  public List<Set<String>> replicaRacks() {
    return replicaRacks;
  }

  /**
   * Returns the load of one partition of this topic, in {@code [1, }{@value #MAX_WEIGHT}{@code
   * ]}.
   */
  public int weight() {
    return weight;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof AssignableTopic)) {
      return false;
    }
    AssignableTopic other = (AssignableTopic) o;
    return Objects.equals(name, other.name)
        && partitions == other.partitions
        && Objects.equals(replicaRacks, other.replicaRacks)
        && weight == other.weight;
  }

  @Override
  public int hashCode() {
    int h = 0;
    h = 31 * h + Objects.hashCode(name);
    h = 31 * h + Integer.hashCode(partitions);
    h = 31 * h + Objects.hashCode(replicaRacks);
    h = 31 * h + Integer.hashCode(weight);
    return h;
  }

  @Override
  public String toString() {
    return "AssignableTopic[name=" + name + ", partitions=" + partitions + ", replicaRacks="
        + replicaRacks + ", weight=" + weight + "]";
  }
}
