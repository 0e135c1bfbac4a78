package io.github.routingkit.metrics;

import io.github.routingkit.assignment.GroupShape;
import io.github.routingkit.assignment.RebalanceResult;
import java.util.Objects;

/**
 * The metrics of one assignor instance: how often and how fast it assigned, how many partitions
 * changed owner, which {@link GroupShape} the group had and how balanced the result is. Recorded
 * once per assignment (on the group leader), read by the ecosystem bridges. Thread-safe.
 */
public final class AssignorMetrics {
  private final String clientId;
  private long assignments;
  private long timeNanos;
  private long maxNanos;
  private long moved;
  private int movedLast;
  private GroupShape shape;
  private int members;
  private int spread;
  private double maxOverMean = 1;

  private AssignorMetrics(String clientId) {
    this.clientId = Objects.requireNonNull(clientId, "clientId");
  }

  /**
   * Returns the metrics of an assignor instance, published until {@link #close()}.
   *
   * @param clientId the consumer's {@code client.id}
   * @throws NullPointerException if {@code clientId} is null
   */
  public static AssignorMetrics create(String clientId) {
    AssignorMetrics m = new AssignorMetrics(clientId);
    RoutingMetricsRegistry.add(m);
    return m;
  }

  /**
   * Records one assignment: its result and how long computing it took.
   *
   * @param result the assignment
   * @param nanos the time it took, in nanoseconds (negative values count as 0)
   */
  public synchronized void record(RebalanceResult result, long nanos) {
    long t = Math.max(0, nanos);
    assignments++;
    timeNanos += t;
    maxNanos = Math.max(maxNanos, t);
    int n = result.memberIds().size();
    int given = 0;
    int min = Integer.MAX_VALUE;
    int max = 0;
    long total = 0;
    for (int i = 0; i < n; i++) {
      int count = result.countAt(i);
      given += count - result.keptCountAt(i);
      min = Math.min(min, count);
      max = Math.max(max, count);
      total += count;
    }
    movedLast = given;
    moved += given;
    shape = result.shape();
    members = n;
    spread = n == 0 ? 0 : max - min;
    maxOverMean = total == 0 ? 1 : max / ((double) total / n);
  }

  /** Returns the consumer's {@code client.id}. */
  public String clientId() {
    return clientId;
  }

  /** Returns the group shape of the last assignment, or null before the first. */
  public synchronized GroupShape shape() {
    return shape;
  }

  /**
   * Returns an assignor metric's value ({@link RoutingMetric.Scope#ASSIGNOR}); for
   * {@link RoutingMetric#GROUP_SHAPE} use {@link #state}.
   *
   * @throws IllegalArgumentException for a metric of another scope or a state set
   */
  public synchronized double value(RoutingMetric metric) {
    switch (metric) {
      case ASSIGNMENTS:
        return assignments;
      case ASSIGNMENT_TIME:
        return timeNanos / 1e6;
      case ASSIGNMENT_TIME_MAX:
        return maxNanos / 1e6;
      case PARTITIONS_MOVED:
        return moved;
      case PARTITIONS_MOVED_LAST:
        return movedLast;
      case GROUP_MEMBERS:
        return members;
      case BALANCE_SPREAD:
        return spread;
      case BALANCE_MAX_OVER_MEAN:
        return maxOverMean;
      default:
        throw new IllegalArgumentException(metric + " is not an assignor gauge or counter");
    }
  }

  /** Returns 1 if the last assignment's group shape is {@code state} (a {@link GroupShape} name), else 0. */
  public synchronized double state(RoutingMetric metric, String state) {
    if (metric != RoutingMetric.GROUP_SHAPE) {
      throw new IllegalArgumentException(metric + " is not an assignor state set");
    }
    return shape != null && shape.name().equals(state) ? 1 : 0;
  }

  /** Stops publishing: the registry and its listeners forget this instance. */
  public void close() {
    RoutingMetricsRegistry.remove(this);
  }

  @Override
  public String toString() {
    return "AssignorMetrics{" + clientId + '}';
  }
}
