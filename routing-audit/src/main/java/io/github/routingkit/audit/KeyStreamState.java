package io.github.routingkit.audit;

import java.util.Objects;

/**
 * The audit's rules for one <b>key stream</b>, applied one record at a time: the state that
 * {@link OrderingAudit} keeps per stream in memory and the continuous audit keeps per stream in a
 * state store, so both find the same pairs and name the same causes.
 *
 * <p>A key stream is one (topic, producer id, producer epoch, key) ({@link #sameStream}); its
 * state is the record with the highest sequence seen so far and whether the stream already had a
 * pair. Fed the stream's records in observation order ({@link #observe}), a record whose sequence
 * is below the highest one was observed after a message its producer sent later: that pair (the
 * record holding the highest sequence, this record) is one {@link AuditFinding}, its cause named
 * by {@link #classify}. A record repeating the highest sequence is a duplicate; a higher one
 * becomes the new highest.
 *
 * <p>Not thread-safe: one stream's records come from one thread.
 */
public final class KeyStreamState {
  private AuditRecord latest;
  private boolean reported;

  /**
   * Starts the state of a stream with its first record.
   *
   * @param first the stream's first record
   * @throws NullPointerException if {@code first} is null
   */
  public KeyStreamState(AuditRecord first) {
    this(first, false);
  }

  /**
   * Restores a state (from a state store).
   *
   * @param latest the record with the highest sequence seen
   * @param reported whether the stream already had a pair
   * @throws NullPointerException if {@code latest} is null
   */
  public KeyStreamState(AuditRecord latest, boolean reported) {
    this.latest = Objects.requireNonNull(latest, "latest");
    this.reported = reported;
  }

  /** Returns the record with the highest sequence seen so far. */
  public AuditRecord latest() {
    return latest;
  }

  /** Returns whether the stream had at least one pair. */
  public boolean reported() {
    return reported;
  }

  /**
   * Applies the next record of this stream, in observation order.
   *
   * @param r the record; of this stream
   * @return what it was: a new highest sequence, a duplicate, or a pair with its finding
   * @throws NullPointerException if {@code r} is null
   * @throws IllegalArgumentException if {@code r} belongs to another stream
   */
  public Observation observe(AuditRecord r) {
    if (!sameStream(latest, r)) {
      throw new IllegalArgumentException("record of another key stream: " + r);
    }
    if (r.sequence() > latest.sequence()) {
      latest = r;
      return Observation.ADVANCED;
    }
    if (r.sequence() == latest.sequence()) {
      return Observation.DUPLICATE;
    }
    boolean first = !reported;
    reported = true;
    return new Observation(new AuditFinding(classify(latest, r), latest, r), first);
  }

  /**
   * Returns true if two records belong to one key stream: same topic, producer id, producer
   * epoch (both absent counts as equal) and key.
   *
   * @throws NullPointerException if either is null
   */
  public static boolean sameStream(AuditRecord a, AuditRecord b) {
    return a.key().equals(b.key()) && a.producer().equals(b.producer())
        && Objects.equals(a.producerEpoch(), b.producerEpoch()) && a.topic().equals(b.topic());
  }

  /**
   * Returns the stream of a record as one text, equal for two records exactly when
   * {@link #sameStream} holds: each of topic, producer, epoch (empty when absent) and key as its
   * length in chars, {@code :}, and the text.
   *
   * @throws NullPointerException if {@code r} is null
   */
  public static String streamId(AuditRecord r) {
    String epoch = r.producerEpoch() == null ? "" : r.producerEpoch();
    StringBuilder b = new StringBuilder(r.topic().length() + r.producer().length()
        + epoch.length() + r.key().length() + 16);
    for (String part : new String[] {r.topic(), r.producer(), epoch, r.key()}) {
      b.append(part.length()).append(':').append(part);
    }
    return b.toString();
  }

  /**
   * Names the cause of one pair ({@code a} sent later and seen first, {@code b} sent earlier):
   * <ol>
   *   <li>different partitions: {@link AuditCause#KEYLESS_SEND} if either had no key, else
   *       {@link AuditCause#REDELIVERY} if {@code b} is a redelivery, else
   *       {@link AuditCause#ROUTING_CHANGE};</li>
   *   <li>same partition: {@link AuditCause#REDELIVERY} if {@code b} is a redelivery; else
   *       {@link AuditCause#PRODUCER_RETRY} if both positions are known and {@code b} is later
   *       in the log; else, with different consumers, {@link AuditCause#WRONG_SUBSCRIPTION_TYPE}
   *       if either subscription is Shared (or a Kafka share group), else
   *       {@link AuditCause#REDELIVERY} (an older message can reach another consumer after a
   *       newer one only by being delivered again: crash, Failover switch, rebalance without
   *       committed offsets);</li>
   *   <li>same key, partition and consumer otherwise: {@link AuditCause#BROKER_SUSPECT}.</li>
   * </ol>
   *
   * @param sentLater the message with the higher sequence, observed first
   * @param sentEarlier the message with the lower sequence, observed after it
   * @return the cause
   */
  public static AuditCause classify(AuditRecord sentLater, AuditRecord sentEarlier) {
    AuditRecord a = sentLater;
    AuditRecord b = sentEarlier;
    if (a.partition() != b.partition()) {
      if (!a.keyed() || !b.keyed()) {
        return AuditCause.KEYLESS_SEND;
      }
      return b.redelivered() ? AuditCause.REDELIVERY : AuditCause.ROUTING_CHANGE;
    }
    if (b.redelivered()) {
      return AuditCause.REDELIVERY;
    }
    if (comparePositions(b.position(), a.position()) > 0) {
      return AuditCause.PRODUCER_RETRY;
    }
    if (!a.consumer().equals(b.consumer())) {
      return isShared(a.subscription()) || isShared(b.subscription())
          ? AuditCause.WRONG_SUBSCRIPTION_TYPE : AuditCause.REDELIVERY;
    }
    return AuditCause.BROKER_SUSPECT;
  }

  private static boolean isShared(String subscription) {
    return "Shared".equalsIgnoreCase(subscription) || "kafka-share".equalsIgnoreCase(subscription);
  }

  /**
   * Compares two positions of one partition ({@code offset} or {@code ledger:entry:batch}, ASCII
   * digits); returns 0 when either is unknown or they have different shapes.
   */
  static int comparePositions(String x, String y) {
    if (x == null || y == null) {
      return 0;
    }
    long[] a = parsePosition(x);
    long[] b = parsePosition(y);
    if (a == null || b == null || a.length != b.length) {
      return 0;
    }
    for (int i = 0; i < a.length; i++) {
      int c = Long.compare(a[i], b[i]);
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  private static long[] parsePosition(String s) {
    String[] parts = s.split(":", 4);
    if (parts.length > 3) {
      return null;
    }
    long[] out = new long[parts.length];
    for (int i = 0; i < parts.length; i++) {
      out[i] = AuditStamp.parseDigits(parts[i], 0, parts[i].length(), true);
      if (out[i] == Long.MIN_VALUE) {
        return null;
      }
    }
    return out;
  }

  /**
   * What one record was to its stream: a new highest sequence, a duplicate of the highest, or a
   * pair (with its finding). Immutable.
   */
  public static final class Observation {
    /** The record holds a new highest sequence. */
    public static final Observation ADVANCED = new Observation(null, false);
    /** The record repeats the highest sequence. */
    public static final Observation DUPLICATE = new Observation(null, false);

    private final AuditFinding finding;
    private final boolean firstPairOfStream;

    private Observation(AuditFinding finding, boolean firstPairOfStream) {
      this.finding = finding;
      this.firstPairOfStream = firstPairOfStream;
    }

    /** Returns the pair's finding, or null when the record is not the late side of a pair. */
    public AuditFinding finding() {
      return finding;
    }

    /** Returns true if this is the stream's first pair. */
    public boolean firstPairOfStream() {
      return firstPairOfStream;
    }

    @Override
    public String toString() {
      return this == ADVANCED ? "ADVANCED" : this == DUPLICATE ? "DUPLICATE" : "PAIR " + finding;
    }
  }
}
