package io.github.routingkit.internal;


/** Argument checks shared by the routers; internal (not API), allocation-free on the happy path. */
public final class Partitions {
  private Partitions() {}

  /**
   * Returns {@code numPartitions} if it is at least 1.
   *
   * @throws IllegalArgumentException naming the bad value otherwise
   */
  public static int checkCount(int numPartitions) {
    if (numPartitions < 1) {
      throw new IllegalArgumentException(
          "numPartitions was " + numPartitions + ", must be at least 1");
    }
    return numPartitions;
  }

  /**
   * The largest partition count of the layers that keep per-partition tables ({@code SegmentRouter}
   * layouts, {@code HotKeyRouter} loads): 2^20 = 1,048,576, far above any real Kafka or Pulsar
   * topic, and small enough that the tables cannot exhaust the heap or overflow an array size.
   */
  public static final int MAX_TABLE_PARTITIONS = 1 << 20;

  /**
   * Returns {@code numPartitions} if it is in [1, {@value #MAX_TABLE_PARTITIONS}].
   *
   * @throws IllegalArgumentException naming the bad value and the router otherwise
   */
  public static int checkTableCount(int numPartitions, String router) {
    checkCount(numPartitions);
    if (numPartitions > MAX_TABLE_PARTITIONS) {
      throw new IllegalArgumentException("numPartitions was " + numPartitions + ", " + router
          + " supports at most " + MAX_TABLE_PARTITIONS + " partitions");
    }
    return numPartitions;
  }
}
