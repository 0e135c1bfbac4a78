package io.github.routingkit.pulsar;

import io.github.routingkit.SwitchBarrier;
import io.github.routingkit.switching.SwitchMarker;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.PulsarClientException;
import org.apache.pulsar.client.api.Schema;

/**
 * Switch markers for Pulsar: at a switch step, one marker message to every partition of a topic
 * (a producer per {@code -partition-N} topic, so no message router is asked); consumers recognise
 * them ({@link #marker}) and a {@link FailoverSwitchBarrier} hands business code only real
 * messages, in per-key order across the subscription's consumers.
 *
 * <p><b>The exact form</b>, the only one {@link #marker} accepts: an empty payload and exactly the
 * properties {@value #GENERATION_PROPERTY} (the plan's generation), {@value #STEP_PROPERTY} (the
 * step, a canonical decimal) and {@value #PARTITION_PROPERTY} (the partition it was sent to) among
 * those whose name starts with {@value #GENERATION_PROPERTY}, in the form of {@link SwitchMarker}.
 * Anything else, such as an ordinary message that carries a {@value #GENERATION_PROPERTY}
 * property, is an ordinary message and reaches business code; a malformed value never throws. A
 * marker's payload is empty (Schema.BYTES): a consumer with another schema decodes it only if it
 * asks for the value.
 *
 * <p>Thread-safety: the static helpers are stateless; {@link #filter} and {@link #forEach} use the
 * single-consumer barrier, which is not thread-safe.
 */
public final class SwitchMarkers {
  /** The property naming a marker's routing generation; its presence makes a marker. */
  public static final String GENERATION_PROPERTY = "routing-marker";
  /** The property carrying a marker's rollout step. */
  public static final String STEP_PROPERTY = "routing-marker-step";
  /** The property naming the partition a marker was sent to. */
  public static final String PARTITION_PROPERTY = "routing-marker-partition";

  private SwitchMarkers() {}

  /** A marker as read back: generation, step, and the partition it names. */
  public static final class Marker {
    private final String generation;
    private final int step;
    private final int partition;

    /** Creates the value. */
    public Marker(String generation, int step, int partition) {
      this.generation = generation;
      this.step = step;
      this.partition = partition;
    }

    /** Returns the {@code generation} component. */
    public String generation() {
      return generation;
    }

    /** Returns the {@code step} component. */
    public int step() {
      return step;
    }

    /** Returns the {@code partition} component. */
    public int partition() {
      return partition;
    }

    @Override
    public boolean equals(Object o) {
      if (this == o) {
        return true;
      }
      if (!(o instanceof Marker)) {
        return false;
      }
      Marker other = (Marker) o;
      return Objects.equals(generation, other.generation)
          && step == other.step
          && partition == other.partition;
    }

    @Override
    public int hashCode() {
      int h = 0;
      h = 31 * h + Objects.hashCode(generation);
      h = 31 * h + Integer.hashCode(step);
      h = 31 * h + Integer.hashCode(partition);
      return h;
    }

    @Override
    public String toString() {
      return "Marker[generation=" + generation + ", step=" + step + ", partition=" + partition
          + "]";
    }
  }
  /**
   * Sends a marker to every partition of {@code topic} (a non-partitioned topic counts as
   * partition 0) and waits for every ack.
   *
   * Send it only once every producer routes by the step's new router and every message routed by
   * the old one was acknowledged or failed (with a schedule: at the step's settle instant).
   *
   * @return the number of partitions marked
   * @throws IllegalArgumentException if {@code generation} breaks
   *     {@link SwitchMarker#GENERATION_RULE} or {@code step} is negative
   * @throws PulsarClientException if a producer cannot be created or a send fails
   */
  public static int send(PulsarClient client, String topic, String generation, int step)
      throws PulsarClientException {
    Objects.requireNonNull(client, "client");
    Objects.requireNonNull(topic, "topic");
    if (!SwitchMarker.validGeneration(generation) || step < 0) {
      throw new IllegalArgumentException("marker generation was '" + generation + "' and step "
          + step + ": the generation " + SwitchMarker.GENERATION_RULE + ", the step must be >= 0");
    }
    List<String> partitions;
    try {
      partitions = new ArrayList<>(client.getPartitionsForTopic(topic).get());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PulsarClientException(e);
    } catch (ExecutionException e) {
      throw PulsarClientException.unwrap(e);
    }
    for (String partitionTopic : partitions) {
      try (Producer<byte[]> p = client.newProducer(Schema.BYTES).topic(partitionTopic)
          .enableBatching(false).create()) {
        p.newMessage().value(new byte[0]).property(GENERATION_PROPERTY, generation)
            .property(STEP_PROPERTY, Integer.toString(step))
            .property(PARTITION_PROPERTY, Integer.toString(partitionOf(partitionTopic))).send();
      }
    }
    return partitions.size();
  }

  /**
   * Returns the marker this message is, or null if it is an ordinary message: anything but the
   * exact form (see the class comment). Never throws for any properties or payload.
   */
  public static Marker marker(Message<?> message) {
    SwitchMarker m = switchMarker(message);
    return m == null ? null : new Marker(m.generation(), m.step(), m.partition());
  }

  /** The marker of a message in core's terms, or null: as {@link #marker(Message)}. */
  static SwitchMarker switchMarker(Message<?> message) {
    java.util.Map<String, String> properties = message.getProperties();
    if (properties == null || !properties.containsKey(GENERATION_PROPERTY)) {
      return null;
    }
    int named = 0;
    for (String name : properties.keySet()) {
      if (name != null && name.startsWith(GENERATION_PROPERTY)) {
        named++;
      }
    }
    byte[] data = message.getData();
    if (named != 3 || data != null && data.length != 0) {
      return null;
    }
    return SwitchMarker.parse(properties.get(GENERATION_PROPERTY), properties.get(STEP_PROPERTY),
        properties.get(PARTITION_PROPERTY));
  }

  /** The partition index of a topic name: N of a {@code -partition-N} suffix, else 0. */
  public static int partitionOf(String topicName) {
    int i = topicName.lastIndexOf("-partition-");
    if (i < 0) {
      return 0;
    }
    try {
      return Integer.parseInt(topicName.substring(i + "-partition-".length()));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /**
   * Passes received messages through the barrier, in order, and returns what business code may
   * see: no markers, messages of moved keys held back until their old partition's marker.
   *
   * <p>The barrier's {@link SwitchBarrier.Listener} runs while this method offers a marker, so
   * before business code has seen the messages ahead of it. If the listener reads or hands off
   * per-key state, use {@link #forEach} instead.
   *
   * @deprecated the single-consumer barrier loses messages when several consumers share the
   *     partitions; use a {@link FailoverSwitchBarrier}
   */
  @Deprecated
  public static <T> List<Message<T>> filter(Iterable<Message<T>> messages,
      SwitchBarrier<Message<T>> barrier) {
    List<Message<T>> out = new ArrayList<>();
    forEach(messages, barrier, out::add);
    return out;
  }

  /**
   * Passes received messages through the barrier one at a time and hands each message the
   * barrier releases to {@code business} before the next one is offered: when the barrier's
   * listener runs at a marker, every message released before it has been processed. Markers never
   * reach {@code business}; messages of moved keys are held back until their old partition's
   * marker, then handed over in per-key order.
   *
   * @param business called with each released message, in order, on the calling thread
   * @return the number of messages handed to {@code business}
   * @throws NullPointerException if an argument is null
   * @throws RuntimeException whatever {@code business} or the listener throws, unwrapped
   * @deprecated the single-consumer barrier loses messages when several consumers share the
   *     partitions; use {@link FailoverSwitchBarrier#forEach}
   */
  @Deprecated
  public static <T> int forEach(Iterable<Message<T>> messages, SwitchBarrier<Message<T>> barrier,
      java.util.function.Consumer<? super Message<T>> business) {
    java.util.Objects.requireNonNull(messages, "messages");
    java.util.Objects.requireNonNull(barrier, "barrier");
    java.util.Objects.requireNonNull(business, "business");
    List<Message<T>> out = new ArrayList<>();
    int handed = 0;
    for (Message<T> m : messages) {
      Marker marker = marker(m);
      barrier.offer(m, partitionOf(m.getTopicName()), marker != null || !m.hasKey() ? null
          : m.getKey(), marker == null ? null : marker.generation(), marker == null ? 0
          : marker.step(), out);
      for (Message<T> released : out) {
        business.accept(released);
      }
      handed += out.size();
      out.clear();
    }
    return handed;
  }
}
