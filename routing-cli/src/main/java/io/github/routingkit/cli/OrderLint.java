package io.github.routingkit.cli;

import io.github.routingkit.cli.LintFinding.Severity;
import io.github.routingkit.config.RoutingProperty;
import io.github.routingkit.config.RoutingSpec;
import java.util.List;
import java.util.Map;

/**
 * The rules about one producer's or one consumer's own settings that lose order or stall:
 * RK004-RK009 and RK014-RK019, each in the words of its client ({@link LintClient}).
 */
final class OrderLint {
  static final int KEY_SHARED_RECEIVER_QUEUE_LIMIT = 1000;
  static final int SMALL_PENDING_QUEUE = 1000;
  /** A keyless policy that keeps every keyless message of one producer on one partition. */
  static final String SINGLE_PARTITION_KEYLESS = "single-partition";

  private OrderLint() {}

  static void producer(ConfigLint.Producer p, ConfigLint.Needs needs, List<LintFinding> out) {
    LintFile f = p.file();
    if (needs.keyOrder()) {
      keysIgnored(p, out);
      hotKeyScatter(p, out);
      keyMovingChange(p, needs, out);
      if (p.client() == LintClient.PULSAR_JAVA && "SinglePartition".equals(
          f.get("messageRoutingMode"))) {
        out.add(new LintFinding(LintRule.RK005, Severity.WARNING, f, f.line("messageRoutingMode"),
            "messageRoutingMode=SinglePartition sends each producer instance's keyless messages"
                + " to one random partition; only messages with a key are hashed",
            "set the ordering key as the message key (and messageRoutingMode=CustomPartition"
                + " with RoutingMessageRouter, or RoundRobinPartition)"));
      }
    }
    ProducerRetries.check(p, needs.keyOrder(), out);
    if (needs.keylessOrder()) {
      keylessSpread(p, out);
    }
    if (p.client() == LintClient.KAFKA_JAVA) {
      ignoredByCustomPartitioner(f, out);
      SchemaRegistryKeyLint.check(f, p.spec(), out);
    }
    if (p.client() == LintClient.PULSAR_JAVA) {
      long pending = f.longValue("maxPendingMessages", -1);
      if (f.bool("blockIfQueueFull", false) && pending > 0 && pending < SMALL_PENDING_QUEUE) {
        out.add(new LintFinding(LintRule.RK009, Severity.WARNING, f, f.line("maxPendingMessages"),
            "blockIfQueueFull=true with maxPendingMessages=" + pending + ": send() blocks once "
            + pending + " messages are in flight, every reconnect or bundle move stalls the"
            + " caller", "maxPendingMessages >= peak rate x reconnect window (routing plan"
            + " --message-bytes sizes it), or 0 to bound by memoryLimitBytes only"));
      }
    }
  }

  /** RK006: a partitioner that spreads one key's records whatever the key. */
  private static void keysIgnored(ConfigLint.Producer p, List<LintFinding> out) {
    KeyedRouting k = p.keyed();
    if (k.spreads() == null) {
      return;
    }
    String fix;
    if (p.client() == LintClient.KAFKA_JAVA) {
      fix = "remove it: keyed records then go by murmur2 of the key (or set RoutingPartitioner)";
    } else {
      StringBuilder hashing = new StringBuilder();
      p.client().partitioners(p.file()).forEach((v, scheme) -> {
        if (scheme != null) {
          hashing.append(hashing.length() == 0 ? "" : ", ").append(p.client().partitionerKey)
              .append('=').append(v);
        }
      });
      fix = "a partitioner that hashes the key: " + hashing;
    }
    out.add(new LintFinding(LintRule.RK006, Severity.ERROR, p.file(), k.line(), k.spreads(),
        fix));
  }

  /** Whether the producer routes by its routing.* spec (a RoutingKit adapter). */
  static boolean routesBySpec(ConfigLint.Producer p) {
    LintFile f = p.file();
    return p.spec() != null && (p.client() == LintClient.KAFKA_JAVA
        ? LintClient.ROUTING_PARTITIONER.equals(f.get("partitioner.class"))
        : p.client() == LintClient.PULSAR_JAVA && ("CustomPartition".equals(
            f.get("messageRoutingMode")) || !f.keysStartingWith(RoutingSpec.PREFIX).isEmpty()));
  }

  /** RK014: hot keys spread over candidates while per-key order is required. */
  private static void hotKeyScatter(ConfigLint.Producer p, List<LintFinding> out) {
    if (!routesBySpec(p)) {
      return;
    }
    LintFile f = p.file();
    Map<String, String> routing = p.spec().layerProperties(RoutingProperty.Layer.HOTKEY);
    for (String prefix : List.of("routing.", "routing.canary.next.")) {
      String keys = routing.get(prefix + "hotkey.keys");
      boolean detect = "true".equalsIgnoreCase(routing.get(prefix + "hotkey.detect"));
      if (keys == null && !detect) {
        continue;
      }
      String choice = routing.getOrDefault(prefix + "hotkey.choice", "least-loaded");
      String candidates = routing.getOrDefault(prefix + "hotkey.candidates", "8");
      String which = (keys != null ? prefix + "hotkey.keys=" + keys : "")
          + (keys != null && detect ? " and " : "") + (detect ? prefix + "hotkey.detect=true" : "");
      int line = f.line(prefix + "hotkey.keys", prefix + "hotkey.detect");
      if (choice.equals("value-hash")) {
        out.add(new LintFinding(LintRule.RK014, Severity.WARNING, f, line, which + " with "
            + prefix + "hotkey.choice=value-hash spreads each hot key over " + candidates
            + " candidate partitions by the hash of the value: it keeps each (key, value) on one"
            + " partition, so a retried or replayed record lands where its first copy did and"
            + " records of the key with equal values stay in order, but records of the key with"
            + " different values go to different partitions and are read out of send order",
            "keep hot keys whose order matters out of " + prefix + "hotkey.keys (or split such a"
            + " key in the application into ordered sub-keys); value-hash is right only where"
            + " order matters per (key, value)"));
      } else {
        out.add(new LintFinding(LintRule.RK014, Severity.ERROR, f, line, which + " with "
            + prefix + "hotkey.choice=" + choice + (routing.containsKey(prefix + "hotkey.choice")
            ? "" : " (the default)") + " spreads each hot key's records over " + candidates
            + " candidate partitions by " + (choice.equals("round-robin") ? "turn" : "local load")
            + ": consumers read them from several partitions, out of send order, and a retried"
            + " record can land on another candidate than its first copy", "keep hot keys whose"
            + " order matters out of the hot-key layer (or split such a key in the application"
            + " into ordered sub-keys); " + prefix + "hotkey.choice=value-hash at least keeps each"
            + " (key, value) on one partition"));
      }
    }
  }

  /** RK016: keyless messages spread over partitions while their order is required. */
  private static void keylessSpread(ConfigLint.Producer p, List<LintFinding> out) {
    LintFile f = p.file();
    String why;
    int line;
    String fix;
    switch (p.client()) {
      case KAFKA_JAVA -> {
        if (routesBySpec(p)) {
          String keyless = f.get(RoutingSpec.KEYLESS);
          if (SINGLE_PARTITION_KEYLESS.equals(keyless)) {
            return;
          }
          why = "routing.keyless=" + (keyless == null ? "kafka-sticky (the Kafka adapter's"
              + " default)" : keyless) + " sends keyless records of this producer to several"
              + " partitions in turn";
          line = f.line(RoutingSpec.KEYLESS, "partitioner.class");
        } else if (f.get("partitioner.class") == null
            || f.get("partitioner.class").equals(LintClient.ROUND_ROBIN_PARTITIONER)) {
          why = (f.get("partitioner.class") == null ? "the built-in partitioner sticks to one"
              + " partition per batch and then moves on" : "RoundRobinPartitioner sends each"
              + " record to the next partition") + ": keyless records of this producer land on"
              + " several partitions";
          line = f.line("partitioner.class");
        } else {
          return; // a custom partitioner: unknown
        }
        fix = "give every record whose order matters its ordering key (records of one key keep"
            + " their order), or route them to one partition";
      }
      case LIBRDKAFKA -> {
        why = "librdkafka sends keyless messages to a sticky random partition and picks a new"
            + " one every sticky.partitioning.linger.ms";
        line = f.line("sticky.partitioning.linger.ms", "partitioner");
        fix = "give every message whose order matters its ordering key";
      }
      case SARAMA, KAFKAJS, KAFKA_GO -> {
        why = p.client().id + " sends nil-key messages to a random or round-robin partition";
        line = f.line(p.client().partitionerKey);
        fix = "give every message whose order matters its ordering key";
      }
      case PULSAR_JAVA -> {
        String mode = f.get("messageRoutingMode");
        if ("SinglePartition".equals(mode)) {
          return;
        }
        if ("CustomPartition".equals(mode)) {
          String keyless = f.get(RoutingSpec.KEYLESS);
          if (SINGLE_PARTITION_KEYLESS.equals(keyless) || !routesBySpec(p)) {
            return;
          }
          why = "routing.keyless=" + (keyless == null ? "round-robin (the default)" : keyless)
              + " spreads keyless messages over partitions";
          line = f.line(RoutingSpec.KEYLESS, "messageRoutingMode");
        } else {
          boolean batching = f.bool("batchingEnabled", true);
          why = "messageRoutingMode=" + (mode == null ? "RoundRobinPartition (the default)"
              : mode) + (batching ? " with batching (batchingEnabled=" + (f.has("batchingEnabled")
              ? f.get("batchingEnabled") : "true, the default") + ") moves to the next partition"
              + " at every batch boundary" : " sends each keyless message to the next partition")
              + ": consecutive keyless messages land on different partitions";
          line = f.line("messageRoutingMode", "batchingEnabled");
        }
        fix = "messageRoutingMode=SinglePartition (each producer's keyless messages on one"
            + " partition, in order), or give every message whose order matters its key";
      }
      case PULSAR_GO -> {
        why = "pulsar-client-go's default router sends keyless messages round-robin, one batch"
            + " per partition" + (f.bool("DisableBatching", false) ? "" : " (batching on)");
        line = f.line("DisableBatching", "HashingScheme");
        fix = "give every message whose order matters its key";
      }
      case PULSAR_CPP -> {
        String mode = f.get("partitionsRoutingMode");
        if (mode == null || mode.equals("UseSinglePartition")) {
          return;
        }
        why = "partitionsRoutingMode=" + mode + " sends keyless messages to the partitions in"
            + " turn";
        line = f.line("partitionsRoutingMode");
        fix = "partitionsRoutingMode=UseSinglePartition, or give every message whose order"
            + " matters its key";
      }
      default -> {
        return;
      }
    }
    out.add(new LintFinding(LintRule.RK016, Severity.ERROR, f, line, why + "; consumers read"
        + " them from several partitions, out of send order", fix));
  }

  /** RK017: a planned change that moves keys, with nothing to keep their order across it. */
  private static void keyMovingChange(ConfigLint.Producer p, ConfigLint.Needs needs,
      List<LintFinding> out) {
    if (needs.switchMarkers() || p.keyed().spec() == null) {
      return;
    }
    RoutingSpec spec = p.keyed().spec();
    LintFile f = p.file();
    String fix = "send switch markers at the cutover and read through a SwitchBarrier (then lint"
        + " with --switch-markers), or keep the existing keys in place with a generation pinned"
        + " to the old count (routing.version.generations=v1:<scheme>:<placement>:<count>,...);"
        + " jump placement moves only the (M-N)/M minimum";
    if (needs.growTo() > 0) {
      RoutingAgreement.Moved moved = RoutingAgreement.moved(spec, needs.partitions(),
          needs.growTo());
      if (moved.share() > 0) {
        out.add(new LintFinding(LintRule.RK017, Severity.ERROR, f, p.keyed().line(), "growing"
            + " from " + needs.partitions() + " to " + needs.growTo() + " partitions, "
            + p.keyed().setting() + " moves " + String.format(java.util.Locale.ROOT, "%.1f",
            100 * moved.share()) + " % of the sampled keys (" + moved.example() + "): a consumer"
            + " still behind on a key's old partition reads its newer records first", fix));
      }
    }
    RoutingSpec next = routesBySpec(p) ? spec.canaryNext() : null;
    if (next != null) {
      RoutingAgreement.Witness w = RoutingAgreement.witness(spec.withoutCanary(), next,
          needs.counts());
      if (w != null) {
        out.add(new LintFinding(LintRule.RK017, Severity.ERROR, f, f.line(RoutingSpec.CANARY_SHARE),
            "the canary (routing.canary.share=" + f.get(RoutingSpec.CANARY_SHARE) + ") moves"
            + " each key it switches to the new spec's partition at the step that switches it ("
            + w.describe("old spec", "new spec") + "): a consumer still behind on the old"
            + " partition reads the key's newer records first", fix));
      }
    }
  }

  /** RK018: built-in partitioner settings kafka-clients ignores once partitioner.class is set. */
  private static void ignoredByCustomPartitioner(LintFile f, List<LintFinding> out) {
    String pc = f.get("partitioner.class");
    if (pc == null) {
      return;
    }
    for (String key : List.of("partitioner.adaptive.partitioning.enable",
        "partitioner.availability.timeout.ms", "partitioner.ignore.keys")) {
      if (f.has(key)) {
        out.add(new LintFinding(LintRule.RK018, Severity.WARNING, f, f.line(key), key + "="
            + f.get(key) + " with partitioner.class=" + pc + ": kafka-clients applies " + key
            + " only to its built-in partitioner, so this setting silently does nothing"
            + (key.equals("partitioner.ignore.keys") ? " (keyed records still go by the"
            + " partitioner's choice)" : " (no partition is avoided for being slow)"),
            "remove it" + (pc.equals(LintClient.ROUTING_PARTITIONER) ? "; RoutingPartitioner"
            + " places keyless records by routing.keyless" : "") + ", or remove"
            + " partitioner.class to get the built-in behaviour"));
      }
    }
  }

  static void consumer(ConfigLint.Consumer c, ConfigLint.Needs needs, List<LintFinding> out) {
    LintFile f = c.file();
    String sub = subscriptionType(c);
    if (needs.keyOrder() || needs.keylessOrder()) {
      String need = needs.keyOrder() ? "per-key order" : "keyless order";
      if ("Shared".equals(sub)) {
        out.add(new LintFinding(LintRule.RK004, Severity.ERROR, f, f.line("subscriptionType",
            "Type", "consumerType"), subscriptionKey(c) + "=" + f.get(subscriptionKey(c))
            + " delivers messages of one key to several consumers, in no order (" + need
            + " is required)", "subscriptionType=Key_Shared (or Failover / Exclusive per"
            + " partition)"));
      }
      if (c.client() == LintClient.KAFKA_JAVA && f.has("share.acknowledgement.mode")) {
        out.add(new LintFinding(LintRule.RK004, Severity.ERROR, f, f.line(
            "share.acknowledgement.mode"), "a share group (KafkaShareConsumer)"
            + " hands records of one partition to several consumers at once, in no order ("
            + need + " is required)", "a consumer group (KafkaConsumer with group.id), where one"
            + " member owns each partition"));
      }
    }
    boolean keyShared = "Key_Shared".equals(sub);
    String ooo = f.get("allowOutOfOrderDelivery");
    if (ooo == null) {
      ooo = f.get("keySharedPolicy.allowOutOfOrderDelivery");
    }
    if (keyShared && "true".equalsIgnoreCase(ooo)) {
      out.add(new LintFinding(LintRule.RK007, needs.keyOrder() ? Severity.ERROR
          : Severity.WARNING, f, f.line("allowOutOfOrderDelivery",
          "keySharedPolicy.allowOutOfOrderDelivery"), "Key_Shared with"
          + " allowOutOfOrderDelivery=true: when a consumer joins or leaves, messages of a key can"
          + " arrive at the new owner before older ones are acked", "leave allowOutOfOrderDelivery"
          + " at false unless per-key order does not matter"));
    }
    long queue = c.client() == LintClient.PULSAR_JAVA ? f.longValue("receiverQueueSize", -1) : -1;
    if (keyShared && queue > KEY_SHARED_RECEIVER_QUEUE_LIMIT) {
      out.add(new LintFinding(LintRule.RK008, Severity.WARNING, f, f.line("receiverQueueSize"),
          "receiverQueueSize=" + queue + " under Key_Shared: up to that many messages sit"
          + " prefetched in one consumer; when consumers change, the broker holds back their keys"
          + " for the new owner until they are acked", "receiverQueueSize at or below 1,000 (the"
          + " default) for Key_Shared; lower for slow consumers"));
    }
    if (needs.keyOrder()) {
      AutoCommit.check(c, out);
    }
  }

  /** The subscription type in Pulsar Java's words (Shared, Key_Shared, ...), or null. */
  static String subscriptionType(ConfigLint.Consumer c) {
    String v = c.file().get(subscriptionKey(c));
    if (v == null) {
      return null;
    }
    return switch (v) {
      case "KeyShared", "ConsumerKeyShared" -> "Key_Shared";
      case "ConsumerShared" -> "Shared";
      case "ConsumerFailover" -> "Failover";
      case "ConsumerExclusive" -> "Exclusive";
      default -> v;
    };
  }

  private static String subscriptionKey(ConfigLint.Consumer c) {
    return switch (c.client()) {
      case PULSAR_GO -> "Type";
      case PULSAR_CPP -> "consumerType";
      default -> "subscriptionType";
    };
  }
}
