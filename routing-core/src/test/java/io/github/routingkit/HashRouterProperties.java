package io.github.routingkit;

import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.placement.Placement;
import io.github.routingkit.router.HashRouter;

import static io.github.routingkit.TestSerialization.deserialize;
import static io.github.routingkit.TestSerialization.replace;
import static io.github.routingkit.TestSerialization.roundTrip;
import static io.github.routingkit.TestSerialization.serialize;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InvalidObjectException;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Properties every {@link HashRouter} has for every scheme, placement and keyless policy:
 * determinism across calls, instances, specs and serialization round trips; a partition in
 * {@code [0, n)} for every key and every {@code n} in 1..10,000; an
 * {@link IllegalArgumentException} naming the value for {@code n < 1}.
 */
class HashRouterProperties {

  @Property(tries = 2000)
  void sameKeySameCountSamePartitionEverywhere(
      @ForAll("keys") byte[] key,
      @ForAll @IntRange(min = 1, max = 10_000) int n,
      @ForAll HashScheme scheme,
      @ForAll KeylessPolicy keyless) throws Exception {
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
  }

  @Property(tries = 1000)
  void sameStringKeySamePartitionEverywhere(
      @ForAll("text") String key,
      @ForAll @IntRange(min = 1, max = 10_000) int n,
      @ForAll HashScheme scheme) throws Exception {
    HashRouter router = HashRouter.of(scheme, KeylessPolicy.ROUND_ROBIN);
    int p = router.partition(key, n);
    assertThat(roundTrip(router).partition(key, n)).isEqualTo(p);
    assertThat(HashRouter.of(scheme, KeylessPolicy.RANDOM).partition(key, n)).isEqualTo(p);
    assertThat(router.partition(new StringBuilder(key), n)).isEqualTo(p);
    if (scheme != HashScheme.PULSAR_JAVA_STRING || key.equals(new String(key.getBytes(UTF_8), UTF_8))) {
      // String routing = routing of getBytes(UTF_8), except JavaStringHash on unpaired surrogates
      assertThat(router.partition(key.getBytes(UTF_8), n)).isEqualTo(p);
    }
  }

  @Property(tries = 3000)
  void everyPartitionIsInRange(
      @ForAll("keys") byte[] key,
      @ForAll("counts") int n,
      @ForAll HashScheme scheme,
      @ForAll Placement placement,
      @ForAll KeylessPolicy keyless) {
    HashRouter router = HashRouter.of(scheme, placement, keyless);
    assertThat(router.partition(key, n)).isBetween(0, n - 1);
    byte[] padded = new byte[key.length + 3];
    System.arraycopy(key, 0, padded, 2, key.length);
    assertThat(router.partition(padded, 2, key.length, n)).isBetween(0, n - 1);
    assertThat(router.partition(new String(key, UTF_8), n)).isBetween(0, n - 1);
    assertThat(router.partition((byte[]) null, n)).isBetween(0, n - 1);
    assertThat(router.partition((CharSequence) null, n)).isBetween(0, n - 1);
    assertThat(router.keylessPartition(n)).isBetween(0, n - 1);
  }

  /** Every placement maps every int, Integer.MIN_VALUE included (jqwik's edge cases), into range. */
  @Property(tries = 5000)
  void placementsStayInRange(@ForAll int hash, @ForAll("counts") int n, @ForAll Placement placement) {
    assertThat(placement.place(hash, n)).isBetween(0, n - 1);
  }

  @Example
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

  @Property(tries = 500)
  void nonPositiveCountsThrowNamingTheValue(
      @ForAll("badCounts") int n,
      @ForAll HashScheme scheme,
      @ForAll Placement placement,
      @ForAll KeylessPolicy keyless,
      @ForAll @Size(max = 20) byte[] key) {
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
  }

  @Example
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
  @Example
  void corruptSerializedRouterIsRejected() throws IOException {
    byte[] bytes = serialize(Routers.pulsarMurmur3());
    replace(bytes, "PULSAR_MURMUR3", "PULSAR_MURMURX");
    assertThatThrownBy(() -> deserialize(bytes)).isInstanceOf(InvalidObjectException.class)
        .hasMessageContaining("PULSAR_MURMURX");
  }

  @Example
  void corruptSerializedSpecIsRejected() throws IOException {
    byte[] bytes = serialize(RoutingSpec.defaults().withScheme(HashScheme.PULSAR_MURMUR3));
    replace(bytes, "pulsar-murmur3", "pulsar-murmurX");
    assertThatThrownBy(() -> deserialize(bytes)).isInstanceOf(InvalidObjectException.class)
        .hasMessageContaining("pulsar-murmurX");
  }

  @Provide
  Arbitrary<byte[]> keys() {
    return Arbitraries.oneOf(
        Arbitraries.bytes().array(byte[].class).ofMaxSize(64),
        Arbitraries.strings().all().ofMaxLength(20).map(s -> s.getBytes(UTF_8)),
        Arbitraries.of(EdgeKeys.strings()).map(s -> s.getBytes(UTF_8)),
        Arbitraries.bytes().array(byte[].class).ofMinSize(1000).ofMaxSize(5000));
  }

  @Provide
  Arbitrary<String> text() {
    return Arbitraries.oneOf(
        Arbitraries.strings().all().ofMaxLength(30),
        Arbitraries.strings().withCharRange('\uD7F0', '\uE010').ofMaxLength(10),
        Arbitraries.of(EdgeKeys.strings()));
  }

  @Provide
  Arbitrary<Integer> counts() {
    return Arbitraries.oneOf(
        Arbitraries.integers().between(1, 10_000),
        Arbitraries.of(1, 2, 3, 12, 24, 1000, 9_999, 10_000));
  }

  @Provide
  Arbitrary<Integer> badCounts() {
    return Arbitraries.oneOf(
        Arbitraries.integers().between(Integer.MIN_VALUE, 0),
        Arbitraries.of(0, -1, Integer.MIN_VALUE));
  }

}
