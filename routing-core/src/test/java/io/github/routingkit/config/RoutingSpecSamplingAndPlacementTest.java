package io.github.routingkit.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.routingkit.RoutingConfigException;
import org.junit.jupiter.api.Test;

/**
 * Specs with sampled detection, jump-back placement and per-generation placements: their string
 * and map forms round-trip, and bad values name the property, the value and the rule.
 */
class RoutingSpecSamplingAndPlacementTest {

  @Test
  void specRoundTrips() {
    String[] specs = {
      "routing.scheme=xxh3-64, routing.placement=jump-back",
      "routing.placement=jump-back",
      "routing.hotkey.detect=true, routing.hotkey.sample=1024, routing.placement=jump-back",
      "routing.hotkey.detect=true, routing.hotkey.sample=1",
      "routing.hotkey.detect=true, routing.hotkey.sample=16, routing.hotkey.threshold=0.5, routing.hotkey.window=6400",
      "routing.version.generations=v1:kafka-murmur2:native:12,v2:xxh3-64:jump-back:*, routing.version.default=v2",
      "routing.version.generations=v1:xxh3-64:jump-back,v2:pulsar-murmur3:jump-back:7, routing.version.default=v1, routing.hotkey.detect=true, routing.hotkey.sample=8",
      "routing.segment.weights=a:1,b:1,*:1, routing.hotkey.detect=true, routing.hotkey.sample=2, routing.placement=jump-back",
    };
    for (String s : specs) {
      RoutingSpec spec = RoutingSpec.parse(s);
      assertThat(RoutingSpec.parse(spec.toString())).as(s).isEqualTo(spec);
      assertThat(RoutingSpec.parse(spec.toMap())).as(s).isEqualTo(spec);
    }
  }

  @Test
  void badSpecsNameTheProperty() {
    String[][] bad = { // spec, start of the message
      {"routing.hotkey.detect=true, routing.hotkey.sample=0",
          "routing.hotkey.sample value was '0', must be a power of two from 1 to 1024"},
      {"routing.hotkey.detect=true, routing.hotkey.sample=2048",
          "routing.hotkey.sample value was '2048', must be a power of two"},
      {"routing.hotkey.detect=true, routing.hotkey.sample=3",
          "routing.hotkey.sample value was '3', must be a power of two"},
      {"routing.hotkey.detect=true, routing.hotkey.sample=-2",
          "routing.hotkey.sample value was '-2', must be a power of two"},
      {"routing.hotkey.detect=true, routing.hotkey.sample=99999999999999999999",
          "routing.hotkey.sample value was '99999999999999999999', must be"},
      {"routing.hotkey.detect=true, routing.hotkey.sample=1.0",
          "routing.hotkey.sample value was '1.0', must be"},
      {"routing.hotkey.detect=true, routing.hotkey.sample=0x10",
          "routing.hotkey.sample value was '0x10', must be"},
      {"routing.hotkey.sample=8",
          "routing.hotkey.sample value was '8', has no effect unless routing.hotkey.detect=true"},
      {"routing.hotkey.detect=false, routing.hotkey.sample=8",
          "routing.hotkey.sample value was '8', has no effect unless"},
      {"routing.hotkey.detect=true, routing.hotkey.sample=1024, routing.hotkey.window=100000",
          "routing.hotkey.window value was '100000', must be at least 200 * sample / threshold = 20480000 messages"},
      {"routing.hotkey.detect=true, routing.hotkey.sample=1024, routing.hotkey.threshold=0.0000000000000000001",
          "routing.hotkey.window value was '100000', must be at least 200 * sample / threshold = 2^63 or more"},
      {"routing.hotkey.detect=true, routing.hotkey.sample=1024, routing.hotkey.window=9223372036854775807, routing.hotkey.threshold=0.000000000000000001",
          "routing.hotkey.window value was '9223372036854775807', must be at least"},
      {"routing.placement=jump-backs",
          "routing.placement value was 'jump-backs', must be one of [native, modulo, jump, jump-back, floor-mod, to-positive, unsigned-mod, abs-remainder]"},
      {"routing.placement=JUMP-BACK",
          "routing.placement value was 'JUMP-BACK', must be one of"},
      {"routing.version.generations=v1:xxh3-64:jump_back, routing.version.default=v1",
          "routing.version.generations value was 'v1:xxh3-64:jump_back', generation 'v1' placement 'jump_back' must be one of"},
      {"routing.version.generations=v1:xxh3-64:jump-back:0, routing.version.default=v1",
          "routing.version.generations value was '0', generation 'v1' partition count '0' must be"},
      {"routing.version.generations=v1:xxh3-64:jump-back:*:x, routing.version.default=v1",
          "routing.version.generations value was 'v1:xxh3-64:jump-back:*:x', entry"},
    };
    for (String[] row : bad) {
      assertThatThrownBy(() -> RoutingSpec.parse(row[0])).as(row[0])
          .isInstanceOf(RoutingConfigException.class).hasMessageStartingWith(row[1]);
    }
  }
}
