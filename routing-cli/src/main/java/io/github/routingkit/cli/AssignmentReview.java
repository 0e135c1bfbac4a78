package io.github.routingkit.cli;

import io.github.routingkit.cli.LintFinding.Severity;
import io.github.routingkit.config.RoutingSpec;
import java.util.List;
import java.util.Map;

/**
 * RK003: a producer whose partitioner changed, and a consumer whose assignment was not reviewed
 * with it. The consumer's spec is compared with the producer's by what they route
 * ({@link RoutingAgreement}): an error names a key the two place differently. A Kafka consumer
 * without {@code group.id} takes its partitions with {@code assign()}, runs no assignor and is
 * not reviewed.
 */
final class AssignmentReview {
  private AssignmentReview() {}

  static void review(ConfigLint.Producer p, ConfigLint.Consumer c, ConfigLint.Needs needs,
      List<LintFinding> out) {
    LintFile producer = p.file();
    LintFile consumer = c.file();
    boolean kafka = p.client().flavor.equals("kafka");
    if (kafka ? p.client() != LintClient.KAFKA_JAVA || c.client() != LintClient.KAFKA_JAVA
        : p.client() != LintClient.PULSAR_JAVA || c.client() != LintClient.PULSAR_JAVA) {
      return; // a RoutingKit partitioner and assignor run in the Java clients only
    }
    if (kafka && consumer.get("group.id") == null) {
      return; // no group (partitions taken with assign()): no assignor runs, nothing to review
    }
    Map<String, String> producerRouting = ConfigLint.routing(producer);
    String pc = producer.get("partitioner.class");
    String mode = producer.get("messageRoutingMode");
    boolean routesCustom = kafka ? pc != null : ("CustomPartition".equals(mode)
        || !producerRouting.isEmpty());
    if (!routesCustom) {
      return;
    }
    // a RoutingPartitioner that places keys as the built-in one moves no key: nothing to review
    boolean builtInPlacement = kafka && p.spec() != null
        && RoutingAgreement.witness(RoutingSpec.defaults(), p.spec(), needs.counts()) == null;
    Map<String, String> consumerRouting = ConfigLint.routing(consumer);
    consumerRouting.keySet().removeIf(k -> k.startsWith(RoutingSpec.ASSIGNOR_PREFIX));
    // KIP-848 (group.protocol=consumer; kafka-clients reads the value case-insensitively): the
    // assignor runs on the broker, named by group.remote.assignor, and the client may not set
    // partition.assignment.strategy
    boolean kip848 = kafka && "consumer".equalsIgnoreCase(consumer.get("group.protocol"));
    String strategy = consumer.get("partition.assignment.strategy");
    String remote = consumer.get("group.remote.assignor");
    boolean routingAssignor = kip848 ? ConfigLint.ROUTING_GROUP_ASSIGNOR_NAME.equals(remote)
        : strategy != null && strategy.contains("io.github.routingkit.kafka");
    // the consumer's spec: its routing.* keys (a RoutingKit assignor without any runs the
    // default spec); null if they do not parse (RK002) or a Pulsar consumer has none; a KIP-848
    // consumer's assignor runs on the broker, so its routing.* keys count only if it has some
    RoutingSpec consumerSpec = null;
    if ((routingAssignor || !kafka) && ((kafka && !kip848) || !consumerRouting.isEmpty())) {
      try {
        consumerSpec = RoutingSpec.parse(consumerRouting);
      } catch (RuntimeException e) {
        out.add(new LintFinding(LintRule.RK002, Severity.ERROR, consumer,
            ConfigLint.firstLine(consumer, consumerRouting.keySet()), e.getMessage(),
            "correct the value (see docs/configuration.md)"));
      }
    }
    String what = kafka ? "partitioner.class=" + pc : "messageRoutingMode="
        + (mode == null ? "(default) with routing.* keys" : mode);
    int line = kafka ? consumer.line("partition.assignment.strategy", "group.remote.assignor",
        "group.protocol") : consumer.line("subscriptionType");
    if (kip848 && !routingAssignor) {
      if (builtInPlacement) {
        return;
      }
      out.add(new LintFinding(LintRule.RK003, Severity.WARNING, consumer, line, "the producer sets "
          + what + " but the consumer (group.protocol=consumer) leaves the assignment to the"
          + " broker's " + (remote == null ? "default assignor (group.remote.assignor is not set:"
          + " the first of the brokers' group.consumer.assignors)" : "group.remote.assignor="
          + remote) + ": keys that move partition move consumer, and a skewed partitioner"
          + " overloads the members that own the hot partitions", "review the assignment with the"
          + " new partitioner (e.g. group.remote.assignor=routing, with"
          + " io.github.routingkit.kafka.RoutingGroupAssignor in the brokers'"
          + " group.consumer.assignors; partition.assignment.strategy cannot be set with"
          + " group.protocol=consumer), and plan the cutover (routing resize --spec)"));
      return;
    }
    if (kafka && !routingAssignor) {
      if (builtInPlacement) {
        return;
      }
      out.add(new LintFinding(LintRule.RK003, Severity.WARNING, consumer, line, "the producer sets "
          + what + " but the consumer's partition.assignment.strategy is "
          + (strategy == null ? "the default" : strategy) + ": keys that move partition move"
          + " consumer, and a skewed partitioner overloads the members that own the hot"
          + " partitions", "review the assignment with the new partitioner (e.g."
          + " partition.assignment.strategy=io.github.routingkit.kafka.RoutingAssignor with the"
          + " same routing.* keys), and plan the cutover (routing resize --spec)"));
      return;
    }
    if (consumerSpec != null && p.spec() != null) {
      RoutingAgreement.Witness w = RoutingAgreement.witness(p.spec(), consumerSpec,
          needs.counts());
      if (w != null) {
        out.add(new LintFinding(LintRule.RK003, Severity.ERROR, consumer,
            ConfigLint.firstLine(consumer, consumerRouting.keySet()) > 0
                ? ConfigLint.firstLine(consumer, consumerRouting.keySet()) : line,
            "the consumer's routing spec " + describe(consumerRouting, consumerSpec)
            + " differs from the producer's " + describe(producerRouting, p.spec()) + " ("
            + producer.name + "): " + w.describe("producer", "consumer"),
            "give both the same routing.* keys (one shared file)"));
      }
      return;
    }
    if (!kafka && consumerRouting.isEmpty()) {
      out.add(new LintFinding(LintRule.RK003, Severity.WARNING, consumer, line, "the producer sets "
          + what + " but the consumer config has no routing.* keys: its Key_Shared ranges or"
          + " partition-per-consumer layout was not reviewed with the new router",
          "check the consumer side with the same spec (KeySharedPredictor, routing resize"
          + " --spec) before the cutover"));
    }
  }

  /** The keys as written, then the spec they parse to (without routing.keyless). */
  private static String describe(Map<String, String> keys, RoutingSpec spec) {
    return (keys.isEmpty() ? "(no routing.* keys: the default)" : keys.toString())
        + " = {" + LintClient.specKeys(spec) + "}";
  }
}
