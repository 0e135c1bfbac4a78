package io.github.routingkit.router.version;


import io.github.routingkit.KeyRouter;
import io.github.routingkit.Routers;
import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.RoutingConfigException;
import io.github.routingkit.property.Gen;
import io.github.routingkit.property.Property;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import org.junit.jupiter.api.Test;

class VersionedRouterTest {

  static VersionedRouter router() {
    return VersionedRouter.builder()
        .generation("v1", Routers.kafkaDefault(), 12)
        .generation("v2", Routers.consistent(), 0)
        .defaultVersion("v1").build();
  }

  @Test
  void untaggedKeysKeepTheDefaultGenerationWhenTheTopicGrows() {
    VersionedRouter r = router();
    KeyRouter murmur = Routers.kafkaDefault();
    for (int i = 0; i < 5000; i++) {
      byte[] k = ("order-" + i).getBytes(UTF_8);
      int p12 = murmur.partition(k, 12);
      assertThat(r.partition(k, 12)).isEqualTo(p12);
      assertThat(r.partition(k, 16)).as("old keys do not move when the topic grows").isEqualTo(p12);
      assertThat(r.partition(("v1|order-" + i).getBytes(UTF_8), 16)).isEqualTo(p12);
      assertThat(r.partition("v2|order-" + i, 16))
          .isEqualTo(Routers.consistent().partition(k, 16));
      // a prefix that names no generation is part of the key
      byte[] odd = ("v9|order-" + i).getBytes(UTF_8);
      assertThat(r.partition(odd, 16)).isEqualTo(murmur.partition(odd, 12));
    }
  }

  @Test
  void headerSourceAndErrors() {
    VersionedRouter r = VersionedRouter.builder()
        .generation("v1", Routers.kafkaDefault(), 12)
        .generation("v2", Routers.consistent(), 0)
        .defaultVersion("v1").source(VersionedRouter.Source.HEADER).build();
    byte[] k = "v2|x".getBytes(UTF_8);
    assertThat(r.partition(k, 16)).isEqualTo(Routers.kafkaDefault().partition(k, 12));
    assertThat(r.partition("v2", k, null, 16)).isEqualTo(Routers.consistent().partition(k, 16));
    assertThat(r.partition(null, k, null, 16)).isEqualTo(Routers.kafkaDefault().partition(k, 12));
    assertThatThrownBy(() -> r.partition("v3", k, null, 16))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'v3'");
    assertThatThrownBy(() -> r.partition(k, 8))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("generation 'v1' routes over 12 partitions but the topic has 8");
    assertThatThrownBy(() -> VersionedRouter.builder()
        .generation("v1", Routers.kafkaDefault(), 0).defaultVersion("v0").build())
        .isInstanceOf(IllegalArgumentException.class).isNotInstanceOf(RoutingConfigException.class)
        .hasMessageContaining("default version was 'v0'").hasMessageNotContaining("routing.");
    assertThatThrownBy(() -> RoutingSpec.parse("routing.version.generations=v1:kafka-murmur2,"
            + " routing.version.default=v0"))
        .isInstanceOf(RoutingConfigException.class).hasMessageContaining("routing.version.default");
    assertThatThrownBy(() -> VersionedRouter.builder()
        .generation("v|1", Routers.kafkaDefault(), 0).defaultVersion("v|1").build())
        .hasMessageContaining("must not contain the separator");
  }

  @Test
  void alwaysInRange() {
    Property.check(300, Gen.strings(0, 255), Gen.ints(12, 500), (key, n) -> {
      assertThat(router().partition(key, n)).isBetween(0, n - 1);
      assertThat(router().partition("v2|" + key, n)).isBetween(0, n - 1);
    });
  }

  @Test
  void survivesSerialization() throws Exception {
    VersionedRouter r = router();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(r);
    }
    KeyRouter copy = (KeyRouter) new ObjectInputStream(
        new ByteArrayInputStream(bytes.toByteArray())).readObject();
    for (int i = 0; i < 300; i++) {
      String k = (i % 2 == 0 ? "v2|" : "") + "k" + i;
      assertThat(copy.partition(k, 20)).isEqualTo(r.partition(k, 20));
    }
  }
}
