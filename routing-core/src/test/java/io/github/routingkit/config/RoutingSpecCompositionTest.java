package io.github.routingkit.config;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.KeylessPolicy;
import io.github.routingkit.Routers;
import io.github.routingkit.RoutingConfigException;
import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.placement.Placement;
import io.github.routingkit.router.HashRouter;
import io.github.routingkit.router.version.VersionedRouter;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class RoutingSpecCompositionTest {

  @Test
  void defaultsAreUnchanged() {
    RoutingSpec d = RoutingSpec.parse(Map.of());
    assertThat(d).isEqualTo(RoutingSpec.defaults());
    assertThat(d.keyRouter()).isEqualTo(Routers.kafkaDefault());
    assertThat(RoutingSpec.parse(d.toString())).isEqualTo(d);
    assertThat(d.toString()).isEqualTo(
        "routing.keyless=round-robin, routing.scheme=kafka-murmur2");
    assertThat(d.withPlacement("jump").toString()).isEqualTo(
        "routing.keyless=round-robin, routing.placement=jump, routing.scheme=kafka-murmur2");
    assertThat(RoutingSpec.parse(d.withPlacement("modulo").toString()))
        .isEqualTo(d.withPlacement("modulo"));
  }

  @Test
  void placementAndCrossClientSchemes() {
    RoutingSpec s = RoutingSpec.parse("routing.scheme=xxh3-64");
    assertThat(s.placement()).isEqualTo(Placement.JUMP);
    assertThat(s.withPlacement("modulo").placement()).isEqualTo(Placement.UNSIGNED_MOD);
    assertThat(RoutingSpec.parse("routing.scheme=sarama-fnv1a").keyRouter())
        .isEqualTo(HashRouter.of(HashScheme.SARAMA_FNV1A, KeylessPolicy.ROUND_ROBIN));
    assertThat(RoutingSpec.parse("routing.placement=jump").keyRouter())
        .isEqualTo(HashRouter.of(HashScheme.KAFKA_MURMUR2, Placement.JUMP, KeylessPolicy.ROUND_ROBIN));
    assertThatThrownBy(() -> RoutingSpec.parse("routing.placement=consistent"))
        .isInstanceOf(RoutingConfigException.class)
        .hasMessage("routing.placement value was 'consistent', "
            + "must be one of [native, modulo, jump, jump-back, floor-mod, to-positive, unsigned-mod, abs-remainder]");
  }

  @Test
  void jumpBackPlacementParsesRoundTripsAndBuildsThePreset() {
    RoutingSpec s = RoutingSpec.parse("routing.scheme=xxh3-64, routing.placement=jump-back");
    assertThat(s.placement()).isEqualTo(Placement.JUMP_BACK);
    assertThat(s.keyRouter()).isEqualTo(Routers.consistentJumpBack());
    assertThat(s.toString()).isEqualTo(
        "routing.keyless=round-robin, routing.placement=jump-back, routing.scheme=xxh3-64");
    assertThat(RoutingSpec.parse(s.toString())).isEqualTo(s);
    assertThat(s.toMap()).containsEntry(RoutingSpec.PLACEMENT, "jump-back");
    assertThat(RoutingSpec.defaults().withPlacement("jump-back").keyRouter()).isEqualTo(
        HashRouter.of(HashScheme.KAFKA_MURMUR2, Placement.JUMP_BACK, KeylessPolicy.ROUND_ROBIN));
    assertThat(s.withPlacement("jump").placement()).isEqualTo(Placement.JUMP);
    assertThat(Placement.fromId("jump-back")).isEqualTo(Placement.JUMP_BACK);
    assertThat(Placement.JUMP_BACK.id()).isEqualTo("jump-back");
    assertThatThrownBy(() -> RoutingSpec.parse("routing.placement=jump_back"))
        .isInstanceOf(RoutingConfigException.class)
        .hasMessage("routing.placement value was 'jump_back', "
            + "must be one of [native, modulo, jump, jump-back, floor-mod, to-positive, unsigned-mod, abs-remainder]");
    assertThatThrownBy(() -> RoutingSpec.parse(
        "routing.version.generations=v1:xxh3-64:jumpback, routing.version.default=v1"))
        .isInstanceOf(RoutingConfigException.class)
        .hasMessageContaining("generation 'v1' placement 'jumpback' must be one of "
            + "[native, modulo, jump, jump-back, floor-mod, to-positive, unsigned-mod, abs-remainder]");
    RoutingSpec gens = RoutingSpec.parse("routing.version.generations="
        + "v1:kafka-murmur2:native:12,v2:xxh3-64:jump-back:*, routing.version.default=v2");
    assertThat(RoutingSpec.parse(gens.toString())).isEqualTo(gens);
    byte[] key = "v2|order-42".getBytes(UTF_8);
    byte[] bare = "order-42".getBytes(UTF_8);
    assertThat(gens.keyRouter().partition(key, 16))
        .isEqualTo(Placement.jumpBack(HashScheme.XXH3_64.hash64(bare, 0, bare.length), 16));
  }

  @Test
  void fullCompositionRoundTripsAndRoutes() throws Exception {
    String text = "routing.version.generations=v1:kafka-murmur2:native:12,v2:xxh3-64:jump:*, "
        + "routing.version.default=v1, "
        + "routing.segment.ranges=order:0-5,payment:6-8, routing.segment.exclusive=payment, "
        + "routing.hotkey.keys=order:hot,order:hotter, routing.hotkey.choice=value-hash, "
        + "routing.hotkey.candidates=4";
    RoutingSpec spec = RoutingSpec.parse(text);
    assertThat(RoutingSpec.parse(spec.toString())).isEqualTo(spec);
    Properties props = new Properties();
    spec.toMap().forEach(props::setProperty);
    assertThat(RoutingSpec.parse(props)).isEqualTo(spec);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(spec);
    }
    assertThat(new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray())).readObject())
        .isEqualTo(spec);

    KeyRouter r = spec.keyRouter();
    assertThat(r).isInstanceOf(VersionedRouter.class);
    assertThat(r.needsValue()).isTrue();
    for (int i = 0; i < 2000; i++) {
      // v1 (default): order within 0-5 of the first 12, payment 6-8, others 0-5 + 9-11
      assertThat(r.partition(("order:" + i).getBytes(UTF_8), 16)).isBetween(0, 5);
      assertThat(r.partition(("payment:" + i).getBytes(UTF_8), 16)).isBetween(6, 8);
      int other = r.partition(("misc:" + i).getBytes(UTF_8), 16);
      assertThat(other).isBetween(0, 11).isNotIn(6, 7, 8);
      // v2: jump over all 16; payment's exclusive 6-8 still holds
      int v2 = r.partition(("v2|misc:" + i).getBytes(UTF_8), 16);
      assertThat(v2).isBetween(0, 15).isNotIn(6, 7, 8);
      // the hot key spreads by value over <= 4 partitions inside order's range
      int hot = r.partition("order:hot".getBytes(UTF_8), ("value" + i).getBytes(UTF_8), 16);
      assertThat(hot).isBetween(0, 5);
    }
  }

  @Test
  void badValuesFailAtParseTimeNamingPropertyValueAndRule() {
    assertThatThrownBy(() -> RoutingSpec.parse(Map.of("routing.hotkey.threshold", "0.5")))
        .hasMessage("routing.hotkey.threshold value was '0.5', has no effect unless"
            + " routing.hotkey.detect=true");
    assertThatThrownBy(() -> RoutingSpec.parse(Map.of("routing.hotkey.detect", "yes")))
        .hasMessage("routing.hotkey.detect value was 'yes', must be true or false");
    assertThatThrownBy(() -> RoutingSpec.parse(Map.of("routing.hotkey.detect", "true",
        "routing.hotkey.threshold", "2"))).hasMessageContaining("routing.hotkey.threshold value was '2'");
    assertThatThrownBy(() -> RoutingSpec.parse(Map.of("routing.hotkey.keys", "a",
        "routing.hotkey.candidates", "1"))).hasMessageContaining("routing.hotkey.candidates");
    assertThatThrownBy(() -> RoutingSpec.parse(Map.of("routing.segment.ranges", "a:0-3,b:2-4")))
        .isInstanceOf(RoutingConfigException.class)
        .hasMessageContaining("routing.segment.ranges value was 'a:0-3,b:2-4'")
        .hasMessageContaining("segment 'b'");
    assertThatThrownBy(() -> RoutingSpec.parse(Map.of("routing.segment.exclusive", "a")))
        .hasMessageContaining("has no effect unless");
    assertThatThrownBy(() -> RoutingSpec.parse(Map.of("routing.version.generations", "v1:kafka-murmur2")))
        .hasMessageContaining("routing.version.default");
    assertThatThrownBy(() -> RoutingSpec.parse(Map.of("routing.version.generations",
        "v1:murmur", "routing.version.default", "v1"))).hasMessageContaining("generation 'v1' scheme 'murmur'");
    assertThatThrownBy(() -> RoutingSpec.parse(Map.of("routing.version.generations",
        "v1:kafka-murmur2", "routing.version.default", "v1", "routing.scheme", "xxh3-64")))
        .hasMessageContaining("routing.scheme value was 'xxh3-64', cannot be combined");
    assertThatThrownBy(() -> RoutingSpec.parse(Map.of("routing.segmnt.ranges", "a:1")))
        .hasMessageContaining("unknown property");
    RoutingConfigException e = org.junit.jupiter.api.Assertions.assertThrows(
        RoutingConfigException.class,
        () -> RoutingSpec.parse(Map.of("routing.hotkey.detect", "true", "routing.hotkey.memory", "x")));
    assertThat(e.property()).isEqualTo("routing.hotkey.memory");
    assertThat(e.value()).isEqualTo("x");
  }

  @Test
  void aRequiredPropertyThatIsMissingIsNotSetRatherThanNull() {
    // guards against: "routing.version.default value was 'null', must be set ..." for a key never given
    assertThatThrownBy(() -> RoutingSpec.parse(Map.of("routing.version.generations",
        "v1:kafka-murmur2")))
        .isInstanceOf(RoutingConfigException.class)
        .hasMessage("routing.version.default is not set, must name a generation (the one for keys"
            + " without a version tag) when routing.version.generations is set");
    assertThat(new RoutingConfigException("routing.x", "null", "rule").getMessage())
        .as("a value that is the text null is still shown as given")
        .isEqualTo("routing.x value was 'null', rule");
  }

  @Test
  void aTypoedPropertyNamesTheOneItWasMeantToBe() {
    assertThatThrownBy(() -> RoutingSpec.parse(Map.of("routing.placment", "jump")))
        .hasMessageStartingWith("routing.placment value was 'jump', unknown property"
            + " (did you mean routing.placement?), docs/configuration.md lists every routing"
            + " property")
        .hasMessageNotContaining("known routing properties are");
    // the trial's line listed all known properties: with a suggestion it stays short
    assertThat(org.junit.jupiter.api.Assertions.assertThrows(RoutingConfigException.class,
        () -> RoutingSpec.parse(Map.of("routing.segment.weigths", "a:1"))).getMessage())
        .contains("did you mean routing.segment.weights?").hasSizeLessThan(200);
    assertThatThrownBy(() -> RoutingSpec.parse(Map.of("routing.hotkey.smaple", "8")))
        .hasMessageContaining("(did you mean routing.hotkey.sample?)");
    assertThatThrownBy(() -> RoutingSpec.parse(Map.of("routing.colour", "blue")))
        .hasMessageNotContaining("did you mean")
        .hasMessageContaining("unknown property, known routing properties are [");
  }

  /** A spec string key without the routing. prefix gets the same hint as a typo (new-user trial). */
  @Test
  void aSpecStringKeyWithoutThePrefixNamesThePropertyItMeant() {
    assertThatThrownBy(() -> RoutingSpec.parse("scheme=xxh3-64"))
        .isInstanceOf(RoutingConfigException.class)
        .hasMessage("scheme value was 'xxh3-64', unknown property, keys in a spec string must"
            + " start with routing. (did you mean routing.scheme?)");
    assertThatThrownBy(() -> RoutingSpec.parse("colour=blue"))
        .hasMessageEndingWith("must start with routing.");
  }
}
