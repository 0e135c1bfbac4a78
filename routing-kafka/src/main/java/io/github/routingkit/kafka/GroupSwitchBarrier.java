package io.github.routingkit.kafka;

import io.github.routingkit.switching.MemberBarrier;
import io.github.routingkit.switching.MemberBarrier.Outcome;
import io.github.routingkit.switching.SwitchCounts;
import io.github.routingkit.switching.SwitchMarker;
import io.github.routingkit.switching.SwitchPlan;
import io.github.routingkit.switching.SwitchProgress;
import io.github.routingkit.switching.SwitchWatch;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps per-key order across a router change for one member of a Kafka consumer group, in the
 * usual poll loop: every record a {@link SwitchPlan} step moves is handed to business code only
 * after every record of its key routed before the step was, on whichever member owns the key's
 * old partition; nothing is lost across rebalances, crashes and restarts.
 *
 * <pre>{@code
 * GroupSwitchBarrier<String, String> barrier = GroupSwitchBarrier.builder(consumer, topic, plan).build();
 * consumer.subscribe(List.of(topic), barrier);   // it is the rebalance listener (wrap yours in it)
 * while (running) {
 *   barrier.forEach(consumer.poll(Duration.ofMillis(500)), record -> process(record));
 *   consumer.commitSync(barrier.offsetsToCommit());
 * }
 * }</pre>
 *
 * <h2>How the group learns progress</h2>
 * When a member has handed over every record of a partition before that partition's marker of a
 * step, the partition has passed the step; the member publishes that in the metadata of the
 * partition's committed offset ({@link SwitchProgress}), and every later commit of the partition,
 * by any member using this class, carries it on. A member holding records that wait for a
 * partition it does not own asks the group coordinator for that partition's committed offset and
 * metadata ({@code Consumer.committed}, which answers for any partition of the group), at most
 * once per {@code checkInterval} and only while something waits. Commit only through
 * {@link #offsetsToCommit()} (or {@link #commitSync()}): a commit of the topic with other metadata
 * erases the progress, and members that start later would wait for it.
 *
 * <h2>What waits, and memory</h2>
 * Held records stay in memory up to {@code maxHeld} (default {@value #DEFAULT_MAX_HELD}); beyond
 * that a waiting record is skipped and its partition read again from it once it may be delivered
 * (16 bytes per skipped record, up to {@code maxSkipped}, default {@value #DEFAULT_MAX_SKIPPED});
 * beyond both the partition is sought back and paused until it may go on. So while the owner of an
 * old partition is down or lagging, memory stays within {@code maxHeld} records plus
 * {@code 16 * maxSkipped} bytes, and the consumer keeps polling. After {@code stuckAfter} (default
 * 60 s) of waiting for one partition it logs one WARN line naming the partition, the step, the
 * waiting records and the partition's committed offset and progress, and one INFO line when the
 * wait ends.
 *
 * <h2>Commit safety</h2>
 * {@link #offsetsToCommit()} never passes a held or skipped record. On revocation this listener
 * commits those offsets for the revoked partitions and drops their waiting records, so the next
 * owner reads them again; on loss it commits nothing. A crash leaves the last committed offsets:
 * records handed over after them are handed over again by the next owner (at-least-once), as
 * without a switch. Records of other topics pass through {@link #forEach} untouched and their
 * offsets are included too.
 *
 * <p>Not thread-safe: use it on the consumer's thread only.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
public final class GroupSwitchBarrier<K, V> implements ConsumerRebalanceListener {
  /** Default bound on records held in memory. */
  public static final int DEFAULT_MAX_HELD = 10_000;
  /** Default bound on records skipped (remembered by offset). */
  public static final int DEFAULT_MAX_SKIPPED = 1_000_000;
  private static final Logger LOG = LoggerFactory.getLogger(GroupSwitchBarrier.class);

  private final Consumer<K, V> consumer;
  private final String topic;
  private final SwitchPlan plan;
  private final Function<? super K, byte[]> keyBytes;
  private final ConsumerRebalanceListener delegate;
  private final long checkNanos;
  private final MemberBarrier<ConsumerRecord<K, V>> barrier;
  private final Map<Integer, Long> learned = new HashMap<>();
  private final Map<TopicPartition, Long> passThrough = new HashMap<>();
  private final SwitchWatch watch;
  private final List<ConsumerRecord<K, V>> out = new ArrayList<>();
  private long nextCheck = System.nanoTime();
  private boolean abandoned;

  private GroupSwitchBarrier(Builder<K, V> b) {
    this.consumer = b.consumer;
    this.topic = b.topic;
    this.plan = b.plan;
    this.keyBytes = b.keyBytes;
    this.delegate = b.delegate;
    this.checkNanos = b.checkInterval.toNanos();
    this.watch = new SwitchWatch(b.stuckAfter.toNanos());
    this.barrier = new MemberBarrier<>(b.plan, b.maxHeld, b.maxSkipped);
  }

  /**
   * Starts a barrier for {@code topic} of {@code consumer}, guarding {@code plan}.
   *
   * @throws NullPointerException if an argument is null
   */
  public static <K, V> Builder<K, V> builder(Consumer<K, V> consumer, String topic,
      SwitchPlan plan) {
    return new Builder<>(consumer, topic, plan);
  }

  /**
   * Passes one poll's records through the barrier and hands business code, in order, what it may
   * see now: first records released since the last call (their old partition passed), then the
   * poll's records, each as soon as it is offered; markers never. Records of other topics are
   * handed over as they come. Afterwards it seeks back partitions to read again and resumes
   * paused ones; at most once per {@code checkInterval} it asks the group about the partitions
   * held records wait for.
   *
   * @param business called on this thread with each record business code may see
   * @return the number of records handed to {@code business}
   * @throws NullPointerException if an argument is null
   * @throws IllegalStateException after {@link #abandon()}
   * @throws RuntimeException what {@code business}, the key function or the consumer throws
   */
  public int forEach(ConsumerRecords<K, V> records,
      java.util.function.Consumer<? super ConsumerRecord<K, V>> business) {
    Objects.requireNonNull(records, "records");
    Objects.requireNonNull(business, "business");
    if (abandoned) {
      throw new IllegalStateException("the barrier was abandoned");
    }
    int handed = applyLearned(business);
    handed += checkGroup(business);
    for (ConsumerRecord<K, V> r : records) {
      if (!topic.equals(r.topic())) {
        passThrough.put(new TopicPartition(r.topic(), r.partition()), r.offset() + 1);
        business.accept(r);
        handed++;
        continue;
      }
      SwitchMarker marker = SwitchMarkers.switchMarker(r);
      Outcome o = marker != null
          ? barrier.offerMarker(marker, r.partition(), r.offset(), r.timestamp(), out)
          : barrier.offer(r, r.partition(), r.offset(), r.key() == null ? null
              : keyBytes.apply(r.key()), out);
      if (o == Outcome.REWIND) {
        TopicPartition tp = new TopicPartition(topic, r.partition());
        consumer.seek(tp, r.offset());
        consumer.pause(List.of(tp));
      }
      handed += hand(business);
    }
    reseekAndResume();
    report();
    return handed;
  }

  /**
   * The offsets to commit now, with this member's progress in their metadata: per partition of
   * the topic it owns and read, the offset below which every record was handed over; for other
   * topics, past the last record {@link #forEach} handed over.
   */
  public Map<TopicPartition, OffsetAndMetadata> offsetsToCommit() {
    Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
    for (TopicPartition tp : consumer.assignment()) {
      addOffset(offsets, tp);
    }
    return offsets;
  }

  /**
   * Commits {@link #offsetsToCommit()} synchronously.
   *
   * @throws RuntimeException what {@code Consumer.commitSync} throws (e.g. a
   *     {@code RebalanceInProgressException} or {@code CommitFailedException} during a rebalance:
   *     the revocation commits)
   */
  public void commitSync() {
    Map<TopicPartition, OffsetAndMetadata> offsets = offsetsToCommit();
    if (!offsets.isEmpty()) {
      consumer.commitSync(offsets);
    }
  }

  /**
   * Forgets every held and skipped record and commits nothing from now on, also on revocation:
   * for a member that stops without knowing what its business code finished (its records are
   * read again by the next owner). Later calls of {@link #forEach} throw.
   */
  public void abandon() {
    abandoned = true;
    barrier.revokedAll();
    learned.clear();
    passThrough.clear();
  }

  /** The records held in memory now. */
  public int held() {
    return barrier.held();
  }

  /** The records skipped (to be read again) now. */
  public int skipped() {
    return barrier.skipped();
  }

  /** The barrier's counters: ignored markers, late and unplanned records, rewinds, drops. */
  public SwitchCounts counts() {
    return barrier.counts();
  }

  /** Commits the revoked partitions' safe offsets, drops their waiting records, then delegates. */
  @Override
  public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
    if (!abandoned) {
      Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
      for (TopicPartition tp : partitions) {
        addOffset(offsets, tp);
      }
      commitOnRevocation(offsets, 3);
    }
    forget(partitions);
    delegate.onPartitionsRevoked(partitions);
  }

  /** Drops the lost partitions' waiting records without committing, then delegates. */
  @Override
  public void onPartitionsLost(Collection<TopicPartition> partitions) {
    forget(partitions);
    delegate.onPartitionsLost(partitions);
  }

  /**
   * Reads the assigned partitions' committed progress (applied at the next {@link #forEach}), so
   * this member carries it on and knows what passed, then delegates.
   */
  @Override
  public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
    Set<TopicPartition> ours = new HashSet<>();
    for (TopicPartition tp : partitions) {
      if (topic.equals(tp.topic())) {
        ours.add(tp);
      }
    }
    if (!ours.isEmpty() && !abandoned) {
      learn(ours);
    }
    delegate.onPartitionsAssigned(partitions);
  }

  private void addOffset(Map<TopicPartition, OffsetAndMetadata> offsets, TopicPartition tp) {
    if (topic.equals(tp.topic())) {
      long safe = barrier.safeOffset(tp.partition());
      if (safe >= 0) {
        offsets.put(tp, new OffsetAndMetadata(safe,
            SwitchProgress.encode(plan.generation(), barrier.passedSteps(tp.partition()))));
      }
    } else {
      Long next = passThrough.get(tp);
      if (next != null) {
        offsets.put(tp, new OffsetAndMetadata(next));
      }
    }
  }

  private void commitOnRevocation(Map<TopicPartition, OffsetAndMetadata> offsets, int tries) {
    if (offsets.isEmpty()) {
      return;
    }
    try {
      consumer.commitSync(offsets);
    } catch (RebalanceInProgressException | CommitFailedException e) {
      if (tries > 1) {
        commitOnRevocation(offsets, tries - 1);
      } else {
        LOG.info("routing switch: could not commit {} on revocation ({}); the next owner reads"
            + " from the last committed offsets", offsets.keySet(), e.toString());
      }
    }
  }

  private void forget(Collection<TopicPartition> partitions) {
    for (TopicPartition tp : partitions) {
      if (topic.equals(tp.topic())) {
        barrier.revoked(tp.partition());
      } else {
        passThrough.remove(tp);
      }
    }
  }

  /** Asks the group for the committed progress of {@code partitions}; false if it timed out. */
  private boolean learn(Set<TopicPartition> partitions) {
    Map<TopicPartition, OffsetAndMetadata> committed;
    try {
      committed = consumer.committed(partitions, Duration.ofNanos(Math.max(checkNanos,
          Duration.ofSeconds(1).toNanos())));
    } catch (RetriableException e) {
      return false;
    }
    for (Map.Entry<TopicPartition, OffsetAndMetadata> e : committed.entrySet()) {
      if (e.getValue() != null) {
        long steps = SwitchProgress.decode(e.getValue().metadata(), plan.generation());
        if (steps != 0) {
          learned.merge(e.getKey().partition(), steps, (a, b) -> a | b);
        }
      }
    }
    return true;
  }

  private int applyLearned(java.util.function.Consumer<? super ConsumerRecord<K, V>> business) {
    int handed = 0;
    for (Map.Entry<Integer, Long> e : learned.entrySet()) {
      barrier.progress(e.getKey(), e.getValue(), out);
      handed += hand(business);
    }
    learned.clear();
    return handed;
  }

  private int checkGroup(java.util.function.Consumer<? super ConsumerRecord<K, V>> business) {
    Map<Integer, Long> awaited = barrier.awaited();
    long now = System.nanoTime();
    if (awaited.isEmpty() || now - nextCheck < 0) {
      return 0;
    }
    nextCheck = now + checkNanos;
    Set<TopicPartition> ask = new HashSet<>();
    for (int q : awaited.keySet()) {
      ask.add(new TopicPartition(topic, q));
    }
    learn(ask);
    return applyLearned(business);
  }

  private int hand(java.util.function.Consumer<? super ConsumerRecord<K, V>> business) {
    int n = out.size();
    for (ConsumerRecord<K, V> r : out) {
      business.accept(r);
    }
    out.clear();
    return n;
  }

  private void reseekAndResume() {
    for (int p : barrier.resumable()) {
      TopicPartition tp = new TopicPartition(topic, p);
      barrier.resumed(p);
      consumer.resume(List.of(tp));
    }
    for (Map.Entry<Integer, Long> e : barrier.rereads().entrySet()) {
      consumer.seek(new TopicPartition(topic, e.getKey()), e.getValue());
      barrier.sought(e.getKey(), e.getValue());
    }
  }

  /** One WARN line per partition waited for longer than stuckAfter, one INFO when it ends. */
  private void report() {
    for (SwitchWatch.Event e : watch.check(barrier, System.nanoTime())) {
      String line = SwitchWatch.message(e, topic, barrier,
          e.kind() == SwitchWatch.Kind.STUCK ? "committed: " + committedOf(e.partition()) : "");
      if (SwitchWatch.warns(e)) {
        LOG.warn(line);
      } else {
        LOG.info(line);
      }
    }
  }

  private String committedOf(int partition) {
    try {
      TopicPartition tp = new TopicPartition(topic, partition);
      OffsetAndMetadata o = consumer.committed(Set.of(tp), Duration.ofSeconds(1)).get(tp);
      return o == null ? "none" : o.offset() + " '" + o.metadata() + "'";
    } catch (RuntimeException e) {
      return "unknown (" + e + ")";
    }
  }

  /**
   * Builds a {@link GroupSwitchBarrier}. Not thread-safe.
   *
   * @param <K> the key type
   * @param <V> the value type
   */
  public static final class Builder<K, V> {
    private final Consumer<K, V> consumer;
    private final String topic;
    private final SwitchPlan plan;
    private Function<? super K, byte[]> keyBytes = Builder::defaultKeyBytes;
    private ConsumerRebalanceListener delegate = new ConsumerRebalanceListener() {
      @Override
      public void onPartitionsRevoked(Collection<TopicPartition> partitions) {}

      @Override
      public void onPartitionsAssigned(Collection<TopicPartition> partitions) {}
    };
    private int maxHeld = DEFAULT_MAX_HELD;
    private int maxSkipped = DEFAULT_MAX_SKIPPED;
    private Duration checkInterval = Duration.ofSeconds(1);
    private Duration stuckAfter = Duration.ofSeconds(60);

    private Builder(Consumer<K, V> consumer, String topic, SwitchPlan plan) {
      this.consumer = Objects.requireNonNull(consumer, "consumer");
      this.topic = Objects.requireNonNull(topic, "topic");
      this.plan = Objects.requireNonNull(plan, "plan");
    }

    private static byte[] defaultKeyBytes(Object key) {
      if (key instanceof byte[]) {
        return (byte[]) key;
      }
      if (key instanceof String) {
        return ((String) key).getBytes(StandardCharsets.UTF_8);
      }
      throw new IllegalStateException("a key of type " + key.getClass().getName() + ": give the"
          + " barrier the key's bytes as the producer's serializer wrote them (keyBytes)");
    }

    /**
     * The key's bytes as the producer's partitioner saw them (the serialized key). Default: a
     * {@code byte[]} key itself, a {@code String} key's UTF-8 bytes (StringSerializer's default).
     */
    public Builder<K, V> keyBytes(Function<? super K, byte[]> keyBytes) {
      this.keyBytes = Objects.requireNonNull(keyBytes, "keyBytes");
      return this;
    }

    /** The application's own rebalance listener, called after the barrier's work. */
    public Builder<K, V> rebalanceListener(ConsumerRebalanceListener listener) {
      this.delegate = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /**
     * Bounds the records held in memory and skipped (16 bytes each).
     *
     * @throws IllegalArgumentException if a bound is negative
     */
    public Builder<K, V> bounds(int maxHeld, int maxSkipped) {
      if (maxHeld < 0 || maxSkipped < 0) {
        throw new IllegalArgumentException("maxHeld was " + maxHeld + " and maxSkipped "
            + maxSkipped + ", both must be >= 0");
      }
      this.maxHeld = maxHeld;
      this.maxSkipped = maxSkipped;
      return this;
    }

    /**
     * How often, at most, to ask the group about partitions records wait for (default 1 s), and
     * after how long a wait for one partition is logged as stuck (default 60 s).
     *
     * @throws IllegalArgumentException if a duration is not positive
     */
    public Builder<K, V> timing(Duration checkInterval, Duration stuckAfter) {
      if (checkInterval.isNegative() || checkInterval.isZero() || stuckAfter.isNegative()
          || stuckAfter.isZero()) {
        throw new IllegalArgumentException("checkInterval was " + checkInterval
            + " and stuckAfter " + stuckAfter + ", both must be positive");
      }
      this.checkInterval = checkInterval;
      this.stuckAfter = stuckAfter;
      return this;
    }

    /** Builds the barrier; subscribe with it as the rebalance listener. */
    public GroupSwitchBarrier<K, V> build() {
      return new GroupSwitchBarrier<>(this);
    }
  }
}
