package io.github.routingkit.cli;

import io.github.routingkit.audit.AuditCause;
import java.util.ArrayList;
import java.util.List;

/**
 * The rules of {@code routing lint}, each with a stable id (users silence rules and gate CI on
 * them: an id is never reused or renumbered), a short name, the {@link AuditCause} whose
 * out-of-order pairs it predicts from configuration (null for a rule about a refused, inert or
 * stalling setting rather than lost order), and what it flags. docs/cli.md lists every rule and
 * maps every audit cause to its rules; a test keeps the two in step.
 *
 * <p>Adding a rule: append a constant with the next free id, write its check where its side is
 * checked ({@link ConfigLint}: routing specs and adapters; {@link OrderLint}: one producer's or
 * consumer's order settings; {@link FleetLint}: producers compared with each other), give it a real
 * config file under {@code routing-cli/src/test/resources/lint/} and a test, and a row in
 * docs/cli.md.
 */
enum LintRule {
  RK001("unknown-routing-key", null, "a routing.* key this version does not know (a typo is"
      + " silently ignored by the client)"),
  RK002("invalid-routing-spec", null, "the routing settings do not parse: the routing.* keys of a"
      + " producer (or of a consumer that routes by them), or a client's partitioner setting with a"
      + " value the client does not take"),
  RK003("partitioner-without-assignor-review", null, "the producer's partitioner is changed but"
      + " the consumer's assignment is not reviewed with it (Kafka: no RoutingKit assignor, or one"
      + " whose parsed routing spec routes keys differently, no routing.* keys meaning the default"
      + " spec; Pulsar: the consumer's parsed routing.* spec differs)"),
  RK004("key-order-shared-subscription", AuditCause.WRONG_SUBSCRIPTION_TYPE, "--require-key-order"
      + " (or --require-keyless-order) with a subscription that hands one key's messages to several"
      + " consumers at once: Pulsar Shared, a Kafka share group"),
  RK005("key-order-single-partition", AuditCause.KEYLESS_SEND, "--require-key-order with Pulsar"
      + " SinglePartition routing: keyless messages of each producer go to one random partition, so"
      + " order across producer instances depends on the instance"),
  RK006("key-order-keys-ignored", AuditCause.ROUTING_CHANGE, "--require-key-order with a"
      + " partitioner that ignores the key: Kafka partitioner.ignore.keys=true (built-in"
      + " partitioner), RoundRobinPartitioner, or another client's random or round-robin"
      + " partitioner"),
  RK007("key-shared-out-of-order", AuditCause.REDELIVERY, "Key_Shared with"
      + " allowOutOfOrderDelivery=true gives up per-key order when consumers join or leave"),
  RK008("key-shared-large-receiver-queue", null, "a receiverQueueSize above 1,000 under"
      + " Key_Shared: messages prefetched to one consumer hold back their keys when consumers"
      + " change"),
  RK009("block-small-queue", null, "blockIfQueueFull=true with maxPendingMessages below 1,000:"
      + " send() blocks after a handful of messages in flight, at every reconnect"),
  RK010("transactions-impure-router", AuditCause.ROUTING_CHANGE, "transactions with a router that"
      + " is not a pure function of the key (routing.keyless=random; hot keys with least-loaded"
      + " or round-robin choice): a retried transaction writes the same key elsewhere"),
  RK011("kafka-header-version-source", null, "a Kafka producer with RoutingPartitioner and"
      + " routing.version.source=header (or routing.canary.next.version.source=header), which"
      + " RoutingPartitioner refuses at startup: a Partitioner sees no record headers"),
  RK012("assignor-setting-wrong-protocol", null, "a Kafka consumer assignor setting its group"
      + " protocol does not use: routing.assignor.* keys with group.protocol=consumer (KIP-848:"
      + " the assignor runs on the broker), partition.assignment.strategy with"
      + " group.protocol=consumer (kafka-clients refuses it), routing.assignor.instance.weights"
      + " in a classic consumer (broker config only)"),
  RK013("producers-disagree", AuditCause.ROUTING_CHANGE, "two producers of one topic (any"
      + " clients) would put the same key on different partitions; the finding names a key that"
      + " proves it and the setting that makes them agree"),
  RK014("hot-key-scatter", AuditCause.ROUTING_CHANGE, "--require-key-order with hot keys"
      + " (routing.hotkey.keys or .detect) spread over several partitions"),
  RK015("retry-reorder", AuditCause.PRODUCER_RETRY, "--require-key-order with a Kafka producer"
      + " that retries with several requests in flight and without idempotence (in any client)"),
  RK016("keyless-spread", AuditCause.KEYLESS_SEND, "--require-keyless-order with a producer that"
      + " spreads keyless messages over partitions (Pulsar batching with round-robin routing, any"
      + " Kafka keyless policy but one partition per producer)"),
  RK017("key-moving-change", AuditCause.ROUTING_CHANGE, "--require-key-order with a change that"
      + " moves keys to other partitions (a partition-count change given with --partitions and"
      + " --grow-to, or a canary) and no switch markers (--switch-markers) or generation that keeps"
      + " them in place"),
  RK018("custom-partitioner-ignores-setting", null, "a Kafka producer with partitioner.class"
      + " and a built-in partitioner setting that kafka-clients then silently ignores"
      + " (partitioner.adaptive.partitioning.enable, partitioner.availability.timeout.ms,"
      + " partitioner.ignore.keys)"),
  RK019("auto-commit-redelivery", AuditCause.REDELIVERY, "--require-key-order with a Kafka"
      + " consumer that auto-commits in a group: a member that leaves without committing hands"
      + " its partitions over at an older offset and the new owner re-reads processed records"),
  RK020("schema-id-in-key", AuditCause.ROUTING_CHANGE, "a Kafka producer whose key.serializer is"
      + " a schema-registry serializer with auto-registration on and no routing.key.format: the"
      + " schema id is part of every key's bytes, so a new key schema version moves every key to"
      + " another partition"),
  RK021("key-shared-default-batching", AuditCause.REDELIVERY, "a Pulsar producer that batches"
      + " with the default batcher for a Key_Shared subscription: a batch goes to the consumer of"
      + " its first key, so a key's messages reach two consumers at once");

  /** The rule ids in one phrase, for help texts (a constant: annotations quote it; a test checks it). */
  static final String RANGE = "RK001-RK021";

  final String name;
  /** The audit cause this rule predicts, or null. */
  final AuditCause cause;
  final String description;

  LintRule(String name, AuditCause cause, String description) {
    this.name = name;
    this.cause = cause;
    this.description = description;
  }

  /** Returns the rule with the given id ({@code RK004}), or null. */
  static LintRule byId(String id) {
    for (LintRule r : values()) {
      if (r.name().equals(id)) {
        return r;
      }
    }
    return null;
  }

  /** Returns the rules that predict {@code cause}, in id order. */
  static List<LintRule> predicting(AuditCause cause) {
    List<LintRule> out = new ArrayList<>();
    for (LintRule r : values()) {
      if (r.cause == cause) {
        out.add(r);
      }
    }
    return out;
  }
}
