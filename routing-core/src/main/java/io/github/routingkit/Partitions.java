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

  /**
   * Returns {@code r.partition(copyOfRange(key, offset, offset + length), value, n)} without the
   * copy for the routers of this package (the composed routers pass a key's range down: a version
   * prefix stripped, a segment's key): a router that does not read the value routes the range, a
   * {@link HotKeyRouter} or {@link SegmentRouter} takes the range and the value; only another
   * router that reads the value gets a copy.
   */
  static int ofRange(KeyRouter r, byte[] key, int offset, int length, byte[] value, int n) {
    if (!r.needsValue()) {
      return r.partition(key, offset, length, n);
    }
    if (r instanceof HotKeyRouter) {
      return ((HotKeyRouter) r).partition(key, offset, length, value, n);
    }
    if (r instanceof SegmentRouter) {
      return ((SegmentRouter) r).partition(key, offset, length, value, n);
    }
    return r.partition(java.util.Arrays.copyOfRange(key, offset, offset + length), value, n);
  }

  /**
   * The largest partition count of the layers that keep per-partition tables ({@link SegmentRouter}
   * layouts, {@link HotKeyRouter} loads): 2^20 = 1,048,576, far above any real Kafka or Pulsar
   * topic, and small enough that the tables cannot exhaust the heap or overflow an array size.
   */
  static final int MAX_TABLE_PARTITIONS = 1 << 20;

  /**
   * Returns {@code numPartitions} if it is in [1, {@value #MAX_TABLE_PARTITIONS}].
   *
   * @throws IllegalArgumentException naming the bad value and the router otherwise
   */
  static int checkTableCount(int numPartitions, String router) {
    checkCount(numPartitions);
    if (numPartitions > MAX_TABLE_PARTITIONS) {
      throw new IllegalArgumentException("numPartitions was " + numPartitions + ", " + router
          + " supports at most " + MAX_TABLE_PARTITIONS + " partitions");
    }
    return numPartitions;
  }
}
