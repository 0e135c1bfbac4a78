package io.github.routingkit.switching;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The records of one partition a {@link MemberBarrier} skipped: (offset, move) pairs in offset
 * order, 16 bytes each in one growing array, and per distinct move its count and lowest offset.
 * Not thread-safe.
 */
final class SkipList {
  private long[] pairs = new long[0];
  private int size;
  /** Per move: {count, lowest offset}. */
  private final Map<Long, long[]> moves = new HashMap<>();

  int size() {
    return size;
  }

  long offset(int i) {
    return pairs[2 * i];
  }

  long move(int i) {
    return pairs[2 * i + 1];
  }

  /** Appends a pair; {@code offset} must be above every offset in the list. */
  void add(long offset, long move) {
    if (pairs.length < 2 * size + 2) {
      pairs = Arrays.copyOf(pairs, Math.max(8, 2 * pairs.length));
    }
    pairs[2 * size] = offset;
    pairs[2 * size + 1] = move;
    size++;
    long[] m = moves.get(move);
    if (m == null) {
      moves.put(move, new long[] {1, offset});
    } else {
      m[0]++;
    }
  }

  /** Whether a record with this move (the same wait, so perhaps the same key) is skipped. */
  boolean contains(long move) {
    return moves.containsKey(move);
  }

  /**
   * Whether the pair at {@code i} is the lowest-offset one with its move: no earlier record that
   * waits the same way (perhaps of the same key) is still skipped.
   */
  boolean firstOfMove(int i) {
    return moves.get(move(i))[1] == offset(i);
  }

  /** The index of {@code offset}, or -1. */
  int indexOf(long offset) {
    int lo = 0;
    int hi = size - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      long at = pairs[2 * mid];
      if (at < offset) {
        lo = mid + 1;
      } else if (at > offset) {
        hi = mid - 1;
      } else {
        return mid;
      }
    }
    return -1;
  }

  void remove(int i) {
    long move = pairs[2 * i + 1];
    long[] m = moves.get(move);
    if (--m[0] == 0) {
      moves.remove(move);
    } else if (m[1] == pairs[2 * i]) {
      int j = i + 1;
      while (pairs[2 * j + 1] != move) {
        j++;
      }
      m[1] = pairs[2 * j];
    }
    System.arraycopy(pairs, 2 * i + 2, pairs, 2 * i, 2 * (size - i - 1));
    size--;
  }
}
