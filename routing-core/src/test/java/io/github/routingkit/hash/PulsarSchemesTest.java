package io.github.routingkit.hash;

import io.github.routingkit.Routers;

import io.github.routingkit.testing.EdgeKeys;
import io.github.routingkit.testing.SampleKeys;

import io.github.routingkit.router.HashRouter;

import static io.github.routingkit.testing.KeyText.describe;
import static io.github.routingkit.testing.KeyText.hex;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The definitions behind {@link HashScheme#PULSAR_JAVA_STRING} and {@link HashScheme#PULSAR_MURMUR3}
 * on the JDK side: JavaStringHash of a String is {@code String.hashCode() & MAX}, of bytes it is
 * {@code new String(bytes, UTF_8).hashCode() & MAX} (what pulsar-client's
 * {@code JavaStringHash.makeHash(byte[])} does), including every kind of malformed UTF-8; Murmur3 of
 * a String is Murmur3 of {@code getBytes(UTF_8)}. The differential tests against the real
 * pulsar-client classes live in routing-pulsar; this class fuzzes the on-the-fly UTF-8 decoder and
 * encoder hard without needing the client.
 */
class PulsarSchemesTest {
  private static final HashRouter JAVA_STRING = Routers.pulsarDefault();
  private static final HashRouter MURMUR3 = Routers.pulsarMurmur3();

  private final Random random = new Random(5);
  private byte[] scratch = new byte[256];

  @Test
  void realKeysFromSharedData() {
    List<String> keys = SampleKeys.all();
    for (int i = 0; i < keys.size(); i++) {
      String key = keys.get(i);
      byte[] bytes = key.getBytes(UTF_8);
      int[] counts = EdgeKeys.countsFor(i);
      checkJavaStringText(key, counts);
      checkJavaStringBytes(bytes, counts);
      checkMurmur3Text(key, bytes, counts);
    }
  }

  @Test
  void edgeKeysAtEveryCount1To1000() {
    int[] all = new int[1000];
    for (int n = 1; n <= 1000; n++) {
      all[n - 1] = n;
    }
    for (String key : EdgeKeys.strings()) {
      byte[] bytes = key.getBytes(UTF_8);
      checkJavaStringText(key, all);
      checkJavaStringBytes(bytes, all);
      checkMurmur3Text(key, bytes, all);
    }
  }

  @Test
  void minValueHashCodeStringsStayInRange() {
    for (String key : EdgeKeys.MIN_VALUE_HASH_CODE) {
      assertThat(HashScheme.PULSAR_JAVA_STRING.hash(key)).isZero(); // MIN_VALUE & MAX_VALUE
      for (int n = 1; n <= 1000; n++) {
        assertThat(JAVA_STRING.partition(key, n)).isZero();
      }
    }
  }

  @Test
  void oneMebibyteKeys() {
    int[] counts = {1, 2, 12, 997, 1000};
    for (String key : List.of(EdgeKeys.mibAscii(), EdgeKeys.mibMixed())) {
      byte[] bytes = key.getBytes(UTF_8);
      checkJavaStringText(key, counts);
      checkJavaStringBytes(bytes, counts);
      checkMurmur3Text(key, bytes, counts);
    }
    checkJavaStringBytes(EdgeKeys.mibBytes(), counts); // malformed: the decoder's fallback
  }

  /** Random UTF-16, unpaired surrogates included: text paths against the JDK. */
  @Test
  void randomStrings() {
    Random r = new Random(13);
    for (int i = 0; i < 100_000; i++) {
      String key = EdgeKeys.randomString(r, r.nextInt(40));
      byte[] bytes = key.getBytes(UTF_8);
      int[] counts = EdgeKeys.countsFor(i);
      checkJavaStringText(key, counts);
      checkJavaStringBytes(bytes, counts);
      checkMurmur3Text(key, bytes, counts);
    }
  }

  /** Fully random bytes, mostly malformed UTF-8, every length 0..64. */
  @Test
  void randomBytesOfEveryLength0To64() {
    Random r = new Random(17);
    long i = 0;
    for (int len = 0; len <= 64; len++) {
      for (int rep = 0; rep < 2000; rep++) {
        byte[] b = new byte[len];
        r.nextBytes(b);
        checkJavaStringBytes(b, new int[] {(int) (1 + i++ % 1000), 997});
      }
    }
  }

  /** Sequences of valid and ill-formed UTF-8 pieces: the decoder's every branch and boundary. */
  @Test
  void structuredUtf8Fuzz() {
    Random r = new Random(19);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < 300_000; i++) {
      out.reset();
      int pieces = r.nextInt(10);
      for (int p = 0; p < pieces; p++) {
        appendPiece(r, out);
      }
      checkJavaStringBytes(out.toByteArray(), new int[] {1 + i % 1000, 1000});
    }
  }

  /** Every 1- and 2-byte array, and 3- and 4-byte arrays around every lead byte. */
  @Test
  void exhaustiveShortArrays() {
    int[] counts = {7, 1000};
    for (int a = 0; a < 256; a++) {
      checkJavaStringBytes(new byte[] {(byte) a}, counts);
      for (int b = 0; b < 256; b++) {
        checkJavaStringBytes(new byte[] {(byte) a, (byte) b}, counts);
      }
    }
    int[] thirds = {0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xE0, 0xF0, 0xFF};
    for (int a = 0xC0; a < 256; a++) {
      for (int b = 0; b < 256; b++) {
        for (int c : thirds) {
          checkJavaStringBytes(new byte[] {(byte) a, (byte) b, (byte) c}, counts);
          checkJavaStringBytes(new byte[] {'x', (byte) a, (byte) b, (byte) c, 'y'}, counts);
          for (int d : new int[] {0x41, 0x80, 0xBF, 0xC0}) {
            checkJavaStringBytes(new byte[] {(byte) a, (byte) b, (byte) c, (byte) d}, counts);
          }
        }
      }
    }
  }

  /** The JDK decodes an ill-formed sequence with U+FFFD substitutions; so must we (by fallback). */
  @Test
  void malformedInputHashesLikeTheJdkDecodesIt() {
    byte[] lone = {'a', (byte) 0x80, 'b'};
    assertThat(new String(lone, UTF_8)).isEqualTo("a\ufffdb");
    assertThat(HashScheme.PULSAR_JAVA_STRING.hash(lone))
        .isEqualTo("a\ufffdb".hashCode() & Integer.MAX_VALUE);
    byte[] surrogate = {(byte) 0xED, (byte) 0xA0, (byte) 0x80}; // CESU-8 U+D800: 3 x U+FFFD
    assertThat(HashScheme.PULSAR_JAVA_STRING.hash(surrogate))
        .isEqualTo(new String(surrogate, UTF_8).hashCode() & Integer.MAX_VALUE);
  }

  /**
   * JavaStringHash is defined on UTF-16: a String with an unpaired surrogate hashes its chars, its
   * UTF-8 bytes hold '?' instead, so the two paths differ there by definition (documented).
   */
  @Test
  void javaStringHashOfUnpairedSurrogateDiffersFromItsBytes() {
    String key = "a\uD800b";
    assertThat(HashScheme.PULSAR_JAVA_STRING.hash(key))
        .isEqualTo(key.hashCode() & Integer.MAX_VALUE)
        .isNotEqualTo(HashScheme.PULSAR_JAVA_STRING.hash(key.getBytes(UTF_8)));
  }

  private static final int[][] VALID = {
      {0x41}, {0x00}, {0x7F},
      {0xC2, 0x80}, {0xDF, 0xBF}, {0xC3, 0xBC},
      {0xE0, 0xA0, 0x80}, {0xE6, 0x97, 0xA5}, {0xED, 0x9F, 0xBF}, {0xEE, 0x80, 0x80},
      {0xEF, 0xBF, 0xBF}, {0xEF, 0xBB, 0xBF}, {0xEF, 0xBF, 0xBD},
      {0xF0, 0x90, 0x80, 0x80}, {0xF0, 0x9F, 0x98, 0x80}, {0xF3, 0xBF, 0xBF, 0xBF},
      {0xF4, 0x8F, 0xBF, 0xBF},
  };

  private static final int[][] INVALID = {
      {0x80}, {0xBF}, {0xC0, 0x80}, {0xC1, 0xBF}, {0xC2}, {0xC2, 0x41}, {0xC2, 0xC2},
      {0xE0, 0x80, 0x80}, {0xE0, 0x9F, 0xBF}, {0xE0, 0xA0}, {0xE6, 0x97}, {0xE6}, {0xE6, 0x41},
      {0xED, 0xA0, 0x80}, {0xED, 0xBF, 0xBF}, {0xED, 0xA0, 0x80, 0xED, 0xB0, 0x80},
      {0xF0, 0x80, 0x80, 0x80}, {0xF0, 0x8F, 0xBF, 0xBF}, {0xF0, 0x90, 0x80}, {0xF0, 0x90},
      {0xF0}, {0xF4, 0x90, 0x80, 0x80}, {0xF5, 0x80, 0x80, 0x80}, {0xF8, 0x88, 0x80, 0x80, 0x80},
      {0xFE}, {0xFF}, {0xF0, 0x9F, 0x98, 0x41}, {0xE6, 0x97, 0x41},
  };

  private static void appendPiece(Random r, ByteArrayOutputStream out) {
    int kind = r.nextInt(10);
    if (kind < 3) {
      out.write('a' + r.nextInt(26));
      return;
    }
    int[] piece = kind < 6 ? VALID[r.nextInt(VALID.length)]
        : kind < 9 ? INVALID[r.nextInt(INVALID.length)]
        : new int[] {r.nextInt(256)};
    for (int b : piece) {
      out.write(b);
    }
  }

  private static void checkJavaStringText(String key, int[] counts) {
    int expected = key.hashCode() & Integer.MAX_VALUE;
    assertHash(HashScheme.PULSAR_JAVA_STRING.hash(key), expected, "JavaStringHash(String)", key);
    assertHash(HashScheme.PULSAR_JAVA_STRING.hash(new StringBuilder(key)), expected,
        "JavaStringHash(StringBuilder)", key);
    for (int n : counts) {
      int p = JAVA_STRING.partition(key, n);
      if (p != Math.floorMod(expected, n)) {
        fail("JavaStringHash String " + describe(key) + " n=" + n + ": " + p);
      }
    }
  }

  private void checkJavaStringBytes(byte[] bytes, int[] counts) {
    int expected = new String(bytes, UTF_8).hashCode() & Integer.MAX_VALUE;
    assertHash(HashScheme.PULSAR_JAVA_STRING.hash(bytes), expected, "JavaStringHash(byte[])", bytes);
    int pre = random.nextInt(5);
    int post = random.nextInt(5);
    byte[] s = slice(bytes, pre, post);
    assertHash(HashScheme.PULSAR_JAVA_STRING.hash(s, pre, bytes.length), expected,
        "JavaStringHash(slice at " + pre + ")", bytes);
    for (int n : counts) {
      int want = Math.floorMod(expected, n);
      if (JAVA_STRING.partition(bytes, n) != want
          || JAVA_STRING.partition(s, pre, bytes.length, n) != want) {
        fail("JavaStringHash byte[] " + hex(bytes) + " n=" + n);
      }
    }
  }

  private void checkMurmur3Text(String key, byte[] utf8, int[] counts) {
    int expected = HashScheme.PULSAR_MURMUR3.hash(utf8);
    assertHash(HashScheme.PULSAR_MURMUR3.hash(key), expected, "Murmur3(String)", key);
    assertHash(HashScheme.PULSAR_MURMUR3.hash(new StringBuilder(key)), expected,
        "Murmur3(StringBuilder)", key);
    int pre = random.nextInt(5);
    byte[] s = slice(utf8, pre, random.nextInt(5));
    assertHash(HashScheme.PULSAR_MURMUR3.hash(s, pre, utf8.length), expected, "Murmur3(slice)", key);
    if (expected < 0) {
      fail("Murmur3 not masked: " + expected);
    }
    for (int n : counts) {
      int want = Math.floorMod(expected, n);
      if (MURMUR3.partition(key, n) != want || MURMUR3.partition(utf8, n) != want
          || MURMUR3.partition(s, pre, utf8.length, n) != want) {
        fail("Murmur3 " + describe(key) + " n=" + n);
      }
    }
  }

  private byte[] slice(byte[] bytes, int pre, int post) {
    if (scratch.length < pre + bytes.length + post) {
      scratch = new byte[pre + bytes.length + post];
    }
    for (int i = 0; i < pre; i++) {
      scratch[i] = (byte) random.nextInt();
    }
    for (int i = pre + bytes.length, end = Math.min(scratch.length, i + 16); i < end; i++) {
      scratch[i] = (byte) random.nextInt();
    }
    System.arraycopy(bytes, 0, scratch, pre, bytes.length);
    return scratch;
  }

  private static void assertHash(int actual, int expected, String what, Object key) {
    if (actual != expected) {
      fail(what + " of " + (key instanceof byte[] ? hex((byte[]) key) : describe((String) key))
          + ": ours " + actual + ", expected " + expected);
    }
  }

}
