package io.github.routingkit.examples.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Reruns the subscription-semantics lab on fresh in-process brokers and compares its output with
 * the committed snapshot, docs/labs/pulsar-subscriptions.snapshot. When the output differs on
 * purpose, the new output is in target/pulsar-subscriptions.actual: review it and copy it over.
 */
@Tag("broker")
class SubscriptionLabSnapshotTest {
  static final Path SNAPSHOT = Path.of("..", "docs", "labs", "pulsar-subscriptions.snapshot");

  @Test
  void labOutputEqualsTheCommittedSnapshotAndEveryCheckPasses() throws Exception {
    SubscriptionLab.Result result = SubscriptionLab.run();
    Path actual = Path.of("target", "pulsar-subscriptions.actual");
    Files.createDirectories(actual.getParent());
    Files.writeString(actual, result.text(), StandardCharsets.UTF_8);
    System.out.print(result.text());
    assertThat(result.failed()).as("failed lab checks (see the [FAIL] lines)").isZero();
    assertThat(result.checks()).isEqualTo(33);
    String expected = Files.readString(SNAPSHOT, StandardCharsets.UTF_8);
    assertThat(result.text()).as("lab output vs %s (new output: %s)", SNAPSHOT,
        actual.toAbsolutePath()).isEqualTo(expected);
  }
}
