package io.github.routingkit.cli;

import io.github.routingkit.config.RoutingSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The clients whose configuration files {@code routing lint} reads, how it tells them apart, and
 * where each puts a keyed message ({@link #keyedRouting}). The Java clients' files hold their own
 * property names (kafka-clients config keys; Pulsar's {@code loadConf} keys) and librdkafka's its
 * own ({@code partitioner=murmur2_random}, as confluent-kafka-python, -go, -dotnet and node-rdkafka
 * pass them). Clients configured in code are written in a small {@code key=value} form named after
 * their own fields: Sarama {@code Producer.Partitioner=NewReferenceHashPartitioner}, KafkaJS
 * {@code createPartitioner=LegacyPartitioner} and {@code kafkajs.version=2.2.4}, kafka-go
 * {@code Balancer=CRC32Balancer}, Pulsar Go {@code HashingScheme=Murmur3_32Hash}, Pulsar C++ (and
 * the Python and Node.js clients on it) {@code hashingScheme=Murmur3_32Hash}. docs/cli.md lists
 * every key read.
 *
 * <p>Each partitioner setting maps to the {@code routing.scheme} that routes keys as that client
 * does; each mapping is one that routing-core's cross-client vectors prove against the real client
 * (librdkafka, Sarama, KafkaJS, kafka-go) or that the differential tests prove against the real
 * Java clients.
 */
enum LintClient {
  KAFKA_JAVA("kafka-java", "kafka", "kafka-clients (Java), Kafka Streams",
      Set.of("partitioner.class", "key.serializer", "value.serializer", "key.deserializer",
          "value.deserializer", "partition.assignment.strategy", "partitioner.ignore.keys",
          "partitioner.adaptive.partitioning.enable", "partitioner.availability.timeout.ms",
          "interceptor.classes", "group.protocol", "group.remote.assignor", "max.poll.records",
          "share.acknowledgement.mode"), "partitioner.class"),
  LIBRDKAFKA("librdkafka", "kafka", "librdkafka and the clients built on it (confluent-kafka-python,"
      + " confluent-kafka-go, confluent-kafka-dotnet, node-rdkafka)",
      Set.of("partitioner", "queue.buffering.max.ms", "queue.buffering.max.messages",
          "message.send.max.retries", "request.required.acks", "enable.auto.offset.store",
          "queued.min.messages", "socket.keepalive.enable", "sticky.partitioning.linger.ms",
          "max.in.flight", "topic.metadata.refresh.interval.ms", "enable.partition.eof"),
      "partitioner"),
  SARAMA("sarama", "kafka", "Sarama (Go): Config fields as Producer.Partitioner=...",
      Set.of("Producer.Partitioner", "Producer.Idempotent", "Producer.Retry.Max",
          "Producer.RequiredAcks", "Net.MaxOpenRequests", "Consumer.Offsets.AutoCommit.Enable"),
      "Producer.Partitioner"),
  KAFKAJS("kafkajs", "kafka", "KafkaJS (Node.js): producer options as createPartitioner=...",
      Set.of("createPartitioner", "kafkajs.version", "maxInFlightRequests", "idempotent",
          "retry.retries", "autoCommit"), "createPartitioner"),
  KAFKA_GO("kafka-go", "kafka", "kafka-go (Go): Writer fields as Balancer=...",
      Set.of("Balancer", "MaxAttempts"), "Balancer"),
  PULSAR_JAVA("pulsar-java", "pulsar", "pulsar-client (Java): ProducerBuilder/ConsumerBuilder"
      + " loadConf keys", Set.of("topicName", "topicNames", "producerName", "messageRoutingMode",
          "batchingEnabled", "subscriptionName", "subscriptionType", "receiverQueueSize",
          "serviceUrl", "enableTransaction", "blockIfQueueFull", "maxPendingMessages",
          "ackTimeoutMillis", "consumerName", "hashingScheme", "batcherBuilder"), "hashingScheme"),
  PULSAR_GO("pulsar-go", "pulsar", "pulsar-client-go: ProducerOptions fields as HashingScheme=...",
      Set.of("HashingScheme", "DisableBatching", "MessageRouter", "BatchingMaxPublishDelay",
          "SubscriptionName", "ReceiverQueueSize", "BatcherBuilderType"), "HashingScheme"),
  PULSAR_CPP("pulsar-client-cpp", "pulsar", "pulsar-client-cpp and the Python and Node.js clients"
      + " on it: ProducerConfiguration setters as hashingScheme=...",
      Set.of("partitionsRoutingMode", "consumerType", "boostVersion", "batchingType"),
      "hashingScheme");

  final String id;
  final String flavor;
  final String description;
  private final Set<String> ownKeys;
  /** The key that holds this client's partitioner choice. */
  final String partitionerKey;

  LintClient(String id, String flavor, String description, Set<String> ownKeys,
      String partitionerKey) {
    this.id = id;
    this.flavor = flavor;
    this.description = description;
    this.ownKeys = ownKeys;
    this.partitionerKey = partitionerKey;
  }

  static final String ROUTING_PARTITIONER = "io.github.routingkit.kafka.RoutingPartitioner";
  static final String ROUND_ROBIN_PARTITIONER =
      "org.apache.kafka.clients.producer.RoundRobinPartitioner";

  /** Returns the client with the given id, or null. */
  static LintClient byId(String id) {
    for (LintClient c : values()) {
      if (c.id.equals(id)) {
        return c;
      }
    }
    return null;
  }

  /** The ids, for messages: {@code kafka-java, librdkafka, ...}. */
  static String ids() {
    List<String> ids = new ArrayList<>();
    for (LintClient c : values()) {
      ids.add(c.id);
    }
    return String.join(", ", ids);
  }

  /**
   * The client that reads {@code f}: its {@code client=} directive, else the client one of whose
   * own keys it holds (the Java clients first: their files may hold any key), else by the flavour
   * ({@code kafka-java} or {@code pulsar-java}); null if nothing tells.
   *
   * @throws KeyInput.InputException for a directive naming no client
   */
  static LintClient of(LintFile f, String flavor) {
    if (f.clientDirective != null) {
      LintClient c = byId(f.clientDirective);
      if (c == null) {
        throw new KeyInput.InputException("cannot lint " + f.name + ": client '"
            + f.clientDirective + "' must be one of " + ids());
      }
      return c;
    }
    if ("BoostHash".equals(f.get("hashingScheme"))) {
      return PULSAR_CPP;
    }
    for (LintClient c : values()) {
      for (String k : f.keys()) {
        boolean sarama = c == SARAMA && (k.startsWith("Producer.") || k.startsWith("Consumer.")
            || k.startsWith("Net.") || k.startsWith("Metadata."));
        if (sarama || c.ownKeys.contains(k) && (c != PULSAR_JAVA
            || !f.has("partitionsRoutingMode"))) {
          return c;
        }
      }
    }
    if (flavor == null) {
      flavor = ConfigLint.flavorOfKeys(f);
    }
    return flavor == null ? null : flavor.equals("kafka") ? KAFKA_JAVA : PULSAR_JAVA;
  }

  /** The partitioner values this client takes, each to its scheme id (null: keys ignored). */
  Map<String, String> partitioners(LintFile f) {
    Map<String, String> m = new LinkedHashMap<>();
    switch (this) {
      case LIBRDKAFKA -> {
        m.put("consistent_random", "librdkafka-crc32");
        m.put("consistent", "librdkafka-crc32");
        m.put("murmur2_random", "kafka-murmur2");
        m.put("murmur2", "kafka-murmur2");
        m.put("fnv1a_random", "librdkafka-fnv1a");
        m.put("fnv1a", "librdkafka-fnv1a");
        m.put("random", null);
      }
      case SARAMA -> {
        m.put("NewHashPartitioner", "sarama-fnv1a");
        m.put("NewReferenceHashPartitioner", "sarama-fnv1a-reference");
        m.put("NewCustomPartitioner(WithAbsFirst())", "sarama-fnv1a-reference");
        m.put("NewRandomPartitioner", null);
        m.put("NewRoundRobinPartitioner", null);
      }
      case KAFKAJS -> {
        boolean v1 = kafkaJsMajor(f) < 2;
        m.put("DefaultPartitioner", v1 ? "kafkajs-legacy" : "kafka-murmur2");
        m.put("JavaCompatiblePartitioner", "kafka-murmur2");
        if (!v1) {
          m.put("LegacyPartitioner", "kafkajs-legacy");
        }
      }
      case KAFKA_GO -> {
        m.put("RoundRobin", null);
        m.put("Hash", "sarama-fnv1a");
        m.put("ReferenceHash", "sarama-fnv1a-reference");
        m.put("Murmur2Balancer", "kafka-murmur2");
        m.put("Murmur2Balancer{Consistent:true}", "kafka-murmur2");
        m.put("CRC32Balancer", "librdkafka-crc32");
        m.put("CRC32Balancer{Consistent:true}", "librdkafka-crc32");
        m.put("LeastBytes", null);
      }
      case PULSAR_JAVA -> {
        m.put("JavaStringHash", "pulsar-java-string");
        m.put("Murmur3_32Hash", "pulsar-murmur3");
      }
      case PULSAR_GO -> {
        m.put("JavaStringHash", "pulsar-go-java-string");
        m.put("Murmur3_32Hash", "pulsar-murmur3");
      }
      case PULSAR_CPP -> m.put("Murmur3_32Hash", "pulsar-murmur3");
      default -> { }
    }
    return m;
  }

  /** The value of {@link #partitionerKey} when it is not set. */
  String defaultPartitioner(LintFile f) {
    return switch (this) {
      case LIBRDKAFKA -> "consistent_random";
      case SARAMA -> "NewHashPartitioner";
      case KAFKAJS -> "DefaultPartitioner";
      case KAFKA_GO -> "RoundRobin";
      case PULSAR_JAVA, PULSAR_GO -> "JavaStringHash";
      case PULSAR_CPP -> "BoostHash";
      default -> null;
    };
  }

  /**
   * The scheme of pulsar-client-cpp's BoostHash for the Boost its build used ({@code boostVersion},
   * e.g. {@code 1.83}; 64-bit, signed {@code char}), or null if the value is not a Boost version.
   */
  static String boostScheme(String version) {
    String[] parts = version == null ? new String[0] : version.trim().split("\\.");
    if (parts.length < 2 || !parts[0].equals("1") || !parts[1].matches("[0-9]{1,3}")) {
      return null;
    }
    int minor = Integer.parseInt(parts[1]);
    return minor < 81 ? "pulsar-cpp-boost-pre-1.81" : minor == 81 ? "pulsar-cpp-boost-1.81"
        : "pulsar-cpp-boost-from-1.82";
  }

  /** The KafkaJS major version of {@code kafkajs.version} (2 when unset: the current one). */
  static int kafkaJsMajor(LintFile f) {
    String v = f.get("kafkajs.version");
    if (v == null) {
      return 2;
    }
    try {
      return Integer.parseInt(v.split("\\.")[0].replace("v", ""));
    } catch (NumberFormatException e) {
      throw new KeyInput.InputException(f.name + ":" + f.line("kafkajs.version")
          + ": kafkajs.version was '" + v + "', must be a version such as 2.2.4");
    }
  }

  /** Strips a Go or JavaScript package qualifier: {@code pulsar.Murmur3_32Hash}, {@code Partitioners.X}. */
  private static String unqualified(String v) {
    for (String q : List.of("Partitioners.", "pulsar.", "sarama.", "kafka.", "&kafka.")) {
      if (v.startsWith(q)) {
        return v.substring(q.length());
      }
    }
    return v;
  }

  /**
   * Where this producer puts a keyed message; {@code spec} is its parsed routing.* spec (null if
   * it does not parse), which RoutingKit's adapters route by. A partitioner value the client does
   * not take is a RK002 finding added to {@code out} (and an unknown routing).
   */
  KeyedRouting keyedRouting(LintFile f, RoutingSpec spec, List<LintFinding> out) {
    if (this == KAFKA_JAVA) {
      return kafkaJava(f, spec);
    }
    if (this == PULSAR_JAVA && ("CustomPartition".equals(f.get("messageRoutingMode"))
        || !f.keysStartingWith(RoutingSpec.PREFIX).isEmpty())) {
      String mode = f.get("messageRoutingMode");
      return routingSpec(f, PULSAR_JAVA, "messageRoutingMode", "messageRoutingMode="
          + (mode == null ? "(default) with routing.* keys" : mode), spec);
    }
    String raw = f.get(partitionerKey);
    String value = raw == null ? defaultPartitioner(f) : unqualified(raw);
    String setting = partitionerKey + "=" + value + (raw == null ? " (the default)" : "");
    int line = f.line(partitionerKey);
    Map<String, String> choices = partitioners(f);
    if (this == SARAMA && "NewManualPartitioner".equals(value)) {
      return KeyedRouting.unknown(f, this, setting, line, "the partition is chosen in code");
    }
    if (this == PULSAR_GO && f.has("MessageRouter")) {
      return KeyedRouting.unknown(f, this, "MessageRouter=" + f.get("MessageRouter"),
          f.line("MessageRouter"), "a custom MessageRouter chooses the partition");
    }
    if (this == PULSAR_CPP && "BoostHash".equals(value) && f.has("boostVersion")) {
      String scheme = boostScheme(f.get("boostVersion"));
      if (scheme != null) {
        return KeyedRouting.of(f, this, setting + " with boostVersion=" + f.get("boostVersion"),
            line, RoutingSpec.parse(Map.of(RoutingSpec.SCHEME, scheme)));
      }
    }
    if (this == PULSAR_CPP && ("BoostHash".equals(value) || "JavaStringHash".equals(value))) {
      return KeyedRouting.unknown(f, this, setting, line, value.equals("BoostHash")
          ? "BoostHash depends on the Boost the client was built with (give boostVersion, e.g."
              + " 1.83 for C++ 3.5+ / Python 3.6+ / Node.js 1.11+, 1.80 for older releases)"
          : "the C++ JavaStringHash hashes signed bytes, which no routing.scheme models");
    }
    if (!choices.containsKey(value)) {
      out.add(new LintFinding(LintRule.RK002, LintFinding.Severity.ERROR, f, line,
          partitionerKey + "=" + raw + " is not a partitioner " + description + " takes",
          "one of " + String.join(", ", choices.keySet())));
      return KeyedRouting.unknown(f, this, setting, line, "the partitioner is not known");
    }
    String scheme = choices.get(value);
    if (scheme == null) {
      return KeyedRouting.spread(f, this, setting, line, setting + " ignores the key");
    }
    return KeyedRouting.of(f, this, setting, line, RoutingSpec.parse(Map.of(RoutingSpec.SCHEME,
        scheme)));
  }

  private static KeyedRouting kafkaJava(LintFile f, RoutingSpec spec) {
    String pc = f.get("partitioner.class");
    int line = f.line("partitioner.class");
    if (pc == null) {
      if (f.bool("partitioner.ignore.keys", false)) {
        return KeyedRouting.spread(f, KAFKA_JAVA, "partitioner.ignore.keys=true",
            f.line("partitioner.ignore.keys"), "partitioner.ignore.keys=true spreads records of"
            + " one key over partitions like keyless ones");
      }
      return KeyedRouting.of(f, KAFKA_JAVA, "the built-in partitioner (no partitioner.class)", 0,
          RoutingSpec.defaults());
    }
    if (pc.equals(ROUTING_PARTITIONER)) {
      return routingSpec(f, KAFKA_JAVA, "partitioner.class", "partitioner.class=" + pc, spec);
    }
    if (pc.equals(ROUND_ROBIN_PARTITIONER)
        || pc.equals("org.apache.kafka.clients.producer.UniformStickyPartitioner")) {
      return KeyedRouting.spread(f, KAFKA_JAVA, "partitioner.class=" + pc, line,
          "partitioner.class=" + pc + " ignores the key");
    }
    if (pc.equals("org.apache.kafka.clients.producer.internals.DefaultPartitioner")) {
      return KeyedRouting.of(f, KAFKA_JAVA, "partitioner.class=" + pc, line,
          RoutingSpec.defaults());
    }
    return KeyedRouting.unknown(f, KAFKA_JAVA, "partitioner.class=" + pc, line,
        "a custom partitioner chooses the partition");
  }

  private static KeyedRouting routingSpec(LintFile f, LintClient client, String key,
      String setting, RoutingSpec spec) {
    List<String> keys = f.keysStartingWith(RoutingSpec.PREFIX);
    if (spec == null) {
      return KeyedRouting.unknown(f, client, setting, f.line(key), "its routing.* keys do not"
          + " parse");
    }
    if (keys.isEmpty() && client == PULSAR_JAVA) {
      return KeyedRouting.unknown(f, client, setting, f.line(key),
          "the custom router is set in code (no routing.* keys)");
    }
    return KeyedRouting.of(f, client, setting + (keys.isEmpty() ? "" : " with "
        + String.join(", ", keys)), f.line(key), spec);
  }

  /**
   * The setting of this client that routes keys as {@code target} does, e.g.
   * {@code partitioner=murmur2_random}, or null if it has none. With {@code adapters}, the Java
   * clients' RoutingKit adapters count too (any routing.* spec); else only the client's own
   * partitioner choices.
   */
  String agreeingSetting(LintFile f, RoutingSpec target, int[] counts, boolean adapters) {
    if (this == KAFKA_JAVA
        && RoutingAgreement.witness(RoutingSpec.defaults(), target, counts) == null) {
      return "no partitioner.class (the built-in partitioner)";
    }
    for (Map.Entry<String, String> e : partitioners(f).entrySet()) {
      if (e.getValue() != null && RoutingAgreement.witness(RoutingSpec.parse(
          Map.of(RoutingSpec.SCHEME, e.getValue())), target, counts) == null) {
        return partitionerKey + "=" + e.getKey();
      }
    }
    if (adapters && this == KAFKA_JAVA) {
      return "partitioner.class=" + ROUTING_PARTITIONER + " with " + specKeys(target);
    }
    if (adapters && this == PULSAR_JAVA) {
      return "messageRoutingMode=CustomPartition (RoutingMessageRouter) with " + specKeys(target);
    }
    return null;
  }

  /** The routing.* keys of a spec as one setting, without the keyless policy. */
  static String specKeys(RoutingSpec spec) {
    List<String> parts = new ArrayList<>();
    spec.toMap().forEach((k, v) -> {
      if (!k.equals(RoutingSpec.KEYLESS)) {
        parts.add(k + "=" + v);
      }
    });
    return String.join(", ", parts);
  }
}
