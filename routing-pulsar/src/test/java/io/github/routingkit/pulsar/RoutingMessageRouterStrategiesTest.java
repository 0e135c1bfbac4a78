package io.github.routingkit.pulsar;

import io.github.routingkit.Routers;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.routingkit.config.RoutingSpec;
import java.lang.reflect.Proxy;
import java.util.Map;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.TopicMetadata;
import org.junit.jupiter.api.Test;

/** Versions from message properties and value-hash hot keys through the Pulsar adapter. */
class RoutingMessageRouterStrategiesTest {

  static Message<?> message(String key, Map<String, String> properties, byte[] data) {
    return (Message<?>) Proxy.newProxyInstance(Message.class.getClassLoader(),
        new Class<?>[] {Message.class}, (proxy, method, args) -> {
          switch (method.getName()) {
            case "hasKey":
              return key != null;
            case "getKey":
              return key;
            case "getProperty":
              return properties.get((String) args[0]);
            case "getData":
              return data;
            default:
              throw new UnsupportedOperationException(method.getName());
          }
        });
  }

  static final TopicMetadata SIXTEEN = () -> 16;

  @Test
  void versionFromAMessageProperty() {
    RoutingMessageRouter router = new RoutingMessageRouter(RoutingSpec.parse(
        "routing.version.generations=v1:pulsar-java-string:native:12,v2:xxh3-64:jump:*,"
            + " routing.version.default=v1, routing.version.source=header"));
    for (int i = 0; i < 300; i++) {
      String key = "order-" + i;
      assertThat(router.choosePartition(message(key, Map.of(), null), SIXTEEN))
          .isEqualTo(Routers.pulsarDefault().partition(key, 12));
      assertThat(router.choosePartition(message(key, Map.of("routing-version", "v2"), null), SIXTEEN))
          .isEqualTo(Routers.consistent().partition(key, 16));
    }
    assertThatThrownBy(() -> router.choosePartition(
        message("k", Map.of("routing-version", "v7"), null), SIXTEEN))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'v7'");
  }

  /** A canary reaches Pulsar through the spec; a version header in the new spec is read. */
  @Test
  void canaryRoutesItsShareByTheNewSpec() {
    RoutingSpec spec = RoutingSpec.parse("routing.scheme=pulsar-java-string,"
        + " routing.canary.share=0.3, routing.canary.next.version.generations="
        + "v1:pulsar-murmur3,v2:xxh3-64:jump, routing.canary.next.version.default=v1,"
        + " routing.canary.next.version.source=header");
    RoutingMessageRouter router = new RoutingMessageRouter(spec);
    int in = 0;
    for (int i = 0; i < 3000; i++) {
      String key = "order-" + i;
      boolean canary = io.github.routingkit.router.canary.CanaryRouter.point(key) < 0.3;
      in += canary ? 1 : 0;
      assertThat(router.choosePartition(message(key, Map.of(), null), SIXTEEN))
          .isEqualTo(canary ? Routers.pulsarMurmur3().partition(key, 16)
              : Routers.pulsarDefault().partition(key, 16));
      assertThat(router.choosePartition(message(key, Map.of("routing-version", "v2"), null),
          SIXTEEN)).isEqualTo(canary ? Routers.consistent().partition(key, 16)
              : Routers.pulsarDefault().partition(key, 16));
    }
    assertThat(in).isBetween(800, 1000); // 900 expected, sigma 25
  }

  @Test
  void valueHashReadsThePayloadOnlyWhenNeeded() {
    RoutingMessageRouter plain = new RoutingMessageRouter(RoutingSpec.defaults());
    // getData would throw for this message if the adapter asked for it
    Message<?> noData = (Message<?>) Proxy.newProxyInstance(Message.class.getClassLoader(),
        new Class<?>[] {Message.class}, (proxy, method, args) -> {
          if (method.getName().equals("hasKey")) {
            return true;
          }
          if (method.getName().equals("getKey")) {
            return "k";
          }
          throw new AssertionError("unexpected call " + method.getName());
        });
    assertThat(plain.choosePartition(noData, SIXTEEN)).isBetween(0, 15);

    RoutingMessageRouter hot = new RoutingMessageRouter(RoutingSpec.parse(
        "routing.hotkey.keys=hot, routing.hotkey.choice=value-hash, routing.hotkey.candidates=all"));
    java.util.Set<Integer> seen = new java.util.HashSet<>();
    for (int i = 0; i < 400; i++) {
      byte[] data = ("payload-" + i).getBytes(UTF_8);
      int p = hot.choosePartition(message("hot", Map.of(), data), SIXTEEN);
      assertThat(hot.choosePartition(message("hot", Map.of(), data), SIXTEEN)).isEqualTo(p);
      seen.add(p);
    }
    assertThat(seen).hasSize(16);
  }
}
