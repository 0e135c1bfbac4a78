package io.github.routingkit.pulsar;

import io.github.routingkit.switching.MemberBarrier;
import io.github.routingkit.switching.MemberBarrier.Outcome;
import io.github.routingkit.switching.SwitchCounts;
import io.github.routingkit.switching.SwitchMarker;
import io.github.routingkit.switching.SwitchPlan;
import io.github.routingkit.switching.SwitchProgress;
import io.github.routingkit.switching.SwitchWatch;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.pulsar.client.api.Consumer;
import org.apache.pulsar.client.api.ConsumerEventListener;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.MessageId;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.PulsarClientException;
import org.apache.pulsar.client.api.Reader;
import org.apache.pulsar.client.api.Schema;
import org.apache.pulsar.client.api.SubscriptionInitialPosition;
import org.apache.pulsar.client.api.SubscriptionType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps per-key order across a router change for one consumer of a partitioned topic read with a
 * Failover (or Exclusive) subscription, the Pulsar counterpart of a Kafka group member: every
 * message a {@link SwitchPlan} step moves is handed to business code only after every message of
 * its key routed before the step was, on whichever consumer is active for the key's old
 * partition; nothing is lost when consumers fail over, crash or restart.
 *
 * <pre>{@code
 * FailoverSwitchBarrier<String> barrier =
 *     FailoverSwitchBarrier.builder(client, topic, "orders-sub", plan).build(Schema.STRING);
 * Consumer<String> consumer = client.newConsumer(Schema.STRING).topic(topic)
 *     .subscriptionName("orders-sub").subscriptionType(SubscriptionType.Failover)
 *     .acknowledgmentGroupTime(0, TimeUnit.MILLISECONDS)
 *     .consumerEventListener(barrier.eventListener()).subscribe();
 * while (running) {
 *   barrier.forEach(consumer, consumer.batchReceive(), message -> process(message));
 * }
 * }</pre>
 *
 * <h2>How the subscription learns progress</h2>
 * Pulsar acknowledgements carry no metadata, so progress goes to a claims topic (default
 * {@code <topic>-<subscription>-routing-switch}, non-partitioned): when a consumer has handed
 * over every message of a partition before that partition's marker of a step, it publishes that
 * the partition passed the step; every consumer reads the claims topic from the start. A durable
 * subscription {@value #KEEP_SUBSCRIPTION} on it keeps the claims (a few bytes per partition and
 * step); delete the topic once the rollout is done.
 *
 * <h2>Acknowledgement, memory, failover</h2>
 * {@link #forEach} acknowledges (individually, asynchronously) each message once business code
 * returned, and each marker; held and skipped messages stay unacknowledged, so a consumer that
 * takes over the partition receives them again. Do not acknowledge cumulatively. Memory as in
 * {@link MemberBarrier}: at most {@code maxHeld} messages (default 10,000) and 16 bytes per
 * skipped one (default at most 1,000,000) plus its message id. Skipped messages are read again by
 * {@code redeliverUnacknowledgedMessages()}, which on a Failover or Exclusive subscription
 * redelivers every unacknowledged message of this consumer in order (held ones are recognised by
 * id and stay held). Give the consumer {@code acknowledgmentGroupTime(0, ...)}: acknowledgements
 * then reach the broker before such a redelivery, else messages acknowledged within the group
 * time come again and are handed over twice. When both bounds are full, every held and skipped
 * message is dropped and redelivered the same way. When a
 * partition becomes inactive here ({@link #eventListener()}), its waiting messages are dropped,
 * and so are its messages still queued here until it becomes active here again: its new active
 * consumer receives them (a partition is dispatched to one consumer at a time, but what the old
 * one had buffered would otherwise be handed over next to the new one's). The listener tells of a
 * failover after some of the messages dispatched around it, so when a partition becomes active
 * here again, {@link #forEach} asks for every unacknowledged message of this consumer again
 * ({@code redeliverUnacknowledgedMessages()}, in order) and hands over none of the messages of
 * that call: they come again. One WARN line when a wait exceeds {@code stuckAfter}.
 *
 * <p>Not thread-safe: call {@link #forEach} on one thread; the event listener and the claims
 * reader hand their news over through thread-safe queues.
 *
 * @param <T> the message value type
 */
public final class FailoverSwitchBarrier<T> implements AutoCloseable {
  /** The durable subscription that keeps the claims topic's messages. */
  public static final String KEEP_SUBSCRIPTION = "routing-switch-keep";
  /** The claim message property holding {@link SwitchProgress} text. */
  static final String CLAIM_PROPERTY = "routing-switch";
  /** The claim message property naming the partition. */
  static final String CLAIM_PARTITION_PROPERTY = "routing-switch-partition";
  private static final Logger LOG = LoggerFactory.getLogger(FailoverSwitchBarrier.class);

  /** Positions this barrier numbers a partition's messages by, and its waiting messages' ids. */
  private static final class PartitionIds {
    long next;
    final Map<MessageId, Long> waiting = new HashMap<>();
  }

  private final String topic;
  private final SwitchPlan plan;
  private final MemberBarrier<Message<T>> barrier;
  private final SwitchWatch watch;
  private final long checkNanos;
  private final Producer<byte[]> claims;
  private final Reader<byte[]> claimReader;
  private final Queue<long[]> learned = new ConcurrentLinkedQueue<>();
  /** Failover news, in order: +(p + 1) active here, -(p + 1) inactive here. */
  private final Queue<Integer> failovers = new ConcurrentLinkedQueue<>();
  private final java.util.Set<Integer> inactive = new java.util.HashSet<>();
  private final Map<Integer, PartitionIds> ids = new HashMap<>();
  private final List<Message<T>> out = new ArrayList<>();
  private long nextReread = System.nanoTime();
  private boolean abandoned;

  private FailoverSwitchBarrier(Builder b) throws PulsarClientException {
    this.topic = b.topic;
    this.plan = b.plan;
    this.barrier = new MemberBarrier<>(b.plan, b.maxHeld, b.maxSkipped);
    this.watch = new SwitchWatch(b.stuckAfter.toNanos());
    this.checkNanos = b.checkInterval.toNanos();
    String claimsTopic = b.claimsTopic != null ? b.claimsTopic
        : b.topic + "-" + b.subscription + "-routing-switch";
    // shared: every consumer of the data topic makes sure of it, at once
    b.client.newConsumer(Schema.BYTES).topic(claimsTopic).subscriptionName(KEEP_SUBSCRIPTION)
        .subscriptionType(SubscriptionType.Shared)
        .subscriptionInitialPosition(SubscriptionInitialPosition.Earliest).subscribe().close();
    this.claims = b.client.newProducer(Schema.BYTES).topic(claimsTopic).enableBatching(false)
        .create();
    this.claimReader = b.client.newReader(Schema.BYTES).topic(claimsTopic)
        .startMessageId(MessageId.earliest).readerListener((reader, m) -> claimArrived(m))
        .create();
  }

  /**
   * Starts a barrier for {@code subscription} of the partitioned {@code topic}, guarding
   * {@code plan}.
   *
   * @throws NullPointerException if an argument is null
   */
  public static Builder builder(PulsarClient client, String topic, String subscription,
      SwitchPlan plan) {
    return new Builder(client, topic, subscription, plan);
  }

  /**
   * The listener to give the consumer ({@code consumerEventListener}): it tells the barrier which
   * partitions stopped being active here.
   */
  public ConsumerEventListener eventListener() {
    Queue<Integer> q = failovers;
    return new ConsumerEventListener() {
      private static final long serialVersionUID = 1L;

      @Override
      public void becameActive(Consumer<?> consumer, int partitionId) {
        q.add(partitionId + 1);
      }

      @Override
      public void becameInactive(Consumer<?> consumer, int partitionId) {
        q.add(-(partitionId + 1));
      }
    };
  }

  /**
   * Passes received messages through the barrier and hands business code, in order, what it may
   * see now (first what was released since the last call), acknowledging each after
   * {@code business} returns; markers are acknowledged, never handed over.
   *
   * @param consumer the consumer the messages came from (for acknowledgements and redelivery)
   * @param business called on this thread with each message business code may see
   * @return the number of messages handed to {@code business}
   * @throws NullPointerException if an argument is null
   * @throws IllegalStateException after {@link #abandon()}
   * @throws RuntimeException what {@code business} throws (the message is not acknowledged)
   */
  public int forEach(Consumer<T> consumer, Iterable<Message<T>> messages,
      java.util.function.Consumer<? super Message<T>> business) {
    Objects.requireNonNull(consumer, "consumer");
    Objects.requireNonNull(messages, "messages");
    Objects.requireNonNull(business, "business");
    if (abandoned) {
      throw new IllegalStateException("the barrier was abandoned");
    }
    boolean regained = false;
    for (Integer e = failovers.poll(); e != null; e = failovers.poll()) {
      int p = Math.abs(e) - 1;
      if (e > 0) {
        regained |= inactive.remove(p);
      } else if (inactive.add(p)) {
        barrier.revoked(p);
        ids.remove(p);
      }
    }
    int handed = applyClaims(consumer, business);
    if (regained) {
      // The listener's news lag behind the messages: what the broker dispatched on the regain
      // may have come (and been dropped) before it, and what was buffered from the earlier
      // ownership may come after it. Read every unacknowledged message again, in order; these
      // messages come again with them.
      redeliver(consumer, false);
      report();
      return handed;
    }
    for (Message<T> m : messages) {
      int p = SwitchMarkers.partitionOf(m.getTopicName());
      if (inactive.contains(p)) {
        continue; // dispatched before the failover: its new active consumer receives it
      }
      PartitionIds pid = ids.computeIfAbsent(p, x -> new PartitionIds());
      MessageId id = m.getMessageId();
      Long offset = pid.waiting.get(id); // a held or skipped message, redelivered
      if (offset == null) {
        offset = pid.next++;
      }
      SwitchMarker marker = SwitchMarkers.switchMarker(m);
      Outcome o = marker != null
          ? barrier.offerMarker(marker, p, offset, m.getPublishTime(), out)
          : barrier.offer(m, p, offset, m.hasKey() ? m.getKey() : null, out);
      if (o == Outcome.MARKER) {
        publishClaim(p);
      }
      if (marker != null) {
        consumer.acknowledgeAsync(m);
      } else if (o == Outcome.HELD || o == Outcome.SKIPPED) {
        pid.waiting.put(id, offset);
      } else if (o == Outcome.REWIND) {
        redeliver(consumer, true);
        handed += hand(consumer, business);
        break;
      }
      handed += hand(consumer, business);
    }
    if (!barrier.rereads().isEmpty() && System.nanoTime() - nextReread >= 0) {
      redeliver(consumer, false);
    }
    report();
    return handed;
  }

  /**
   * Forgets every held and skipped message and acknowledges nothing more: for a consumer that
   * stops without knowing what its business code finished. Later calls of {@link #forEach} throw.
   */
  public void abandon() {
    abandoned = true;
    barrier.revokedAll();
    ids.clear();
  }

  /** The messages held in memory now. */
  public int held() {
    return barrier.held();
  }

  /** The messages skipped (to be read again) now. */
  public int skipped() {
    return barrier.skipped();
  }

  /** The barrier's counters: ignored markers, late and unplanned messages, rewinds, drops. */
  public SwitchCounts counts() {
    return barrier.counts();
  }

  /**
   * Closes the claims producer and reader (not the consumer).
   *
   * @throws java.io.IOException if the client cannot close them
   */
  @Override
  public void close() throws java.io.IOException {
    try {
      claims.close();
    } finally {
      claimReader.close();
    }
  }

  private void claimArrived(Message<byte[]> m) {
    long steps = SwitchProgress.decode(m.getProperty(CLAIM_PROPERTY), plan.generation());
    int partition;
    try {
      partition = Integer.parseInt(m.getProperty(CLAIM_PARTITION_PROPERTY));
    } catch (NumberFormatException e) {
      return; // not a claim
    }
    if (steps != 0 && partition >= 0) {
      learned.add(new long[] {partition, steps});
    }
  }

  private void publishClaim(int partition) {
    claims.newMessage().key(Integer.toString(partition))
        .property(CLAIM_PROPERTY, SwitchProgress.encode(plan.generation(),
            barrier.passedSteps(partition)))
        .property(CLAIM_PARTITION_PROPERTY, Integer.toString(partition)).value(new byte[0])
        .sendAsync().exceptionally(e -> {
          LOG.warn("routing switch of {}: could not publish that partition {} passed: {}; the"
              + " partition's next reader publishes it", topic, partition, e.toString());
          return null;
        });
  }

  private int applyClaims(Consumer<T> consumer,
      java.util.function.Consumer<? super Message<T>> business) {
    int handed = 0;
    for (long[] c = learned.poll(); c != null; c = learned.poll()) {
      barrier.progress((int) c[0], c[1], out);
      handed += hand(consumer, business);
    }
    return handed;
  }

  /**
   * Asks the broker for every unacknowledged message of this consumer again (Failover and
   * Exclusive redeliver them in order); with {@code dropAll} the waiting messages are forgotten
   * first (both bounds were full).
   */
  private void redeliver(Consumer<T> consumer, boolean dropAll) {
    if (dropAll) {
      barrier.revokedAll();
      ids.clear();
    } else {
      for (int p : barrier.rereads().keySet()) {
        barrier.sought(p, 0);
      }
    }
    nextReread = System.nanoTime() + checkNanos;
    consumer.redeliverUnacknowledgedMessages();
  }

  private int hand(Consumer<T> consumer,
      java.util.function.Consumer<? super Message<T>> business) {
    int n = out.size();
    for (Message<T> m : out) {
      PartitionIds pid = ids.get(SwitchMarkers.partitionOf(m.getTopicName()));
      if (pid != null) {
        pid.waiting.remove(m.getMessageId());
      }
      business.accept(m);
      consumer.acknowledgeAsync(m);
    }
    out.clear();
    return n;
  }

  private void report() {
    for (SwitchWatch.Event e : watch.check(barrier, System.nanoTime())) {
      String line = SwitchWatch.message(e, topic, barrier, "no claim on the claims topic");
      if (SwitchWatch.warns(e)) {
        LOG.warn(line);
      } else {
        LOG.info(line);
      }
    }
  }

  /** Builds a {@link FailoverSwitchBarrier}. Not thread-safe. */
  public static final class Builder {
    private final PulsarClient client;
    private final String topic;
    private final String subscription;
    private final SwitchPlan plan;
    private String claimsTopic;
    private int maxHeld = 10_000;
    private int maxSkipped = 1_000_000;
    private Duration checkInterval = Duration.ofSeconds(1);
    private Duration stuckAfter = Duration.ofSeconds(60);

    private Builder(PulsarClient client, String topic, String subscription, SwitchPlan plan) {
      this.client = Objects.requireNonNull(client, "client");
      this.topic = Objects.requireNonNull(topic, "topic");
      this.subscription = Objects.requireNonNull(subscription, "subscription");
      this.plan = Objects.requireNonNull(plan, "plan");
    }

    /** The claims topic (default {@code <topic>-<subscription>-routing-switch}). */
    public Builder claimsTopic(String claimsTopic) {
      this.claimsTopic = Objects.requireNonNull(claimsTopic, "claimsTopic");
      return this;
    }

    /**
     * Bounds the messages held in memory and skipped.
     *
     * @throws IllegalArgumentException if a bound is negative
     */
    public Builder bounds(int maxHeld, int maxSkipped) {
      if (maxHeld < 0 || maxSkipped < 0) {
        throw new IllegalArgumentException("maxHeld was " + maxHeld + " and maxSkipped "
            + maxSkipped + ", both must be >= 0");
      }
      this.maxHeld = maxHeld;
      this.maxSkipped = maxSkipped;
      return this;
    }

    /**
     * The least time between two redeliveries for skipped messages (default 1 s) and after how
     * long a wait for one partition is logged as stuck (default 60 s).
     *
     * @throws IllegalArgumentException if a duration is not positive
     */
    public Builder timing(Duration checkInterval, Duration stuckAfter) {
      if (checkInterval.isNegative() || checkInterval.isZero() || stuckAfter.isNegative()
          || stuckAfter.isZero()) {
        throw new IllegalArgumentException("checkInterval was " + checkInterval
            + " and stuckAfter " + stuckAfter + ", both must be positive");
      }
      this.checkInterval = checkInterval;
      this.stuckAfter = stuckAfter;
      return this;
    }

    /**
     * Builds the barrier for messages of {@code schema}: subscribes {@value #KEEP_SUBSCRIPTION}
     * to the claims topic, opens its producer and starts reading it.
     *
     * @throws PulsarClientException if the claims topic cannot be used
     */
    public <T> FailoverSwitchBarrier<T> build(Schema<T> schema) throws PulsarClientException {
      Objects.requireNonNull(schema, "schema");
      return new FailoverSwitchBarrier<>(this);
    }
  }
}
