package io.github.routingkit.pulsar;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.KeylessPolicy;
import io.github.routingkit.Routers;
import io.github.routingkit.compat.CrossClientVectors;
import io.github.routingkit.compat.CrossClientVectors.Kind;
import io.github.routingkit.compat.CrossClientVectors.Row;
import io.github.routingkit.config.RoutingSpec;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.TopicMetadata;
import org.junit.jupiter.api.Test;

/**
 * {@link RoutingMessageRouter} as a Java producer's router that agrees with the Pulsar C++ client
 * (and so the Python and Node.js clients): every key of the cross-client vectors that is UTF-8
 * text, set with {@code key(String)} on a real pulsar-client message, lands where
 * {@code boost::hash} of each Boost generation puts it; and {@code routing.key.format} on keys set
 * with {@code keyBytes(...)}.
 */
class RoutingMessageRouterCppAndKeyFormatTest {

  static TopicMetadata partitions(int n) {
    return () -> n;
  }

  static String utf8OrNull(byte[] b) {
    try {
      return UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(b)).toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  @Test
  void aJavaProducerAgreesWithTheCppClientOnTextKeys() {
    CrossClientVectors v = CrossClientVectors.load("pulsar-cpp.tsv.gz");
    Map<String, String> schemes = Map.of(
        "boost-1.74", "pulsar-cpp-boost-pre-1.81",
        "boost-1.74-unsigned-char", "pulsar-cpp-boost-pre-1.81-unsigned-char",
        "boost-1.81", "pulsar-cpp-boost-1.81",
        "boost-1.83", "pulsar-cpp-boost-from-1.82");
    long compared = 0;
    for (Map.Entry<String, String> e : schemes.entrySet()) {
      RoutingMessageRouter router = new RoutingMessageRouter(
          RoutingSpec.parse("routing.scheme=" + e.getValue()));
      int col = v.column(e.getKey());
      for (Row row : v.rows) {
        String text = row.kind() == Kind.BYTES ? utf8OrNull(row.bytes()) : null;
        if (text == null || text.isEmpty()) {
          continue; // the C++ client sends an empty partition key as none (keyless)
        }
        Message<byte[]> msg = RoutingMessageRouterDifferentialTest.keyed(text);
        for (int c = 0; c < v.counts.length; c++) {
          assertThat(router.choosePartition(msg, partitions(v.counts[c])))
              .as("%s %s at %d", e.getValue(), row.label(), v.counts[c])
              .isEqualTo(row.partitions()[col][c]);
          compared++;
        }
      }
    }
    assertThat(compared).isGreaterThan(4 * 30_000 * 10);
  }

  @Test
  void singlePartitionKeylessMessagesStayOnOnePartitionPerRouter() {
    Set<Integer> picks = new HashSet<>();
    for (int r = 0; r < 200; r++) {
      RoutingMessageRouter router = new RoutingMessageRouter(
          RoutingSpec.parse("routing.scheme=pulsar-cpp-boost-from-1.82, routing.keyless=single-partition"));
      Message<byte[]> keyless = RoutingMessageRouterDifferentialTest.message(b -> { });
      int first = router.choosePartition(keyless, partitions(12));
      for (int i = 0; i < 100; i++) {
        assertThat(router.choosePartition(keyless, partitions(12))).isEqualTo(first);
      }
      picks.add(first);
    }
    // routers pick independently: 200 routers over 12 partitions miss one with odds 12*(11/12)^200
    assertThat(picks).hasSize(12);
    assertThat(Routers.pulsarCppDefault().keylessPolicy()).isSameAs(KeylessPolicy.SINGLE_PARTITION);
  }

  static byte[] confluent(int id, byte[] payload) {
    return ByteBuffer.allocate(5 + payload.length).put((byte) 0).putInt(id).put(payload).array();
  }

  @Test
  void keyFormatRoutesByteKeysByTheirPayload() {
    RoutingMessageRouter router = new RoutingMessageRouter(
        RoutingSpec.parse("routing.scheme=pulsar-murmur3, routing.key.format=confluent"));
    RoutingMessageRouter plain = new RoutingMessageRouter(RoutingSpec.parse("routing.scheme=pulsar-murmur3"));
    int moved = 0;
    for (int i = 0; i < 2000; i++) {
      byte[] payload = ("\u000ecustomer-" + i).getBytes(UTF_8); // an Avro string: length, bytes
      Message<byte[]> v1 = RoutingMessageRouterDifferentialTest.keyedBytes(confluent(101, payload));
      Message<byte[]> v2 = RoutingMessageRouterDifferentialTest.keyedBytes(confluent(102, payload));
      int p = router.choosePartition(v1, partitions(24));
      assertThat(router.choosePartition(v2, partitions(24))).isEqualTo(p);
      assertThat(p).isEqualTo(Routers.pulsarMurmur3().partition(payload, 24));
      if (plain.choosePartition(v1, partitions(24)) != plain.choosePartition(v2, partitions(24))) {
        moved++;
      }
      // a text key carries no header: routed by its text, as without the setting
      Message<byte[]> text = RoutingMessageRouterDifferentialTest.keyed("customer-" + i);
      assertThat(router.choosePartition(text, partitions(24)))
          .isEqualTo(plain.choosePartition(text, partitions(24)));
    }
    // without the key format the new schema id moves most keys (the Base64 text is hashed)
    assertThat(moved).isGreaterThan(1500);
  }
}
