package io.github.routingkit.assignment;

import java.util.Comparator;
import java.util.Objects;

/**
 * One partition of one topic, as a plain value (no Kafka type), ordered by topic name then
 * partition number.
 *
 * @param topic the topic name, not null
 * @param partition the partition number, {@code >= 0}
 */
public record PartitionRef(String topic, int partition) implements Comparable<PartitionRef> {
  private static final Comparator<PartitionRef> ORDER =
      Comparator.comparing(PartitionRef::topic).thenComparingInt(PartitionRef::partition);

  /**
   * Creates the value.
   *
   * @throws NullPointerException if {@code topic} is null
   * @throws IllegalArgumentException if {@code partition < 0}
   */
  public PartitionRef {
    Objects.requireNonNull(topic, "topic");
    if (partition < 0) {
      throw new IllegalArgumentException("partition must be >= 0, was " + partition);
    }
  }

  @Override
  public int compareTo(PartitionRef o) {
    return ORDER.compare(this, o);
  }

  @Override
  public String toString() {
    return topic + "-" + partition;
  }
}
