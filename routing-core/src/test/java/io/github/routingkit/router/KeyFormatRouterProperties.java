package io.github.routingkit.router;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.routingkit.KeyFormat;
import io.github.routingkit.KeyRouter;
import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.property.Gen;
import io.github.routingkit.property.Property;
import io.github.routingkit.property.RoutingGen;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/**
 * The guarantees of {@code routing.key.format}, on every deterministic spec of
 * {@link RoutingGen#specs()} (hot-key layers left out: their choice among candidates is by load or
 * turn, not by key) and every header format:
 * <ul>
 *   <li>the same payload under any schema id (and any Protobuf framing of the same message) goes to
 *       the same partition;</li>
 *   <li>that partition is the one the spec without a key format gives the payload bytes;</li>
 *   <li>a key without a valid header goes where the spec without a key format puts the whole
 *       key;</li>
 *   <li>the partition is in range for 1..10,000 partitions, and the router survives
 *       serialization.</li>
 * </ul>
 * {@link #aBrokenFormatIsCaught} runs the first two properties' check against a format that keeps
 * the schema id in the hashed bytes, and against one that drops one byte too many.
 */
class KeyFormatRouterProperties {

  static final Gen<String> SPECS = RoutingGen.specs().filter(s -> !s.contains("hotkey"));
  static final Gen<KeyFormat> FORMATS =
      Gen.of(Arrays.stream(KeyFormat.values()).filter(KeyFormat::hasHeader).toList());
  static final Gen<Long> IDS = Gen.longs(0, 0xFFFFFFFFL)
      .withEdges(0L, 1L, 255L, 256L, 0x7FFFFFFFL, 0x80000000L, 0xFFFFFFFFL);
  /** Protobuf message indexes: [0] written as one 0 byte, or an explicit list. */
  static final Gen<List<Integer>> INDEXES = Gen.ints(0, 300).list(1, 4)
      .withEdges(List.of(0), List.of(1), List.of(0, 0), List.of(127, 128));

  /** A key of {@code format}: its header with {@code id} (and indexes / type name), then payload. */
  static byte[] serialize(KeyFormat format, long id, List<Integer> indexes, byte[] payload) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(0);
    int idBytes = format == KeyFormat.APICURIO_LEGACY || format == KeyFormat.APICURIO_LEGACY_PROTOBUF
        ? 8 : 4;
    for (int i = idBytes - 1; i >= 0; i--) {
      out.write((int) (id >>> (8 * i)));
    }
    if (format == KeyFormat.CONFLUENT_PROTOBUF) {
      if (indexes.equals(List.of(0))) {
        out.write(0);
      } else {
        zigZag(out, indexes.size());
        indexes.forEach(i -> zigZag(out, i));
      }
    } else if (format == KeyFormat.APICURIO_PROTOBUF || format == KeyFormat.APICURIO_LEGACY_PROTOBUF) {
      // Ref { string name = 1 }, length-delimited; the name from the indexes, like a type name
      byte[] name = ("Type" + indexes).getBytes(java.nio.charset.StandardCharsets.UTF_8);
      varint(out, name.length + 2);
      out.write(0x0a);
      out.write(name.length);
      out.writeBytes(name);
    }
    out.writeBytes(payload);
    return out.toByteArray();
  }

  private static void zigZag(ByteArrayOutputStream out, int v) {
    varint(out, (v << 1) ^ (v >> 31));
  }

  private static void varint(ByteArrayOutputStream out, int v) {
    while ((v & ~0x7F) != 0) {
      out.write((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    out.write(v);
  }

  static KeyRouter router(String spec, KeyFormat format) {
    return RoutingSpec.parse(spec).withKeyFormat(format).keyRouter();
  }

  /**
   * The partition, or the exception where the spec cannot route at this partition count (segments
   * or a generation that need more partitions): the formatted and the plain router must agree.
   */
  static Object outcome(KeyRouter r, byte[] key, int n) {
    try {
      return r.partition(key, n);
    } catch (io.github.routingkit.RoutingConfigException | IllegalStateException e) {
      return e.getClass().getSimpleName() + ": " + e.getMessage();
    }
  }

  /** The check of the first two properties, for any way of building the formatted router. */
  static void samePayloadSamePartition(BiFunction<String, KeyFormat, KeyRouter> build, String spec,
      KeyFormat format, byte[] payload, long id1, long id2, List<Integer> indexes, int n) {
    KeyRouter formatted = build.apply(spec, format);
    KeyRouter plain = RoutingSpec.parse(spec).keyRouter();
    Object p1 = outcome(formatted, serialize(format, id1, indexes, payload), n);
    Object p2 = outcome(formatted, serialize(format, id2, indexes, payload), n);
    assertThat(p2).as("same payload, schema ids %d and %d", id1, id2).isEqualTo(p1);
    assertThat(p1).as("the plain spec on the payload").isEqualTo(outcome(plain, payload, n));
  }

  @Test
  void samePayloadSamePartitionUnderAnySchemaId() {
    Property.check(3000, SPECS, FORMATS, RoutingGen.keyBytes(), IDS, IDS, INDEXES,
        (spec, format, payload, id1, id2, indexes) -> samePayloadSamePartition(
            KeyFormatRouterProperties::router, spec, format, payload, id1, id2, indexes, 24));
  }

  @Test
  void samePayloadSamePartitionAtAnyPartitionCount() {
    Property.check(2000, SPECS, FORMATS, RoutingGen.keyBytes(), IDS, RoutingGen.partitions(),
        (spec, format, payload, id, n) -> {
          samePayloadSamePartition(KeyFormatRouterProperties::router, spec, format, payload, id,
              id ^ 0x5A5A, List.of(0), n);
          Object p = outcome(router(spec, format), serialize(format, id, List.of(1, 2), payload), n);
          if (p instanceof Integer partition) {
            assertThat(partition).isBetween(0, n - 1);
          }
        });
  }

  @Test
  void keysWithoutAValidHeaderGoWhereTheWholeKeyGoes() {
    Gen<byte[]> invalid = Gen.oneOf(
        RoutingGen.keyBytes().filter(k -> k.length == 0 || k[0] != 0),
        Gen.ints(0, 8).map(byte[]::new), // zeros too short for an 8-byte id, some for a 4-byte one
        Gen.of(new byte[] {0, 0, 0, 0, 1, (byte) 0x80}, new byte[] {0, 0, 0, 0, 1, 1, 9},
            new byte[] {0, 0, 0, 0, 1, 0x7f, 1, 2}));
    Property.check(3000, SPECS, FORMATS, invalid, RoutingGen.partitions(),
        (spec, format, key, n) -> {
          if (format.hasValidHeader(key, 0, key.length)) {
            return; // a few of the generated byte strings are valid 4-byte headers
          }
          assertThat(outcome(router(spec, format), key, n))
              .isEqualTo(outcome(RoutingSpec.parse(spec).keyRouter(), key, n));
        });
  }

  @Test
  void formattedSpecsRoundTrip() {
    Property.check(500, SPECS, FORMATS, (spec, format) -> {
      RoutingSpec s = RoutingSpec.parse(spec).withKeyFormat(format);
      assertThat(RoutingSpec.parse(s.toString())).isEqualTo(s);
      assertThat(RoutingSpec.parse(s.toMap())).isEqualTo(s);
      assertThat(s.keyFormat()).isSameAs(format);
      assertThat(s.withKeyFormat(KeyFormat.RAW)).isEqualTo(RoutingSpec.parse(spec));
      KeyRouter r = s.keyRouter();
      KeyRouter copy = io.github.routingkit.testing.TestSerialization.roundTrip(r);
      byte[] key = serialize(format, 7, List.of(0), "k".getBytes());
      assertThat(outcome(copy, key, 12)).isEqualTo(outcome(r, key, 12));
    });
  }

  /**
   * A format that hashed the header (here: one that starts the payload one byte early, so the
   * id's last byte is hashed) or dropped a payload byte fails the first two properties' check.
   */
  @Test
  void aBrokenFormatIsCaught() {
    BiFunction<String, KeyFormat, KeyRouter> keepsIdByte = (spec, format) ->
        new Shifted(format, RoutingSpec.parse(spec).keyRouter(), -1);
    BiFunction<String, KeyFormat, KeyRouter> dropsPayloadByte = (spec, format) ->
        new Shifted(format, RoutingSpec.parse(spec).keyRouter(), +1);
    String spec = "routing.scheme=kafka-murmur2";
    byte[] payload = "customer-42".getBytes();
    for (KeyFormat f : KeyFormat.values()) {
      if (!f.hasHeader()) {
        continue;
      }
      samePayloadSamePartition(KeyFormatRouterProperties::router, spec, f, payload, 1, 2,
          List.of(0), 997);
      assertThatThrownBy(() -> samePayloadSamePartition(keepsIdByte, spec, f, payload, 1, 2,
          List.of(0), 997)).isInstanceOf(AssertionError.class);
      assertThatThrownBy(() -> samePayloadSamePartition(dropsPayloadByte, spec, f, payload, 1, 2,
          List.of(0), 997)).isInstanceOf(AssertionError.class);
    }
  }

  /** A deliberately broken key format: the payload start moved by {@code shift} bytes. */
  private static final class Shifted extends io.github.routingkit.AbstractKeyRouter {
    private final KeyFormat format;
    private final KeyRouter delegate;
    private final int shift;

    Shifted(KeyFormat format, KeyRouter delegate, int shift) {
      this.format = format;
      this.delegate = delegate;
      this.shift = shift;
    }

    @Override
    protected int route(byte[] key, int offset, int length, byte[] value, int n) {
      int start = format.payloadStart(key, offset, length) + shift;
      return delegate.partition(key, start, offset + length - start, n);
    }

    @Override
    public int keylessPartition(int n) {
      return delegate.keylessPartition(n);
    }

    @Override
    public io.github.routingkit.KeylessPolicy keylessPolicy() {
      return delegate.keylessPolicy();
    }
  }

  @Test
  void specsAcceptAndRejectKeyFormats() {
    assertThat(RoutingSpec.parse(Map.of("routing.key.format", "confluent-protobuf")).keyFormat())
        .isSameAs(KeyFormat.CONFLUENT_PROTOBUF);
    assertThat(RoutingSpec.defaults().keyFormat()).isSameAs(KeyFormat.RAW);
    assertThat(RoutingSpec.parse(Map.of("routing.key.format", "raw")).keyRouter())
        .isInstanceOf(HashRouter.class);
    assertThatThrownBy(() -> RoutingSpec.parse(Map.of("routing.key.format", "avro")))
        .hasMessageContaining("routing.key.format")
        .hasMessageContaining("'avro'")
        .hasMessageContaining("must be one of [raw, confluent, confluent-protobuf");
    assertThatThrownBy(() -> RoutingSpec.parse(Map.of("routing.canary.share", "0.1",
        "routing.canary.next.key.format", "confluent")))
        .hasMessageContaining("routing.canary.next.key.format");
  }
}
