package io.github.routingkit.config;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.RoutingConfigException;

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
import java.util.List;

/**
 * Whatever layers a spec combines, routing returns a partition in [0, n) or throws the documented
 * exception for a count the spec does not fit; and the spec's string form round-trips.
 */
class RoutingSpecRangeProperties {
  Gen<String> specs() {
    return RoutingGen.specs();
  }
  Gen<List<String>> keys() {
    return Gen.combine(Gen.of("", "a:", "b:", "b/", "v2|", "v1|b:", "new#a:", "old#", "x|a:"),
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
