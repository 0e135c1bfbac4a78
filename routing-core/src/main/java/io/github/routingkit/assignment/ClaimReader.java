package io.github.routingkit.assignment;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Reads one member's claims, from its {@link GroupMember#ownedPartitions()} and from
 * {@link OwnedPartitions}, as runs of partition numbers per topic index (topics sorted by name):
 * the one translation the general path ({@link GroupIndex}) and the equal-subscription builders
 * ({@link EqualSubscriptionClaims}) need. Claims of topics the group does not know are
 * dropped here; partition numbers are passed on unchecked. Not thread-safe (one reusable buffer).
 */
abstract class ClaimReader implements OwnedPartitions.Sink {
  private final int[] sortedTopic; // [topic position as given] = topic index by name
  private final Map<String, Integer> topicIndex; // topic name = topic index by name
  private int[] buf = new int[16];

  ClaimReader(SortedGroup group) {
    this.sortedTopic = group.sortedTopic;
    this.topicIndex = group.topicIndex;
  }

  /** Claims of {@code ps[from..to)} on topic index {@code t} (a known topic); numbers unchecked. */
  abstract void claims(int t, int[] ps, int from, int to);

  /** Reads {@code refs}: each run of consecutive refs of one known topic as one call of {@link #claims}. */
  final void read(List<PartitionRef> refs) {
    String lastTopic = null;
    int t = -1;
    int c = 0;
    for (PartitionRef ref : refs) {
      if (!ref.topic().equals(lastTopic)) {
        if (c > 0) {
          claims(t, buf, 0, c);
          c = 0;
        }
        lastTopic = ref.topic();
        Integer ti = topicIndex.get(lastTopic);
        t = ti == null ? -1 : ti;
      }
      if (t >= 0) {
        if (c == buf.length) {
          buf = Arrays.copyOf(buf, c * 2);
        }
        buf[c++] = ref.partition();
      }
    }
    if (c > 0) {
      claims(t, buf, 0, c);
    }
  }

  @Override
  public final void accept(int topic, int[] partitions, int count) {
    accept(topic, partitions, 0, count);
  }

  @Override
  public final void accept(int topic, int[] partitions, int from, int to) {
    if (topic < 0 || topic >= sortedTopic.length) {
      return; // a topic the group does not know
    }
    Objects.checkFromToIndex(from, to, partitions.length);
    claims(sortedTopic[topic], partitions, from, to);
  }
}
