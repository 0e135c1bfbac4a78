package io.github.routingkit.router;


import io.github.routingkit.KeyRouter;
import io.github.routingkit.KeylessPolicy;
import io.github.routingkit.Routers;
import io.github.routingkit.testing.EdgeKeys;
import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.placement.Placement;

import io.github.routingkit.property.Gen;
import io.github.routingkit.property.Property;
import org.junit.jupiter.api.Test;
import static io.github.routingkit.testing.TestSerialization.deserialize;
import static io.github.routingkit.testing.TestSerialization.replace;
import static io.github.routingkit.testing.TestSerialization.roundTrip;
import static io.github.routingkit.testing.TestSerialization.serialize;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InvalidObjectException;
import java.util.ArrayList;
import java.util.List;

/**
 * Properties every {@link HashRouter} has for every scheme, placement and keyless policy:
 * determinism across calls, instances, specs and serialization round trips; a partition in
 * {@code [0, n)} for every key and every {@code n} in 1..10,000; an
 * {@link IllegalArgumentException} naming the value for {@code n < 1}.
 */
class HashRouterProperties {

  @Test
  void sameKeySameCountSamePartitionEverywhere() {
    Property.check(2000, keys(), Gen.ints(1, 10_000), Gen.enums(HashScheme.class), Gen.enums(KeylessPolicy.class), (key, n, scheme, keyless) -> {
      HashRouter router = HashRouter.of(scheme, keyless);
      int p = router.partition(key, n);
      RoutingSpec spec = RoutingSpec.defaults().withScheme(scheme).withKeyless(keyless);
      List<KeyRouter> others = new ArrayList<>(List.of(
          router,
          HashRouter.of(scheme, keyless),
          HashRouter.of(scheme, scheme.nativePlacement(), keyless),
          roundTrip(router),
          spec.keyRouter(),
          RoutingSpec.parse(spec.toString()).keyRouter(),
          roundTrip(spec).keyRouter(),
          roundTrip(spec.keyRouter())));
      for (KeyRouter other : others) {
        assertThat(other.partition(key, n)).as("%s", other).isEqualTo(p);
        assertThat(other.partition(key, n)).as("%s again", other).isEqualTo(p);
      }
      assertThat(roundTrip(router)).isEqualTo(router).hasSameHashCodeAs(router);
      assertThat(roundTrip(spec)).isEqualTo(spec).hasSameHashCodeAs(spec);
    });
  }

  @Test
  void sameStringKeySamePartitionEverywhere() {
    Property.check(1000, text(), Gen.ints(1, 10_000), Gen.enums(HashScheme.class), (key, n, scheme) -> {
      HashRouter router = HashRouter.of(scheme, KeylessPolicy.ROUND_ROBIN);
      int p = router.partition(key, n);
      assertThat(roundTrip(router).partition(key, n)).isEqualTo(p);
      assertThat(HashRouter.of(scheme, KeylessPolicy.RANDOM).partition(key, n)).isEqualTo(p);
      assertThat(router.partition(new StringBuilder(key), n)).isEqualTo(p);
      if (scheme != HashScheme.PULSAR_JAVA_STRING || key.equals(new String(key.getBytes(UTF_8), UTF_8))) {
        // String routing = routing of getBytes(UTF_8), except JavaStringHash on unpaired surrogates
        assertThat(router.partition(key.getBytes(UTF_8), n)).isEqualTo(p);
      }
    });
  }

  @Test
  void everyPartitionIsInRange() {
    Property.check(3000, keys(), counts(), Gen.enums(HashScheme.class), Gen.enums(Placement.class), Gen.enums(KeylessPolicy.class), (key, n, scheme, placement, keyless) -> {
      HashRouter router = HashRouter.of(scheme, placement, keyless);
      assertThat(router.partition(key, n)).isBetween(0, n - 1);
      byte[] padded = new byte[key.length + 3];
      System.arraycopy(key, 0, padded, 2, key.length);
      assertThat(router.partition(padded, 2, key.length, n)).isBetween(0, n - 1);
      assertThat(router.partition(new String(key, UTF_8), n)).isBetween(0, n - 1);
      assertThat(router.partition((byte[]) null, n)).isBetween(0, n - 1);
      assertThat(router.partition((CharSequence) null, n)).isBetween(0, n - 1);
      assertThat(router.keylessPartition(n)).isBetween(0, n - 1);
    });
  }

  /** Every placement maps every int, Integer.MIN_VALUE included (Gen.ints()'s edge cases), into range. */
  @Test
  void placementsStayInRange() {
    Property.check(5000, Gen.ints(), counts(), Gen.enums(Placement.class), (hash, n, placement) -> {
      assertThat(placement.place(hash, n)).isBetween(0, n - 1);
    });
  }

  @Test
  void placementsOnExtremeHashesAndCounts() {
    int[] hashes = {Integer.MIN_VALUE, Integer.MIN_VALUE + 1, -1, 0, 1, Integer.MAX_VALUE};
    int[] counts = {1, 2, 3, 1000, 10_000, Integer.MAX_VALUE - 1, Integer.MAX_VALUE};
    for (Placement placement : Placement.values()) {
      for (int h : hashes) {
        for (int n : counts) {
          assertThat(placement.place(h, n)).as("%s %d %d", placement, h, n).isBetween(0, n - 1);
        }
      }
    }
    assertThat(Placement.KAFKA_TO_POSITIVE.place(Integer.MIN_VALUE, 7)).isZero();
    assertThat(Placement.FLOOR_MOD.place(-1, 7)).isEqualTo(6);
  }

  @Test
  void nonPositiveCountsThrowNamingTheValue() {
    Property.check(500, badCounts(), Gen.enums(HashScheme.class), Gen.enums(Placement.class), Gen.enums(KeylessPolicy.class), Gen.bytes(0, 20), (n, scheme, placement, keyless, key) -> {
      HashRouter router = HashRouter.of(scheme, placement, keyless);
      String value = String.valueOf(n);
      assertThatThrownBy(() -> router.partition(key, n))
          .isExactlyInstanceOf(IllegalArgumentException.class).hasMessageContaining(value);
      assertThatThrownBy(() -> router.partition(key, 0, key.length, n))
          .isExactlyInstanceOf(IllegalArgumentException.class).hasMessageContaining(value);
      assertThatThrownBy(() -> router.partition("k", n))
          .isExactlyInstanceOf(IllegalArgumentException.class).hasMessageContaining(value);
      assertThatThrownBy(() -> router.partition((byte[]) null, n))
          .isExactlyInstanceOf(IllegalArgumentException.class).hasMessageContaining(value);
      assertThatThrownBy(() -> router.partition((CharSequence) null, n))
          .isExactlyInstanceOf(IllegalArgumentException.class).hasMessageContaining(value);
      assertThatThrownBy(() -> router.keylessPartition(n))
          .isExactlyInstanceOf(IllegalArgumentException.class).hasMessageContaining(value);
      assertThatThrownBy(() -> placement.place(42, n))
          .isExactlyInstanceOf(IllegalArgumentException.class).hasMessageContaining(value);
    });
  }

  @Test
  void badSlicesThrowIndexOutOfBounds() {
    HashRouter router = Routers.kafkaDefault();
    byte[] key = new byte[4];
    assertThatThrownBy(() -> router.partition(key, -1, 2, 3))
        .isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> router.partition(key, 3, 2, 3))
        .isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> router.partition(key, 0, -1, 3))
        .isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> router.partition(null, 0, 0, 3))
        .isInstanceOf(NullPointerException.class);
  }

  /** A tampered serialized router is rejected, not silently rebuilt with another scheme. */
  @Test
  void corruptSerializedRouterIsRejected() throws IOException {
    byte[] bytes = serialize(Routers.pulsarMurmur3());
    replace(bytes, "PULSAR_MURMUR3", "PULSAR_MURMURX");
    assertThatThrownBy(() -> deserialize(bytes)).isInstanceOf(InvalidObjectException.class)
        .hasMessageContaining("PULSAR_MURMURX");
  }

  Gen<byte[]> keys() {
    return Gen.oneOf(
        Gen.bytes(0, 64),
        Gen.strings(0, 20).map(s -> s.getBytes(UTF_8)),
        Gen.of(EdgeKeys.strings()).map(s -> s.getBytes(UTF_8)),
        Gen.bytes(1000, 5000)).withEdges(utf8(EdgeKeys.strings()));
  }

  private static List<byte[]> utf8(List<String> keys) {
    List<byte[]> out = new ArrayList<>();
    keys.forEach(k -> out.add(k.getBytes(UTF_8)));
    return out;
  }
  Gen<String> text() {
    return Gen.oneOf(
        Gen.strings(0, 30),
        Gen.strings(Gen.ints(0xD7F0, 0xE010).map(i -> (char) (int) i), 0, 10),
        Gen.of(EdgeKeys.strings())).withEdges(EdgeKeys.strings());
  }
  Gen<Integer> counts() {
    return Gen.oneOf(
        Gen.ints(1, 10_000),
        Gen.of(1, 2, 3, 12, 24, 1000, 9_999, 10_000)).withEdges(1, 2, 3, 12, 24, 1000, 9_999, 10_000);
  }
  Gen<Integer> badCounts() {
    return Gen.oneOf(
        Gen.ints(Integer.MIN_VALUE, 0),
        Gen.of(0, -1, Integer.MIN_VALUE)).withEdges(0, -1, Integer.MIN_VALUE);
  }

}
