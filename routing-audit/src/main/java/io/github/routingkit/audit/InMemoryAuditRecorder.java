package io.github.routingkit.audit;

import java.util.ArrayList;
import java.util.List;

/**
 * Keeps records in memory in observation order, for tests; holds at most {@code capacity} records
 * and counts the ones dropped beyond that. Thread-safe.
 */
public final class InMemoryAuditRecorder implements AuditRecorder {
  private final int capacity;
  private final List<AuditRecord> records = new ArrayList<>();
  private long dropped;

  /** A recorder holding up to 10,000,000 records. */
  public InMemoryAuditRecorder() {
    this(10_000_000);
  }

  /**
   * A recorder holding up to {@code capacity} records.
   *
   * @throws IllegalArgumentException if {@code capacity < 0}
   */
  public InMemoryAuditRecorder(int capacity) {
    if (capacity < 0) {
      throw new IllegalArgumentException("capacity must be >= 0, was " + capacity);
    }
    this.capacity = capacity;
  }

  @Override
  public synchronized void record(AuditRecord record) {
    if (records.size() < capacity) {
      records.add(record);
    } else {
      dropped++;
    }
  }

  /** Returns a copy of the records, in observation order. */
  public synchronized List<AuditRecord> records() {
    return List.copyOf(records);
  }

  /** Returns the number of records held. */
  public synchronized int size() {
    return records.size();
  }

  /** Returns the number of records dropped because the recorder was full. */
  public synchronized long dropped() {
    return dropped;
  }

  /** Removes all records. */
  public synchronized void clear() {
    records.clear();
    dropped = 0;
  }

  /** Audits the records held with {@link OrderingAudit}'s defaults. */
  public AuditReport audit() {
    return OrderingAudit.of(records());
  }
}
