package io.github.routingkit.examples;

import io.github.routingkit.KeyRouter;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The bookkeeping of one round trip through a broker: message {@code i} carries key
 * {@code keys.get(i)} and its index {@code i} as value; every message received back is recorded
 * with the partition it was read from and checked against the partition the core predicts.
 *
 * <p>Not thread-safe: record from one thread (the consumer loop), then call {@link #result()}.
 */
public final class RoundTrip {
  private final String broker;
  private final String spec;
  private final List<String> keys;
  private final int numPartitions;
  private final int[] predicted;
  private final int[] receivedTimes;
  private final long[] perPartition;
  private long sent;
  private long sendFailures;
  private long received;
  private long distinct;
  private long onPredicted;
  private long unknown;
  private String firstProblem;

  /**
   * Prepares a round trip and computes, with {@code router}, the partition of every key.
   *
   * @param broker a name for the report, such as {@code "Kafka"}
   * @param spec the routing spec in force, for the report
   * @param keys the keys in sending order; message {@code i} has key {@code keys.get(i)}
   * @param numPartitions the topic's partition count, at least 1
   * @param router the core router whose prediction every message must match
   * @throws IllegalArgumentException if {@code numPartitions < 1}
   */
  public RoundTrip(String broker, String spec, List<String> keys, int numPartitions,
      KeyRouter router) {
    if (numPartitions < 1) {
      throw new IllegalArgumentException("numPartitions must be at least 1, was " + numPartitions);
    }
    this.broker = Objects.requireNonNull(broker, "broker");
    this.spec = Objects.requireNonNull(spec, "spec");
    this.keys = List.copyOf(keys);
    this.numPartitions = numPartitions;
    this.predicted = new int[this.keys.size()];
    for (int i = 0; i < predicted.length; i++) {
      predicted[i] = router.partition(this.keys.get(i), numPartitions);
    }
    this.receivedTimes = new int[this.keys.size()];
    this.perPartition = new long[numPartitions];
  }

  /** Returns the number of messages to send (the number of keys). */
  public int size() {
    return keys.size();
  }

  /** Returns the key of message {@code index}. */
  public String key(int index) {
    return keys.get(index);
  }

  /** Returns the partition the core predicts for message {@code index}, in [0, numPartitions). */
  public int predicted(int index) {
    return predicted[index];
  }

  /** Records that one message was accepted by the broker (acknowledged send). */
  public void sent() {
    sent++;
  }

  /** Records that one send failed; {@code cause} is kept for the report if it is the first. */
  public void sendFailed(Throwable cause) {
    sendFailures++;
    problem("send failed: " + cause);
  }

  /** Returns the number of distinct messages received so far. */
  public long distinctReceived() {
    return distinct;
  }

  /**
   * Records a message read back from the broker.
   *
   * @param value the message value (the index as decimal text)
   * @param key the message key as received
   * @param partition the partition the message was read from
   */
  public void received(String value, String key, int partition) {
    received++;
    int index;
    try {
      index = Integer.parseInt(value);
    } catch (NumberFormatException e) {
      index = -1;
    }
    if (index < 0 || index >= keys.size() || !keys.get(index).equals(key)) {
      unknown++;
      problem("unexpected message value=" + value + " key=" + key + " partition=" + partition);
      return;
    }
    if (partition >= 0 && partition < numPartitions) {
      perPartition[partition]++;
    }
    if (receivedTimes[index]++ == 0) {
      distinct++;
    } else {
      problem("duplicate of message " + index + " (key " + key + ")");
    }
    if (partition == predicted[index]) {
      onPredicted++;
    } else {
      problem("message " + index + " (key " + key + ") on partition " + partition
          + ", predicted " + predicted[index]);
    }
  }

  private void problem(String text) {
    if (firstProblem == null) {
      firstProblem = text;
    }
  }

  /** Returns the outcome of the round trip as recorded so far. */
  public Result result() {
    long lost = 0;
    long duplicates = 0;
    String first = firstProblem;
    for (int i = 0; i < receivedTimes.length; i++) {
      if (receivedTimes[i] == 0) {
        lost++;
        if (first == null) {
          first = "message " + i + " (key " + keys.get(i) + ") never received";
        }
      } else {
        duplicates += receivedTimes[i] - 1;
      }
    }
    return new Result(broker, spec, keys.size(), sent, sendFailures, received, lost, duplicates,
        unknown, onPredicted, perPartition.clone(), first);
  }

  /**
   * The outcome of one round trip.
   *
   * @param broker the broker's name
   * @param spec the routing spec in force
   * @param messages the number of messages (keys) to send
   * @param sent messages the broker acknowledged
   * @param sendFailures sends that failed
   * @param received messages read back, duplicates included
   * @param lost messages never read back
   * @param duplicates messages read back more than once (extra copies)
   * @param unknown messages read back that were not sent by this round trip
   * @param onPredicted messages read back from exactly the partition the core predicted
   * @param perPartition messages read back per partition, indexed by partition
   * @param firstProblem a description of the first failed check, or null
   */
  public record Result(String broker, String spec, long messages, long sent, long sendFailures,
      long received, long lost, long duplicates, long unknown, long onPredicted,
      long[] perPartition, String firstProblem) {

    /**
     * Returns true if every message was sent, received exactly once and read from the predicted
     * partition, and nothing else was received.
     */
    public boolean passed() {
      return messages > 0 && sent == messages && sendFailures == 0 && received == messages
          && lost == 0 && duplicates == 0 && unknown == 0 && onPredicted == messages;
    }

    /** Returns the largest partition count divided by the mean partition count (≥ 1), or 0. */
    public double maxOverMean() {
      long total = Arrays.stream(perPartition).sum();
      if (total == 0) {
        return 0;
      }
      long max = Arrays.stream(perPartition).max().orElse(0);
      return max / ((double) total / perPartition.length);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Result r && broker.equals(r.broker) && spec.equals(r.spec)
          && messages == r.messages && sent == r.sent && sendFailures == r.sendFailures
          && received == r.received && lost == r.lost && duplicates == r.duplicates
          && unknown == r.unknown && onPredicted == r.onPredicted
          && Arrays.equals(perPartition, r.perPartition)
          && Objects.equals(firstProblem, r.firstProblem);
    }

    @Override
    public int hashCode() {
      return Objects.hash(broker, spec, messages, sent, received, lost, duplicates, onPredicted,
          Arrays.hashCode(perPartition));
    }

    @Override
    public String toString() {
      return "Result{" + broker + ", sent=" + sent + "/" + messages + ", received=" + received
          + ", lost=" + lost + ", duplicates=" + duplicates + ", unknown=" + unknown
          + ", onPredicted=" + onPredicted + ", perPartition=" + Arrays.toString(perPartition)
          + ", firstProblem=" + firstProblem + "}";
    }
  }
}
