package io.github.routingkit.assignment;

import java.util.Arrays;

/**
 * An indexed binary heap of small ints (member or topic positions) ordered by a caller's
 * comparison, which may change for an element as long as {@link #update} is called after the
 * change. Not thread-safe; allocation only at construction.
 */
final class IntHeap {
  /** The order: a negative result puts {@code a} nearer the top than {@code b}. */
  interface Order {
    int compare(int a, int b);
  }

  private final Order order;
  private final int[] heap;
  private final int[] pos; // element -> index in heap, or -1
  private int size;

  IntHeap(int capacity, Order order) {
    this.order = order;
    this.heap = new int[capacity];
    this.pos = new int[capacity];
    Arrays.fill(pos, -1);
  }

  boolean isEmpty() {
    return size == 0;
  }

  int size() {
    return size;
  }

  boolean contains(int e) {
    return pos[e] >= 0;
  }

  /** The top element; the heap must not be empty. */
  int peek() {
    return heap[0];
  }

  void add(int e) {
    heap[size] = e;
    pos[e] = size;
    up(size++);
  }

  int poll() {
    int top = heap[0];
    remove(top);
    return top;
  }

  void remove(int e) {
    int i = pos[e];
    if (i < 0) {
      return;
    }
    pos[e] = -1;
    int last = heap[--size];
    if (i < size) {
      heap[i] = last;
      pos[last] = i;
      up(i);
      down(pos[last]);
    }
  }

  /** Restores the order after the key of {@code e} changed. */
  void update(int e) {
    int i = pos[e];
    if (i >= 0) {
      up(i);
      down(pos[e]);
    }
  }

  private void up(int i) {
    int e = heap[i];
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      int pe = heap[parent];
      if (order.compare(e, pe) >= 0) {
        break;
      }
      heap[i] = pe;
      pos[pe] = i;
      i = parent;
    }
    heap[i] = e;
    pos[e] = i;
  }

  private void down(int i) {
    int e = heap[i];
    int half = size >>> 1;
    while (i < half) {
      int c = 2 * i + 1;
      int r = c + 1;
      if (r < size && order.compare(heap[r], heap[c]) < 0) {
        c = r;
      }
      if (order.compare(heap[c], e) >= 0) {
        break;
      }
      heap[i] = heap[c];
      pos[heap[i]] = i;
      i = c;
    }
    heap[i] = e;
    pos[e] = i;
  }
}
