package io.github.routingkit.pulsar;

import java.util.Arrays;
import java.util.List;

/**
 * The connected consumer instances of a {@link KeySharedPredictor}, in join order, with the next
 * join number: who is connected, not who owns which slot (that is the selector model's job).
 * Immutable; {@link #with} and {@link #without} return new rosters.
 */
final class ConsumerRoster {
  /** Connected instances in join order; their join numbers ascend. */
  private final ConsumerHandle[] members;
  private final int[] joinNumbers;
  private final int nextJoinNumber;
  private final List<String> names;

  private ConsumerRoster(ConsumerHandle[] members, int nextJoinNumber) {
    this.members = members;
    this.nextJoinNumber = nextJoinNumber;
    this.joinNumbers = new int[members.length];
    String[] n = new String[members.length];
    for (int i = 0; i < members.length; i++) {
      joinNumbers[i] = members[i].joinNumber();
      n[i] = members[i].name();
    }
    this.names = List.of(n);
  }

  /** The roster of {@code names} joined in order, with join numbers 0, 1, ... */
  static ConsumerRoster of(List<String> names) {
    ConsumerHandle[] handles = new ConsumerHandle[names.size()];
    for (int i = 0; i < handles.length; i++) {
      handles[i] = new ConsumerHandle(names.get(i), i);
    }
    return new ConsumerRoster(handles, handles.length);
  }

  /** Returns the join number the next instance gets. */
  int nextJoinNumber() {
    return nextJoinNumber;
  }

  /**
   * Returns this roster with one more instance named {@code consumer}, numbered {@link
   * #nextJoinNumber()}.
   *
   * @throws IllegalStateException if join numbers are exhausted
   */
  ConsumerRoster with(String consumer) {
    if (nextJoinNumber == Integer.MAX_VALUE) {
      throw new IllegalStateException("join numbers exhausted after " + nextJoinNumber + " joins");
    }
    ConsumerHandle[] grown = Arrays.copyOf(members, members.length + 1);
    grown[members.length] = new ConsumerHandle(consumer, nextJoinNumber);
    return new ConsumerRoster(grown, nextJoinNumber + 1);
  }

  /** Returns this roster without the instance at {@code index}. */
  ConsumerRoster without(int index) {
    ConsumerHandle[] shrunk = new ConsumerHandle[members.length - 1];
    System.arraycopy(members, 0, shrunk, 0, index);
    System.arraycopy(members, index + 1, shrunk, index, shrunk.length - index);
    return new ConsumerRoster(shrunk, nextJoinNumber);
  }

  /** Returns the number of connected instances. */
  int size() {
    return members.length;
  }

  /** Returns the index of exactly this instance, or -1 if it is not connected. */
  int indexOf(ConsumerHandle consumer) {
    int index = Arrays.binarySearch(joinNumbers, consumer.joinNumber());
    return index >= 0 && members[index].equals(consumer) ? index : -1;
  }

  /** Returns the index of the earliest-joined instance named {@code consumer}, or -1. */
  int indexOf(String consumer) {
    return names.indexOf(consumer);
  }

  /** Returns the index of the instance with join number {@code id}, or a negative number. */
  int indexOfJoinNumber(int id) {
    return Arrays.binarySearch(joinNumbers, id);
  }

  /** Returns the join number of the instance at {@code index}. */
  int joinNumber(int index) {
    return joinNumbers[index];
  }

  /** Returns the instance at {@code index}. */
  ConsumerHandle member(int index) {
    return members[index];
  }

  /** Returns the connected instances in join order. */
  List<ConsumerHandle> handles() {
    return List.of(members);
  }

  /** Returns the connected instances' names in join order. */
  List<String> names() {
    return names;
  }
}
