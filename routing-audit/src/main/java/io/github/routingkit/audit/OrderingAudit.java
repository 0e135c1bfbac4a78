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
 * each: the per-key ordering audit of a log, in memory.
 *
 * <p>Records are fed in observation order ({@link #accept}). A <b>stream</b> is one (topic,
 * producer, producer epoch, key); the rules that find a pair and name its cause are
 * {@link KeyStreamState}'s, applied to each stream's records (the continuous audit applies the
 * same ones). Each late record is reported once; a record repeating the highest sequence is a
 * duplicate (counted, not a finding).
 *
 * <p>Memory is bounded: at most {@code maxKeys} streams are tracked (least recently seen ones are
 * forgotten beyond that and counted in {@link AuditReport#forgottenKeys()}; a pair whose first
 * message was forgotten is missed); at most {@code maxFindings} findings are kept in full, all are
 * counted. Not thread-safe: feed it from one thread.
 */
public final class OrderingAudit {
  /** Default of {@link Builder#maxKeys}. */
  public static final int DEFAULT_MAX_KEYS = 1_000_000;
  /** Default of {@link Builder#maxFindings}. */
  public static final int DEFAULT_MAX_FINDINGS = 1_000;

  private final int maxKeys;
  private final int maxFindings;
  private final Map<Stream, KeyStreamState> streams;
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
      protected boolean removeEldestEntry(Map.Entry<Stream, KeyStreamState> eldest) {
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
    Stream probe = new Stream(r);
    KeyStreamState state = streams.get(probe);
    if (state == null) {
      KeyStreamState first = new KeyStreamState(r);
      streams.put(new Stream(first, probe.hash), first);
      streamsSeen++;
      return;
    }
    KeyStreamState.Observation o = state.observe(r);
    if (o == KeyStreamState.Observation.DUPLICATE) {
      duplicates++;
      return;
    }
    AuditFinding f = o.finding();
    if (f == null) {
      return;
    }
    pairs++;
    counts.merge(f.cause(), 1L, Long::sum);
    if (o.firstPairOfStream()) {
      keysWithFindings++;
    }
    if (findings.size() < maxFindings) {
      findings.add(f);
    }
  }

  /**
   * Names the cause of one pair: {@link KeyStreamState#classify}.
   *
   * @param sentLater the message with the higher sequence, observed first
   * @param sentEarlier the message with the lower sequence, observed after it
   * @return the cause
   */
  public static AuditCause classify(AuditRecord sentLater, AuditRecord sentEarlier) {
    return KeyStreamState.classify(sentLater, sentEarlier);
  }

  static int comparePositions(String x, String y) {
    return KeyStreamState.comparePositions(x, y);
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
   * @throws AuditLogException for an unreadable file, or a bad line or a read error (a truncated
   *     {@code .gz}) unless skipping; when skipping, a read error ends that file and is named in
   *     {@link AuditReport#readErrors()}
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
      List<String> readErrors = new ArrayList<>();
      for (AuditLogReader r : readers) {
        skipped += r.skippedLines();
        if (firstSkipped == null) {
          firstSkipped = r.firstSkipped();
        }
        if (r.readError() != null) {
          readErrors.add(r.readError());
        }
      }
      return report().withSkipped(skipped, firstSkipped, readErrors);
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

  /**
   * A stream's identity in the map: the fields {@link KeyStreamState#sameStream} compares. A
   * lookup probe holds the record; a stored key reads them from its state's latest record, so the
   * map keeps no second copy of the stream's texts.
   */
  private static final class Stream {
    private final AuditRecord probe;
    private final KeyStreamState state;
    private final int hash;

    Stream(AuditRecord probe) {
      this.probe = probe;
      this.state = null;
      this.hash = ((probe.key().hashCode() * 31 + probe.producer().hashCode()) * 31
          + Objects.hashCode(probe.producerEpoch())) * 31 + probe.topic().hashCode();
    }

    Stream(KeyStreamState state, int hash) {
      this.probe = null;
      this.state = state;
      this.hash = hash;
    }

    private AuditRecord record() {
      return state != null ? state.latest() : probe;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Stream && hash == ((Stream) o).hash
          && KeyStreamState.sameStream(record(), ((Stream) o).record());
    }

    @Override
    public int hashCode() {
      return hash;
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
