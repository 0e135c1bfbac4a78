package io.github.routingkit.hash;


import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The test vectors published by the clients themselves (shared/FACTS.md): kafka-clients
 * {@code UtilsTest#testMurmur2} and pulsar-client {@code HashTest} (values after Pulsar's
 * {@code & Integer.MAX_VALUE}). Each vector is checked on the byte[] path, the (offset, length)
 * path inside a larger array and the String path.
 */
class UpstreamVectorsTest {

  @ParameterizedTest(name = "murmur2(\"{0}\") = {1}")
  @CsvSource({
      "21, -973932308",
      "foobar, -790332482",
      "a-little-bit-long-string, -985981536",
      "a-little-bit-longer-string, -1486304829",
      "lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8, -58897971",
      "abc, 479470107",
  })
  void kafkaMurmur2(String key, int expected) {
    assertHashes(HashScheme.KAFKA_MURMUR2, key, expected);
    // the vector is the real client's value too
    assertThat(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))).isEqualTo(expected);
  }

  @ParameterizedTest(name = "murmur3_32(\"{0}\") & MAX = {1}")
  @CsvSource({
      "k1, 2110152746",
      "k2, 1479966664",
      "key1, 462881061",
      "key2, 1936800180",
      "key01, 39696932",
      "key02, 751761803",
  })
  void pulsarMurmur3(String key, int expected) {
    assertHashes(HashScheme.PULSAR_MURMUR3, key, expected);
  }

  @ParameterizedTest(name = "javaStringHash(\"{0}\") & MAX = {1}")
  @CsvSource({
      "keykeykeykeykey1, 434058482",
      "keykeykey2, 42978643",
  })
  void pulsarJavaStringHash(String key, int expected) {
    assertHashes(HashScheme.PULSAR_JAVA_STRING, key, expected);
  }

  private static void assertHashes(HashScheme scheme, String key, int expected) {
    byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
    assertThat(scheme.hash(bytes)).as("byte[]").isEqualTo(expected);
    assertThat(scheme.hash(key)).as("String").isEqualTo(expected);
    assertThat(scheme.hash(new StringBuilder(key))).as("StringBuilder").isEqualTo(expected);
    byte[] padded = new byte[bytes.length + 7];
    java.util.Arrays.fill(padded, (byte) 0xA5);
    System.arraycopy(bytes, 0, padded, 3, bytes.length);
    assertThat(scheme.hash(padded, 3, bytes.length)).as("offset/length").isEqualTo(expected);
  }
}
