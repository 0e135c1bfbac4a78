package io.github.routingkit.pulsar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.routingkit.config.RoutingSpec;
import io.opentelemetry.api.OpenTelemetry;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.apache.pulsar.client.api.MessageRoutingMode;
import org.apache.pulsar.client.api.ProducerBuilder;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.PulsarClientException;
import org.apache.pulsar.client.api.Schema;
import org.apache.pulsar.client.impl.ProducerBuilderImpl;
import org.apache.pulsar.client.impl.conf.ProducerConfigurationData;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@link PulsarRouting#customPartition} on the real pulsar-client's builder, with loadConf. */
class PulsarRoutingTest {

  private static PulsarClient client;

  @BeforeAll
  static void client() throws PulsarClientException {
    // nothing listens there: building producers' configuration never connects
    client = PulsarClient.builder().serviceUrl("pulsar://127.0.0.1:9").build();
  }

  @AfterAll
  static void close() throws PulsarClientException {
    client.close();
  }

  private static ProducerConfigurationData conf(ProducerBuilder<?> original) {
    return ((ProducerBuilderImpl<?>) original).getConf();
  }

  @Test
  void theRealLoadConfDropsTheRouter() {
    // the upstream behaviour this class guards against (related: apache/pulsar#11727, a request
    // for a router loadConf could set by class name, closed as stale)
    ProducerBuilder<String> b = client.newProducer(Schema.STRING).topic("t")
        .messageRoutingMode(MessageRoutingMode.CustomPartition)
        .messageRouter(new RoutingMessageRouter(RoutingSpec.defaults()));
    b.loadConf(Map.of("producerName", "p"));
    assertThat(conf(b).getCustomMessageRouter()).isNull();
  }

  @Test
  void loadConfAfterCustomPartitionKeepsTheRouter() {
    // the router survives loadConf, so create() does not fail with the client's
    // "'messageRouter' should be set".
    ProducerBuilder<String> original = client.newProducer(Schema.STRING);
    RoutingSpec spec = RoutingSpec.defaults();
    ProducerBuilder<String> b = PulsarRouting.customPartition(original, spec)
        .topic("t")
        .loadConf(Map.of("producerName", "p", "sendTimeoutMs", 1234))
        .loadConf(Map.of("messageRoutingMode", "CustomPartition"));
    assertThat(conf(original).getProducerName()).isEqualTo("p");
    assertThat(conf(original).getSendTimeoutMs()).isEqualTo(1234);
    assertThat(conf(original).getMessageRoutingMode()).isEqualTo(MessageRoutingMode.CustomPartition);
    assertThat(conf(original).getCustomMessageRouter()).isInstanceOf(RoutingMessageRouter.class);
    // clone() keeps the router, and so does a loadConf on the clone
    ProducerBuilder<String> copy = b.clone().loadConf(Map.of("producerName", "q"));
    assertThat(copy).isNotSameAs(b);
    assertThat(copy.toString()).startsWith("PulsarRouting.customPartition(");
  }

  @Test
  void loadConfWithAnotherRoutingModeFailsAtCreateNamingCauseAndFix() throws Exception {
    // messageRoutingMode=RoundRobinPartition in the map must not silently replace the router.
    ProducerBuilder<String> b = PulsarRouting.customPartition(
            client.newProducer(Schema.STRING), RoutingSpec.defaults())
        .topic("t")
        .loadConf(Map.of("messageRoutingMode", "RoundRobinPartition"));
    assertThatThrownBy(b::create)
        .isInstanceOf(PulsarClientException.InvalidConfigurationException.class)
        .hasMessageContaining("loadConf set messageRoutingMode=RoundRobinPartition")
        .hasMessageContaining("PulsarRouting.customPartition")
        .hasMessageContaining("remove messageRoutingMode from the loaded map");
    assertThatThrownBy(() -> b.createAsync().get())
        .isInstanceOf(ExecutionException.class)
        .hasCauseInstanceOf(PulsarClientException.InvalidConfigurationException.class);
    // an explicit choice afterwards is the caller's: no longer reported by us
    b.messageRoutingMode(MessageRoutingMode.CustomPartition);
    assertThat(b.toString()).contains("PulsarRouting");
  }

  /** The router {@code create()} set on the builder: the one whose metrics the producer publishes. */
  private static RoutingMessageRouter createdRouter(ProducerBuilder<String> original,
      ProducerBuilder<String> wrapped) {
    // nothing listens at the service URL: the producer never comes up, the router is set first
    CompletableFuture<?> creating = wrapped.createAsync();
    creating.exceptionally(e -> null);
    return (RoutingMessageRouter) conf(original).getCustomMessageRouter();
  }

  @Test
  void metricsTakeTheTopicAndProducerNameSetBeforeCustomPartition() throws Exception {
    // a client of its own: closing it ends the lookups that create() started
    try (PulsarClient own = PulsarClient.builder().serviceUrl("pulsar://127.0.0.1:9").build()) {
      ProducerBuilder<String> original = own.newProducer(Schema.STRING)
          .topic("persistent://t/n/set-before").producerName("producer-before");
      RoutingMessageRouter r = createdRouter(original,
          PulsarRouting.customPartition(original, RoutingSpec.defaults(), OpenTelemetry.noop()));
      assertThat(r.metricsTopic()).isEqualTo("persistent://t/n/set-before");
      assertThat(r.metrics().clientId()).isEqualTo("producer-before");
    }
  }

  @Test
  void metricsTakeTheTopicAndProducerNameOfAnyLaterCall() throws Exception {
    try (PulsarClient own = PulsarClient.builder().serviceUrl("pulsar://127.0.0.1:9").build()) {
      ProducerBuilder<String> original = own.newProducer(Schema.STRING)
          .loadConf(Map.of("topicName", "persistent://t/n/loaded", "producerName", "loaded"));
      ProducerBuilder<String> wrapped =
          PulsarRouting.customPartition(original, RoutingSpec.defaults(), OpenTelemetry.noop());
      RoutingMessageRouter r = createdRouter(original, wrapped);
      assertThat(r.metricsTopic()).isEqualTo("persistent://t/n/loaded");
      assertThat(r.metrics().clientId()).isEqualTo("loaded");
      // the last call wins, through the wrapper or on the original builder
      wrapped.topic("persistent://t/n/through-wrapper");
      original.producerName("on-original");
      r = createdRouter(original, wrapped);
      assertThat(r.metricsTopic()).isEqualTo("persistent://t/n/through-wrapper");
      assertThat(r.metrics().clientId()).isEqualTo("on-original");
    }
  }
}
