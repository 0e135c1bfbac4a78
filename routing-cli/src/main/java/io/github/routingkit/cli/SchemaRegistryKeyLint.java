package io.github.routingkit.cli;

import io.github.routingkit.KeyFormat;
import io.github.routingkit.cli.LintFinding.Severity;
import io.github.routingkit.config.RoutingSpec;
import java.util.List;
import java.util.Map;

/**
 * Lint rule RK020: a Kafka producer serializes its keys through a schema registry that registers
 * new schema versions by itself, and hashes them whole. The serializer writes the schema id into
 * every key, so the first compatible change of the key schema moves every key to another
 * partition; {@code routing.key.format} hashes the key without that header. Apicurio's serializers
 * with {@code apicurio.registry.headers.enabled=true} write the id to a record header instead.
 */
final class SchemaRegistryKeyLint {
  private SchemaRegistryKeyLint() {}

  /** A serializer family: its auto-registration key, that key's default, its key format. */
  record Serializer(String autoRegisterKey, boolean autoRegisterDefault, KeyFormat format) {}

  /**
   * The schema-registry key serializers by class name. Confluent's register new schemas by default
   * ({@code auto.register.schemas=true}); Apicurio's only with
   * {@code apicurio.registry.auto-register=true}. Apicurio 3's default ids are 4 bytes
   * ({@code confluent} layout); Apicurio 2 users need {@code apicurio-legacy}.
   */
  static final Map<String, Serializer> SERIALIZERS = Map.of(
      "io.confluent.kafka.serializers.KafkaAvroSerializer",
      new Serializer("auto.register.schemas", true, KeyFormat.CONFLUENT),
      "io.confluent.kafka.serializers.json.KafkaJsonSchemaSerializer",
      new Serializer("auto.register.schemas", true, KeyFormat.CONFLUENT),
      "io.confluent.kafka.serializers.protobuf.KafkaProtobufSerializer",
      new Serializer("auto.register.schemas", true, KeyFormat.CONFLUENT_PROTOBUF),
      "io.apicurio.registry.serde.avro.AvroKafkaSerializer",
      new Serializer("apicurio.registry.auto-register", false, KeyFormat.CONFLUENT),
      "io.apicurio.registry.serde.jsonschema.JsonSchemaKafkaSerializer",
      new Serializer("apicurio.registry.auto-register", false, KeyFormat.CONFLUENT),
      "io.apicurio.registry.serde.protobuf.ProtobufKafkaSerializer",
      new Serializer("apicurio.registry.auto-register", false, KeyFormat.APICURIO_PROTOBUF));

  /**
   * Apicurio's switch between the id in a Kafka record header (true: a producer passes the
   * record's headers to its serializers, so the key bytes are the payload alone) and the id in
   * front of the key bytes (false). Its default differs by release (true in Apicurio 2, false in
   * later 3.x releases), so only an explicit true clears the key.
   */
  static final String APICURIO_HEADERS = "apicurio.registry.headers.enabled";

  /** Checks one Kafka Java producer file; {@code spec} is its parsed routing spec, or null. */
  static void check(LintFile f, RoutingSpec spec, List<LintFinding> out) {
    String serializer = f.get("key.serializer");
    Serializer s = serializer == null ? null : SERIALIZERS.get(serializer);
    if (s == null) {
      return;
    }
    String auto = f.get(s.autoRegisterKey());
    boolean autoRegister = auto == null ? s.autoRegisterDefault() : "true".equalsIgnoreCase(auto);
    if (!autoRegister || spec != null && spec.keyFormat().hasHeader()) {
      return;
    }
    boolean apicurio = serializer.startsWith("io.apicurio.");
    String headers = apicurio ? f.get(APICURIO_HEADERS) : null;
    if ("true".equalsIgnoreCase(headers)) {
      return; // the id goes to a Kafka record header: the key bytes are the payload alone
    }
    boolean routing = LintClient.ROUTING_PARTITIONER.equals(f.get("partitioner.class"));
    out.add(new LintFinding(LintRule.RK020, Severity.WARNING, f, f.line("key.serializer"),
        "key.serializer=" + serializer
        + " with " + s.autoRegisterKey() + "=" + (auto == null ? s.autoRegisterDefault() + " (the"
        + " default)" : auto) + (!apicurio ? "" : headers != null ? " and " + APICURIO_HEADERS
        + "=" + headers : " and " + APICURIO_HEADERS + " not set (its default differs by"
        + " release: Apicurio 2 writes the id to a record header, later 3.x releases into the key)")
        + (apicurio && headers == null ? " can write" : " writes") + " the key schema's id into"
        + " every key, and the"
        + " partitioner hashes it: the next version of the key schema moves every key to another"
        + " partition", (routing ? "" : "partitioner.class=" + LintClient.ROUTING_PARTITIONER + " and ")
        + "routing.key.format=" + s.format().id() + (apicurio && s.format() == KeyFormat.CONFLUENT
        ? " (apicurio-legacy for Apicurio 2's 8-byte ids, without apicurio.registry.as-confluent)"
        : "") + " (hashes the key without its header; it"
        + " moves existing keys once: plan it with routing resize), " + (apicurio ? APICURIO_HEADERS
        + "=true (the id in a record header, the key bytes bare), " : "") + "or serialize keys"
        + " without the registry (e.g. StringSerializer)"));
  }
}
