package io.github.routingkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.KeyFormat;
import io.github.routingkit.KeyRouter;
import io.github.routingkit.KeylessPolicy;
import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.router.HashRouter;
import io.github.routingkit.router.KeyFormatRouter;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;

/**
 * The live router check ({@code router check} / {@code routerMatch}) routes each record's key as
 * the producers' partitioners do: on Kafka the serialized key bytes (never the {@code 0x<hex>}
 * display text of a binary key), with the key format's header skipped on those bytes; on Pulsar
 * the key's text ({@code getKey()}, a byte key's Base64), or a byte key's bytes when a key format
 * is set. The records are placed by independent oracles: kafka-clients' {@code Utils.murmur2}, and
 * {@code String.hashCode() & Integer.MAX_VALUE} with floor-mod (pulsar-client's
 * {@code JavaStringHash} and {@code signSafeMod}). 600 keys on 12 partitions, so a check that routes the wrong bytes
 * matches about 1/12 of them.
 */
class LiveReportRouterCheckTest {
  static final int N = 12;
  static final int KEYS = 300;

  /** A topic that only says how many partitions it has and how its producers hash keys. */
  record FakeTopic(boolean routesKeyBytes) implements LiveTopic {
    @Override
    public String describe() {
      return "fake topic";
    }

    @Override
    public String windowText() {
      return "";
    }

    @Override
    public Window window() {
      return Window.FROM_BEGINNING;
    }

    @Override
    public int partitions() {
      return N;
    }

    @Override
    public List<PartitionSize> sizes() {
      return List.of();
    }

    @Override
    public List<String> notes() {
      return List.of();
    }

    @Override
    public ReadResult read(long limit, RecordSink sink, Progress progress) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void close() {
    }
  }

  static KeyRouter router(HashScheme scheme, KeyFormat format) {
    return KeyFormatRouter.of(format, HashRouter.of(scheme, KeylessPolicy.ROUND_ROBIN));
  }

  /** 0x00, the 4-byte big-endian id, the payload: Confluent's wire format. */
  static byte[] confluent(int schemaId, byte[] payload) {
    return ByteBuffer.allocate(5 + payload.length).put((byte) 0).putInt(schemaId).put(payload)
        .array();
  }

  /** Payload i: text for even i, bytes that are not UTF-8 (0xff never starts a sequence) for odd. */
  static byte[] payload(int i) {
    return i % 2 == 0 ? ("customer-" + i).getBytes(StandardCharsets.UTF_8)
        : new byte[] {(byte) 0xff, (byte) i, (byte) (i >> 8), 7};
  }

  /** The text KafkaTopic gives a key: UTF-8, or 0x and hex for bytes that are not UTF-8. */
  static String kafkaText(byte[] key) {
    String s = new String(key, StandardCharsets.UTF_8);
    return Arrays.equals(s.getBytes(StandardCharsets.UTF_8), key) ? s
        : "0x" + HexFormat.of().formatHex(key);
  }

  static int murmur2(byte[] b) {
    return Utils.toPositive(Utils.murmur2(b)) % N;
  }

  static LiveReport finish(LiveReport r, int records) {
    r.finish(new LiveTopic.ReadResult(records, 0, List.of()), 0);
    return r;
  }

  @Test
  void kafkaBinaryKeysAreRoutedByTheirBytesNotTheirHexText() {
    LiveReport r = new LiveReport(new FakeTopic(true), router(HashScheme.KAFKA_MURMUR2,
        KeyFormat.RAW), "kafka-murmur2", 10, 10_000);
    int records = 0;
    for (int i = 0; i < 2 * KEYS; i++) {
      byte[] key = new byte[] {(byte) 0xff, (byte) i, (byte) (i >> 8)};
      r.accept(murmur2(key), kafkaText(key), key, 10);
      records++;
    }
    assertThat(finish(r, records).routerMatch()).isEqualTo(1.0);
  }

  @Test
  void kafkaSchemaRegistryKeysAreRoutedByTheirPayloadUnderTheKeyFormat() {
    LiveReport r = new LiveReport(new FakeTopic(true), router(HashScheme.KAFKA_MURMUR2,
        KeyFormat.CONFLUENT), "kafka-murmur2", 10, 10_000);
    r.keyFormat(KeyFormat.CONFLUENT);
    int records = 0;
    for (int id = 1; id <= 2; id++) {
      for (int i = 0; i < KEYS; i++) {
        byte[] key = confluent(id, payload(i));
        // a producer with routing.key.format=confluent: murmur2 of the payload
        r.accept(murmur2(payload(i)), kafkaText(key), key, 10);
        records++;
      }
    }
    finish(r, records);
    assertThat(r.routerMatch()).isEqualTo(1.0);
    assertThat(r.toText()).contains("600 of 600 keyed messages carry a confluent header;"
        + " 2 distinct schema ids").contains("300 key values under several schema ids, 0 of"
        + " them on different partitions");
  }

  @Test
  void kafkaSchemaRegistryKeysOfAPlainProducerAreRoutedWhole() {
    LiveReport r = new LiveReport(new FakeTopic(true), router(HashScheme.KAFKA_MURMUR2,
        KeyFormat.RAW), "kafka-murmur2", 10, 10_000);
    int records = 0;
    int moved = 0;
    for (int i = 0; i < KEYS; i++) {
      byte[] one = confluent(1, payload(i));
      byte[] two = confluent(2, payload(i));
      r.accept(murmur2(one), kafkaText(one), one, 10);
      r.accept(murmur2(two), kafkaText(two), two, 10);
      records += 2;
      moved += murmur2(one) != murmur2(two) ? 1 : 0;
    }
    finish(r, records);
    assertThat(r.routerMatch()).isEqualTo(1.0);
    assertThat(moved).isGreaterThan(KEYS / 2);
    assertThat(r.toText()).contains(KEYS + " key values under several schema ids, " + moved
        + " of them on different partitions");
  }

  /** pulsar-client's JavaStringHash ({@code hashCode() & Integer.MAX_VALUE}), then signSafeMod. */
  static int javaString(String key) {
    return Math.floorMod(key.hashCode() & Integer.MAX_VALUE, N);
  }

  @Test
  void pulsarKeysAreRoutedByTheirTextAndByteKeysByTheirBytesUnderAKeyFormat() {
    // raw: a key set as bytes is routed by its Base64 text, getKey(), as pulsar-client does
    LiveReport raw = new LiveReport(new FakeTopic(false), router(HashScheme.PULSAR_JAVA_STRING,
        KeyFormat.RAW), "pulsar-java-string", 10, 10_000);
    // confluent: a byte key is routed by its payload's bytes; a text key by its text
    LiveReport formatted = new LiveReport(new FakeTopic(false),
        router(HashScheme.PULSAR_JAVA_STRING, KeyFormat.CONFLUENT), "pulsar-java-string", 10,
        10_000);
    formatted.keyFormat(KeyFormat.CONFLUENT);
    int records = 0;
    for (int i = 0; i < KEYS; i++) {
      String text = "order-" + i;
      raw.accept(javaString(text), text, null, 10);
      formatted.accept(javaString(text), text, null, 10);
      byte[] key = confluent(1 + i % 3, ("customer-" + i).getBytes(StandardCharsets.UTF_8));
      String base64 = Base64.getEncoder().encodeToString(key);
      raw.accept(javaString(base64), base64, key, 10);
      formatted.accept(javaString("customer-" + i), base64, key, 10);
      records += 2;
    }
    assertThat(finish(raw, records).routerMatch()).isEqualTo(1.0);
    assertThat(finish(formatted, records).routerMatch()).isEqualTo(1.0);
    assertThat(formatted.toText()).contains("300 of 600 keyed messages carry a confluent header;"
        + " 3 distinct schema ids");
  }
}
