package io.github.routingkit.config;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.RoutingConfigException;
import io.github.routingkit.hash.HashScheme;

import io.github.routingkit.property.Gen;
import io.github.routingkit.property.Property;
import io.github.routingkit.property.RoutingGen;
import org.junit.jupiter.api.Test;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Whatever layers a spec combines, routing returns a partition in [0, n) or throws the documented
 * exception for a count the spec does not fit; and the spec's string form round-trips.
 */
class RoutingSpecRangeProperties {
  Gen<String> specs() {
    Gen<String> scheme = Gen.of(HashScheme.values()).map(s -> "routing.scheme=" + s.id());
    Gen<String> placement = Gen.of("native", "modulo", "jump", "jump-back").map(p -> "routing.placement=" + p);
    Gen<String> segments = Gen.of(
        "routing.segment.ranges=a:0-2,b:3-4, routing.segment.exclusive=b",
        "routing.segment.weights=a:3,b:1,*:1, routing.segment.exclusive=a,b",
        "routing.segment.weights=a:1,b:1",
        "routing.segment.ranges=a:0,b:5-9, routing.segment.separator=/");
    Gen<String> hot = Gen.of(
        "routing.hotkey.keys=a:1,b/1,k1, routing.hotkey.choice=value-hash",
        "routing.hotkey.keys=a:1, routing.hotkey.candidates=all, routing.hotkey.choice=round-robin",
        "routing.hotkey.detect=true, routing.hotkey.threshold=0.2, routing.hotkey.window=1000,"
            + " routing.hotkey.memory=2000, routing.hotkey.candidates=3");
    Gen<String> versions = Gen.of(
        "routing.version.generations=v1:kafka-murmur2:native:6,v2:xxh3-64:jump:*,"
            + " routing.version.default=v1",
        "routing.version.generations=old:sarama-fnv1a,new:librdkafka-crc32:jump:9,"
            + " routing.version.default=new, routing.version.separator=#",
        "routing.version.generations=v1:pulsar-murmur3:jump:8,v2:xxh3-64:jump-back:*,"
            + " routing.version.default=v2");
    return Gen.combine(scheme, placement, segments.injectNull(0.4), hot.injectNull(0.4),
        versions.injectNull(0.6), (s, p, seg, h, v) -> {
          List<String> parts = new ArrayList<>();
          if (v == null) {
            parts.add(s);
            parts.add(p);
          } else {
            parts.add(v);
          }
          if (seg != null) {
            parts.add(seg);
          }
          if (h != null) {
            parts.add(h);
          }
          return String.join(", ", parts);
        });
  }
  Gen<List<String>> keys() {
    return Gen.combine(Gen.of("", "a:", "b:", "b/", "v2|", "v1|b:", "new#a:", "old#"),
        Gen.strings(0, 12), (prefix, rest) -> prefix + rest)
        .list(1, 30);
  }

  @Test
  void everyCombinationStaysInRange() {
    Property.check(400, specs(), Gen.ints(1, 64), keys(), (text, n, keys) -> {
      RoutingSpec spec = RoutingSpec.parse(text);
      assertThat(RoutingSpec.parse(spec.toString())).isEqualTo(spec);
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
        out.writeObject(spec.keyRouter());
      }
      KeyRouter copy = (KeyRouter) new ObjectInputStream(
          new ByteArrayInputStream(bytes.toByteArray())).readObject();
      KeyRouter router = spec.keyRouter();
      for (String key : keys) {
        byte[] k = key.getBytes(UTF_8);
        int p;
        try {
          p = router.partition(k, k, n);
        } catch (RoutingConfigException | IllegalStateException e) {
          continue; // the spec does not fit n: a clear, documented exception
        }
        assertThat(p).isBetween(0, n - 1);
        assertThat(router.partition(key, n)).isBetween(0, n - 1);
        assertThat(copy.partition(k, k, n)).isBetween(0, n - 1);
      }
    });
  }
}
