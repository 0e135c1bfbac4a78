package io.github.routingkit.config;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.routingkit.KeylessPolicy;
import io.github.routingkit.RoutingConfigException;
import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.placement.Placement;
import io.github.routingkit.router.HashRouter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * One placement vocabulary. {@code routing.placement} (and a generation's
 * placement) takes the aliases {@code native} and {@code modulo} and every concrete placement id;
 * a spec keeps what was written (round-trip), {@code describePlacement()} reports what it resolved
 * to, and a bad value lists every accepted name.
 */
class PlacementVocabularyTest {
  private static final String LIST = "[native, modulo, jump, jump-back, floor-mod, to-positive,"
      + " unsigned-mod, abs-remainder]";

  @Test
  void everyConcretePlacementIdIsAValueAndResolvesToItselfForEveryScheme() {
    for (Placement p : Placement.values()) {
      assertThat(RoutingSpec.placementValues()).contains(p.id());
      for (HashScheme scheme : HashScheme.values()) {
        RoutingSpec s = RoutingSpec.parse(Map.of(RoutingSpec.SCHEME, scheme.id(),
            RoutingSpec.PLACEMENT, p.id()));
        assertThat(s.placement()).as("%s %s", scheme, p).isEqualTo(p);
        assertThat(s.placementSetting()).isEqualTo(p.id());
        assertThat(s.describePlacement()).isEqualTo(p.id());
        assertThat(s.keyRouter()).isEqualTo(HashRouter.of(scheme, p, KeylessPolicy.ROUND_ROBIN));
        assertThat(s.toMap()).containsEntry(RoutingSpec.PLACEMENT, p.id());
        assertThat(RoutingSpec.parse(s.toString())).isEqualTo(s);
        assertThat(RoutingSpec.parse(s.toMap())).isEqualTo(s);
      }
    }
    assertThat(RoutingSpec.placementValues()).hasSize(Placement.values().length + 2);
  }

  @Test
  void theAliasesResolvePerSchemeKeepWhatWasWrittenAndDescribeTheResolution() {
    for (HashScheme scheme : HashScheme.values()) {
      RoutingSpec nat = RoutingSpec.defaults().withScheme(scheme).withPlacement("native");
      assertThat(nat.placement()).isEqualTo(scheme.nativePlacement());
      assertThat(nat.placementSetting()).isEqualTo("native");
      assertThat(nat.describePlacement()).isEqualTo(
          "native (" + scheme.nativePlacement().id() + " for " + scheme.id() + ")");
      assertThat(nat.toMap()).doesNotContainKey(RoutingSpec.PLACEMENT); // the default
      RoutingSpec mod = nat.withPlacement("modulo");
      assertThat(mod.placement()).isEqualTo(scheme.moduloPlacement());
      assertThat(mod.describePlacement()).isEqualTo(
          "modulo (" + scheme.moduloPlacement().id() + " for " + scheme.id() + ")");
      assertThat(mod.toString()).contains("routing.placement=modulo");
      assertThat(RoutingSpec.parse(mod.toString())).isEqualTo(mod);
    }
    assertThat(RoutingSpec.parse("routing.scheme=pulsar-murmur3").describePlacement())
        .isEqualTo("native (floor-mod for pulsar-murmur3)");
    // what was written is kept: an alias and the placement it names are different settings
    RoutingSpec alias = RoutingSpec.parse("routing.scheme=pulsar-murmur3, routing.placement=native");
    RoutingSpec concrete = RoutingSpec.parse(
        "routing.scheme=pulsar-murmur3, routing.placement=floor-mod");
    assertThat(alias.keyRouter()).isEqualTo(concrete.keyRouter());
    assertThat(alias).isNotEqualTo(concrete);
  }

  @Test
  void generationsTakeTheSameVocabulary() {
    RoutingSpec gens = RoutingSpec.parse("routing.version.generations="
        + "v1:kafka-murmur2:floor-mod:12,v2:pulsar-murmur3:to-positive:*,v3:xxh3-64:modulo,"
        + " routing.version.default=v2");
    assertThat(RoutingSpec.parse(gens.toString())).isEqualTo(gens);
    byte[] key = "v1|order-42".getBytes(UTF_8);
    byte[] bare = "order-42".getBytes(UTF_8);
    assertThat(gens.keyRouter().partition(key, 12)).isEqualTo(
        HashRouter.of(HashScheme.KAFKA_MURMUR2, Placement.FLOOR_MOD, KeylessPolicy.ROUND_ROBIN)
            .partition(bare, 12));
    assertThat(gens.keyRouter().partition(bare, 20)).isEqualTo(
        HashRouter.of(HashScheme.PULSAR_MURMUR3, Placement.KAFKA_TO_POSITIVE,
            KeylessPolicy.ROUND_ROBIN).partition(bare, 20));
    assertThatThrownBy(() -> RoutingSpec.parse(
        "routing.version.generations=v1:xxh3-64:floormod, routing.version.default=v1"))
        .isInstanceOf(RoutingConfigException.class)
        .hasMessageContaining("generation 'v1' placement 'floormod' must be one of " + LIST);
  }

  @Test
  void badValuesListEveryAcceptedName() {
    for (String bad : List.of("consistent", "floor_mod", "FLOOR-MOD", "toPositive")) {
      assertThatThrownBy(() -> RoutingSpec.defaults().withPlacement(bad))
          .isInstanceOf(RoutingConfigException.class)
          .hasMessage("routing.placement value was '" + bad + "', must be one of " + LIST);
      assertThatThrownBy(() -> RoutingSpec.parse(Map.of(RoutingSpec.PLACEMENT, bad)))
          .isInstanceOf(RoutingConfigException.class)
          .hasMessageContaining("must be one of " + LIST);
    }
  }
}
