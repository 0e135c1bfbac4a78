package io.github.routingkit.config;

import static io.github.routingkit.config.RoutingSpec.*;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.internal.Values;
import io.github.routingkit.router.canary.CanarySchedule;
import io.github.routingkit.switching.SwitchPlan;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.openhft.hashing.LongHashFunction;

/**
 * Decides whether {@value RoutingSpec#CANARY_SCHEDULE} and its bounds
 * ({@value RoutingSpec#CANARY_MAX_CLOCK_SKEW}, {@value RoutingSpec#CANARY_DELIVERY_TIMEOUT}) make
 * a {@link CanarySchedule}, and builds a scheduled canary's {@link SwitchPlan}. Part of
 * {@link LayerCheck}, after {@link CanaryCheck}.
 */
final class ScheduleCheck {
  private ScheduleCheck() {}

  /** The rule of {@value RoutingSpec#CANARY_SCHEDULE}. */
  static final String SCHEDULE_RULE = "must be a list of share@instant (5%@2026-12-02T10:00:00Z),"
      + " shares increasing, above routing.canary.share (default 0) and at most 100%, instants"
      + " (ISO-8601, as Instant.parse reads them) increasing; at most "
      + CanarySchedule.MAX_STEPS + " steps";
  /** The rule of a duration. */
  static final String DURATION_RULE = "must be a whole number of ms, s or m (500ms, 2s, 1m), at"
      + " most 1 hour";
  static final long DEFAULT_SKEW_MILLIS = 1_000;
  static final long DEFAULT_DELIVERY_MILLIS = 120_000;
  private static final Pattern DURATION = Pattern.compile("([0-9]{1,7})\\s*(ms|s|m)");

  /** The schedule, null without one or with a problem (reported in {@code c}). */
  static CanarySchedule schedule(LayerCheck c, double startShare) {
    if (!c.has(CANARY_SCHEDULE)) {
      c.requires(CANARY_SCHEDULE + " is set", CANARY_MAX_CLOCK_SKEW, CANARY_DELIVERY_TIMEOUT);
      return null;
    }
    long skew = duration(c, CANARY_MAX_CLOCK_SKEW, DEFAULT_SKEW_MILLIS);
    long delivery = duration(c, CANARY_DELIVERY_TIMEOUT, DEFAULT_DELIVERY_MILLIS);
    String text = c.get(CANARY_SCHEDULE);
    List<String> items = Values.items(text);
    double[] shares = new double[items.size()];
    long[] instants = new long[items.size()];
    for (int i = 0; i < items.size(); i++) {
      String item = items.get(i);
      int at = item.indexOf('@');
      shares[i] = at < 0 ? Double.NaN : CanaryCheck.parseShare(item.substring(0, at));
      try {
        instants[i] = at < 0 ? 0 : Instant.parse(item.substring(at + 1).trim()).toEpochMilli();
      } catch (DateTimeParseException | ArithmeticException e) {
        shares[i] = Double.NaN;
      }
      if (Double.isNaN(shares[i])) {
        c.problem(CANARY_SCHEDULE, text, SCHEDULE_RULE + " ('" + item + "' is not share@instant)");
        return null;
      }
    }
    if (Double.isNaN(startShare) || skew < 0 || delivery < 0) {
      return null;
    }
    try {
      return new CanarySchedule(startShare, shares, instants, skew, delivery);
    } catch (IllegalArgumentException e) {
      c.problem(CANARY_SCHEDULE, text, SCHEDULE_RULE + " (" + e.getMessage() + ")");
      return null;
    }
  }

  /** A duration in milliseconds; {@code otherwise} when unset, -1 when bad (reported). */
  private static long duration(LayerCheck c, String key, long otherwise) {
    if (!c.has(key)) {
      return otherwise;
    }
    Matcher m = DURATION.matcher(c.get(key).trim());
    if (m.matches()) {
      long n = Long.parseLong(m.group(1));
      String unit = m.group(2);
      long millis = unit.equals("ms") ? n : unit.equals("s") ? n * 1_000 : n * 60_000;
      if (millis <= 3_600_000) {
        return millis;
      }
    }
    c.problem(key, c.get(key), DURATION_RULE);
    return -1;
  }

  /**
   * The plan of a scheduled canary: its generation is {@code canary-} and 16 hex digits of XXH3
   * over the old spec's and the new spec's string forms and the shares, so every producer and
   * consumer with the same spec names it alike, and a changed spec or share is another plan.
   */
  static SwitchPlan plan(RoutingSpec spec, CanarySchedule schedule, int numPartitions) {
    if (schedule == null) {
      throw new IllegalStateException("the spec has no " + RoutingSpec.CANARY_SCHEDULE + ": "
          + spec);
    }
    RoutingSpec old = spec.withoutCanary();
    // routing.metrics.* route nothing: producers and consumers that set them differently name
    // the plan alike
    for (String key : RoutingProperty.keys(RoutingProperty.Layer.METRICS)) {
      if (old.toMap().containsKey(key)) {
        old = old.with(key, null);
      }
    }
    RoutingSpec next = spec.canaryNext();
    StringBuilder id = new StringBuilder(old.toString()).append('\n').append(next).append('\n')
        .append(schedule.startShare());
    for (double s : schedule.shares()) {
      id.append(',').append(s);
    }
    String generation = String.format("canary-%016x",
        LongHashFunction.xx3().hashBytes(id.toString().getBytes(StandardCharsets.UTF_8)));
    KeyRouter oldRouter = old.keyRouter();
    KeyRouter newRouter = next.keyRouter();
    return SwitchPlan.canary(generation, oldRouter, newRouter, schedule.startShare(),
        schedule.shares(), numPartitions).withSettleInstants(schedule.settleInstants());
  }
}
