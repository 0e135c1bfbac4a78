package io.github.routingkit.cli;

import io.github.routingkit.KeylessPolicy;
import io.github.routingkit.config.RoutingSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The rules of {@code routing lint}: known pitfalls in real Kafka and Pulsar client configuration
 * files, each with its fix. Pure: reads the properties it is given, no I/O.
 *
 * <p>Pulsar keys are the names {@code ProducerBuilder#loadConf} / {@code ConsumerBuilder#loadConf}
 * take ({@code messageRoutingMode}, {@code subscriptionType}, {@code receiverQueueSize},
 * {@code blockIfQueueFull}, {@code maxPendingMessages}); the Key_Shared policy has no loadConf
 * key, so {@code allowOutOfOrderDelivery} (or {@code keySharedPolicy.allowOutOfOrderDelivery}) is
 * read as the application's own setting.
 */
final class ConfigLint {
  /** How bad a finding is: an error fails the lint (exit 1), a warning only with --strict. */
  enum Severity { ERROR, WARNING }

  /** One rule: its id, short name and what it checks (docs/cli.md lists every one). */
  enum Rule {
    RK001("unknown-routing-key", "a routing.* key this version does not know (a typo is silently"
        + " ignored by the client)"),
    RK002("invalid-routing-spec", "the producer's routing.* keys (or those of a consumer that"
        + " routes by them) do not parse"),
    RK003("partitioner-without-assignor-review", "the producer's partitioner is changed but the"
        + " consumer's assignment is not reviewed with it (Kafka: no RoutingKit assignor, or one"
        + " whose parsed routing spec routes keys differently, no routing.* keys meaning the"
        + " default spec; Pulsar: the consumer's parsed routing.* spec differs)"),
    RK004("key-order-shared-subscription", "--require-key-order with a Pulsar Shared"
        + " subscription, which delivers one key to several consumers"),
    RK005("key-order-single-partition", "--require-key-order with Pulsar SinglePartition"
        + " routing: keyless messages of each producer go to one random partition, so order"
        + " across producer instances depends on the instance"),
    RK006("key-order-keys-ignored", "--require-key-order with a partitioner that ignores the"
        + " key: Kafka partitioner.ignore.keys=true or RoundRobinPartitioner"),
    RK007("key-shared-out-of-order", "Key_Shared with allowOutOfOrderDelivery=true gives up"
        + " per-key order when consumers join or leave"),
    RK008("key-shared-large-receiver-queue", "a receiverQueueSize above 1,000 under Key_Shared:"
        + " messages prefetched to one consumer hold back their keys when consumers change"),
    RK009("block-small-queue", "blockIfQueueFull=true with maxPendingMessages below 1,000: send()"
        + " blocks after a handful of messages in flight, at every reconnect"),
    RK010("transactions-impure-router", "transactions with a router that is not a pure function"
        + " of the key (routing.keyless=random; hot keys with least-loaded or round-robin"
        + " choice): a retried transaction writes the same key elsewhere"),
    RK011("kafka-header-version-source", "a Kafka producer with RoutingPartitioner and"
        + " routing.version.source=header (or routing.canary.next.version.source=header), which"
        + " RoutingPartitioner refuses at startup: a Partitioner sees no record headers"),
    RK012("assignor-setting-wrong-protocol", "a Kafka consumer assignor setting its group"
        + " protocol does not use: routing.assignor.* keys with group.protocol=consumer (KIP-848:"
        + " the assignor runs on the broker), partition.assignment.strategy with"
        + " group.protocol=consumer (kafka-clients refuses it), routing.assignor.instance.weights"
        + " in a classic consumer (broker config only)");

    final String name;
    final String description;

    Rule(String name, String description) {
      this.name = name;
      this.description = description;
    }
  }

  /** One finding: rule, severity, the file it is about, what was found and the fix. */
  record Finding(Rule rule, Severity severity, String file, String message, String fix) {
    String toLine() {
      return severity + " " + rule + " " + rule.name + " (" + file + "): " + message + "; fix: "
          + fix;
    }
  }

  /** The routing.assignor.* keys RoutingAssignorConfig takes (routing-kafka). */
  static final Set<String> ASSIGNOR_KEYS = Set.of("routing.assignor.weight",
      "routing.assignor.topic.weights", "routing.assignor.instance.weights",
      "routing.assignor.rebalance.protocol");

  /** The broker-side key among {@link #ASSIGNOR_KEYS} (RoutingGroupAssignor, broker config). */
  static final String INSTANCE_WEIGHTS = "routing.assignor.instance.weights";

  /** RoutingGroupAssignor's name, as KIP-848 consumers give it in group.remote.assignor. */
  static final String ROUTING_GROUP_ASSIGNOR_NAME = "routing";

  /** The Kafka adapter's partitioner class, as producers name it in partitioner.class. */
  static final String ROUTING_PARTITIONER = "io.github.routingkit.kafka.RoutingPartitioner";

  static final int KEY_SHARED_RECEIVER_QUEUE_LIMIT = 1000;
  static final int SMALL_PENDING_QUEUE = 1000;

  private ConfigLint() {}

  /**
   * Guesses the flavour from the keys: "kafka", "pulsar", or null if neither or both show.
   */
  static String detectFlavor(Properties producer, Properties consumer) {
    boolean kafka = false;
    boolean pulsar = false;
    for (Properties p : new Properties[] {producer, consumer}) {
      for (String k : p.stringPropertyNames()) {
        if (k.equals("bootstrap.servers") || k.equals("partitioner.class") || k.equals("group.id")
            || k.equals("key.serializer") || k.equals("key.deserializer")
            || k.equals("partition.assignment.strategy") || k.equals("transactional.id")) {
          kafka = true;
        }
        if (k.equals("serviceUrl") || k.equals("topicName") || k.equals("topicNames")
            || k.equals("subscriptionName") || k.equals("subscriptionType")
            || k.equals("messageRoutingMode") || k.equals("producerName")) {
          pulsar = true;
        }
      }
    }
    return kafka == pulsar ? null : kafka ? "kafka" : "pulsar";
  }

  /** Runs every rule. */
  static List<Finding> lint(Properties producer, String producerName, Properties consumer,
      String consumerName, String flavor, boolean requireKeyOrder) {
    List<Finding> out = new ArrayList<>();
    unknownKeys(producer, producerName, out);
    unknownKeys(consumer, consumerName, out);
    Map<String, String> producerRouting = routing(producer);
    RoutingSpec producerSpec = null;
    try {
      producerSpec = RoutingSpec.parse(producerRouting);
    } catch (RuntimeException e) {
      out.add(new Finding(Rule.RK002, Severity.ERROR, producerName, e.getMessage(),
          "correct the value (see docs/configuration.md)"));
    }
    boolean kafka = flavor.equals("kafka");
    String pc = get(producer, "partitioner.class");
    String mode = get(producer, "messageRoutingMode");
    // RK011: a spec RoutingPartitioner refuses at startup (it sees no record headers)
    if (kafka && producerSpec != null && ROUTING_PARTITIONER.equals(pc)
        && producerSpec.readsVersionFromHeader()) {
      List<String> header = new ArrayList<>();
      for (String key : List.of(RoutingSpec.VERSION_SOURCE,
          RoutingSpec.CANARY_NEXT_PREFIX + "version.source")) {
        if ("header".equals(producerRouting.get(key))) {
          header.add(key + "=header");
        }
      }
      out.add(new Finding(Rule.RK011, Severity.ERROR, producerName, "partitioner.class=" + pc
          + " with " + String.join(" and ", header) + ": a Kafka Partitioner receives no record"
          + " headers, so RoutingPartitioner refuses the spec with a ConfigException when the"
          + " producer is created", "routing.version.source=key-prefix (the default) and carry"
          + " the generation in the key"));
    }
    // RK003: a partitioner change without the consumer side reviewed
    boolean routesCustom = kafka ? pc != null : ("CustomPartition".equals(mode)
        || !producerRouting.isEmpty());
    Map<String, String> consumerRouting = routing(consumer);
    consumerRouting.keySet().removeIf(k -> k.startsWith(RoutingSpec.ASSIGNOR_PREFIX));
    // KIP-848 (group.protocol=consumer; kafka-clients reads the value case-insensitively): the
    // assignor runs on the broker, named by group.remote.assignor, and the client may not set
    // partition.assignment.strategy
    boolean kip848 = kafka && "consumer".equalsIgnoreCase(get(consumer, "group.protocol"));
    String strategy = get(consumer, "partition.assignment.strategy");
    String remote = get(consumer, "group.remote.assignor");
    if (kafka) {
      assignorProtocol(consumer, consumerName, kip848, strategy, out);
    }
    if (routesCustom) {
      boolean routingAssignor = kip848 ? ROUTING_GROUP_ASSIGNOR_NAME.equals(remote)
          : strategy != null && strategy.contains("io.github.routingkit.kafka");
      // the consumer's spec: its routing.* keys (a RoutingKit assignor without any runs the
      // default spec); null if they do not parse (RK002) or a Pulsar consumer has none; a KIP-848
      // consumer's assignor runs on the broker, so its routing.* keys count only if it has some
      RoutingSpec consumerSpec = null;
      if ((routingAssignor || !kafka)
          && ((kafka && !kip848) || !consumerRouting.isEmpty())) {
        try {
          consumerSpec = RoutingSpec.parse(consumerRouting);
        } catch (RuntimeException e) {
          out.add(new Finding(Rule.RK002, Severity.ERROR, consumerName, e.getMessage(),
              "correct the value (see docs/configuration.md)"));
        }
      }
      String what = kafka ? "partitioner.class=" + pc : "messageRoutingMode="
          + (mode == null ? "(default) with routing.* keys" : mode);
      if (kip848 && !routingAssignor) {
        out.add(new Finding(Rule.RK003, Severity.WARNING, consumerName, "the producer sets " + what
            + " but the consumer (group.protocol=consumer) leaves the assignment to the broker's "
            + (remote == null ? "default assignor (group.remote.assignor is not set: the first of"
            + " the brokers' group.consumer.assignors)" : "group.remote.assignor=" + remote)
            + ": keys that move partition move consumer, and a skewed partitioner overloads the"
            + " members that own the hot partitions", "review the assignment with the new"
            + " partitioner (e.g. group.remote.assignor=routing, with"
            + " io.github.routingkit.kafka.RoutingGroupAssignor in the brokers'"
            + " group.consumer.assignors; partition.assignment.strategy cannot be set with"
            + " group.protocol=consumer), and plan the cutover (routing resize --spec)"));
      } else if (kafka && !routingAssignor) {
        out.add(new Finding(Rule.RK003, Severity.WARNING, consumerName, "the producer sets " + what
            + " but the consumer's partition.assignment.strategy is "
            + (strategy == null ? "the default" : strategy) + ": keys that move partition move"
            + " consumer, and a skewed partitioner overloads the members that own the hot"
            + " partitions", "review the assignment with the new partitioner (e.g."
            + " partition.assignment.strategy=io.github.routingkit.kafka.RoutingAssignor with the"
            + " same routing.* keys), and plan the cutover (routing resize --spec)"));
      } else if (consumerSpec != null && producerSpec != null
          && !sameKeyedRouting(producerSpec, consumerSpec)) {
        out.add(new Finding(Rule.RK003, Severity.ERROR, consumerName, "the consumer's routing"
            + " spec " + describe(consumerRouting, consumerSpec) + " differs from the producer's "
            + describe(producerRouting, producerSpec), "give both the same routing.* keys (one"
            + " shared file)"));
      } else if (!kafka && consumerRouting.isEmpty()) {
        out.add(new Finding(Rule.RK003, Severity.WARNING, consumerName, "the producer sets "
            + what + " but the consumer config has no routing.* keys: its Key_Shared ranges or"
            + " partition-per-consumer layout was not reviewed with the new router",
            "check the consumer side with the same spec (KeySharedPredictor, routing resize"
            + " --spec) before the cutover"));
      }
    }
    String sub = get(consumer, "subscriptionType");
    boolean keyShared = "Key_Shared".equals(sub);
    if (requireKeyOrder) {
      if (!kafka && "Shared".equals(sub)) {
        out.add(new Finding(Rule.RK004, Severity.ERROR, consumerName, "subscriptionType=Shared"
            + " delivers messages of one key to several consumers, in no order",
            "subscriptionType=Key_Shared (or Failover / Exclusive per partition)"));
      }
      if (!kafka && "SinglePartition".equals(mode)) {
        out.add(new Finding(Rule.RK005, Severity.WARNING, producerName,
            "messageRoutingMode=SinglePartition sends each producer instance's keyless messages"
                + " to one random partition; only messages with a key are hashed",
            "set the ordering key as the message key (and messageRoutingMode=CustomPartition"
                + " with RoutingMessageRouter, or RoundRobinPartition)"));
      }
      if (kafka && ("true".equalsIgnoreCase(get(producer, "partitioner.ignore.keys"))
          || "org.apache.kafka.clients.producer.RoundRobinPartitioner".equals(pc))) {
        out.add(new Finding(Rule.RK006, Severity.ERROR, producerName, pc != null
            && pc.endsWith("RoundRobinPartitioner") ? "partitioner.class=" + pc + " ignores the"
            + " key" : "partitioner.ignore.keys=true spreads records of one key over partitions",
            "remove it: keyed records then go by murmur2 of the key (or set RoutingPartitioner)"));
      }
    }
    String ooo = get(consumer, "allowOutOfOrderDelivery");
    if (ooo == null) {
      ooo = get(consumer, "keySharedPolicy.allowOutOfOrderDelivery");
    }
    if (keyShared && "true".equalsIgnoreCase(ooo)) {
      out.add(new Finding(Rule.RK007, requireKeyOrder ? Severity.ERROR : Severity.WARNING,
          consumerName, "Key_Shared with allowOutOfOrderDelivery=true: when a consumer joins or"
          + " leaves, messages of a key can arrive at the new owner before older ones are acked",
          "leave allowOutOfOrderDelivery at false unless per-key order does not matter"));
    }
    Long queue = number(consumer, "receiverQueueSize", consumerName);
    if (keyShared && queue != null && queue > KEY_SHARED_RECEIVER_QUEUE_LIMIT) {
      out.add(new Finding(Rule.RK008, Severity.WARNING, consumerName, "receiverQueueSize="
          + queue + " under Key_Shared: up to that many messages sit prefetched in one consumer;"
          + " when consumers change, the broker holds back their keys for the new owner until"
          + " they are acked", "receiverQueueSize at or below 1,000 (the default) for"
          + " Key_Shared; lower for slow consumers"));
    }
    Long pending = number(producer, "maxPendingMessages", producerName);
    if ("true".equalsIgnoreCase(get(producer, "blockIfQueueFull")) && pending != null
        && pending > 0 && pending < SMALL_PENDING_QUEUE) {
      out.add(new Finding(Rule.RK009, Severity.WARNING, producerName, "blockIfQueueFull=true with"
          + " maxPendingMessages=" + pending + ": send() blocks once " + pending + " messages"
          + " are in flight, every reconnect or bundle move stalls the caller",
          "maxPendingMessages >= peak rate x reconnect window (routing plan --message-bytes"
          + " sizes it), or 0 to bound by memoryLimitBytes only"));
    }
    boolean transactional = kafka ? get(producer, "transactional.id") != null
        : "true".equalsIgnoreCase(get(producer, "enableTransaction"));
    if (transactional) {
      String impure = null;
      if ("random".equals(producerRouting.get("routing.keyless"))) {
        impure = "routing.keyless=random";
      }
      // the old spec's hot keys, and a canary's new spec's (routing.canary.next.hotkey.*)
      for (String prefix : List.of("routing.", "routing.canary.next.")) {
        boolean hot = producerRouting.containsKey(prefix + "hotkey.keys")
            || "true".equalsIgnoreCase(producerRouting.get(prefix + "hotkey.detect"));
        String choice = producerRouting.getOrDefault(prefix + "hotkey.choice", "least-loaded");
        if (hot && !choice.equals("value-hash")) {
          impure = (impure == null ? "" : impure + " and ") + "hot keys with " + prefix
              + "hotkey.choice=" + choice;
        }
      }
      if (impure != null) {
        out.add(new Finding(Rule.RK010, Severity.ERROR, producerName, (kafka
            ? "transactional.id is set" : "enableTransaction=true") + " with " + impure
            + ", which is not a pure function of the key: a retried or replayed transaction"
            + " writes the same record to another partition", (kafka ? "routing.keyless="
            + "kafka-sticky (the Kafka adapter's default) or round-robin" : "routing.keyless="
            + "round-robin (the default)") + " instead of random, and routing.hotkey.choice="
            + "value-hash (or no hot-key layer) for transactional producers"));
      }
    }
    return out;
  }

  /** RK012: assignor settings the consumer's group protocol does not use (Kafka only). */
  private static void assignorProtocol(Properties consumer, String consumerName, boolean kip848,
      String strategy, List<Finding> out) {
    if (kip848 && strategy != null) {
      out.add(new Finding(Rule.RK012, Severity.ERROR, consumerName, "partition.assignment.strategy="
          + strategy + " with group.protocol=consumer: kafka-clients refuses the consumer when it"
          + " is created (ConfigException: partition.assignment.strategy cannot be set when"
          + " group.protocol=CONSUMER); the assignment runs on the broker", "remove it; choose the"
          + " broker-side assignor with group.remote.assignor=routing"
          + " (io.github.routingkit.kafka.RoutingGroupAssignor in the brokers'"
          + " group.consumer.assignors), or keep group.protocol=classic"));
    }
    List<String> assignorKeys = new ArrayList<>();
    for (String k : new TreeSet<>(consumer.stringPropertyNames())) {
      if (ASSIGNOR_KEYS.contains(k) && (kip848 || k.equals(INSTANCE_WEIGHTS))) {
        assignorKeys.add(k + "=" + get(consumer, k));
      }
    }
    if (assignorKeys.isEmpty()) {
      return;
    }
    if (kip848) {
      out.add(new Finding(Rule.RK012, Severity.WARNING, consumerName, String.join(", ",
          assignorKeys) + " with group.protocol=consumer: no RoutingKit assignor runs in a KIP-848"
          + " consumer (the assignment runs on the broker), so the setting does nothing",
          "remove it from the consumer; on the brokers, RoutingGroupAssignor weighs static members"
          + " with routing.assignor.instance.weights=<group.instance.id>:<weight> (per-topic"
          + " weights and the rebalance protocol have no KIP-848 counterpart)"));
    } else {
      boolean routingAssignor = strategy != null
          && strategy.contains("io.github.routingkit.kafka.RoutingAssignor");
      out.add(new Finding(Rule.RK012, routingAssignor ? Severity.ERROR : Severity.WARNING,
          consumerName, String.join(", ", assignorKeys) + " in a classic consumer: it is a broker"
          + " config key (RoutingGroupAssignor, group.protocol=consumer)" + (routingAssignor
          ? "; RoutingAssignor refuses it when the consumer is created" : ", it does nothing here"),
          "give each consumer its own routing.assignor.weight, or move it to the brokers' config"
          + " for a group.protocol=consumer group"));
    }
  }

  /**
   * Whether two specs route every key alike: equal once the keyless policy is set aside (keyless
   * records have no key to assign by, and a consumer's routing.keyless is never used).
   */
  static boolean sameKeyedRouting(RoutingSpec a, RoutingSpec b) {
    return a.withKeyless(KeylessPolicy.ROUND_ROBIN).equals(b.withKeyless(KeylessPolicy.ROUND_ROBIN));
  }

  /** The keys as written, then the spec they parse to (without routing.keyless). */
  private static String describe(Map<String, String> keys, RoutingSpec spec) {
    StringBuilder parsed = new StringBuilder();
    for (Map.Entry<String, String> e : spec.toMap().entrySet()) {
      if (!e.getKey().equals(RoutingSpec.KEYLESS)) {
        parsed.append(parsed.length() == 0 ? "" : ", ").append(e.getKey()).append('=')
            .append(e.getValue());
      }
    }
    return (keys.isEmpty() ? "(no routing.* keys: the default)" : keys.toString())
        + " = {" + parsed + "}";
  }

  private static void unknownKeys(Properties p, String file, List<Finding> out) {
    Set<String> known = new TreeSet<>(RoutingSpec.knownProperties());
    known.addAll(ASSIGNOR_KEYS);
    for (String k : new TreeSet<>(p.stringPropertyNames())) {
      if (k.startsWith("routing.") && !known.contains(k)) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String c : known) {
          int d = distance(k, c);
          if (d < bestDistance) {
            bestDistance = d;
            best = c;
          }
        }
        out.add(new Finding(Rule.RK001, Severity.ERROR, file, "unknown key " + k,
            bestDistance <= 3 ? "did you mean " + best + "?" : "remove it; known keys are listed"
            + " in docs/configuration.md"));
      }
    }
  }

  private static Map<String, String> routing(Properties p) {
    Map<String, String> m = new TreeMap<>();
    for (String k : p.stringPropertyNames()) {
      if (k.startsWith("routing.") && RoutingSpec.knownProperties().contains(k)) {
        m.put(k, p.getProperty(k).trim());
      }
    }
    return m;
  }

  private static String get(Properties p, String key) {
    String v = p.getProperty(key);
    return v == null ? null : v.trim();
  }

  private static Long number(Properties p, String key, String file) {
    String v = get(p, key);
    if (v == null) {
      return null;
    }
    try {
      return Long.parseLong(v.replace("_", ""));
    } catch (NumberFormatException e) {
      throw new KeyInput.InputException(file + ": " + key + " was '" + v + "', must be an integer");
    }
  }

  /** Levenshtein distance, for "did you mean". */
  static int distance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }
}
