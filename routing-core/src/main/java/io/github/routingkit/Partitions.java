package io.github.routingkit;

/** Argument checks shared by the routers; package-private, allocation-free on the happy path. */
final class Partitions {
  private Partitions() {}

  /**
   * Returns {@code numPartitions} if it is at least 1.
   *
   * @throws IllegalArgumentException naming the bad value otherwise
   */
  static int checkCount(int numPartitions) {
    if (numPartitions < 1) {
      throw new IllegalArgumentException(
          "numPartitions was " + numPartitions + ", must be at least 1");
    }
    return numPartitions;
  }
}
