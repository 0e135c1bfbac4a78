package io.github.routingkit.switching;

import io.github.routingkit.switching.SwitchPlan.MarkerVerdict;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Decides what an adapter logs about a {@link MemberBarrier}, so that a stuck switch gives one
 * clear line, not one per poll: a wait for one partition longer than {@code stuckAfter} is
 * reported once ({@link Kind#STUCK}) and its end once ({@link Kind#UNSTUCK}); the first late
 * record and the first ignored marker of each verdict once each. Pure: the caller passes the
 * time. Not thread-safe.
 */
public final class SwitchWatch {
  /** What to report. */
  public enum Kind {
    /** Records wait for {@link Event#partition} for longer than the bound. */
    STUCK,
    /** The stuck wait for {@link Event#partition} ended. */
    UNSTUCK,
    /** A record routed by the old router arrived after its partition's marker. */
    LATE_RECORD,
    /** A marker was ignored, for {@link Event#verdict}. */
    IGNORED_MARKER
  }

  /** One thing to report. Immutable value. */
  public static final class Event {
    private final Kind kind;
    private final int partition;
    private final List<Integer> steps;
    private final long waitedNanos;
    private final MarkerVerdict verdict;

    /**
     * @param kind what happened
     * @param partition the partition waited for (STUCK, UNSTUCK), else -1
     * @param steps the marker step numbers waited for (STUCK), else empty
     * @param waitedNanos how long the wait lasted so far (STUCK), else 0
     * @param verdict why a marker was ignored (IGNORED_MARKER), else null
     */
    public Event(Kind kind, int partition, List<Integer> steps, long waitedNanos,
        MarkerVerdict verdict) {
      this.kind = kind;
      this.partition = partition;
      this.steps = List.copyOf(steps);
      this.waitedNanos = waitedNanos;
      this.verdict = verdict;
    }

    /** What happened. */
    public Kind kind() {
      return kind;
    }

    /** The partition waited for (STUCK, UNSTUCK), else -1. */
    public int partition() {
      return partition;
    }

    /** The marker step numbers waited for (STUCK), else empty. */
    public List<Integer> steps() {
      return steps;
    }

    /** How long the wait lasted so far, in nanoseconds (STUCK), else 0. */
    public long waitedNanos() {
      return waitedNanos;
    }

    /** Why a marker was ignored (IGNORED_MARKER), else null. */
    public MarkerVerdict verdict() {
      return verdict;
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof Event)) {
        return false;
      }
      Event other = (Event) o;
      return kind == other.kind && partition == other.partition && steps.equals(other.steps)
          && waitedNanos == other.waitedNanos && verdict == other.verdict;
    }

    @Override
    public int hashCode() {
      return Objects.hash(kind, partition, steps, waitedNanos, verdict);
    }

    @Override
    public String toString() {
      return "Event[" + kind + ", partition " + partition + ", steps " + steps + ", waited "
          + waitedNanos + " ns, " + verdict + "]";
    }
  }

  /**
   * The log line for {@code e}, naming the topic, the plan and the barrier's counts;
   * {@code progress} says what the group published for the partition waited for (for STUCK).
   */
  public static String message(Event e, String topic, MemberBarrier<?> barrier, String progress) {
    SwitchPlan plan = barrier.plan();
    switch (e.kind()) {
      case STUCK:
        return "routing switch of " + topic + " stuck for " + e.waitedNanos() / 1_000_000_000L
            + " s: " + barrier.held() + " held and " + barrier.skipped() + " skipped records wait"
            + " for partition " + e.partition() + " to pass step(s) " + e.steps()
            + " of generation " + plan.generation() + ", and the group's progress does not say so ("
            + progress + "): its owner is down or lagging, the step's markers were not sent, or"
            + " the progress was erased (a commit of the topic without the barrier)";
      case UNSTUCK:
        return "routing switch of " + topic + ": partition " + e.partition()
            + " passed, the records waiting for it went on";
      case LATE_RECORD:
        return "routing switch of " + topic + ": a record routed by the old router arrived after"
            + " its partition's switch marker: a producer had not switched when the markers were"
            + " sent (clock skew beyond the plan's bound, or a producer not on the plan); per-key"
            + " order of such keys is not guaranteed";
      default:
        return "routing switch of " + topic + ": ignored a switch marker (" + e.verdict()
            + ") that is not one of " + plan;
    }
  }

  /** Whether {@code e} is logged as a warning (STUCK, LATE_RECORD), else as information. */
  public static boolean warns(Event e) {
    return e.kind() == Kind.STUCK || e.kind() == Kind.LATE_RECORD;
  }

  private final long stuckNanos;
  private final Map<Integer, Long> since = new HashMap<>();
  private final Set<Integer> stuck = new HashSet<>();
  private final Set<MarkerVerdict> ignored = new HashSet<>();
  private boolean late;

  /**
   * @param stuckAfterNanos how long a wait may last before it is reported, above 0
   * @throws IllegalArgumentException if {@code stuckAfterNanos} is not positive
   */
  public SwitchWatch(long stuckAfterNanos) {
    if (stuckAfterNanos <= 0) {
      throw new IllegalArgumentException("stuckAfter was " + stuckAfterNanos
          + " ns, must be positive");
    }
    this.stuckNanos = stuckAfterNanos;
  }

  /**
   * What to report now about {@code barrier}, given a monotonic time in nanoseconds (as
   * {@link System#nanoTime()}).
   *
   * @throws NullPointerException if {@code barrier} is null
   */
  public List<Event> check(MemberBarrier<?> barrier, long nowNanos) {
    Objects.requireNonNull(barrier, "barrier");
    List<Event> events = new ArrayList<>(0);
    Map<Integer, Long> awaited = barrier.awaited();
    since.keySet().removeIf(q -> {
      if (awaited.containsKey(q)) {
        return false;
      }
      if (stuck.remove(q)) {
        events.add(new Event(Kind.UNSTUCK, q, List.of(), 0, null));
      }
      return true;
    });
    SwitchPlan plan = barrier.plan();
    for (Map.Entry<Integer, Long> e : awaited.entrySet()) {
      long start = since.computeIfAbsent(e.getKey(), q -> nowNanos);
      if (nowNanos - start > stuckNanos && stuck.add(e.getKey())) {
        List<Integer> steps = new ArrayList<>();
        for (int i = 0; i < plan.steps(); i++) {
          if ((e.getValue() >>> i & 1) != 0) {
            steps.add(plan.stepNumber(i));
          }
        }
        events.add(new Event(Kind.STUCK, e.getKey(), List.copyOf(steps), nowNanos - start, null));
      }
    }
    if (!late && barrier.counts().lateRecords() > 0) {
      late = true;
      events.add(new Event(Kind.LATE_RECORD, -1, List.of(), 0, null));
    }
    for (MarkerVerdict v : MarkerVerdict.values()) {
      if (barrier.ignoredMarkers(v) > 0 && ignored.add(v)) {
        events.add(new Event(Kind.IGNORED_MARKER, -1, List.of(), 0, v));
      }
    }
    return events;
  }
}
