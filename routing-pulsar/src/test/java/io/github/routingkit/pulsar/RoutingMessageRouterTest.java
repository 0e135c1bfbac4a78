package io.github.routingkit.pulsar;

import io.github.routingkit.Routers;

import static io.github.routingkit.testing.TestSerialization.deserialize;
import static io.github.routingkit.testing.TestSerialization.replace;
import static io.github.routingkit.testing.TestSerialization.roundTrip;
import static io.github.routingkit.testing.TestSerialization.serialize;

import io.github.routingkit.testing.SampleKeys;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.routingkit.router.HashRouter;
import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.KeylessPolicy;
import io.github.routingkit.config.RoutingSpec;
import java.io.InvalidObjectException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.MessageRoutingMode;
import org.apache.pulsar.client.api.ProducerBuilder;
import org.apache.pulsar.client.api.Schema;
import org.apache.pulsar.client.api.TopicMetadata;
import org.apache.pulsar.client.impl.ProducerBuilderImpl;
import org.apache.pulsar.client.impl.conf.ProducerConfigurationData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Serialization of {@link RoutingMessageRouter} and the {@link PulsarRouting} one-liner. */
class RoutingMessageRouterTest {

  static List<RoutingSpec> allSpecs() {
    List<RoutingSpec> specs = new ArrayList<>();
    for (HashScheme scheme : HashScheme.values()) {
      for (KeylessPolicy keyless : KeylessPolicy.values()) {
        specs.add(RoutingSpec.defaults().withScheme(scheme).withKeyless(keyless));
      }
    }
    return specs;
  }

  @Test
  void serializationRoundTripKeepsSpecAndRouting() throws Exception {
    List<String> keys = SampleKeys.all();
    List<Message<byte[]>> messages = new ArrayList<>();
    for (int i = 0; i < keys.size(); i += 320) {
      messages.add(RoutingMessageRouterDifferentialTest.keyed(keys.get(i)));
      messages.add(RoutingMessageRouterDifferentialTest.keyedBytes(
          keys.get(i).getBytes(StandardCharsets.UTF_8)));
    }
    for (RoutingSpec spec : allSpecs()) {
      RoutingMessageRouter router = new RoutingMessageRouter(spec);
      RoutingMessageRouter copy = roundTrip(router);
      assertThat(copy).isNotSameAs(router);
      assertThat(copy.spec()).isEqualTo(spec);
      assertThat(copy.toString()).isEqualTo(router.toString());
      RoutingMessageRouter copyOfCopy = roundTrip(copy);
      for (int j = 0; j < messages.size(); j++) {
        int n = 1 + (j * 37) % 1000;
        TopicMetadata topic = () -> n;
        int p = router.choosePartition(messages.get(j), topic);
        assertThat(p).isBetween(0, n - 1);
        assertThat(copy.choosePartition(messages.get(j), topic)).isEqualTo(p);
        assertThat(copyOfCopy.choosePartition(messages.get(j), topic)).isEqualTo(p);
      }
      // the transient keyless state is rebuilt, not null, after deserialization
      Message<byte[]> keyless = RoutingMessageRouterDifferentialTest.message(b -> { });
      for (int i = 0; i < 20; i++) {
        assertThat(copy.choosePartition(keyless, () -> 5)).isBetween(0, 4);
      }
    }
  }

  /**
   * A {@code Message} of the caller's own (a test double, a wrapper) that says it has a key but
   * returns none: the default spec's short path and every other spec route it as keyless, in
   * range, and 0 partitions is the same clear error on both paths.
   */
  @Test
  void aMessageClaimingAKeyButReturningNoneIsRoutedAsKeyless() {
    @SuppressWarnings("unchecked")
    Message<byte[]> odd = (Message<byte[]>) java.lang.reflect.Proxy.newProxyInstance(
        Message.class.getClassLoader(), new Class<?>[] {Message.class},
        (proxy, method, args) -> switch (method.getName()) {
          case "hasKey" -> true;
          case "getKey", "getData", "getProperty" -> null;
          case "getKeyBytes" -> new byte[0];
          case "hashCode" -> 0;
          case "equals" -> proxy == args[0];
          default -> throw new UnsupportedOperationException(method.getName());
        });
    for (RoutingSpec spec : List.of(RoutingSpec.parse("routing.scheme=pulsar-java-string"),
        RoutingSpec.parse("routing.scheme=pulsar-murmur3"), RoutingSpec.defaults())) {
      RoutingMessageRouter router = new RoutingMessageRouter(spec);
      for (int n = 1; n <= 7; n++) {
        int partitions = n;
        assertThat(router.choosePartition(odd, () -> partitions)).isBetween(0, n - 1);
      }
      Message<byte[]> keyed = RoutingMessageRouterDifferentialTest.keyed("k");
      assertThatThrownBy(() -> router.choosePartition(keyed, () -> 0))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0");
    }
  }

  @Test
  void keyedRoutingEqualsTheCoreRouterOnTheKeyText() {
    RoutingMessageRouter kafkaLike = new RoutingMessageRouter(RoutingSpec.defaults());
    HashRouter core = Routers.kafkaDefault();
    for (String key : RoutingMessageRouterDifferentialTest.edgeStrings()) {
      Message<byte[]> msg = RoutingMessageRouterDifferentialTest.keyed(key);
      for (int n = 1; n <= 1000; n += 37) {
        int count = n;
        assertThat(kafkaLike.choosePartition(msg, () -> count)).isEqualTo(core.partition(key, n));
      }
    }
  }

  @Test
  void corruptSerializedFormIsRejected() throws Exception {
    byte[] bytes = serialize(new RoutingMessageRouter(
        RoutingSpec.defaults().withScheme(HashScheme.PULSAR_MURMUR3)));
    replace(bytes, "pulsar-murmur3", "pulsar-murmurX");
    assertThatThrownBy(() -> deserialize(bytes))
        .isInstanceOf(InvalidObjectException.class).hasMessageContaining("pulsar-murmurX");
  }

  @Test
  void zeroPartitionsIsAnIllegalArgument() {
    RoutingMessageRouter router = new RoutingMessageRouter(RoutingSpec.defaults());
    Message<byte[]> msg = RoutingMessageRouterDifferentialTest.keyed("k");
    assertThatThrownBy(() -> router.choosePartition(msg, () -> 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0");
    assertThatThrownBy(() -> new RoutingMessageRouter(null)).isInstanceOf(NullPointerException.class);
  }

  @ParameterizedTest
  @EnumSource(HashScheme.class)
  void customPartitionSetsModeAndRouterOnARealProducerBuilder(HashScheme scheme) {
    ProducerBuilderImpl<byte[]> builder = new ProducerBuilderImpl<>(null, Schema.BYTES);
    RoutingSpec spec = RoutingSpec.defaults().withScheme(scheme);
    ProducerBuilder<byte[]> returned = PulsarRouting.customPartition(builder, spec);
    assertThat(returned).isInstanceOf(ProducerBuilder.class); // a builder that keeps the router
    ProducerConfigurationData conf = builder.getConf();
    assertThat(conf.getMessageRoutingMode()).isEqualTo(MessageRoutingMode.CustomPartition);
    assertThat(conf.getCustomMessageRouter()).isInstanceOf(RoutingMessageRouter.class);
    assertThat(((RoutingMessageRouter) conf.getCustomMessageRouter()).spec()).isEqualTo(spec);
    // the client's own config clone (done when a producer is created) keeps the router
    assertThat(((RoutingMessageRouter) conf.clone().getCustomMessageRouter()).spec()).isEqualTo(spec);
  }

  @Test
  void customPartitionRejectsNulls() {
    assertThatThrownBy(() -> PulsarRouting.customPartition(
        new ProducerBuilderImpl<>(null, Schema.BYTES), null))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> PulsarRouting.customPartition(null, RoutingSpec.defaults()))
        .isInstanceOf(NullPointerException.class);
  }

}
