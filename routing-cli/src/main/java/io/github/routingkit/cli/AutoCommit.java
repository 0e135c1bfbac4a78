package io.github.routingkit.cli;

import io.github.routingkit.cli.LintFinding.Severity;
import java.util.List;

/**
 * RK019: a Kafka consumer group member that auto-commits, in a group that rebalances at every
 * member restart (no static membership). Auto-commit commits what poll returned every
 * {@code auto.commit.interval.ms}; a member that leaves without committing (a crash, or
 * {@code max.poll.interval.ms} exceeded while processing) hands its partitions over at the last
 * commit, and the new owner reads again records already processed, after newer ones of the same
 * key were handled: the audit's {@code REDELIVERY}. A warning: how often it happens depends on
 * crashes and slow polls, which configuration does not show.
 */
final class AutoCommit {
  private AutoCommit() {}

  static void check(ConfigLint.Consumer c, List<LintFinding> out) {
    LintFile f = c.file();
    String key;
    boolean defaultOn;
    String instanceKey;
    switch (c.client()) {
      case KAFKA_JAVA, LIBRDKAFKA -> {
        if (f.get("group.id") == null || f.has("share.acknowledgement.mode")) {
          return; // no consumer group (kafka-clients then does not auto-commit), or a share group
        }
        key = "enable.auto.commit";
        defaultOn = true;
        instanceKey = "group.instance.id";
      }
      case SARAMA -> {
        key = "Consumer.Offsets.AutoCommit.Enable";
        defaultOn = true;
        instanceKey = "Consumer.Group.InstanceId";
      }
      case KAFKAJS -> {
        key = "autoCommit";
        defaultOn = true;
        instanceKey = null;
      }
      default -> {
        return;
      }
    }
    if (!f.bool(key, defaultOn)) {
      return;
    }
    boolean staticMember = instanceKey != null && f.get(instanceKey) != null;
    boolean kip848 = "consumer".equalsIgnoreCase(f.get("group.protocol"));
    if (staticMember) {
      return;
    }
    out.add(new LintFinding(LintRule.RK019, Severity.WARNING, f, f.line(key), (f.has(key)
        ? key + "=" + f.get(key) : key + "=true (the default)") + " in a group without static"
        + " membership (" + (instanceKey == null ? "the client has none" : instanceKey
        + " is not set") + ", so every restart of a member " + (kip848 ? "reassigns partitions"
        : "rebalances the group") + "): a member that leaves without committing (a crash,"
        + " max.poll.interval.ms exceeded while processing) hands its partitions over at the last"
        + " auto-commit, and the new owner reads again records already processed, after newer"
        + " records of the same keys", key + "=false with a synchronous commit after each"
        + " processed poll" + (instanceKey == null ? "" : ", and " + instanceKey + " per member"
        + " so restarts do not move partitions") + "; consumers that need no order across a"
        + " replay can ignore this"));
  }
}
