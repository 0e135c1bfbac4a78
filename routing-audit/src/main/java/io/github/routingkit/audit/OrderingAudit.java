package io.github.routingkit.audit;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.function.LongConsumer;

/**
 * Finds the out-of-order pairs per key in a stream of {@link AuditRecord}s and names the cause of
 * each: the per-key ordering audit.
 *
 * <p>Records are fed in observation order ({@link #accept}). A <b>stream</b> is one (topic,
 * producer, key); a record whose sequence is below the highest sequence already seen in its
 * stream was observed after a message its producer sent later: that pair (the record holding the
 * highest sequence, this record) is one finding. Each late record is reported once. A record
 * repeating the highest sequence is a duplicate (counted, not a finding).
 *
 * <p>Cause of a pair ({@code a} sent later and seen first, {@code b} sent earlier):
 * <ol>
 *   <li>different partitions: {@link AuditCause#KEYLESS_SEND} if either had no key, else
 *       {@link AuditCause#REDELIVERY} if {@code b} is a redelivery, else
 *       {@link AuditCause#ROUTING_CHANGE};</li>
 *   <li>same partition: {@link AuditCause#REDELIVERY} if {@code b} is a redelivery; else
 *       {@link AuditCause#PRODUCER_RETRY} if both positions are known and {@code b} is later in
 *       the log; else, with different consumers, {@link AuditCause#WRONG_SUBSCRIPTION_TYPE} if
 *       either subscription is Shared (or a Kafka share group), else {@link AuditCause#REDELIVERY}
 *       (an older message can reach another consumer after a newer one only by being delivered
 *       again: crash, Failover switch, rebalance without committed offsets);</li>
 *   <li>same key, partition and consumer otherwise: {@link AuditCause#BROKER_SUSPECT}.</li>
 * </ol>
 *
 * <p>Memory is bounded: at most {@code maxKeys} streams are tracked (least recently seen ones are
 * forgotten beyond that and counted in {@link AuditReport#forgottenKeys()}; a pair whose first
 * message was forgotten is missed), each about 200 bytes plus its key and producer text; at most
 * {@code maxFindings} findings are kept in full, all are counted. Not thread-safe: feed it from one
 * thread.
 */
public final class OrderingAudit {
  /** Default of {@link Builder#maxKeys}. */
  public static final int DEFAULT_MAX_KEYS = 1_000_000;
  /** Default of {@link Builder#maxFindings}. */
  public static final int DEFAULT_MAX_FINDINGS = 1_000;

  private final int maxKeys;
  private final int maxFindings;
  private final Map<Stream, State> streams;
  private final List<AuditFinding> findings = new ArrayList<>();
  private final EnumMap<AuditCause, Long> counts = new EnumMap<>(AuditCause.class);
  private long records;
  private long streamsSeen;
  private long forgotten;
  private long duplicates;
  private long pairs;
  private long keysWithFindings;

  private OrderingAudit(Builder b) {
    this.maxKeys = b.maxKeys;
    this.maxFindings = b.maxFindings;
    this.streams = new LinkedHashMap<>(1024, 0.75f, true) {
      private static final long serialVersionUID = 1L;

      @Override
      protected boolean removeEldestEntry(Map.Entry<Stream, State> eldest) {
        if (size() > maxKeys) {
          forgotten++;
          return true;
        }
        return false;
      }
    };
    for (AuditCause c : AuditCause.values()) {
      counts.put(c, 0L);
    }
  }

  /** Returns a builder with the defaults ({@value #DEFAULT_MAX_KEYS} keys, {@value #DEFAULT_MAX_FINDINGS} findings). */
  public static Builder builder() {
    return new Builder();
  }

  /** Audits records with the defaults and returns the report. */
  public static AuditReport of(Iterable<AuditRecord> recordsInObservationOrder) {
    OrderingAudit audit = builder().build();
    recordsInObservationOrder.forEach(audit::accept);
    return audit.report();
  }

  /**
   * Feeds the next record in observation order.
   *
   * @param r the record
   * @throws NullPointerException if {@code r} is null
   */
  public void accept(AuditRecord r) {
    Objects.requireNonNull(r, "record");
    records++;
    Stream key = new Stream(r.topic(), r.producer(), r.key());
    State state = streams.get(key);
    if (state == null) {
      streams.put(key, new State(r));
      streamsSeen++;
      return;
    }
    AuditRecord latest = state.latest;
    if (r.sequence() > latest.sequence()) {
      state.latest = r;
      return;
    }
    if (r.sequence() == latest.sequence()) {
      duplicates++;
      return;
    }
    AuditCause cause = classify(latest, r);
    pairs++;
    counts.merge(cause, 1L, Long::sum);
    if (!state.reported) {
      state.reported = true;
      keysWithFindings++;
    }
    if (findings.size() < maxFindings) {
      findings.add(new AuditFinding(cause, latest, r));
    }
  }

  /**
   * Names the cause of one pair (the rules are in the class comment).
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
   * Compares two positions of one partition ({@code offset} or {@code ledger:entry:batch});
   * returns 0 when either is unknown or they have different shapes.
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
    try {
      for (int i = 0; i < parts.length; i++) {
        out[i] = Long.parseLong(parts[i]);
      }
    } catch (NumberFormatException e) {
      return null;
    }
    return out;
  }

  /** Returns the report of everything fed so far (a snapshot; feeding may continue). */
  public AuditReport report() {
    return new AuditReport(records, streamsSeen, forgotten, duplicates, pairs, keysWithFindings,
        new EnumMap<>(counts), List.copyOf(findings));
  }

  /** Returns the number of records fed so far. */
  public long records() {
    return records;
  }

  /** Returns the number of out-of-order pairs found so far. */
  public long pairs() {
    return pairs;
  }

  /**
   * Audits log files: each is read as a stream and the files are merged by observation time
   * ({@code ot}; ties and unordered files keep file order), so memory stays bounded whatever
   * their size.
   *
   * @param files the logs (gzip when named {@code .gz})
   * @param skipBadLines count and skip bad lines instead of failing
   * @param progress called with the number of records read, every {@code progressEvery} records
   * @param progressEvery the progress interval, at least 1
   * @return the report, with the skipped-line count
   * @throws AuditLogException for an unreadable file or a bad line (unless skipping)
   */
  public AuditReport auditFiles(List<Path> files, boolean skipBadLines, LongConsumer progress,
      long progressEvery) {
    if (progressEvery < 1) {
      throw new IllegalArgumentException("progressEvery must be >= 1, was " + progressEvery);
    }
    List<AuditLogReader> readers = new ArrayList<>();
    try {
      PriorityQueue<Head> heads = new PriorityQueue<>();
      for (int i = 0; i < files.size(); i++) {
        AuditLogReader reader = AuditLogReader.open(files.get(i), skipBadLines);
        readers.add(reader);
        AuditRecord first = reader.next();
        if (first != null) {
          heads.add(new Head(first, i, reader));
        }
      }
      while (!heads.isEmpty()) {
        Head h = heads.poll();
        accept(h.record);
        if (records % progressEvery == 0) {
          progress.accept(records);
        }
        AuditRecord next = h.reader.next();
        if (next != null) {
          heads.add(new Head(next, h.file, h.reader));
        }
      }
      long skipped = 0;
      String firstSkipped = null;
      for (AuditLogReader r : readers) {
        skipped += r.skippedLines();
        if (firstSkipped == null) {
          firstSkipped = r.firstSkipped();
        }
      }
      return report().withSkipped(skipped, firstSkipped);
    } finally {
      for (AuditLogReader r : readers) {
        try {
          r.close();
        } catch (RuntimeException ignored) {
          // reading is over
        }
      }
    }
  }

  private static final class Head implements Comparable<Head> {
    final AuditRecord record;
    final int file;
    final AuditLogReader reader;

    Head(AuditRecord record, int file, AuditLogReader reader) {
      this.record = record;
      this.file = file;
      this.reader = reader;
    }

    @Override
    public int compareTo(Head o) {
      int c = Long.compare(record.observedAtMillis(), o.record.observedAtMillis());
      return c != 0 ? c : Integer.compare(file, o.file);
    }
  }

  private static final class Stream {
    final String topic;
    final String producer;
    final String key;

    Stream(String topic, String producer, String key) {
      this.topic = topic;
      this.producer = producer;
      this.key = key;
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof Stream)) {
        return false;
      }
      Stream x = (Stream) o;
      return key.equals(x.key) && producer.equals(x.producer) && topic.equals(x.topic);
    }

    @Override
    public int hashCode() {
      return (key.hashCode() * 31 + producer.hashCode()) * 31 + topic.hashCode();
    }
  }

  private static final class State {
    AuditRecord latest;
    boolean reported;

    State(AuditRecord latest) {
      this.latest = latest;
    }
  }

  /** Builds an {@link OrderingAudit}. */
  public static final class Builder {
    private int maxKeys = DEFAULT_MAX_KEYS;
    private int maxFindings = DEFAULT_MAX_FINDINGS;

    private Builder() {}

    /**
     * Sets how many (topic, producer, key) streams are tracked at once.
     *
     * @param maxKeys at least 1
     * @return this builder
     * @throws IllegalArgumentException if below 1
     */
    public Builder maxKeys(int maxKeys) {
      if (maxKeys < 1) {
        throw new IllegalArgumentException("max keys must be >= 1, was " + maxKeys);
      }
      this.maxKeys = maxKeys;
      return this;
    }

    /**
     * Sets how many findings are kept in full (all are counted).
     *
     * @param maxFindings at least 0
     * @return this builder
     * @throws IllegalArgumentException if negative
     */
    public Builder maxFindings(int maxFindings) {
      if (maxFindings < 0) {
        throw new IllegalArgumentException("max findings must be >= 0, was " + maxFindings);
      }
      this.maxFindings = maxFindings;
      return this;
    }

    /** Returns a new audit. */
    public OrderingAudit build() {
      return new OrderingAudit(this);
    }
  }
}
