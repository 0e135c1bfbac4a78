package io.github.routingkit.audit.streams;

import io.github.routingkit.audit.AuditCause;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The running totals of one Kafka Streams instance's audit: the sum over the tasks it runs now
 * of each task's totals, which live in the task's state store (so they move with the task on a
 * rebalance and survive restarts: summed over all instances they are the audit's totals).
 * Thread-safe.
 */
public final class AuditTotals {
  /** Counter names, in index order: the metric names without {@code -total}. */
  static final String[] NAMES;
  static final int RECORDS = 0;
  static final int STREAMS = 1;
  static final int DUPLICATES = 2;
  static final int PAIRS = 3;
  static final int KEYS_WITH_PAIRS = 4;
  static final int LATE = 5;
  static final int BAD = 6;
  static final int EXPIRED = 7;
  static final int FIRST_CAUSE = 8;

  static {
    String[] fixed = {"records", "streams", "duplicates", "pairs", "keys-with-pairs", "late",
        "bad-events", "expired-streams"};
    AuditCause[] causes = AuditCause.values();
    NAMES = new String[fixed.length + causes.length];
    System.arraycopy(fixed, 0, NAMES, 0, fixed.length);
    for (int i = 0; i < causes.length; i++) {
      NAMES[FIRST_CAUSE + i] = "pairs-" + causes[i].name();
    }
  }

  private final Map<String, AtomicLongArray> tasks = new ConcurrentHashMap<>();

  AuditTotals() {}

  static int cause(AuditCause c) {
    return FIRST_CAUSE + c.ordinal();
  }

  /** A task's counters (replacing any earlier ones of that task). */
  AtomicLongArray register(String task) {
    AtomicLongArray counters = new AtomicLongArray(NAMES.length);
    tasks.put(task, counters);
    return counters;
  }

  void unregister(String task, AtomicLongArray counters) {
    tasks.remove(task, counters);
  }

  long sum(int index) {
    long s = 0;
    for (AtomicLongArray c : tasks.values()) {
      s += c.get(index);
    }
    return s;
  }

  /** Returns the out-of-order pairs with this cause, over this instance's tasks. */
  public long pairs(AuditCause cause) {
    return sum(cause(cause));
  }

  /** Returns all pairs, over this instance's tasks. */
  public long pairs() {
    return sum(PAIRS);
  }

  /** Returns the audit events applied, over this instance's tasks. */
  public long records() {
    return sum(RECORDS);
  }

  /**
   * Returns every total by name (in a fixed order): {@code records} (events applied),
   * {@code streams} (key streams started), {@code duplicates}, {@code pairs},
   * {@code keys-with-pairs}, {@code late} (events older than the grace period, applied on
   * arrival), {@code bad-events} (not audit lines: skipped), {@code expired-streams} (forgotten
   * after the retention), and {@code pairs-CAUSE} for each {@link AuditCause}.
   */
  public Map<String, Long> snapshot() {
    Map<String, Long> out = new LinkedHashMap<>();
    for (int i = 0; i < NAMES.length; i++) {
      out.put(NAMES[i], sum(i));
    }
    return Collections.unmodifiableMap(out);
  }

  /** Returns the task ids counted now. */
  public java.util.Set<String> tasks() {
    return Collections.unmodifiableSet(new java.util.TreeSet<>(tasks.keySet()));
  }
}
