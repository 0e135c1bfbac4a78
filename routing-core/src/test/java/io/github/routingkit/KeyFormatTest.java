package io.github.routingkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * The header rules of every {@link KeyFormat}, byte by byte: where the payload starts for valid
 * headers (as the published formats lay them out), and that every key without a valid header is
 * hashed whole (payload start = offset), never an exception.
 */
class KeyFormatTest {

  private static byte[] hex(String h) {
    return HexFormat.of().parseHex(h.replace(" ", ""));
  }

  private static int start(KeyFormat f, String h) {
    byte[] b = hex(h);
    return f.payloadStart(b, 0, b.length);
  }

  @Test
  void rawHashesEveryByte() {
    assertThat(start(KeyFormat.RAW, "00 00000001 0a68656c6c6f")).isZero();
    assertThat(KeyFormat.RAW.hasValidHeader(hex("0000000001"), 0, 5)).isFalse();
    assertThat(KeyFormat.RAW.schemaId(hex("0000000001"), 0, 5)).isEqualTo(-1);
    assertThat(KeyFormat.RAW.hasHeader()).isFalse();
  }

  @Test
  void confluentSkipsMagicAndFourByteId() {
    assertThat(start(KeyFormat.CONFLUENT, "00 0000012d 0a68656c6c6f")).isEqualTo(5);
    assertThat(start(KeyFormat.CONFLUENT, "00 0000012d")).isEqualTo(5); // empty payload
    assertThat(KeyFormat.CONFLUENT.schemaId(hex("00 0000012d 0a"), 0, 6)).isEqualTo(301);
    // the id is a signed int, as the serializers write it
    assertThat(KeyFormat.CONFLUENT.schemaId(hex("00 ffffffff"), 0, 5)).isEqualTo(-1);
    assertThat(KeyFormat.CONFLUENT.schemaId(hex("00 80000000"), 0, 5)).isEqualTo(Integer.MIN_VALUE);
  }

  @Test
  void keysWithoutAValidHeaderAreHashedWhole() {
    for (KeyFormat f : KeyFormat.values()) {
      assertThat(start(f, "")).as(f.id()).isZero();
      assertThat(start(f, "00")).as(f.id()).isZero();
      assertThat(start(f, "00000000")).as(f.id()).isZero(); // one byte short of a 4-byte id
      assertThat(start(f, "01 00000001 02")).as(f.id()).isZero(); // not the magic byte
      assertThat(start(f, "68656c6c6f2d776f726c64")).as(f.id()).isZero(); // plain text
      assertThat(f.schemaId(hex("01 00000001 02"), 0, 6)).isEqualTo(-1);
    }
    assertThat(start(KeyFormat.APICURIO_LEGACY, "00 00000000000001")).isZero(); // 7 of 8 id bytes
  }

  @Test
  void confluentProtobufSkipsTheMessageIndexes() {
    KeyFormat f = KeyFormat.CONFLUENT_PROTOBUF;
    assertThat(start(f, "00 00000133 00 0a0568656c6c6f")).isEqualTo(6); // [0]: one 0 byte
    assertThat(start(f, "00 00000135 02 02 0a0568656c6c6f")).isEqualTo(7); // [1]
    assertThat(start(f, "00 00000137 04 00 00 0a0568656c6c6f")).isEqualTo(8); // [0, 0]
    assertThat(start(f, "00 00000137 04 00 00")).isEqualTo(8); // empty message
    // an index of 300: zig-zag 600 = 0xd8 0x04
    assertThat(start(f, "00 00000001 02 d804 0a")).isEqualTo(8);
    // malformed: no indexes, a negative count (zig-zag 1 = -1), a count larger than the bytes
    // left, a truncated varint, a negative index, a varint of more than 32 bits
    assertThat(start(f, "00 00000001")).isZero();
    assertThat(start(f, "00 00000001 01 0a")).isZero();
    assertThat(start(f, "00 00000001 08 00 00")).isZero();
    assertThat(start(f, "00 00000001 02 80")).isZero();
    assertThat(start(f, "00 00000001 02 01")).isZero();
    assertThat(start(f, "00 00000001 ffffffffff0f")).isZero();
    assertThat(start(f, "00 00000001 02 ffffffff7f")).isZero();
    assertThat(f.schemaId(hex("00 00000133 00 0a"), 0, 7)).isEqualTo(307);
  }

  @Test
  void apicurioFormats() {
    // Ref { name = "Key" }, length-delimited: 05 0a 03 4b6579
    assertThat(start(KeyFormat.APICURIO_PROTOBUF, "00 00000007 05 0a034b6579 0a0568656c6c6f"))
        .isEqualTo(11);
    assertThat(start(KeyFormat.APICURIO_PROTOBUF, "00 00000007 05 0a034b65")).isZero(); // short Ref
    assertThat(start(KeyFormat.APICURIO_PROTOBUF, "00 00000007")).isZero();
    assertThat(start(KeyFormat.APICURIO_LEGACY, "00 0000000000000007 0a68656c6c6f")).isEqualTo(9);
    assertThat(KeyFormat.APICURIO_LEGACY.schemaId(hex("00 0000000100000007"), 0, 9))
        .isEqualTo(0x100000007L);
    assertThat(start(KeyFormat.APICURIO_LEGACY_PROTOBUF,
        "00 0000000000000007 05 0a034b6579 0a0568656c6c6f")).isEqualTo(15);
    // a 4-byte-id key read as the 8-byte legacy format: another header length, still no crash
    assertThat(start(KeyFormat.APICURIO_LEGACY, "00 0000012d 0a68656c6c6f")).isEqualTo(9);
  }

  @Test
  void offsetsAreRelativeToTheRange() {
    byte[] b = hex("ffff 00 00000001 0a68656c6c6f ffff");
    assertThat(KeyFormat.CONFLUENT.payloadStart(b, 2, 11)).isEqualTo(7);
    assertThat(KeyFormat.CONFLUENT.payloadStart(b, 2, 4)).isEqualTo(2); // range too short
    assertThat(KeyFormat.CONFLUENT.schemaId(b, 2, 11)).isEqualTo(1);
    assertThatThrownBy(() -> KeyFormat.CONFLUENT.payloadStart(b, 10, 10))
        .isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> KeyFormat.CONFLUENT.payloadStart(null, 0, 0))
        .isInstanceOf(NullPointerException.class);
  }

  @Test
  void idsRoundTrip() {
    for (KeyFormat f : KeyFormat.values()) {
      assertThat(KeyFormat.fromId(f.id())).isSameAs(f);
    }
    assertThatThrownBy(() -> KeyFormat.fromId("avro"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown key format 'avro'")
        .hasMessageContaining("confluent-protobuf");
  }
}
