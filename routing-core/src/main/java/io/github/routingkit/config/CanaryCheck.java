package io.github.routingkit.config;

import static io.github.routingkit.config.RoutingSpec.*;

import io.github.routingkit.RoutingConfigException;
import io.github.routingkit.internal.Values;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Decides whether the {@code routing.canary.*} properties of one spec make a canary: a share in
 * [0, 1] (or a percentage) and a new spec read from the {@value RoutingSpec#CANARY_NEXT_PREFIX}
 * properties, whose own problems are reported under their canary names. Part of
 * {@link LayerCheck}.
 */
final class CanaryCheck {
  private CanaryCheck() {}

  /** The rule of {@value RoutingSpec#CANARY_SHARE}. */
  static final String SHARE_RULE =
      "must be a decimal share in [0, 1] (0.05) or a percentage in [0%, 100%] (5%)";

  /**
   * Parses a canary share: a plain decimal in [0, 1] or a plain decimal percentage in [0, 100]
   * followed by {@code %} (divided by 100 exactly, then rounded once to a double); NaN if
   * neither. Plain as {@link Values#parseDecimal} reads it: an exponent of at most 3 digits.
   */
  static double parseShare(String text) {
    if (text == null) {
      return Double.NaN;
    }
    String t = text.trim();
    boolean percent = t.endsWith("%");
    if (percent) {
      t = t.substring(0, t.length() - 1).trim();
    }
    if (Double.isNaN(Values.parseDecimal(t))) {
      return Double.NaN;
    }
    // a plain decimal (exponent of at most 3 digits) is a BigDecimal of bounded scale
    double v = percent ? new java.math.BigDecimal(t).movePointLeft(2).doubleValue()
        : Values.parseDecimal(t);
    return v >= 0 && v <= 1 ? v : Double.NaN;
  }

  /** The canary share, NaN when it is not set or bad (a bad one is a problem in {@code c}). */
  static double share(LayerCheck c) {
    if (!c.has(CANARY_SHARE)) {
      return c.has(CANARY_SCHEDULE) ? 0 : Double.NaN; // a schedule starts at 0 by default
    }
    double share = parseShare(c.get(CANARY_SHARE));
    if (Double.isNaN(share)) {
      c.problem(CANARY_SHARE, c.get(CANARY_SHARE),
          SHARE_RULE + Values.exponentHint(c.get(CANARY_SHARE)));
    }
    return share;
  }

  /**
   * The canary's new spec: the {@code routing.canary.next.*} properties read as a spec of their
   * own, its problems reported under their canary names; null without a canary or with a
   * problem.
   */
  static RoutingSpec next(LayerCheck c, double share) {
    Map<String, String> inner = new TreeMap<>();
    List<String> nextKeys = new ArrayList<>();
    for (Map.Entry<String, String> e : c.properties().entrySet()) {
      if (e.getKey().startsWith(CANARY_NEXT_PREFIX)) {
        nextKeys.add(e.getKey());
        inner.put(PREFIX + e.getKey().substring(CANARY_NEXT_PREFIX.length()), e.getValue());
      }
    }
    if (!c.has(CANARY_SHARE) && !c.has(CANARY_SCHEDULE)) {
      c.requires(CANARY_SHARE + " or " + CANARY_SCHEDULE + " is set",
          nextKeys.toArray(new String[0]));
      return null;
    }
    if (inner.isEmpty()) {
      String key = c.has(CANARY_SHARE) ? CANARY_SHARE : CANARY_SCHEDULE;
      c.problem(key, c.get(key), "has no effect unless a " + CANARY_NEXT_PREFIX
          + "* property names the new spec (e.g. " + CANARY_NEXT_PREFIX + "placement=jump)");
      return null;
    }
    try {
      RoutingSpec next = SpecText.parse(inner);
      return Double.isNaN(share) ? null : next;
    } catch (RoutingConfigException e) {
      for (RoutingConfigException p : e.problems()) {
        String name = p.property() != null && p.property().startsWith(PREFIX)
            ? CANARY_NEXT_PREFIX + p.property().substring(PREFIX.length()) : p.property();
        c.problem(name, p.value(), p.rule() + " (in the canary's new spec)");
      }
      return null;
    }
  }
}
