package io.github.routingkit.cli;

import io.github.routingkit.cli.LintFinding.Severity;
import io.github.routingkit.config.RoutingSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * RK013: every pair of producers of one topic, in any clients, compared by where they put a key
 * ({@link KeyedRouting}, {@link RoutingAgreement}). A disagreement is an error that names a key
 * the two place differently and the setting (of either client, or of both) that makes them agree;
 * a producer whose placement configuration cannot tell is a warning.
 */
final class FleetLint {
  private FleetLint() {}

  static void compare(List<ConfigLint.Producer> producers, ConfigLint.Needs needs,
      List<LintFinding> out) {
    int[] counts = needs.counts();
    if (producers.size() < 2) {
      return;
    }
    for (ConfigLint.Producer p : producers) {
      KeyedRouting u = p.keyed();
      if (u.unknown() != null) {
        out.add(new LintFinding(LintRule.RK013, Severity.WARNING, u.file(), u.line(),
            "cannot tell from configuration where the " + u.describe() + " puts a key ("
            + u.unknown() + "), so not whether it agrees with the other producers of the topic",
            "check it against the others on your keys (routing compare), or use a partitioner"
            + " lint knows"));
      }
    }
    for (int j = 1; j < producers.size(); j++) {
      KeyedRouting b = producers.get(j).keyed();
      for (int i = 0; i < j; i++) {
        KeyedRouting a = producers.get(i).keyed();
        if (a.unknown() != null || b.unknown() != null) {
          continue;
        }
        if (a.spec() == null && b.spec() == null) {
          continue; // both spread keys: RK006 says so under --require-key-order
        }
        if (a.spec() == null || b.spec() == null) {
          if (counts.length == 1 && counts[0] == 1) {
            continue;
          }
          KeyedRouting s = a.spec() == null ? a : b;
          KeyedRouting keyed = s == a ? b : a;
          out.add(new LintFinding(LintRule.RK013, Severity.ERROR, s.file(), s.line(), "the "
              + s.describe() + " and the " + keyed.describe() + " put the same key on different"
              + " partitions: " + s.spreads() + ", the other hashes it", agree(s, keyed, counts)));
          continue;
        }
        RoutingAgreement.Witness w = RoutingAgreement.witness(a.spec(), b.spec(), counts);
        if (w != null) {
          out.add(new LintFinding(LintRule.RK013, Severity.ERROR, b.file(), b.line(), "the "
              + b.describe() + " and the " + a.describe() + " put the same key on different"
              + " partitions: " + w.describe(a.file().name, b.file().name), agree(b, a, counts)));
        }
      }
    }
  }

  /**
   * The settings that make {@code x} and {@code y} agree, in one fix text: a partitioner choice of
   * either client, else one scheme both clients have, and the Java clients' RoutingKit adapters.
   */
  private static String agree(KeyedRouting x, KeyedRouting y, int[] counts) {
    List<String> ways = new ArrayList<>();
    for (boolean adapters : new boolean[] {false, true}) {
      if (y.spec() != null) {
        String s = x.client().agreeingSetting(x.file(), y.spec(), counts, adapters);
        if (s != null && !ways.contains("in " + x.file().name + ": " + s)) {
          ways.add("in " + x.file().name + ": " + s);
        }
      }
      if (x.spec() != null) {
        String s = y.client().agreeingSetting(y.file(), x.spec(), counts, adapters);
        if (s != null && !ways.contains("in " + y.file().name + ": " + s)) {
          ways.add("in " + y.file().name + ": " + s);
        }
      }
      if (!adapters && ways.isEmpty()) {
        common(x, y, counts, ways);
      }
    }
    return ways.isEmpty() ? "no setting of these two clients places keys alike; route this"
        + " topic's keys through one client" : String.join(", or ", ways);
  }

  /** A scheme both clients have, as one setting of each. */
  private static void common(KeyedRouting x, KeyedRouting y, int[] counts, List<String> ways) {
    for (Map.Entry<String, String> e : x.client().partitioners(x.file()).entrySet()) {
      if (e.getValue() == null) {
        continue;
      }
      RoutingSpec spec = RoutingSpec.parse(Map.of(RoutingSpec.SCHEME, e.getValue()));
      String s = y.client().agreeingSetting(y.file(), spec, counts, false);
      if (s != null) {
        ways.add("in " + x.file().name + ": " + x.client().partitionerKey + "=" + e.getKey()
            + " and in " + y.file().name + ": " + s);
        return;
      }
    }
  }
}
