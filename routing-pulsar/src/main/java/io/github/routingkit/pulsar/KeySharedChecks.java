package io.github.routingkit.pulsar;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.pulsar.client.api.Range;

/**
 * The argument checks of {@link KeySharedPredictor}'s factories and membership changes: points
 * per consumer, the ring's size bound, and defensive copies of consumer names and ranges that
 * reject nulls. Stateless.
 */
final class KeySharedChecks {
  private KeySharedChecks() {}

  static void checkPoints(int points) {
    if (points < 1 || points > KeySharedPredictor.MAX_POINTS) {
      throw new IllegalArgumentException(
          "subscriptionKeySharedConsistentHashingReplicaPoints value was " + points
              + ", must be in [1, " + KeySharedPredictor.MAX_POINTS + "] (the ring has "
              + KeySharedPredictor.HASH_RANGE_SIZE + " slots)");
    }
  }

  static void checkRingSize(long consumers, int points) {
    if (consumers * points > KeySharedPredictor.MAX_RING_POINTS) {
      throw new IllegalArgumentException("ring of " + consumers + " connected consumers x "
          + points + " points = " + consumers * points + " points, at most "
          + KeySharedPredictor.MAX_RING_POINTS + " are supported");
    }
  }

  static List<String> copyNames(List<String> consumers) {
    Objects.requireNonNull(consumers, "consumers");
    List<String> names = new ArrayList<>(consumers.size());
    for (String name : consumers) {
      names.add(Objects.requireNonNull(name, "consumer name"));
    }
    return names;
  }

  static List<Range> copyRanges(String name, Collection<Range> ranges) {
    Objects.requireNonNull(ranges, () -> "ranges of consumer " + name);
    List<Range> copy = new ArrayList<>(ranges.size());
    for (Range r : ranges) {
      copy.add(Objects.requireNonNull(r, () -> "a range of consumer " + name));
    }
    return List.copyOf(copy);
  }

  static Map<String, List<Range>> copyAll(
      Map<String, ? extends Collection<Range>> rangesByConsumer) {
    Objects.requireNonNull(rangesByConsumer, "rangesByConsumer");
    Map<String, List<Range>> copy = new LinkedHashMap<>();
    rangesByConsumer.forEach(
        (name, ranges) -> copy.put(Objects.requireNonNull(name, "consumer name"),
            copyRanges(name, ranges)));
    return copy;
  }
}
