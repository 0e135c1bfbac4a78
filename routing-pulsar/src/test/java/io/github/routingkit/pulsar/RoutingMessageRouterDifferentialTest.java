package io.github.routingkit.pulsar;

import static io.github.routingkit.testing.KeyText.describe;
import static io.github.routingkit.testing.KeyText.hex;

import io.github.routingkit.testing.SampleKeys;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.config.RoutingSpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import org.apache.pulsar.client.api.HashingScheme;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.MessageRouter;
import org.apache.pulsar.client.api.Schema;
import org.apache.pulsar.client.api.TopicMetadata;
import org.apache.pulsar.client.api.TypedMessageBuilder;
import org.apache.pulsar.client.impl.JavaStringHash;
import org.apache.pulsar.client.impl.Murmur3Hash32;
import org.apache.pulsar.client.impl.RoundRobinPartitionMessageRouterImpl;
import org.apache.pulsar.client.impl.TypedMessageBuilderImpl;
import org.apache.pulsar.client.impl.conf.ProducerConfigurationData;
import org.junit.jupiter.api.Test;

/**
 * {@link RoutingMessageRouter} against pulsar-client 4.2.4's own
 * {@link RoundRobinPartitionMessageRouterImpl} (the router of {@code RoundRobinPartition} mode)
 * under {@link HashingScheme#JavaStringHash} and {@link HashingScheme#Murmur3_32Hash}, on real
 * {@link Message} objects built by the client's {@link TypedMessageBuilderImpl}: 320,000 real keys
 * set with {@code key(String)} and again with {@code keyBytes(byte[])} (stored and hashed as Base64
 * text), at partition counts 1..1,000. Also the schemes' raw byte hashing against the client's
 * {@link Murmur3Hash32} and {@link JavaStringHash} classes on random and malformed bytes.
 */
class RoutingMessageRouterDifferentialTest {
  private static final MessageRouter PULSAR_JAVA =
      new RoundRobinPartitionMessageRouterImpl(HashingScheme.JavaStringHash, 0, false, 1);
  private static final MessageRouter PULSAR_MURMUR =
      new RoundRobinPartitionMessageRouterImpl(HashingScheme.Murmur3_32Hash, 0, false, 1);
  private static final RoutingMessageRouter OURS_JAVA =
      new RoutingMessageRouter(RoutingSpec.parse("routing.scheme=pulsar-java-string"));
  private static final RoutingMessageRouter OURS_MURMUR =
      new RoutingMessageRouter(RoutingSpec.parse("routing.scheme=pulsar-murmur3"));

  private static final TopicMetadata[] TOPICS = new TopicMetadata[1001];

  static {
    for (int n = 1; n <= 1000; n++) {
      int count = n;
      TOPICS[n] = () -> count;
    }
  }

  private static int[] countsFor(long i) {
    return new int[] {
        (int) (1 + i % 1000), (int) (1 + (i * 7919 + 13) % 1000), 1, 2, 12, 997,
    };
  }

  /** A real message as the client's builder makes it for {@code send()}, with a 1-byte value. */
  static Message<byte[]> message(Consumer<TypedMessageBuilder<byte[]>> setup) {
    TypedMessageBuilderImpl<byte[]> builder = new TypedMessageBuilderImpl<>(null, Schema.BYTES);
    setup.accept(builder);
    builder.value(new byte[] {1});
    return builder.getMessage();
  }

  static Message<byte[]> keyed(String key) {
    return message(b -> b.key(key));
  }

  static Message<byte[]> keyedBytes(byte[] key) {
    return message(b -> b.keyBytes(key));
  }

  @Test
  void theClientsDefaultSchemeIsJavaStringHash() {
    assertThat(new ProducerConfigurationData().getHashingScheme())
        .isEqualTo(HashingScheme.JavaStringHash);
  }

  @Test
  void stringKeysOfRealData() {
    List<String> keys = SampleKeys.all();
    assertThat(keys).hasSizeGreaterThanOrEqualTo(300_000);
    long compared = 0;
    for (int i = 0; i < keys.size(); i++) {
      Message<byte[]> msg = keyed(keys.get(i));
      assertThat(msg.hasKey()).isTrue();
      compared += compareAll(msg, countsFor(i));
    }
    assertThat(compared).isGreaterThanOrEqualTo(300_000L * 6 * 2);
  }

  @Test
  void byteKeysOfRealDataAreRoutedByTheirBase64Text() {
    List<String> keys = SampleKeys.all();
    for (int i = 0; i < keys.size(); i++) {
      byte[] raw = keys.get(i).getBytes(UTF_8);
      Message<byte[]> msg = keyedBytes(raw);
      if (i % 1000 == 0) {
        assertThat(msg.hasBase64EncodedKey()).isTrue();
        assertThat(msg.getKey()).isEqualTo(Base64.getEncoder().encodeToString(raw));
        assertThat(msg.getKeyBytes()).isEqualTo(raw);
      }
      compareAll(msg, countsFor(i));
    }
  }

  @Test
  void randomBinaryByteKeys() {
    Random r = new Random(23);
    long i = 0;
    for (int len = 0; len <= 64; len++) {
      for (int rep = 0; rep < 300; rep++) {
        byte[] key = new byte[len];
        r.nextBytes(key);
        compareAll(keyedBytes(key), countsFor(i++));
      }
    }
  }

  @Test
  void edgeKeysAtEveryCount1To1000() {
    List<Message<byte[]>> messages = new ArrayList<>();
    for (String key : edgeStrings()) {
      messages.add(keyed(key));
      messages.add(keyedBytes(key.getBytes(UTF_8)));
    }
    messages.add(keyedBytes(new byte[0]));
    int[] all = new int[1000];
    for (int n = 1; n <= 1000; n++) {
      all[n - 1] = n;
    }
    for (Message<byte[]> msg : messages) {
      assertThat(msg.hasKey()).as("key %s", msg.getKey()).isTrue();
      compareAll(msg, all);
    }
  }

  @Test
  void minValueHashCodeKeysGoToPartitionZeroInBoth() {
    for (String key : List.of("polygenelubricants", "GydZG_", "DESIGNING WORKHOUSES")) {
      assertThat(key.hashCode()).isEqualTo(Integer.MIN_VALUE);
      Message<byte[]> msg = keyed(key);
      for (int n = 1; n <= 1000; n++) {
        assertThat(OURS_JAVA.choosePartition(msg, TOPICS[n])).isZero()
            .isEqualTo(PULSAR_JAVA.choosePartition(msg, TOPICS[n]));
      }
    }
  }

  @Test
  void oneMebibyteKeys() {
    Random r = new Random(29);
    StringBuilder sb = new StringBuilder(1 << 20);
    while (sb.length() < 1 << 20) {
      sb.append((char) (r.nextInt(10) == 0 ? 0x4E00 + r.nextInt(0x5000) : 'a' + r.nextInt(26)));
    }
    byte[] raw = new byte[1 << 20];
    r.nextBytes(raw);
    int[] counts = {1, 2, 12, 997, 1000};
    compareAll(keyed(sb.toString()), counts);
    compareAll(keyedBytes(raw), counts);
  }

  /** Messages without a key (also: ordering key only) are keyless for both: ours stays in range. */
  @Test
  void keylessMessages() {
    Message<byte[]> none = message(b -> { });
    Message<byte[]> nullKey = message(b -> b.key(null));
    Message<byte[]> orderingOnly = message(b -> b.orderingKey(new byte[] {1, 2}));
    for (Message<byte[]> msg : List.of(none, nullKey, orderingOnly)) {
      assertThat(msg.hasKey()).isFalse();
      RoutingMessageRouter router = new RoutingMessageRouter(RoutingSpec.defaults());
      for (int i = 0; i < 30; i++) {
        assertThat(router.choosePartition(msg, TOPICS[7])).isEqualTo(i % 7);
      }
      RoutingMessageRouter random = new RoutingMessageRouter(RoutingSpec.parse("routing.keyless=random"));
      for (int n = 1; n <= 1000; n++) {
        assertThat(random.choosePartition(msg, TOPICS[n])).isBetween(0, n - 1);
      }
    }
  }

  /** HashScheme on raw bytes against the client's own hash classes (no Message in between). */
  @Test
  void rawByteHashesAgainstTheClientsHashClasses() {
    Random r = new Random(31);
    for (int len = 0; len <= 64; len++) {
      for (int rep = 0; rep < 3000; rep++) {
        byte[] b = new byte[len];
        r.nextBytes(b);
        if (rep % 3 == 1) {
          for (int j = 0; j < len; j++) {
            b[j] = (byte) (0x80 | b[j]); // lead/continuation bytes only: malformed UTF-8 galore
          }
        }
        compareRaw(b);
      }
    }
    List<String> keys = SampleKeys.all();
    for (int i = 0; i < keys.size(); i += 3) {
      compareRaw(keys.get(i).getBytes(UTF_8));
    }
    byte[] mib = new byte[1 << 20];
    r.nextBytes(mib);
    compareRaw(mib);
  }

  private static void compareRaw(byte[] b) {
    int murmur = Murmur3Hash32.getInstance().makeHash(b);
    int java = JavaStringHash.getInstance().makeHash(b);
    if (HashScheme.PULSAR_MURMUR3.hash(b) != murmur || HashScheme.PULSAR_JAVA_STRING.hash(b) != java) {
      fail("raw hash of " + hex(b) + ": murmur3 ours " + HashScheme.PULSAR_MURMUR3.hash(b)
          + " pulsar " + murmur + "; javaString ours " + HashScheme.PULSAR_JAVA_STRING.hash(b)
          + " pulsar " + java);
    }
  }

  private static int compareAll(Message<byte[]> msg, int[] counts) {
    for (int n : counts) {
      TopicMetadata topic = TOPICS[n];
      int expectedJava = PULSAR_JAVA.choosePartition(msg, topic);
      int actualJava = OURS_JAVA.choosePartition(msg, topic);
      int expectedMurmur = PULSAR_MURMUR.choosePartition(msg, topic);
      int actualMurmur = OURS_MURMUR.choosePartition(msg, topic);
      if (actualJava != expectedJava || actualMurmur != expectedMurmur) {
        fail("key " + describe(msg.getKey()) + " n=" + n + ": JavaStringHash ours " + actualJava
            + " pulsar " + expectedJava + "; Murmur3 ours " + actualMurmur + " pulsar " + expectedMurmur);
      }
    }
    return counts.length * 2;
  }

  static List<String> edgeStrings() {
    return List.of("", " ", "a", "日本語のキー", "東京/13/渋谷区", "Zürich/ZH/Zürich", "😀",
        "user-😀-🚀", "\uD800", "\uDC00", "a\uDC00b", "\uDC00\uD800", "abc\uD83D", "\uDBFF\uDFFF",
        "\ufffd", "\uffff", "\0", "polygenelubricants", "GydZG_", "DESIGNING WORKHOUSES",
        "keykeykeykeykey1", "keykeykey2", "k1", "key01");
  }

}
