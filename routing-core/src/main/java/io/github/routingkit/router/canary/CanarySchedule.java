package io.github.routingkit.router.canary;

import io.github.routingkit.KeyRouter;
import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;

/**
 * When a canary's share grows: a starting share and steps, each a share in force from an instant
 * on, so that every producer instance that reads the same schedule switches at the same moment
 * whenever it started. Clocks differ: with every producer's clock within
 * {@link #maxClockSkewMillis()} of true time, all of them route by step {@code i} from
 * {@code instant(i) + skew} on and none by an earlier step after it; a record routed by the step
 * before is acknowledged or failed by {@code instant(i) + skew + deliveryTimeout}. So the step's
 * switch markers may go out at its {@link #settleInstant settle instant}, {@code instant(i) +
 * 2 * skew + deliveryTimeout} by the sender's clock (one skew for the producers, one for the
 * sender).
 *
 * <p>Immutable and thread-safe; pure (the caller reads its clock and passes the time).
 */
public final class CanarySchedule {
  /** The most steps a schedule can have. */
  public static final int MAX_STEPS = 63;

  private final double startShare;
  private final double[] shares;
  private final long[] instants;
  private final long maxClockSkewMillis;
  private final long deliveryTimeoutMillis;

  /**
   * Creates a schedule.
   *
   * @param startShare the share before the first step, in [0, 1)
   * @param shares each step's share, strictly increasing, above {@code startShare}, at most 1
   * @param instants each step's instant, milliseconds since the epoch, strictly increasing
   * @param maxClockSkewMillis the bound on any producer's clock error, at least 0
   * @param deliveryTimeoutMillis the bound on a producer's send-to-ack time, at least 0
   * @throws NullPointerException if an array is null
   * @throws IllegalArgumentException if a rule above is broken, or there are no steps or more
   *     than {@value #MAX_STEPS}
   */
  public CanarySchedule(double startShare, double[] shares, long[] instants,
      long maxClockSkewMillis, long deliveryTimeoutMillis) {
    Objects.requireNonNull(shares, "shares");
    Objects.requireNonNull(instants, "instants");
    if (shares.length == 0 || shares.length > MAX_STEPS || shares.length != instants.length) {
      throw new IllegalArgumentException(shares.length + " shares and " + instants.length
          + " instants: need 1 to " + MAX_STEPS + " steps, one instant each");
    }
    if (!(startShare >= 0 && startShare < 1)) {
      throw new IllegalArgumentException("start share was " + startShare + ", must be in [0, 1)");
    }
    for (int i = 0; i < shares.length; i++) {
      double before = i == 0 ? startShare : shares[i - 1];
      if (!(shares[i] > before && shares[i] <= 1)) {
        throw new IllegalArgumentException("share of step " + (i + 1) + " was " + shares[i]
            + ", must be above " + before + " and at most 1");
      }
      if (i > 0 && instants[i] <= instants[i - 1]) {
        throw new IllegalArgumentException("instant of step " + (i + 1) + " was "
            + Instant.ofEpochMilli(instants[i]) + ", must be after step " + i + "'s");
      }
    }
    if (maxClockSkewMillis < 0 || deliveryTimeoutMillis < 0) {
      throw new IllegalArgumentException("clock skew " + maxClockSkewMillis
          + " ms and delivery timeout " + deliveryTimeoutMillis + " ms must be >= 0");
    }
    this.startShare = startShare;
    this.shares = shares.clone();
    this.instants = instants.clone();
    this.maxClockSkewMillis = maxClockSkewMillis;
    this.deliveryTimeoutMillis = deliveryTimeoutMillis;
  }

  /** The share before the first step, in [0, 1). */
  public double startShare() {
    return startShare;
  }

  /** The number of steps, in [1, {@value #MAX_STEPS}]. */
  public int steps() {
    return shares.length;
  }

  /** The share of step index {@code i}, in (0, 1]. */
  public double share(int i) {
    return shares[i];
  }

  /** Every step's share, in step order (a copy). */
  public double[] shares() {
    return shares.clone();
  }

  /** The instant of step index {@code i}, milliseconds since the epoch. */
  public long instant(int i) {
    return instants[i];
  }

  /** The bound on any producer's clock error, in milliseconds. */
  public long maxClockSkewMillis() {
    return maxClockSkewMillis;
  }

  /** The bound on a producer's time from send to acknowledgement or failure, in milliseconds. */
  public long deliveryTimeoutMillis() {
    return deliveryTimeoutMillis;
  }

  /**
   * The instant from which step {@code i}'s markers may be sent, by the sender's clock:
   * {@code instant(i) + 2 * maxClockSkew + deliveryTimeout}, in milliseconds since the epoch.
   */
  public long settleInstant(int i) {
    return instants[i] + 2 * maxClockSkewMillis + deliveryTimeoutMillis;
  }

  /** Every step's settle instant, in step order. */
  public long[] settleInstants() {
    long[] out = new long[shares.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = settleInstant(i);
    }
    return out;
  }

  /**
   * The step in force at {@code epochMillis}: the index of the last step whose instant is at or
   * before it, -1 before the first.
   */
  public int stepAt(long epochMillis) {
    int i = Arrays.binarySearch(instants, epochMillis);
    return i >= 0 ? i : -i - 2;
  }

  /** The share in force at {@code epochMillis}. */
  public double shareAt(long epochMillis) {
    int i = stepAt(epochMillis);
    return i < 0 ? startShare : shares[i];
  }

  /**
   * The canary routers of the schedule: index 0 at the starting share, index {@code i + 1} at
   * step {@code i}'s share, all over the same two routers (so their hot-key detectors are shared).
   *
   * @throws NullPointerException if a router is null
   */
  public KeyRouter[] routers(KeyRouter oldRouter, KeyRouter newRouter) {
    KeyRouter[] routers = new KeyRouter[shares.length + 1];
    routers[0] = CanaryRouter.of(oldRouter, newRouter, startShare);
    for (int i = 0; i < shares.length; i++) {
      routers[i + 1] = CanaryRouter.of(oldRouter, newRouter, shares[i]);
    }
    return routers;
  }

  /** Equal to a schedule with the same start share, steps, instants and bounds. */
  @Override
  public boolean equals(Object o) {
    if (!(o instanceof CanarySchedule)) {
      return false;
    }
    CanarySchedule other = (CanarySchedule) o;
    return startShare == other.startShare && Arrays.equals(shares, other.shares)
        && Arrays.equals(instants, other.instants) && maxClockSkewMillis == other.maxClockSkewMillis
        && deliveryTimeoutMillis == other.deliveryTimeoutMillis;
  }

  @Override
  public int hashCode() {
    return Objects.hash(startShare, Arrays.hashCode(shares), Arrays.hashCode(instants),
        maxClockSkewMillis, deliveryTimeoutMillis);
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder("CanarySchedule[from ").append(startShare);
    for (int i = 0; i < shares.length; i++) {
      b.append(", ").append(shares[i]).append('@').append(Instant.ofEpochMilli(instants[i]));
    }
    return b.append(", skew ").append(maxClockSkewMillis).append(" ms, delivery ")
        .append(deliveryTimeoutMillis).append(" ms]").toString();
  }
}
