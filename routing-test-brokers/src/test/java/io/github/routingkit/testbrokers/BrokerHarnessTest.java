package io.github.routingkit.testbrokers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The harness's own contract: overrides reach the broker, bad overrides fail before starting. */
@Tag("broker")
class BrokerHarnessTest {

  @Test
  void kafkaRejectsOverridesOfTheListenersAndDirectories() {
    assertThatThrownBy(() -> EmbeddedKafka.start(Map.of("listeners", "PLAINTEXT://:9092")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("listeners");
    assertThatThrownBy(() -> EmbeddedKafka.start(Map.of("log.dirs", "/tmp/x")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("log.dirs");
  }

  @Test
  void pulsarRejectsUnknownSettingsBeforeStarting() {
    assertThatThrownBy(() -> EmbeddedPulsar.start(Map.of("noSuchSetting", "1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("noSuchSetting");
  }

  @Test
  void kafkaAppliesBrokerOverridesAndCleansUp() throws Exception {
    Path dir;
    try (EmbeddedKafka kafka = EmbeddedKafka.start(Map.of("num.partitions", 7))) {
      assertThat(kafka.bootstrapServers()).matches("127\\.0\\.0\\.1:\\d+");
      ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, "1");
      String value = kafka.admin().describeConfigs(List.of(broker)).all().get()
          .get(broker).get("num.partitions").value();
      assertThat(value).isEqualTo("7");

      kafka.createTopic("harness", 5);
      assertThat(kafka.admin().describeTopics(List.of("harness")).allTopicNames().get()
          .get("harness").partitions()).hasSize(5);
      assertThatThrownBy(() -> kafka.createTopic("harness", 5))
          .isInstanceOf(IllegalStateException.class);
      dir = Path.of(kafka.admin().describeConfigs(List.of(broker)).all().get()
          .get(broker).get("log.dirs").value()).getParent();
      assertThat(dir).exists();
    }
    assertThat(Files.exists(dir)).as("temporary directory deleted on close").isFalse();
  }

  @Test
  void pulsarAppliesBrokerOverrides() throws Exception {
    try (EmbeddedPulsar pulsar = EmbeddedPulsar.start(Map.of("defaultNumberOfNamespaceBundles", 8))) {
      assertThat(pulsar.brokerServiceUrl()).matches("pulsar://127\\.0\\.0\\.1:\\d+");
      assertThat(pulsar.webServiceUrl()).matches("http://127\\.0\\.0\\.1:\\d+");
      assertThat(pulsar.admin().namespaces().getBundles("public/default").getNumBundles())
          .isEqualTo(8);
      pulsar.createPartitionedTopic("persistent://public/default/harness", 3);
      assertThat(pulsar.admin().topics()
          .getPartitionedTopicMetadata("persistent://public/default/harness").partitions)
          .isEqualTo(3);
    }
  }
}
