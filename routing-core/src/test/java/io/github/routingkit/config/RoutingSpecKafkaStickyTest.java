package io.github.routingkit.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.KeylessPolicy;
import io.github.routingkit.testing.TestSerialization;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code routing.keyless=kafka-sticky}, the Kafka adapter's default written in the README's
 * producer config, is a spec value: it parses, round-trips, and a core router runs it as
 * {@code sticky}.
 */
class RoutingSpecKafkaStickyTest {

  @Test
  void theReadmeProducerConfigParses() {
    RoutingSpec spec = RoutingSpec.parse(Map.of(
        "partitioner.class", "io.github.routingkit.kafka.RoutingPartitioner",
        RoutingSpec.SCHEME, "kafka-murmur2",
        RoutingSpec.KEYLESS, "kafka-sticky"));
    assertThat(spec.keyless()).isEqualTo(KeylessPolicy.KAFKA_STICKY);
    assertThat(spec.toMap()).containsEntry(RoutingSpec.KEYLESS, "kafka-sticky");
    assertThat(spec).isNotEqualTo(RoutingSpec.defaults());
  }

  @Test
  void roundTripsThroughToStringToMapAndSerialization() throws Exception {
    for (String text : new String[] {
        "routing.keyless=kafka-sticky",
        "routing.keyless=kafka-sticky, routing.scheme=xxh3-64, routing.placement=jump,"
            + " routing.hotkey.keys=a:1",
        "routing.keyless=kafka-sticky, routing.canary.share=0.25,"
            + " routing.canary.next.placement=jump"}) {
      RoutingSpec spec = RoutingSpec.parse(text);
      assertThat(spec.keyless()).as(text).isEqualTo(KeylessPolicy.KAFKA_STICKY);
      assertThat(RoutingSpec.parse(spec.toString())).as(text).isEqualTo(spec);
      assertThat(RoutingSpec.parse(spec.toMap())).as(text).isEqualTo(spec);
      assertThat(TestSerialization.roundTrip(spec)).as(text).isEqualTo(spec);
      KeyRouter router = spec.keyRouter();
      assertThat(router.keylessPolicy()).as(text).isEqualTo(KeylessPolicy.KAFKA_STICKY);
      assertThat(TestSerialization.roundTrip(router).keylessPolicy()).as(text)
          .isEqualTo(KeylessPolicy.KAFKA_STICKY);
    }
    assertThat(KeylessPolicy.fromId("kafka-sticky")).isEqualTo(KeylessPolicy.KAFKA_STICKY);
    assertThat(KeylessPolicy.ids()).contains("kafka-sticky");
  }

  /** Outside the Kafka adapter the nearest core policy runs: sticky's 64 in a row, in turn. */
  @Test
  void aCoreRouterRunsItAsSticky() {
    KeyRouter kafkaSticky = RoutingSpec.parse("routing.keyless=kafka-sticky").keyRouter();
    KeyRouter sticky = RoutingSpec.parse("routing.keyless=sticky").keyRouter();
    for (int i = 0; i < 5 * KeylessPolicy.STICKY_RUN * 7; i++) {
      int got = kafkaSticky.keylessPartition(7);
      assertThat(got).as("message %d", i).isEqualTo(sticky.keylessPartition(7))
          .isEqualTo((i / KeylessPolicy.STICKY_RUN) % 7);
    }
  }
}
