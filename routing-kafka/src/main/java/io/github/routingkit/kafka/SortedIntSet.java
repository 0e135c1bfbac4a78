package io.github.routingkit.kafka;

import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * An immutable {@code Set<Integer>} over a sorted range of an {@code int[]} of distinct values: the
 * partition numbers of one topic in a KIP-848 member assignment, without a boxed Integer and a
 * hash node per partition (the topics of one member may share one array, each set a range of it).
 * {@code contains} is a binary search; iteration boxes on the fly, ascending. Equality and hash
 * code are those of {@link java.util.Set}. Thread-safe (immutable).
 */
final class SortedIntSet extends AbstractSet<Integer> {
  private final int[] values;
  private final int from;
  private final int to;

  /** @param values ascending, distinct; not copied, the caller must not change it */
  SortedIntSet(int[] values) {
    this(values, 0, values.length);
  }

  /**
   * @param values {@code values[from..to)} ascending, distinct; not copied, the caller must not
   *     change that range
   * @throws IndexOutOfBoundsException if the range is not within the array
   */
  SortedIntSet(int[] values, int from, int to) {
    if (from < 0 || to > values.length || from > to) {
      throw new IndexOutOfBoundsException("[" + from + ", " + to + ") of " + values.length);
    }
    this.values = values;
    this.from = from;
    this.to = to;
  }

  /** The array holding the values in {@code [from(), to())}; the caller must not change it. */
  int[] array() {
    return values;
  }

  /** The first index of the values in {@link #array()}. */
  int from() {
    return from;
  }

  /** One past the last index of the values in {@link #array()}. */
  int to() {
    return to;
  }

  @Override
  public int size() {
    return to - from;
  }

  @Override
  public boolean contains(Object o) {
    return o instanceof Integer && Arrays.binarySearch(values, from, to, (Integer) o) >= 0;
  }

  @Override
  public Iterator<Integer> iterator() {
    return new Iterator<>() {
      private int next = from;

      @Override
      public boolean hasNext() {
        return next < to;
      }

      @Override
      public Integer next() {
        if (next >= to) {
          throw new NoSuchElementException();
        }
        return values[next++];
      }
    };
  }

  @Override
  public int hashCode() {
    int h = 0;
    for (int j = from; j < to; j++) {
      h += values[j]; // Integer.hashCode
    }
    return h;
  }
}
