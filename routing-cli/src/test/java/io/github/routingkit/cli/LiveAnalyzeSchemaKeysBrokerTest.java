package io.github.routingkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.routingkit.cli.CliRun.Result;
import io.github.routingkit.kafka.RoutingPartitioner;
import io.github.routingkit.testbrokers.EmbeddedKafka;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code routing analyze --bootstrap-server} on real in-process Kafka topics whose keys a
 * schema-registry serializer framed: the same 300 key values under three schema ids in the
 * Confluent wire format (magic byte {@code 0}, the 4-byte id, an Avro string), and under two ids
 * with Protobuf message indexes ({@code [1]}, then the message). Written by the default partitioner
 * (the whole key hashed), the values sit on several partitions, and analyze reports the ids and
 * exactly as many moved values as kafka-clients' own murmur2 places on different partitions; written
 * through {@link RoutingPartitioner} with {@code routing.key.format}, it reports every value on one
 * partition and a router check of 100 % with the same key format.
 */
@Tag("broker")
class LiveAnalyzeSchemaKeysBrokerTest {
  static final int PARTITIONS = 6;
  static final int VALUES = 300;
  static final int[] AVRO_IDS = {1, 2, 3};
  static final int[] PROTOBUF_IDS = {101, 102};
  static EmbeddedKafka kafka;
  static Admin admin;
  static final ObjectMapper JSON = new ObjectMapper();

  /** An Avro string: zig-zag varint length, then the UTF-8 bytes (lengths below 64 here). */
  static byte[] avroString(String s) {
    byte[] text = s.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(1 + text.length).put((byte) (text.length << 1)).put(text).array();
  }

  /** Confluent Avro / JSON Schema framing: 0x00, the big-endian id, the payload. */
  static byte[] confluent(int id, byte[] payload) {
    return ByteBuffer.allocate(5 + payload.length).put((byte) 0).putInt(id).put(payload).array();
  }

  /**
   * Confluent Protobuf framing for the second message of the file ({@code [1]}): 0x00, the id, the
   * zig-zag varint count 1 ({@code 0x02}) and index 1 ({@code 0x02}), then a message whose field 1
   * is the string ({@code 0x0a}, length, bytes).
   */
  static byte[] confluentProtobuf(int id, String value) {
    byte[] text = value.getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(ByteBuffer.allocate(5).put((byte) 0).putInt(id).array());
    out.write(0x02);
    out.write(0x02);
    out.write(0x0a);
    out.write(text.length);
    out.writeBytes(text);
    return out.toByteArray();
  }

  static String value(int i) {
    return "customer-" + i;
  }

  @BeforeAll
  static void start() throws Exception {
    kafka = EmbeddedKafka.start();
    admin = kafka.admin();
    for (String t : new String[] {"avro-plain", "avro-stable", "protobuf-plain",
        "protobuf-stable"}) {
      kafka.createTopic(t, PARTITIONS);
    }
    try (KafkaProducer<byte[], byte[]> plain = producer(null);
        KafkaProducer<byte[], byte[]> avroStable = producer("confluent");
        KafkaProducer<byte[], byte[]> protobufStable = producer("confluent-protobuf")) {
      for (int i = 0; i < VALUES; i++) {
        for (int id : AVRO_IDS) {
          byte[] key = confluent(id, avroString(value(i)));
          plain.send(new ProducerRecord<>("avro-plain", key, new byte[4]));
          avroStable.send(new ProducerRecord<>("avro-stable", key, new byte[4]));
        }
        for (int id : PROTOBUF_IDS) {
          byte[] key = confluentProtobuf(id, value(i));
          plain.send(new ProducerRecord<>("protobuf-plain", key, new byte[4]));
          protobufStable.send(new ProducerRecord<>("protobuf-stable", key, new byte[4]));
        }
      }
      plain.flush();
      avroStable.flush();
      protobufStable.flush();
    }
  }

  /** A byte-array producer: the default partitioner, or RoutingPartitioner with a key format. */
  static KafkaProducer<byte[], byte[]> producer(String keyFormat) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    p.put(ProducerConfig.LINGER_MS_CONFIG, "20");
    if (keyFormat != null) {
      p.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, RoutingPartitioner.class.getName());
      p.put("routing.key.format", keyFormat);
    }
    return new KafkaProducer<>(p);
  }

  @AfterAll
  static void stop() {
    if (kafka != null) {
      kafka.close();
    }
  }

  @AfterEach
  void noGroupLeftBehind() throws Exception {
    assertThat(admin.listGroups().all().get(30, TimeUnit.SECONDS)).isEmpty();
  }

  static Result analyze(String topic, String... more) {
    String[] args = new String[6 + more.length];
    args[0] = "analyze";
    args[1] = "--bootstrap-server";
    args[2] = kafka.bootstrapServers();
    args[3] = "--topic";
    args[4] = topic;
    args[5] = "--from-beginning";
    System.arraycopy(more, 0, args, 6, more.length);
    Result r = CliRun.run(args);
    assertThat(r.code()).as(r.err()).isZero();
    return r;
  }

  static JsonNode json(String topic, String... more) throws Exception {
    java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of(more));
    args.addAll(java.util.List.of("--format", "json", "--quiet"));
    return JSON.readTree(analyze(topic, args.toArray(new String[0])).out());
  }

  /** Values whose framed keys kafka-clients' murmur2 (the default partitioner) spreads apart. */
  static long movedByMurmur2(boolean protobuf) {
    long moved = 0;
    for (int i = 0; i < VALUES; i++) {
      Set<Integer> partitions = new HashSet<>();
      for (int id : protobuf ? PROTOBUF_IDS : AVRO_IDS) {
        byte[] key = protobuf ? confluentProtobuf(id, value(i))
            : confluent(id, avroString(value(i)));
        partitions.add(Utils.toPositive(Utils.murmur2(key)) % PARTITIONS);
      }
      moved += partitions.size() > 1 ? 1 : 0;
    }
    return moved;
  }

  @Test
  void plainProducerSpreadsOneValueOverPartitionsUnderItsSchemaIds() throws Exception {
    long expectedMoved = movedByMurmur2(false);
    assertThat(expectedMoved).isGreaterThan(VALUES / 2);
    JsonNode o = json("avro-plain");
    assertThat(o.get("sampled").asLong()).isEqualTo(3L * VALUES);
    JsonNode s = o.get("schemaRegistry");
    assertThat(s.get("format").asText()).isEqualTo("confluent");
    assertThat(s.get("withHeader").asLong()).isEqualTo(3L * VALUES);
    assertThat(s.get("distinctSchemaIds").asInt()).isEqualTo(3);
    assertThat(s.get("valuesUnderSeveralIds").asLong()).isEqualTo(VALUES);
    assertThat(s.get("valuesOnDifferentPartitions").asLong()).isEqualTo(expectedMoved);
    // the default partitioner wrote them: the whole key hashed matches, the payload alone does not
    assertThat(o.get("routerMatch").asDouble()).isEqualTo(1.0);
    assertThat(json("avro-plain", "--key-format", "confluent").get("routerMatch").asDouble())
        .isLessThan(0.5);

    String text = analyze("avro-plain", "--quiet").out();
    assertThat(text)
        .contains("900 of 900 keyed messages carry a confluent header; 3 distinct schema ids: ")
        .contains("1 (300)").contains("2 (300)").contains("3 (300)")
        .contains("300 key values under several schema ids, " + expectedMoved + " of them on"
            + " different partitions")
        .contains("routing.key.format=confluent hashes the value alone");
  }

  @Test
  void keyFormatOnTheProducerKeepsEveryValueOnOnePartition() throws Exception {
    JsonNode o = json("avro-stable", "--key-format", "confluent");
    JsonNode s = o.get("schemaRegistry");
    assertThat(s.get("distinctSchemaIds").asInt()).isEqualTo(3);
    assertThat(s.get("valuesUnderSeveralIds").asLong()).isEqualTo(VALUES);
    assertThat(s.get("valuesOnDifferentPartitions").asLong()).isZero();
    assertThat(o.get("routerMatch").asDouble()).isEqualTo(1.0);
    // the default router check (whole key) does not match a producer that skips the header
    assertThat(json("avro-stable").get("routerMatch").asDouble()).isLessThan(0.5);
    assertThat(analyze("avro-stable", "--quiet", "--key-format", "confluent").out())
        .contains("300 key values under several schema ids, 0 of them on different partitions")
        .doesNotContain("hashes the value alone");
  }

  @Test
  void protobufMessageIndexes() throws Exception {
    long expectedMoved = movedByMurmur2(true);
    assertThat(expectedMoved).isGreaterThan(VALUES / 2);
    JsonNode plain = json("protobuf-plain", "--key-format", "confluent-protobuf");
    JsonNode s = plain.get("schemaRegistry");
    assertThat(s.get("format").asText()).isEqualTo("confluent-protobuf");
    assertThat(s.get("withHeader").asLong()).isEqualTo(2L * VALUES);
    assertThat(s.get("distinctSchemaIds").asInt()).isEqualTo(2);
    assertThat(s.get("valuesUnderSeveralIds").asLong()).isEqualTo(VALUES);
    assertThat(s.get("valuesOnDifferentPartitions").asLong()).isEqualTo(expectedMoved);

    JsonNode stable = json("protobuf-stable", "--key-format", "confluent-protobuf");
    JsonNode t = stable.get("schemaRegistry");
    assertThat(t.get("distinctSchemaIds").asInt()).isEqualTo(2);
    assertThat(t.get("valuesUnderSeveralIds").asLong()).isEqualTo(VALUES);
    assertThat(t.get("valuesOnDifferentPartitions").asLong()).isZero();
    assertThat(stable.get("routerMatch").asDouble()).isEqualTo(1.0);
    // read with the Avro layout, the indexes are part of the value: the producer skipped them too
    assertThat(json("protobuf-stable", "--key-format", "confluent").get("routerMatch").asDouble())
        .isLessThan(0.5);
  }
}
