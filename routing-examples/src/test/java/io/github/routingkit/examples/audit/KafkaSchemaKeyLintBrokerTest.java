package io.github.routingkit.examples.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.apicurio.registry.resolver.ParsedSchemaImpl;
import io.apicurio.registry.resolver.SchemaLookupResult;
import io.apicurio.registry.resolver.SchemaParser;
import io.apicurio.registry.resolver.SchemaResolver;
import io.apicurio.registry.resolver.data.Record;
import io.apicurio.registry.resolver.strategy.ArtifactReference;
import io.apicurio.registry.resolver.strategy.ArtifactReferenceResolverStrategy;
import io.apicurio.registry.rest.client.RegistryClient;
import io.apicurio.registry.serde.avro.AvroKafkaSerializer;
import io.github.routingkit.audit.AuditCause;
import io.github.routingkit.examples.audit.KafkaOrderingLintBrokerTest.Run;
import io.github.routingkit.audit.AuditRecorders;
import io.github.routingkit.audit.AuditReport;
import io.github.routingkit.audit.AuditStamp;
import io.github.routingkit.audit.InMemoryAuditRecorder;
import io.github.routingkit.kafka.RoutingPartitioner;
import io.github.routingkit.testbrokers.EmbeddedKafka;
import io.github.routingkit.testbrokers.WithEmbeddedKafka;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * RK020 provoked for real on an in-process Kafka 4.1 broker: a producer serializes its keys with
 * Apicurio Registry 2.6's Avro serializer ({@code AvroKafkaSerializer}, ids in the key bytes with
 * {@code apicurio.registry.headers.enabled=false} and {@code apicurio.registry.as-confluent=true}:
 * {@code 0x00} and a 4-byte id) and registers new key schemas itself
 * ({@code apicurio.registry.auto-register=true}). The registry is an in-memory schema resolver
 * that registers each new schema under the next id, as a registry does (no server). Halfway
 * through, the key schema gets a new version that changes only its documentation: the Avro
 * encoding of every key stays the same, but its id changes, and the built-in partitioner, which
 * hashes the whole key, moves the keys; a consumer behind on the lower partitions reads them out
 * of send order (ROUTING_CHANGE), which RK020 predicts. The control is RK020's fix,
 * RoutingPartitioner with {@code routing.key.format=confluent}: the keys stay, clean in both.
 */
@Tag("broker")
@WithEmbeddedKafka
class KafkaSchemaKeyLintBrokerTest {
  static final int KEYS = 60;
  static final int PARTITIONS = 6;
  static final Schema V1 = new Schema.Parser().parse("{\"type\":\"record\",\"name\":"
      + "\"CustomerKey\",\"namespace\":\"example\",\"fields\":[{\"name\":\"id\",\"type\":"
      + "\"string\"}]}");
  static final Schema V2 = new Schema.Parser().parse("{\"type\":\"record\",\"name\":"
      + "\"CustomerKey\",\"namespace\":\"example\",\"doc\":\"a customer's key\",\"fields\":"
      + "[{\"name\":\"id\",\"type\":\"string\",\"doc\":\"the customer id\"}]}");

  static EmbeddedKafka kafka;

  @BeforeAll
  static void broker(EmbeddedKafka broker) {
    kafka = broker; // started before the class's tests, closed after them
  }

  /** An in-memory registry that registers every new schema under the next id (from 1). */
  static final class AutoRegistering implements SchemaResolver<Schema, Object> {
    private final Map<String, Long> ids = new LinkedHashMap<>();
    private SchemaParser<Schema, Object> parser;

    @Override
    public void configure(Map<String, ?> configs, SchemaParser<Schema, Object> schemaParser) {
      this.parser = schemaParser;
    }

    @Override
    public void setClient(RegistryClient client) {
    }

    @Override
    public void setArtifactResolverStrategy(
        ArtifactReferenceResolverStrategy<Schema, Object> strategy) {
    }

    @Override
    public SchemaParser<Schema, Object> getSchemaParser() {
      return parser;
    }

    @Override
    public SchemaLookupResult<Schema> resolveSchema(Record<Object> data) {
      Schema schema = ((GenericRecord) data.payload()).getSchema();
      long id = ids.computeIfAbsent(schema.toString(), s -> (long) ids.size() + 1);
      return SchemaLookupResult.<Schema>builder()
          .parsedSchema(new ParsedSchemaImpl<Schema>().setParsedSchema(schema)
              .setRawSchema(schema.toString().getBytes(StandardCharsets.UTF_8)))
          .globalId(id).contentId(id).groupId("default").artifactId("customers-key")
          .version(Long.toString(id)).build();
    }

    @Override
    public SchemaLookupResult<Schema> resolveSchemaByArtifactReference(ArtifactReference ref) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void reset() {
    }

    @Override
    public void close() {
    }
  }

  @Test
  void aNewKeySchemaVersionIsRoutingChangeAndLintFlagsRk020() throws Exception {
    Run run = schemaRun("lint-schema-key", Map.of());
    assertThat(run.report().records()).isEqualTo(4 * KEYS);
    assertThat(run.report().pairs()).isPositive();
    assertThat(run.report().causesFound()).containsExactly(AuditCause.ROUTING_CHANGE);
    LintedConfigs.Lint lint =
        run.lintProducerAndConsumer("kafka-schema-key", "--require-key-order");
    assertThat(lint.errors()).isEmpty();
    assertThat(lint.warnings()).containsExactly("RK020");

    Run control = schemaRun("lint-schema-key-format", Map.of(
        ProducerConfig.PARTITIONER_CLASS_CONFIG, RoutingPartitioner.class.getName(),
        "routing.key.format", "confluent"));
    assertThat(control.report().records()).isEqualTo(4 * KEYS);
    assertThat(control.report().pairs()).isZero();
    assertThat(control.lintProducerAndConsumer("kafka-schema-key-format", "--require-key-order",
        "--strict").clean()).isTrue();
  }

  static GenericRecord customer(Schema schema, int k) {
    GenericRecord key = new GenericData.Record(schema);
    key.put("id", "customer-" + k);
    return key;
  }

  /**
   * 4 rounds of {@value #KEYS} keys, the first two under key schema V1, the last two under V2
   * (registered when first used), each record carrying its logical key for the audit; read
   * highest partition first.
   */
  private static Run schemaRun(String topic, Map<String, Object> routing) throws Exception {
    kafka.createTopic(topic, PARTITIONS);
    InMemoryAuditRecorder recorder = new InMemoryAuditRecorder();
    AuditRecorders.register(topic, recorder);
    Map<String, Object> extra = new LinkedHashMap<>(routing);
    extra.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, AvroKafkaSerializer.class.getName());
    extra.put("apicurio.registry.url", "http://127.0.0.1:1/apis/registry/v2"); // never called
    extra.put("apicurio.registry.auto-register", "true");
    extra.put("apicurio.registry.headers.enabled", "false");
    extra.put("apicurio.registry.as-confluent", "true");
    Map<String, Object> config = AuditedKafkaClients.producerConfig(kafka, topic + "-producer",
        extra);
    // the serializer kafka-clients would build from key.serializer, with the in-memory registry
    AvroKafkaSerializer<Object> keys = new AvroKafkaSerializer<>(new AutoRegistering());
    keys.configure(config, true);
    try (KafkaProducer<Object, String> producer = new KafkaProducer<>(config, keys,
        new StringSerializer())) {
      List<Future<?>> acks = new ArrayList<>();
      for (int round = 0; round < 4; round++) {
        for (int k = 0; k < KEYS; k++) {
          ProducerRecord<Object, String> r = new ProducerRecord<>(topic,
              customer(round < 2 ? V1 : V2, k), "r" + round);
          r.headers().add(AuditStamp.LOGICAL_KEY, ("customer-" + k)
              .getBytes(StandardCharsets.UTF_8));
          acks.add(producer.send(r));
        }
      }
      producer.flush();
      for (Future<?> ack : acks) {
        ack.get(60, TimeUnit.SECONDS);
      }
      // the two versions encode a key alike; only the id in front of it differs
      byte[] v1 = keys.serialize(topic, new RecordHeaders(), customer(V1, 0));
      byte[] v2 = keys.serialize(topic, new RecordHeaders(), customer(V2, 0));
      assertThat(ByteBuffer.wrap(v1, 1, 4).getInt()).isEqualTo(1);
      assertThat(ByteBuffer.wrap(v2, 1, 4).getInt()).isEqualTo(2);
      assertThat(Arrays.copyOfRange(v2, 5, v2.length)).isEqualTo(Arrays.copyOfRange(v1, 5,
          v1.length));
    }
    Map<String, Object> reader = AuditedKafkaClients.consumerConfig(kafka, "lagging", topic, null,
        Map.of());
    try (KafkaConsumer<String, String> c = new KafkaConsumer<>(reader)) {
      assertThat(KafkaOrderingAuditBrokerTest.drainHighestPartitionFirst(c, topic, PARTITIONS))
          .isEqualTo(4 * KEYS);
    }
    AuditReport report = OrderingAuditReports.all(recorder);
    KafkaOrderingAuditBrokerTest.print("key schema V1 then V2 (ids 1, 2), " + (routing.isEmpty()
        ? "the built-in partitioner" : "routing.key.format=confluent"), report);
    return new Run(report, List.of(config, reader));
  }
}
