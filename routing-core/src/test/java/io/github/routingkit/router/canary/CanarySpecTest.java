package io.github.routingkit.router.canary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.KeylessPolicy;
import io.github.routingkit.RoutingConfigException;
import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.property.Gen;
import io.github.routingkit.property.Property;
import io.github.routingkit.property.RoutingGen;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * {@code routing.canary.*} in a {@link RoutingSpec}: parsed from every form, round-trips through
 * the string form, the map, {@link Properties} and Java serialization over random layered specs;
 * routes the in-canary keys by the new spec and the rest (and keyless messages) by the old; every
 * bad value names its property, value and rule; the detector memory bound covers both specs.
 */
class CanarySpecTest {
  private static final String SPEC = "routing.scheme=kafka-murmur2, routing.canary.share=5%,"
      + " routing.canary.next.scheme=xxh3-64, routing.canary.next.placement=jump";

  @SuppressWarnings("unchecked")
  static <T> T roundTrip(T o) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(o);
    }
    return (T) new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray())).readObject();
  }

  @Test
  void everyRandomSpecRoundTripsAndRoutesAsItsParts() {
    Property.check(400, RoutingGen.specs(), RoutingGen.keys().list(1, 20), Gen.ints(10, 64),
        (text, keys, n) -> {
          RoutingSpec spec = RoutingSpec.parse(text);
          assertThat(RoutingSpec.parse(spec.toString())).isEqualTo(spec);
          assertThat(RoutingSpec.parse(spec.toMap())).isEqualTo(spec);
          Properties props = new Properties();
          props.putAll(spec.toMap());
          assertThat(RoutingSpec.parse(props)).isEqualTo(spec);
          assertThat(roundTrip(spec)).isEqualTo(spec);
          if (!text.contains("routing.canary.share")) {
            assertThat(spec.canaryNext()).isNull();
            assertThat(spec.canaryShare()).isNaN();
            return;
          }
          KeyRouter router = spec.keyRouter();
          assertThat(router).isInstanceOf(CanaryRouter.class);
          KeyRouter copy = roundTrip(router);
          KeyRouter old = spec.withoutCanary().keyRouter();
          KeyRouter next = spec.canaryNext().keyRouter();
          for (String key : keys) {
            byte[] k = key.getBytes(StandardCharsets.UTF_8);
            int want;
            try {
              want = (CanaryRouter.point(k) < spec.canaryShare() ? next : old).partition(k, n);
            } catch (IllegalArgumentException | IllegalStateException e) {
              continue; // a segment or generation that does not fit n, in either spec
            }
            // hot keys with a load-based choice are not pure: only their range is checked
            boolean pure = !text.contains("hotkey");
            int got = router.partition(k, n);
            assertThat(got).isBetween(0, n - 1);
            assertThat(copy.partition(k, n)).isBetween(0, n - 1);
            if (pure) {
              assertThat(got).as("%s on %s", key, text).isEqualTo(want);
              assertThat(copy.partition(k, n)).isEqualTo(want);
            }
          }
        });
  }

  @Test
  void percentAndDecimalSharesAreTheSameShare() {
    assertThat(RoutingSpec.parse(SPEC).canaryShare()).isEqualTo(0.05);
    assertThat(RoutingSpec.parse(SPEC.replace("5%", "0.05")).canaryShare()).isEqualTo(0.05);
    assertThat(RoutingSpec.parse(SPEC.replace("5%", "0.1%")).canaryShare()).isEqualTo(0.001);
    assertThat(RoutingSpec.parse(SPEC.replace("5%", "100%")).canaryShare()).isEqualTo(1.0);
    assertThat(RoutingSpec.parse(SPEC.replace("5%", "0")).canaryShare()).isEqualTo(0.0);
    // the spec keeps the text as written: toString round-trips it
    assertThat(RoutingSpec.parse(SPEC).toString()).contains("routing.canary.share=5%");
  }

  @Test
  void routesByTheOldSpecOutsideTheCanaryAndKeylessAlways() {
    RoutingSpec spec = RoutingSpec.parse(SPEC + ", routing.keyless=sticky");
    assertThat(spec.withoutCanary()).isEqualTo(RoutingSpec.parse(
        "routing.scheme=kafka-murmur2, routing.keyless=sticky"));
    assertThat(spec.canaryNext()).isEqualTo(RoutingSpec.parse(
        "routing.scheme=xxh3-64, routing.placement=jump, routing.keyless=sticky"));
    KeyRouter router = spec.keyRouter();
    assertThat(router.keylessPolicy()).isEqualTo(KeylessPolicy.STICKY);
    KeyRouter old = spec.withoutCanary().keyRouter();
    KeyRouter next = spec.canaryNext().keyRouter();
    int in = 0;
    for (int i = 0; i < 20_000; i++) {
      String key = "order-" + i;
      boolean canary = CanaryRouter.point(key) < 0.05;
      in += canary ? 1 : 0;
      assertThat(router.partition(key, 24)).isEqualTo((canary ? next : old).partition(key, 24));
    }
    assertThat(in).isBetween(850, 1150); // 1000 expected, sigma 31
  }

  @Test
  void aVersionHeaderInTheNewSpecIsAHeaderSpec() {
    RoutingSpec spec = RoutingSpec.parse("routing.canary.share=0.5,"
        + " routing.canary.next.version.generations=v1:kafka-murmur2,v2:xxh3-64,"
        + " routing.canary.next.version.default=v1, routing.canary.next.version.source=header");
    assertThat(spec.readsVersionFromHeader()).isTrue();
    assertThat(spec.withoutCanary().readsVersionFromHeader()).isFalse();
  }

  static RoutingConfigException error(Map<String, String> config) {
    RoutingConfigException e = catchThrowableOfType(RoutingConfigException.class,
        () -> RoutingSpec.parse(config));
    assertThat(e).as("%s must fail", config).isNotNull();
    return e;
  }

  @Test
  void badSharesNamePropertyValueAndRule() {
    for (String bad : List.of("abc", "1.5", "-0.1", "101%", "NaN", "0x1p-3", "5 %%", "%", "",
        "+0.5", "1/2")) {
      RoutingConfigException e = error(Map.of(RoutingSpec.CANARY_SHARE, bad,
          "routing.canary.next.placement", "jump"));
      assertThat(e.property()).isEqualTo(RoutingSpec.CANARY_SHARE);
      assertThat(e.getMessage()).contains("routing.canary.share", "'" + bad.trim() + "'");
      assertThat(e.getMessage()).contains(bad.isEmpty() ? "must not be empty" : "[0, 1]");
    }
  }

  @Test
  void badCombinationsNameTheProperty() {
    assertThat(error(Map.of("routing.canary.next.placement", "jump")).getMessage())
        .contains("routing.canary.next.placement", "has no effect unless routing.canary.share");
    assertThat(error(Map.of(RoutingSpec.CANARY_SHARE, "0.1")).getMessage())
        .contains("routing.canary.share", "routing.canary.next.");
    assertThat(error(Map.of(RoutingSpec.CANARY_SHARE, "0.1", "routing.canary.next.keyless",
        "random")).getMessage()).contains("routing.canary.next.keyless", "routing.keyless");
    assertThat(error(Map.of(RoutingSpec.CANARY_SHARE, "0.1", "routing.canary.next.canary.share",
        "0.2")).getMessage()).contains("routing.canary.next.canary.share", "another canary");
    RoutingConfigException typo = error(Map.of(RoutingSpec.CANARY_SHARE, "0.1",
        "routing.canary.next.sheme", "xxh3-64"));
    assertThat(typo.getMessage()).contains("routing.canary.next.sheme",
        "did you mean routing.canary.next.scheme?");
    RoutingConfigException inner = error(Map.of(RoutingSpec.CANARY_SHARE, "0.1",
        "routing.canary.next.scheme", "bogus"));
    assertThat(inner.property()).isEqualTo("routing.canary.next.scheme");
    assertThat(inner.value()).isEqualTo("bogus");
    assertThat(inner.getMessage()).contains("kafka-murmur2", "new spec");
    RoutingConfigException innerCombo = error(Map.of(RoutingSpec.CANARY_SHARE, "0.1",
        "routing.canary.next.hotkey.choice", "round-robin"));
    assertThat(innerCombo.property()).isEqualTo("routing.canary.next.hotkey.choice");
  }

  @Test
  void detectorMemoryOfBothSpecsCountsTowardsTheBound() {
    String mem = Integer.toString(64 << 20);
    long one = RoutingSpec.parse(Map.of("routing.hotkey.detect", "true",
        "routing.hotkey.memory", mem)).claimedMemoryBytes();
    assertThat(2 * one).isGreaterThan(64 << 20);
    RoutingConfigException e = error(Map.of("routing.hotkey.detect", "true",
        "routing.hotkey.memory", mem, RoutingSpec.CANARY_SHARE, "0.1",
        "routing.canary.next.hotkey.detect", "true", "routing.canary.next.hotkey.memory", mem));
    assertThat(e.property()).isEqualTo("routing.canary.next.hotkey.memory");
    assertThat(e.getMessage()).contains(Long.toString(one), Long.toString(2 * one), "67108864");
    RoutingSpec ok = RoutingSpec.parse(Map.of("routing.hotkey.detect", "true",
        "routing.hotkey.memory", Integer.toString(30 << 20), RoutingSpec.CANARY_SHARE, "0.1",
        "routing.canary.next.hotkey.detect", "true",
        "routing.canary.next.hotkey.memory", Integer.toString(30 << 20)));
    long half = RoutingSpec.parse(Map.of("routing.hotkey.detect", "true",
        "routing.hotkey.memory", Integer.toString(30 << 20))).claimedMemoryBytes();
    assertThat(half).isPositive();
    assertThat(ok.claimedMemoryBytes()).isEqualTo(2 * half);
    assertThat(ok.keyRouter().claimedMemoryBytes()).isEqualTo(2 * half);
    // built in code, the router checks the same bound
    KeyRouter big = RoutingSpec.parse(Map.of("routing.hotkey.detect", "true",
        "routing.hotkey.memory", mem)).keyRouter();
    assertThatThrownBy(() -> CanaryRouter.of(big, big, 0.5))
        .isInstanceOf(RoutingConfigException.class).hasMessageContaining("64 MiB");
  }

  @Test
  void knownPropertiesListTheCanaryKeys() {
    assertThat(RoutingSpec.knownProperties()).contains("routing.canary.share",
        "routing.canary.next.scheme", "routing.canary.next.placement",
        "routing.canary.next.segment.ranges", "routing.canary.next.hotkey.keys",
        "routing.canary.next.version.generations")
        .doesNotContain("routing.canary.next.keyless");
  }

  @Test
  void routerRejectsABadShare() {
    KeyRouter r = RoutingSpec.defaults().keyRouter();
    for (double bad : new double[] {-0.01, 1.01, Double.NaN}) {
      assertThatThrownBy(() -> CanaryRouter.of(r, r, bad))
          .isInstanceOf(RoutingConfigException.class).hasMessageContaining("routing.canary.share");
    }
  }
}
