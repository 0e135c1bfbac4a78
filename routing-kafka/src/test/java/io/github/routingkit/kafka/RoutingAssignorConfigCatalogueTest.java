package io.github.routingkit.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.config.RoutingProperty;
import org.junit.jupiter.api.Test;

/** The assignors' keys are the catalogue's ASSIGNOR entries, so docs/configuration.md lists them. */
class RoutingAssignorConfigCatalogueTest {
  @Test
  void theAssignorConstantsAreTheCatalogueEntries() {
    assertThat(RoutingAssignorConfig.KNOWN).containsExactlyInAnyOrder(
        RoutingAssignorConfig.WEIGHT, RoutingAssignorConfig.TOPIC_WEIGHTS,
        RoutingAssignorConfig.INSTANCE_WEIGHTS, RoutingAssignorConfig.REBALANCE_PROTOCOL);
    assertThat(RoutingAssignorConfig.KNOWN)
        .isEqualTo(RoutingProperty.keys(RoutingProperty.Layer.ASSIGNOR));
    assertThat(RoutingProperty.of(RoutingAssignorConfig.TOPIC_WEIGHTS).isList()).isTrue();
  }
}
