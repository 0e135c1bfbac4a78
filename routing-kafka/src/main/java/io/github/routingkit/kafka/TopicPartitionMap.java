package io.github.routingkit.kafka;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.BiConsumer;
import org.apache.kafka.common.Uuid;

/**
 * An immutable {@code Map<Uuid, Set<Integer>>}: one member's partitions by topic id in a KIP-848
 * target assignment, held as two arrays (topic positions ascending, and their sets) over a topic
 * table the members of one assignment share, instead of a hash table and a node per topic.
 * {@code get} and {@code containsKey} are a lookup in the shared table and a binary search;
 * iteration is in topic-position order. Equality and hash code are those of {@link Map}.
 * Thread-safe (immutable).
 */
final class TopicPartitionMap extends AbstractMap<Uuid, Set<Integer>> {
  /** The topics of one assignment: id by position, and position by id. Immutable once built. */
  static final class Topics {
    final Uuid[] ids;
    final Map<Uuid, Integer> positions;

    /** @param ids distinct ids by position; not copied. */
    Topics(Uuid[] ids, Map<Uuid, Integer> positions) {
      this.ids = ids;
      this.positions = positions;
    }
  }

  private final Topics topics;
  private final int[] at; // ascending topic positions
  private final Set<Integer>[] sets;

  /**
   * @param at ascending, distinct topic positions in {@code [0, topics.ids.length)}
   * @param sets the non-null set of each; neither array is copied, the caller must not change them
   */
  TopicPartitionMap(Topics topics, int[] at, Set<Integer>[] sets) {
    if (at.length != sets.length) {
      throw new IllegalArgumentException(at.length + " topics, " + sets.length + " sets");
    }
    this.topics = topics;
    this.at = at;
    this.sets = sets;
  }

  private int indexOf(Object key) {
    Integer p = key instanceof Uuid ? topics.positions.get(key) : null;
    return p == null ? -1 : Arrays.binarySearch(at, p);
  }

  @Override
  public int size() {
    return at.length;
  }

  @Override
  public boolean isEmpty() {
    return at.length == 0;
  }

  @Override
  public boolean containsKey(Object key) {
    return indexOf(key) >= 0;
  }

  @Override
  public Set<Integer> get(Object key) {
    int j = indexOf(key);
    return j < 0 ? null : sets[j];
  }

  @Override
  public void forEach(BiConsumer<? super Uuid, ? super Set<Integer>> action) {
    for (int j = 0; j < at.length; j++) {
      action.accept(topics.ids[at[j]], sets[j]);
    }
  }

  @Override
  public Set<Entry<Uuid, Set<Integer>>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public int size() {
        return at.length;
      }

      @Override
      public Iterator<Entry<Uuid, Set<Integer>>> iterator() {
        return new Iterator<>() {
          private int next;

          @Override
          public boolean hasNext() {
            return next < at.length;
          }

          @Override
          public Entry<Uuid, Set<Integer>> next() {
            if (next >= at.length) {
              throw new NoSuchElementException();
            }
            int j = next++;
            return new SimpleImmutableEntry<>(topics.ids[at[j]], sets[j]);
          }
        };
      }
    };
  }
}
