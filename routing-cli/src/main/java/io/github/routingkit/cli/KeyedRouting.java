package io.github.routingkit.cli;

import io.github.routingkit.config.RoutingSpec;

/**
 * Where one producer puts a keyed message, read from its file: by a routing spec (a pure function
 * of the key, hot keys aside), spread over partitions whatever the key ({@code spreads} says why),
 * or unknown from configuration ({@code unknown} says why: a custom partitioner, a hash that
 * depends on how the client was built). {@code setting} is the producer's partitioner choice as
 * written (or its default), on {@code line} (0: a default).
 */
record KeyedRouting(LintFile file, LintClient client, String setting, int line, RoutingSpec spec,
    String spreads, String unknown) {

  static KeyedRouting of(LintFile f, LintClient client, String setting, int line,
      RoutingSpec spec) {
    return new KeyedRouting(f, client, setting, line, spec, null, null);
  }

  static KeyedRouting spread(LintFile f, LintClient client, String setting, int line,
      String why) {
    return new KeyedRouting(f, client, setting, line, null, why, null);
  }

  static KeyedRouting unknown(LintFile f, LintClient client, String setting, int line,
      String why) {
    return new KeyedRouting(f, client, setting, line, null, null, why);
  }

  /** Returns e.g. {@code librdkafka producer p.conf (partitioner=consistent_random (the default))}. */
  String describe() {
    return client.id + " producer " + file.name + " (" + setting + ")";
  }
}
