package io.github.routingkit.router.version;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.routingkit.Routers;
import io.github.routingkit.router.version.VersionedRouter.Generation;
import io.github.routingkit.testing.TestSerialization;
import java.io.InvalidObjectException;
import org.junit.jupiter.api.Test;

/** A deserialized {@link Generation} passes the same checks as a new one. */
class GenerationSerializationTest {
  private static final int PARTITIONS = 0x12345678;

  @Test
  void roundTripKeepsTheValue() throws Exception {
    Generation g = new Generation("v1", Routers.kafkaDefault(), PARTITIONS);
    Generation back = TestSerialization.roundTrip(g);
    assertThat(back).isEqualTo(g).hasSameHashCodeAs(g);
    assertThat(back.toString()).isEqualTo(g.toString());
    assertThat(back.partitions()).isEqualTo(PARTITIONS);
  }

  @Test
  void aNegativePartitionCountInTheStreamIsRefused() throws Exception {
    byte[] bytes = TestSerialization.serialize(new Generation("v1", Routers.kafkaDefault(),
        PARTITIONS));
    int at = indexOf(bytes, new byte[] {0x12, 0x34, 0x56, 0x78});
    bytes[at] = (byte) 0xf2; // 0xf2345678 < 0
    assertThatThrownBy(() -> TestSerialization.deserialize(bytes))
        .isInstanceOf(InvalidObjectException.class)
        .hasMessageContaining("partition count was -231451016");
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    throw new AssertionError("not in the serialized form");
  }
}
