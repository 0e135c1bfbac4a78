package io.github.routingkit.cli;

import java.time.Duration;
import java.util.List;

/**
 * A topic that {@code routing analyze} reads live: the per-partition sizes its admin API reports,
 * and a bounded sample of its records read without leaving anything behind on the broker (no
 * consumer group, no committed offset, no durable subscription). Every call is bounded by the
 * timeout the topic was opened with; every problem the user can fix (an unreachable broker, a
 * missing topic, a missing ACL) is a {@link KeyInput.InputException} with a one-line message.
 * Not thread-safe.
 */
interface LiveTopic extends AutoCloseable {
  /** Where the records are read from, for the report: {@code "from the beginning"} and so on. */
  enum Window {
    /** The oldest retained records. */
    FROM_BEGINNING,
    /** The newest records (Kafka only: it knows each partition's offsets). */
    NEWEST,
    /** The records published since {@code now - since}. */
    SINCE
  }

  /**
   * What the admin API says about one partition; -1 (NaN for the rate) where it says nothing.
   *
   * @param partition the partition index, in [0, partitions)
   * @param records records retained (Kafka: latest - earliest offset, an upper bound where
   *     compaction or transaction markers left gaps) or, on Pulsar, messages published since the
   *     broker loaded the topic ({@code msgInCounter})
   * @param windowRecords records in the analyzed window (Kafka; -1 on Pulsar)
   * @param bytes bytes on disk (Kafka: the leader replica's log size from describeLogDirs;
   *     Pulsar: {@code storageSize})
   * @param backlog Pulsar: messages not yet acknowledged, summed over the subscriptions; -1 on
   *     Kafka
   * @param rateIn Pulsar: messages per second published ({@code msgRateIn}); NaN on Kafka
   */
  record PartitionSize(int partition, long records, long windowRecords, long bytes, long backlog,
      double rateIn) {}

  /** Receives each sampled record. */
  interface RecordSink {
    /**
     * @param partition where the record was read from, in [0, partitions)
     * @param key its key as text for the report (UTF-8; Kafka keys that are not UTF-8 as
     *     {@code 0x} and hex; Pulsar's {@code getKey()}, the Base64 text of a key set as bytes), or
     *     null for a record without a key
     * @param keyBytes the key's bytes as written: a Kafka record's serialized key, a Pulsar key set
     *     with {@code keyBytes(...)} ({@code getKeyBytes()}); null for a Pulsar key set as text
     *     and for a record without a key
     * @param bytes the record's key and value size in bytes
     */
    void accept(int partition, String key, byte[] keyBytes, long bytes);
  }

  /**
   * Whether the producers' partitioners hash a key's bytes ({@code keyBytes} of
   * {@link RecordSink#accept}): Kafka's do, the serialized key. Pulsar's routers hash the key's
   * text ({@code getKey()}) unless the routing spec has a key format, which routes a byte key by
   * its bytes behind the header (as {@code RoutingMessageRouter} does).
   */
  boolean routesKeyBytes();

  /**
   * What a read did.
   *
   * @param records records handed to the sink
   * @param capped partitions whose share of the sample was reached before their end
   * @param stalled partitions that returned nothing for a whole timeout before their end
   */
  record ReadResult(long records, int capped, List<Integer> stalled) {}

  /** Prints progress lines; {@code records} read so far. */
  interface Progress {
    void update(long records);
  }

  /** Returns e.g. {@code "kafka topic orders at 127.0.0.1:9092"}. */
  String describe();

  /** Returns the window read, e.g. {@code "the newest 1,000,000 records"}. */
  String windowText();

  /** Returns which records the read takes: the oldest retained, the newest, or a time window. */
  Window window();

  /** Returns the partition count, at least 1. */
  int partitions();

  /** Returns one entry per partition, in partition order. */
  List<PartitionSize> sizes();

  /** Returns notes about what the admin API could not tell (empty if nothing). */
  List<String> notes();

  /**
   * Reads at most {@code limit} records of the window into {@code sink}.
   *
   * @throws KeyInput.InputException if the broker refuses (authorization) or cannot be reached
   */
  ReadResult read(long limit, RecordSink sink, Progress progress);

  @Override
  void close();

  /** Formats a duration for messages: {@code 30 s}, {@code 2 h}. */
  static String text(Duration d) {
    long s = d.toSeconds();
    if (s % 86_400 == 0 && s > 0) {
      return s / 86_400 + " d";
    }
    if (s % 3600 == 0 && s > 0) {
      return s / 3600 + " h";
    }
    if (s % 60 == 0 && s > 0) {
      return s / 60 + " min";
    }
    return d.toMillis() % 1000 == 0 ? s + " s" : d.toMillis() + " ms";
  }
}
