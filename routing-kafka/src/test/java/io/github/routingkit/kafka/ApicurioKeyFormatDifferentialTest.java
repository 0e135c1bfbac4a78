package io.github.routingkit.kafka;

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
import io.github.routingkit.KeyFormat;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/**
 * {@code routing.key.format} against the real Apicurio Registry 2.6 Avro serializer
 * ({@code io.apicurio:apicurio-registry-serdes-avro-serde}, configured for a key), whose registry is
 * an in-memory {@link SchemaResolver} handing out fixed ids (no server). For each id layout the
 * serializer can write in the key bytes, the key format skips exactly the header (the rest is the
 * Avro encoding of the key, from Avro's own encoder), and {@link RoutingPartitioner} puts the same
 * key value on one partition under several ids, the partition of the payload alone:
 * <ul>
 *   <li>headers off, the default id handler: {@code 0x00} and the 8-byte global id, or the 8-byte
 *       content id with {@code apicurio.registry.use-id=contentId}: {@code apicurio-legacy};</li>
 *   <li>headers off, {@code apicurio.registry.as-confluent=true}: {@code 0x00} and a 4-byte id:
 *       {@code confluent};</li>
 *   <li>headers on (the serializer's default when the producer passes the record headers): the id
 *       goes to a Kafka header and the key bytes are the payload alone, so every key format hashes
 *       them whole, as raw does.</li>
 * </ul>
 * 2,000 key values, ids 1, 2 and 70,000 (beyond 16 bits), 24 partitions.
 */
class ApicurioKeyFormatDifferentialTest {
  static final int N = 24;
  static final int VALUES = 2_000;
  static final long[] IDS = {1, 2, 70_000};
  static final Schema SCHEMA = new Schema.Parser().parse("{\"type\":\"record\",\"name\":"
      + "\"CustomerKey\",\"namespace\":\"example\",\"fields\":[{\"name\":\"id\",\"type\":"
      + "\"string\"},{\"name\":\"region\",\"type\":\"int\"}]}");

  /** An in-memory registry: every lookup answers with the ids it was made with. */
  static final class FixedIds implements SchemaResolver<Schema, Object> {
    private final long globalId;
    private final long contentId;
    private SchemaParser<Schema, Object> parser;

    FixedIds(long globalId, long contentId) {
      this.globalId = globalId;
      this.contentId = contentId;
    }

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
      return SchemaLookupResult.<Schema>builder()
          .parsedSchema(new ParsedSchemaImpl<Schema>().setParsedSchema(SCHEMA)
              .setRawSchema(SCHEMA.toString().getBytes(StandardCharsets.UTF_8)))
          .globalId(globalId).contentId(contentId)
          .groupId("default").artifactId("customers-key").version("1").build();
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

  static GenericRecord key(int i) {
    GenericRecord r = new GenericData.Record(SCHEMA);
    r.put("id", "customer-" + i);
    r.put("region", i % 7);
    return r;
  }

  /** The key's Avro binary encoding, by Avro's own writer: what must be hashed. */
  static byte[] avro(GenericRecord r) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder e = EncoderFactory.get().binaryEncoder(out, null);
    new GenericDatumWriter<GenericRecord>(SCHEMA).write(r, e);
    e.flush();
    return out.toByteArray();
  }

  static AvroKafkaSerializer<Object> serializer(long id, Map<String, Object> config) {
    // the global id and the content id differ, so the test sees which one was written
    AvroKafkaSerializer<Object> s = new AvroKafkaSerializer<>(new FixedIds(id, id + 500_000));
    Map<String, Object> c = new HashMap<>(config);
    c.put("apicurio.registry.url", "http://127.0.0.1:1/unused"); // never called: ids are fixed
    s.configure(c, true);
    return s;
  }

  static RoutingPartitioner partitioner(KeyFormat format) {
    RoutingPartitioner p = new RoutingPartitioner();
    p.configure(Map.of("routing.key.format", format.id()));
    return p;
  }

  /**
   * Serializes every value under every id with {@code config}, checks the header layout and the
   * payload, and that {@code format} routes all ids of a value to the payload's raw partition.
   */
  static void check(Map<String, Object> config, boolean withHeaders, KeyFormat format,
      int headerBytes, boolean contentId) throws IOException {
    Cluster cluster = KeyFormatAdaptersTest.cluster("customers", N);
    RoutingPartitioner routed = partitioner(format);
    RoutingPartitioner raw = partitioner(KeyFormat.RAW);
    AvroKafkaSerializer<Object>[] serializers = new AvroKafkaSerializer[IDS.length];
    for (int j = 0; j < IDS.length; j++) {
      serializers[j] = serializer(IDS[j], config);
    }
    int[] spread = new int[N];
    for (int i = 0; i < VALUES; i++) {
      GenericRecord value = key(i);
      byte[] payload = avro(value);
      int expected = raw.partition("customers", null, payload, null, null, cluster);
      spread[expected]++;
      for (int j = 0; j < IDS.length; j++) {
        RecordHeaders headers = new RecordHeaders();
        byte[] bytes = withHeaders ? serializers[j].serialize("customers", headers, value)
            : serializers[j].serialize("customers", value);
        assertThat(bytes.length).isEqualTo(headerBytes + payload.length);
        assertThat(Arrays.copyOfRange(bytes, headerBytes, bytes.length)).isEqualTo(payload);
        if (headerBytes > 0) {
          long id = contentId ? IDS[j] + 500_000 : IDS[j];
          assertThat(format.schemaId(bytes, 0, bytes.length)).isEqualTo(id);
          assertThat(bytes[0]).isEqualTo(KeyFormat.MAGIC_BYTE);
        } else {
          assertThat(headers.toArray()).isNotEmpty(); // the id went to a Kafka header
          assertThat(format.hasValidHeader(bytes, 0, bytes.length)).isFalse();
        }
        assertThat(format.payloadStart(bytes, 0, bytes.length)).isEqualTo(headerBytes);
        assertThat(routed.partition("customers", null, bytes, null, null, cluster))
            .as("value %d under id %d", i, IDS[j]).isEqualTo(expected);
      }
    }
    assertThat(Arrays.stream(spread).min().getAsInt()).isPositive(); // payloads reach every partition
    for (AvroKafkaSerializer<Object> s : serializers) {
      s.close();
    }
  }

  @Test
  void defaultIdHandlerWritesTheGlobalIdInEightBytes() throws IOException {
    check(Map.of("apicurio.registry.headers.enabled", false), false, KeyFormat.APICURIO_LEGACY,
        9, false);
  }

  @Test
  void defaultIdHandlerWithContentIds() throws IOException {
    check(Map.of("apicurio.registry.headers.enabled", false, "apicurio.registry.use-id",
        "contentId"), false, KeyFormat.APICURIO_LEGACY, 9, true);
  }

  @Test
  void asConfluentWritesFourBytes() throws IOException {
    check(Map.of("apicurio.registry.headers.enabled", false, "apicurio.registry.as-confluent",
        true), false, KeyFormat.CONFLUENT, 5, false);
  }

  @Test
  void headersModeLeavesThePayloadAloneInTheKey() throws IOException {
    for (KeyFormat f : new KeyFormat[] {KeyFormat.RAW, KeyFormat.APICURIO_LEGACY,
        KeyFormat.CONFLUENT}) {
      check(Map.of(), true, f, 0, false);
    }
  }

  @Test
  void wholeKeyHashedMovesValuesAcrossIds() throws IOException {
    // without the key format, the id is hashed with the value: most values move
    Cluster cluster = KeyFormatAdaptersTest.cluster("customers", N);
    RoutingPartitioner raw = partitioner(KeyFormat.RAW);
    AvroKafkaSerializer<Object> one = serializer(1, Map.of("apicurio.registry.headers.enabled",
        false));
    AvroKafkaSerializer<Object> two = serializer(2, Map.of("apicurio.registry.headers.enabled",
        false));
    int moved = 0;
    for (int i = 0; i < VALUES; i++) {
      byte[] a = one.serialize("customers", key(i));
      byte[] b = two.serialize("customers", key(i));
      moved += raw.partition("customers", null, a, null, null, cluster)
          != raw.partition("customers", null, b, null, null, cluster) ? 1 : 0;
    }
    assertThat(moved).isGreaterThan(VALUES * 9 / 10); // about 23/24
    assertThat(ByteBuffer.wrap(one.serialize("customers", key(0)), 1, 8).getLong()).isEqualTo(1);
  }
}
