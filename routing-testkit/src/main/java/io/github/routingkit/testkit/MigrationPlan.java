package io.github.routingkit.testkit;

import io.github.routingkit.router.version.VersionedRouter;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What moving a topic's keys from one routing generation to another does to a sample of keys: the
 * fraction of distinct keys and of messages whose partition changes, the keys that move, and a
 * dual-write helper giving a key's partition under both generations.
 *
 * <p>The sample is a sequence of message keys (repeats allowed: each element is one message), so
 * a hot key that moves weighs in the message fraction by its traffic. Keys are routed as untagged
 * UTF-8 text by each generation's router at that generation's partition count ({@code *}: the
 * topic's). Immutable and thread-safe once built. Building routes every sample element twice and
 * keeps each distinct key once; it is meant for planning, not for the send path.
 */
public final class MigrationPlan {
  private final VersionedRouter.Generation from;
  private final VersionedRouter.Generation to;
  private final int topicPartitions;
  private final long messages;
  private final long movedMessages;
  private final int distinctKeys;
  private final List<String> movedKeys;

  private MigrationPlan(VersionedRouter.Generation from, VersionedRouter.Generation to,
      int topicPartitions, long messages, long movedMessages, int distinctKeys,
      List<String> movedKeys) {
    this.from = from;
    this.to = to;
    this.topicPartitions = topicPartitions;
    this.messages = messages;
    this.movedMessages = movedMessages;
    this.distinctKeys = distinctKeys;
    this.movedKeys = movedKeys;
  }

  /**
   * Plans the move of {@code sample} from generation {@code from} to generation {@code to} on a
   * topic of {@code topicPartitions} partitions.
   *
   * @throws NullPointerException if an argument or a sample element is null
   * @throws IllegalStateException if a generation needs more partitions than the topic has
   */
  public static MigrationPlan of(Iterable<? extends CharSequence> sample,
      VersionedRouter.Generation from, VersionedRouter.Generation to, int topicPartitions) {
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(to, "to");
    int nFrom = from.countFor(topicPartitions);
    int nTo = to.countFor(topicPartitions);
    Map<String, Boolean> moved = new LinkedHashMap<>();
    long messages = 0;
    long movedMessages = 0;
    for (CharSequence k : sample) {
      String key = k.toString();
      messages++;
      Boolean m = moved.get(key);
      if (m == null) {
        byte[] b = key.getBytes(StandardCharsets.UTF_8);
        m = from.router().partition(b, 0, b.length, nFrom) != to.router().partition(b, 0, b.length, nTo);
        moved.put(key, m);
      }
      if (m) {
        movedMessages++;
      }
    }
    List<String> movedKeys = new ArrayList<>();
    moved.forEach((key, m) -> {
      if (m) {
        movedKeys.add(key);
      }
    });
    return new MigrationPlan(from, to, topicPartitions, messages, movedMessages, moved.size(),
        Collections.unmodifiableList(movedKeys));
  }

  /**
   * Plans the move between two of {@code router}'s generations.
   *
   * @throws IllegalArgumentException if a version names no generation
   */
  public static MigrationPlan of(Iterable<? extends CharSequence> sample, VersionedRouter router,
      String fromVersion, String toVersion, int topicPartitions) {
    return of(sample, router.generation(fromVersion), router.generation(toVersion), topicPartitions);
  }

  /** Returns the fraction of distinct sample keys whose partition changes, in [0, 1] (0 for an empty sample). */
  public double movedKeyFraction() {
    return distinctKeys == 0 ? 0 : (double) movedKeys.size() / distinctKeys;
  }

  /** Returns the fraction of sample messages whose partition changes, in [0, 1] (0 for an empty sample). */
  public double movedMessageFraction() {
    return messages == 0 ? 0 : (double) movedMessages / messages;
  }

  /** Returns the distinct keys that change partition, in first-seen order. */
  public List<String> movedKeys() {
    return movedKeys;
  }

  /** Returns the number of distinct keys in the sample. */
  public int distinctKeys() {
    return distinctKeys;
  }

  /** Returns the number of messages (elements) in the sample. */
  public long messages() {
    return messages;
  }

  /**
   * The dual-write helper: the partition of {@code key} under the old and the new generation,
   * {@code [from, to]}, each in {@code [0, topicPartitions)}; equal when the key does not move.
   */
  public int[] dualWrite(byte[] key) {
    return new int[] {
        from.router().partition(key, 0, key.length, from.countFor(topicPartitions)),
        to.router().partition(key, 0, key.length, to.countFor(topicPartitions))};
  }

  @Override
  public String toString() {
    return String.format(java.util.Locale.ROOT,
        "MigrationPlan{%s -> %s on %d partitions: %d of %d keys move (%.2f %%), %.2f %% of %d"
            + " messages}", from.version(), to.version(), topicPartitions, movedKeys.size(),
        distinctKeys, 100 * movedKeyFraction(), 100 * movedMessageFraction(), messages);
  }
}
