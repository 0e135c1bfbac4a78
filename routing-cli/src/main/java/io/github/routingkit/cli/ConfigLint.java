package io.github.routingkit.cli;

import io.github.routingkit.config.RoutingProperty;
import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.cli.LintFinding.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The rules of {@code routing lint} ({@link LintRule}) run over real Kafka and Pulsar client
 * configuration files: any number of producer files of one topic (any client) and of consumer
 * files. This class reads the files' clients and routing specs and runs the spec and adapter rules
 * (RK001-RK003, RK010-RK012); {@link OrderLint} runs the per-file ordering rules, {@link FleetLint}
 * compares the producers with each other, {@link KeySharedBatching} a producer's batching with a
 * Key_Shared consumer (RK021). Pure: reads the files it is given, no I/O.
 *
 * <p>Pulsar keys are the names {@code ProducerBuilder#loadConf} / {@code ConsumerBuilder#loadConf}
 * take ({@code messageRoutingMode}, {@code subscriptionType}, {@code receiverQueueSize},
 * {@code blockIfQueueFull}, {@code maxPendingMessages}); the Key_Shared policy has no loadConf
 * key, so {@code allowOutOfOrderDelivery} (or {@code keySharedPolicy.allowOutOfOrderDelivery}) is
 * read as the application's own setting.
 */
final class ConfigLint {
  /** What the application declares it needs, and the change it plans (lint's options). */
  record Needs(boolean keyOrder, boolean keylessOrder, int partitions, int growTo,
      boolean switchMarkers) {
    /** The partition counts to compare routings at: the topic's, or a spread of counts. */
    int[] counts() {
      return partitions > 0 ? new int[] {partitions} : RoutingAgreement.COUNTS;
    }
  }

  /** One producer file with its client, its parsed routing.* spec and where it puts a key. */
  record Producer(LintFile file, LintClient client, RoutingSpec spec, KeyedRouting keyed) {}

  /** One consumer file with its client. */
  record Consumer(LintFile file, LintClient client) {}

  /**
   * A file linted, as what ({@code producer} or {@code consumer}), for which client, and (a
   * producer's) where it puts a keyed message.
   */
  record FileRole(LintFile file, String role, LintClient client, KeyedRouting keyed) {}

  /** What a lint found: the flavour, the files with their clients, the findings in rule order. */
  record Result(String flavor, List<FileRole> files, List<LintFinding> findings) {}

  /** The routing.assignor.* keys RoutingAssignorConfig takes (routing-kafka). */
  static final Set<String> ASSIGNOR_KEYS = Set.of("routing.assignor.weight",
      "routing.assignor.topic.weights", "routing.assignor.instance.weights",
      "routing.assignor.rebalance.protocol");

  /** The broker-side key among {@link #ASSIGNOR_KEYS} (RoutingGroupAssignor, broker config). */
  static final String INSTANCE_WEIGHTS = "routing.assignor.instance.weights";

  /** RoutingGroupAssignor's name, as KIP-848 consumers give it in group.remote.assignor. */
  static final String ROUTING_GROUP_ASSIGNOR_NAME = "routing";

  private ConfigLint() {}

  /** The flavour the keys of one file show: "kafka", "pulsar", or null if neither or both. */
  static String flavorOfKeys(LintFile f) {
    boolean kafka = false;
    boolean pulsar = false;
    for (String k : f.keys()) {
      if (k.equals("bootstrap.servers") || k.equals("partitioner.class") || k.equals("group.id")
          || k.equals("key.serializer") || k.equals("key.deserializer")
          || k.equals("partition.assignment.strategy") || k.equals("transactional.id")
          || k.equals("acks") || k.equals("enable.idempotence")) {
        kafka = true;
      }
      if (k.equals("serviceUrl") || k.equals("topicName") || k.equals("topicNames")
          || k.equals("subscriptionName") || k.equals("subscriptionType")
          || k.equals("messageRoutingMode") || k.equals("producerName")) {
        pulsar = true;
      }
    }
    return kafka == pulsar ? null : kafka ? "kafka" : "pulsar";
  }

  /**
   * Runs every rule over the producer and consumer files (either list may be empty, not both).
   *
   * @param flavor "kafka", "pulsar" or null (told by the files)
   * @throws KeyInput.InputException if a file's client cannot be told, or the files mix Kafka and
   *     Pulsar clients
   */
  static Result run(List<LintFile> producerFiles, List<LintFile> consumerFiles,
      String flavor, Needs needs) {
    String common = flavor;
    if (common == null) {
      for (LintFile f : concat(producerFiles, consumerFiles)) {
        LintClient c = f.clientDirective == null ? null : LintClient.byId(f.clientDirective);
        String fl = c != null ? c.flavor : flavorOfKeys(f);
        common = common == null ? fl : common;
      }
    }
    List<LintFinding> out = new ArrayList<>();
    List<Producer> producers = new ArrayList<>();
    List<Consumer> consumers = new ArrayList<>();
    List<FileRole> roles = new ArrayList<>();
    String seen = null;
    for (LintFile f : concat(producerFiles, consumerFiles)) {
      LintClient client = LintClient.of(f, common);
      if (client == null) {
        throw new KeyInput.InputException("cannot tell which client reads " + f.name + " from its"
            + " keys: give --flavor kafka or --flavor pulsar, or name the client in the file:"
            + " # routing-lint: client=<" + LintClient.ids() + ">");
      }
      if (seen != null && !seen.equals(client.flavor)) {
        throw new KeyInput.InputException(f.name + " configures a " + client.flavor + " client ("
            + client.id + ") but another file a " + seen + " one: lint the files of one topic");
      }
      seen = client.flavor;
      unknownKeys(f, out);
      if (producerFiles.contains(f)) {
        RoutingSpec spec = producerSpec(f, out);
        Producer p = new Producer(f, client, spec, client.keyedRouting(f, spec, out));
        producers.add(p);
        roles.add(new FileRole(f, "producer", client, p.keyed()));
      } else {
        consumers.add(new Consumer(f, client));
        roles.add(new FileRole(f, "consumer", client, null));
      }
    }
    for (Producer p : producers) {
      adapterRules(p, out);
      OrderLint.producer(p, needs, out);
    }
    for (Consumer c : consumers) {
      if (c.client == LintClient.KAFKA_JAVA) {
        assignorProtocol(c.file, out);
      }
      OrderLint.consumer(c, needs, out);
      for (Producer p : producers) {
        AssignmentReview.review(p, c, needs, out);
      }
    }
    KeySharedBatching.check(producers, consumers, needs, out);
    FleetLint.compare(producers, needs, out);
    List<LintFinding> sorted = new ArrayList<>(out);
    sorted.sort(java.util.Comparator.comparing(LintFinding::rule));
    return new Result(seen, roles, sorted);
  }

  private static List<LintFile> concat(List<LintFile> a, List<LintFile> b) {
    List<LintFile> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  /**
   * The producer's routing.* spec (the default spec without any); null, with a RK002 finding, if
   * its keys do not parse.
   */
  static RoutingSpec producerSpec(LintFile f, List<LintFinding> out) {
    Map<String, String> keys = routing(f);
    try {
      return RoutingSpec.parse(keys);
    } catch (RuntimeException e) {
      out.add(new LintFinding(LintRule.RK002, Severity.ERROR, f, firstLine(f, keys.keySet()),
          e.getMessage(), "correct the value (see docs/configuration.md)"));
      return null;
    }
  }

  static int firstLine(LintFile f, Set<String> keys) {
    int line = 0;
    for (String k : keys) {
      int l = f.line(k);
      line = line == 0 || (l > 0 && l < line) ? l : line;
    }
    return line;
  }

  /** RK010 and RK011: a spec the adapter refuses, or one a transaction cannot replay. */
  private static void adapterRules(Producer p, List<LintFinding> out) {
    LintFile f = p.file;
    boolean kafka = p.client.flavor.equals("kafka");
    String pc = f.get("partitioner.class");
    if (kafka && p.spec != null && LintClient.ROUTING_PARTITIONER.equals(pc)
        && p.spec.readsVersionFromHeader()) {
      String key = p.spec.versionFromHeaderProperty();
      out.add(new LintFinding(LintRule.RK011, Severity.ERROR, f, f.line(key), "partitioner.class="
          + pc + " with " + key + "=header: a Kafka Partitioner receives no record"
          + " headers, so RoutingPartitioner refuses the spec with a ConfigException when the"
          + " producer is created", "routing.version.source=key-prefix (the default) and carry"
          + " the generation in the key"));
    }
    boolean transactional = kafka ? f.get("transactional.id") != null
        : f.bool("enableTransaction", false);
    if (!transactional) {
      return;
    }
    if (p.spec == null) {
      return;
    }
    String impure = null;
    int line = 0;
    if (p.spec.keyless() == io.github.routingkit.KeylessPolicy.RANDOM) {
      impure = "routing.keyless=random";
      line = f.line(RoutingSpec.KEYLESS);
    }
    // the old spec's hot keys, and a canary's new spec's (routing.canary.next.hotkey.*)
    Map<String, String> hotKeys = p.spec.layerProperties(RoutingProperty.Layer.HOTKEY);
    for (String prefix : List.of("routing.", "routing.canary.next.")) {
      boolean hot = hotKeys.containsKey(prefix + "hotkey.keys")
          || "true".equals(hotKeys.get(prefix + "hotkey.detect"));
      String choice = hotKeys.getOrDefault(prefix + "hotkey.choice", "least-loaded");
      if (hot && !choice.equals("value-hash")) {
        impure = (impure == null ? "" : impure + " and ") + "hot keys with " + prefix
            + "hotkey.choice=" + choice;
        line = line == 0 ? f.line(prefix + "hotkey.choice", prefix + "hotkey.keys",
            prefix + "hotkey.detect") : line;
      }
    }
    if (impure != null) {
      out.add(new LintFinding(LintRule.RK010, Severity.ERROR, f, line, (kafka
          ? "transactional.id is set" : "enableTransaction=true") + " with " + impure
          + ", which is not a pure function of the key: a retried or replayed transaction"
          + " writes the same record to another partition", (kafka ? "routing.keyless="
          + "kafka-sticky (the Kafka adapter's default) or round-robin" : "routing.keyless="
          + "round-robin (the default)") + " instead of random, and routing.hotkey.choice="
          + "value-hash (or no hot-key layer) for transactional producers"));
    }
  }

  /** RK012: assignor settings the consumer's group protocol does not use (Kafka only). */
  private static void assignorProtocol(LintFile c, List<LintFinding> out) {
    boolean kip848 = "consumer".equalsIgnoreCase(c.get("group.protocol"));
    String strategy = c.get("partition.assignment.strategy");
    if (kip848 && strategy != null) {
      out.add(new LintFinding(LintRule.RK012, Severity.ERROR, c,
          c.line("partition.assignment.strategy"), "partition.assignment.strategy=" + strategy
          + " with group.protocol=consumer: kafka-clients refuses the consumer when it"
          + " is created (ConfigException: partition.assignment.strategy cannot be set when"
          + " group.protocol=CONSUMER); the assignment runs on the broker", "remove it; choose the"
          + " broker-side assignor with group.remote.assignor=routing"
          + " (io.github.routingkit.kafka.RoutingGroupAssignor in the brokers'"
          + " group.consumer.assignors), or keep group.protocol=classic"));
    }
    List<String> assignorKeys = new ArrayList<>();
    int line = 0;
    for (String k : new TreeSet<>(c.keys())) {
      if (ASSIGNOR_KEYS.contains(k) && (kip848 || k.equals(INSTANCE_WEIGHTS))) {
        assignorKeys.add(k + "=" + c.get(k));
        line = line == 0 ? c.line(k) : Math.min(line, c.line(k));
      }
    }
    if (assignorKeys.isEmpty()) {
      return;
    }
    if (kip848) {
      out.add(new LintFinding(LintRule.RK012, Severity.WARNING, c, line, String.join(", ",
          assignorKeys) + " with group.protocol=consumer: no RoutingKit assignor runs in a KIP-848"
          + " consumer (the assignment runs on the broker), so the setting does nothing",
          "remove it from the consumer; on the brokers, RoutingGroupAssignor weighs static members"
          + " with routing.assignor.instance.weights=<group.instance.id>:<weight> (per-topic"
          + " weights and the rebalance protocol have no KIP-848 counterpart)"));
    } else {
      boolean routingAssignor = strategy != null
          && strategy.contains("io.github.routingkit.kafka.RoutingAssignor");
      out.add(new LintFinding(LintRule.RK012, routingAssignor ? Severity.ERROR
          : Severity.WARNING, c, line, String.join(", ", assignorKeys) + " in a classic consumer:"
          + " it is a broker config key (RoutingGroupAssignor, group.protocol=consumer)"
          + (routingAssignor ? "; RoutingAssignor refuses it when the consumer is created"
          : ", it does nothing here"), "give each consumer its own routing.assignor.weight, or"
          + " move it to the brokers' config for a group.protocol=consumer group"));
    }
  }

  /** RK001: routing.* keys this version does not know, with the nearest known key. */
  private static void unknownKeys(LintFile f, List<LintFinding> out) {
    Set<String> known = new TreeSet<>(RoutingSpec.knownProperties());
    known.addAll(ASSIGNOR_KEYS);
    for (String k : new TreeSet<>(f.keys())) {
      if (k.startsWith(RoutingSpec.PREFIX) && !known.contains(k)) {
        String near = RoutingSpec.nearest(k, known);
        out.add(new LintFinding(LintRule.RK001, Severity.ERROR, f, f.line(k), "unknown key " + k,
            near != null ? "did you mean " + near + "?" : "remove it; known keys are listed"
            + " in docs/configuration.md"));
      }
    }
  }

  /** The file's known routing.* keys (routing.assignor.* aside), trimmed, sorted. */
  static Map<String, String> routing(LintFile f) {
    Map<String, String> m = new TreeMap<>();
    for (String k : f.keys()) {
      if (k.startsWith(RoutingSpec.PREFIX) && RoutingSpec.knownProperties().contains(k)) {
        m.put(k, f.get(k));
      }
    }
    return m;
  }
}
