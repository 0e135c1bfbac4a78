package io.github.routingkit.assignment;

import java.util.Comparator;
import java.util.Objects;

/**
 * One partition of one topic, as a plain value (no Kafka type), ordered by topic name then
 * partition number.
 */
public final class PartitionRef implements Comparable<PartitionRef> {
  private final String topic;
  private final int partition;

  private static final Comparator<PartitionRef> ORDER =
      Comparator.comparing(PartitionRef::topic).thenComparingInt(PartitionRef::partition);

  /**
   * Creates the value.
   *
   * @param topic the topic name, not null
   * @param partition the partition number, {@code >= 0}
   * @throws NullPointerException if {@code topic} is null
   * @throws IllegalArgumentException if {@code partition < 0}
   */
  public PartitionRef(String topic, int partition) {
    Objects.requireNonNull(topic, "topic");
    if (partition < 0) {
      throw new IllegalArgumentException("partition must be >= 0, was " + partition);
    }
    this.topic = topic;
    this.partition = partition;
  }

  @Override
  public int compareTo(PartitionRef o) {
    return ORDER.compare(this, o);
  }

  @Override
  public String toString() {
    return topic + "-" + partition;
  }

  /** Returns the topic name, not null. */
  public String topic() {
    return topic;
  }

  /** Returns the partition number, {@code >= 0}. */
  public int partition() {
    return partition;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof PartitionRef)) {
      return false;
    }
    PartitionRef other = (PartitionRef) o;
    return Objects.equals(topic, other.topic)
        && partition == other.partition;
  }

  @Override
  public int hashCode() {
    int h = 0;
    h = 31 * h + Objects.hashCode(topic);
    h = 31 * h + Integer.hashCode(partition);
    return h;
  }
}
