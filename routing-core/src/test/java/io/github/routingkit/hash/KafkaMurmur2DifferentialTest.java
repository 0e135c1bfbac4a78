package io.github.routingkit.hash;

import io.github.routingkit.Routers;
import io.github.routingkit.testing.EdgeKeys;
import io.github.routingkit.testing.KeyText;
import io.github.routingkit.testing.SampleKeys;
import io.github.routingkit.router.HashRouter;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;
import java.util.Random;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;

/**
 * {@link HashScheme#KAFKA_MURMUR2} and {@link Routers#kafkaDefault()} against the real
 * kafka-clients 4.1.1 code: {@code Utils.murmur2}, {@code Utils.toPositive} and
 * {@code BuiltInPartitioner.partitionForKey} (the function {@code KafkaProducer} calls on its keyed
 * path when no {@code partitioner.class} is set). Every key is checked as {@code byte[]}, as an
 * (offset, length) slice of a larger array and as a String (UTF-8 on the fly, which must equal
 * {@code getBytes(UTF_8)}), at the partition counts of {@link EdgeKeys#countsFor}.
 */
class KafkaMurmur2DifferentialTest {
  private static final HashRouter ROUTER = Routers.kafkaDefault();

  /** Scratch for the (offset, length) path: the key surrounded by random bytes. */
  private final Random random = new Random(42);

  private byte[] scratch = new byte[256];

  @Test
  void realKeysFromSharedData() {
    List<String> keys = SampleKeys.all();
    assertThat(keys).hasSizeGreaterThanOrEqualTo(300_000);
    long checked = 0;
    for (int i = 0; i < keys.size(); i++) {
      checked += check(keys.get(i), EdgeKeys.countsFor(i));
    }
    // 320,000 keys x 6 counts x 3 paths
    assertThat(checked).isGreaterThanOrEqualTo(300_000L * 6 * 3);
  }

  @Test
  void everyCountFrom1To1000OnEdgeKeys() {
    int[] all = new int[1000];
    for (int n = 1; n <= 1000; n++) {
      all[n - 1] = n;
    }
    for (String key : EdgeKeys.strings()) {
      check(key, all);
    }
  }

  @Test
  void emptyKeyIsHashedNotKeyless() {
    assertThat(ROUTER.partition(new byte[0], 1000))
        .isEqualTo(BuiltInPartitioner.partitionForKey(new byte[0], 1000));
    assertThat(HashScheme.KAFKA_MURMUR2.hash(new byte[0])).isEqualTo(Utils.murmur2(new byte[0]));
  }

  @Test
  void oneMebibyteKeys() {
    int[] counts = {1, 2, 3, 7, 12, 24, 100, 997, 1000};
    byte[] bytes = EdgeKeys.mibBytes();
    assertThat(bytes).hasSize(EdgeKeys.MIB);
    check(bytes, "1 MiB of random bytes", counts);
    String ascii = EdgeKeys.mibAscii();
    assertThat(ascii.getBytes(UTF_8)).hasSize(EdgeKeys.MIB);
    check(ascii, counts);
    check(EdgeKeys.mibMixed(), counts);
  }

  @Test
  void randomBytesOfEveryLength0To64() {
    Random r = new Random(7);
    long i = 0;
    for (int len = 0; len <= 64; len++) {
      for (int rep = 0; rep < 1000; rep++) {
        byte[] b = new byte[len];
        r.nextBytes(b);
        check(b, null, EdgeKeys.countsFor(i++));
      }
    }
  }

  /** Random UTF-16 (unpaired surrogates included): the String path must equal getBytes(UTF_8). */
  @Test
  void randomStringsIncludingUnpairedSurrogates() {
    Random r = new Random(11);
    for (int i = 0; i < 100_000; i++) {
      check(EdgeKeys.randomString(r, r.nextInt(40)), EdgeKeys.countsFor(i));
    }
  }

  @Test
  void unpairedSurrogateEncodesAsQuestionMarkLikeTheJdk() {
    // the premise of the String path: the JDK substitutes '?' for an unpaired surrogate
    assertThat("a\uD800b".getBytes(UTF_8)).containsExactly('a', '?', 'b');
    assertThat(HashScheme.KAFKA_MURMUR2.hash("a\uD800b"))
        .isEqualTo(Utils.murmur2("a?b".getBytes(UTF_8)));
  }

  @Test
  void minValueHashCodeStrings() {
    for (String key : EdgeKeys.MIN_VALUE_HASH_CODE) {
      assertThat(key.hashCode()).isEqualTo(Integer.MIN_VALUE);
      for (int n = 1; n <= 1000; n++) {
        int p = ROUTER.partition(key, n);
        assertThat(p).isEqualTo(BuiltInPartitioner.partitionForKey(key.getBytes(UTF_8), n));
      }
    }
  }

  private int check(String key, int[] counts) {
    byte[] bytes = key.getBytes(UTF_8);
    int checked = check(bytes, key, counts);
    int hash = Utils.murmur2(bytes);
    if (HashScheme.KAFKA_MURMUR2.hash(key) != hash) {
      fail("String hash of " + describe(key) + ": ours " + HashScheme.KAFKA_MURMUR2.hash(key)
          + ", Utils.murmur2(getBytes(UTF_8)) " + hash);
    }
    for (int n : counts) {
      int expected = BuiltInPartitioner.partitionForKey(bytes, n);
      int actual = ROUTER.partition(key, n);
      if (actual != expected) {
        fail("String " + describe(key) + " n=" + n + ": ours " + actual + ", kafka " + expected);
      }
      checked++;
    }
    return checked;
  }

  private int check(byte[] bytes, Object label, int[] counts) {
    int hash = Utils.murmur2(bytes);
    int ours = HashScheme.KAFKA_MURMUR2.hash(bytes);
    if (ours != hash) {
      fail("hash of " + describe(label, bytes) + ": ours " + ours + ", Utils.murmur2 " + hash);
    }
    int pre = random.nextInt(9);
    int post = random.nextInt(9);
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
    int checked = 0;
    for (int n : counts) {
      int expected = BuiltInPartitioner.partitionForKey(bytes, n);
      if (expected != Utils.toPositive(hash) % n) {
        fail("kafka-clients itself: partitionForKey != toPositive(murmur2) % n");
      }
      int actual = ROUTER.partition(bytes, n);
      if (actual != expected) {
        fail("byte[] " + describe(label, bytes) + " n=" + n + ": ours " + actual + ", kafka " + expected);
      }
      int sliced = ROUTER.partition(scratch, pre, bytes.length, n);
      if (sliced != expected) {
        fail("slice [" + pre + ", +" + bytes.length + ") of " + describe(label, bytes) + " n=" + n
            + ": ours " + sliced + ", kafka " + expected);
      }
      checked += 2;
    }
    return checked;
  }

  /** Describes a failing key: the label if there is one, else the bytes in hex. */
  private static String describe(Object label, byte[] bytes) {
    return label == null ? KeyText.hex(bytes) : describe(label);
  }

  private static String describe(Object key) {
    return KeyText.describe(String.valueOf(key));
  }
}
