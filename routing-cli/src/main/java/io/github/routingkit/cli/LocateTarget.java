package io.github.routingkit.cli;

import java.util.List;
import java.util.Map;

/**
 * A live topic that {@code routing locate} asks where a key is: its partition count, the broker
 * that serves a partition (Kafka: the leader; Pulsar: the owner broker) and who reads the
 * partition (Kafka: the consumer group members that own it, with their lag; Pulsar: the consumer
 * of each subscription that receives the key). Reads only: nothing is created, joined or
 * committed. Every problem the user can fix (unreachable broker, missing topic, missing ACL) is a
 * {@link KeyInput.InputException} with a one-line message. Not thread-safe.
 */
interface LocateTarget extends AutoCloseable {

  /**
   * One answer: a line for the text report and the same facts for the JSON report.
   *
   * @param text one line, without a newline
   * @param json the facts, in the order the JSON report prints them
   */
  record Fact(String text, Map<String, Object> json) {}

  /** Returns e.g. {@code "kafka topic orders at 127.0.0.1:9092"}. */
  String describe();

  /** Returns the partition count, at least 1. */
  int partitions();

  /** Returns the broker serving {@code partition}, in [0, partitions()). */
  Fact leader(int partition);

  /**
   * Returns who reads {@code partition} and, where the broker decides by key (Pulsar Key_Shared),
   * which of them receives {@code key}: one fact per group or subscription, possibly none.
   */
  List<Fact> readers(int partition, byte[] key);

  /** Returns notes about what could not be told (empty if nothing). */
  List<String> notes();

  @Override
  void close();
}
