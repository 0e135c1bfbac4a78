package io.github.routingkit.kafka;

import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * An immutable {@code Set<Integer>} over a sorted {@code int[]} of distinct values: the partition
 * numbers of one topic in a KIP-848 member assignment, without a boxed Integer and a hash node per
 * partition. {@code contains} is a binary search; iteration boxes on the fly, ascending. Equality
 * and hash code are those of {@link java.util.Set}. Thread-safe (immutable).
 */
final class SortedIntSet extends AbstractSet<Integer> {
  private final int[] values;

  /** @param values ascending, distinct; not copied, the caller must not change it */
  SortedIntSet(int[] values) {
    this.values = values;
  }

  /** The values, ascending; the caller must not change the array. */
  int[] values() {
    return values;
  }

  @Override
  public int size() {
    return values.length;
  }

  @Override
  public boolean contains(Object o) {
    return o instanceof Integer v && Arrays.binarySearch(values, v) >= 0;
  }

  @Override
  public Iterator<Integer> iterator() {
    return new Iterator<>() {
      private int next;

      @Override
      public boolean hasNext() {
        return next < values.length;
      }

      @Override
      public Integer next() {
        if (next >= values.length) {
          throw new NoSuchElementException();
        }
        return values[next++];
      }
    };
  }

  @Override
  public int hashCode() {
    int h = 0;
    for (int v : values) {
      h += v; // Integer.hashCode
    }
    return h;
  }
}
