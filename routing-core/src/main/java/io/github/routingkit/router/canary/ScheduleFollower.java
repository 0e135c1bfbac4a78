package io.github.routingkit.router.canary;

import io.github.routingkit.KeyRouter;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A producer's view of a {@link CanarySchedule}: the canary router of the step in force at the
 * time the caller passes, never an earlier step than one it already returned (a clock stepped
 * back by NTP does not route a key back). The adapters pass their clock's time; this class reads
 * no clock itself.
 *
 * <p>Thread-safe: the only mutable state is the latched step, an {@link AtomicInteger} that only
 * grows; {@link #routerAt} costs a binary search over the steps and one volatile read (a
 * compare-and-set only when the step advances).
 */
public final class ScheduleFollower {
  private final CanarySchedule schedule;
  private final KeyRouter[] routers;
  private final AtomicInteger latched = new AtomicInteger(-1);

  /**
   * Follows {@code schedule} between the canary's two routers.
   *
   * @throws NullPointerException if an argument is null
   */
  public ScheduleFollower(CanarySchedule schedule, KeyRouter oldRouter, KeyRouter newRouter) {
    this.schedule = Objects.requireNonNull(schedule, "schedule");
    this.routers = schedule.routers(oldRouter, newRouter);
  }

  /** The schedule followed. */
  public CanarySchedule schedule() {
    return schedule;
  }

  /**
   * The router to route by at {@code epochMillis}: the canary router of the later of the step in
   * force then and the latest step returned so far.
   */
  public KeyRouter routerAt(long epochMillis) {
    int step = schedule.stepAt(epochMillis);
    int seen = latched.get();
    if (step > seen) {
      seen = latched.accumulateAndGet(step, Math::max);
    }
    return routers[seen + 1];
  }

  /** The latest step index returned so far, -1 before the first step. */
  public int step() {
    return latched.get();
  }
}
