package io.github.routingkit.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The demo's command line and sample reading, without brokers. */
class RoutingDemoArgumentsTest {

  private static int run(ByteArrayOutputStream report, String... args) {
    try (PrintStream out = new PrintStream(report, true, StandardCharsets.UTF_8)) {
      return RoutingDemo.run(args, out);
    }
  }

  @Test
  void aMissingKeysFileExitsWithTwoBeforeStartingBrokers() {
    ByteArrayOutputStream report = new ByteArrayOutputStream();
    assertThat(run(report, "no/such/keys.txt")).isEqualTo(2);
    assertThat(report.toString(StandardCharsets.UTF_8)).contains("no/such/keys.txt");
  }

  @Test
  void tooManyArgumentsOrABadLimitExitWithTwo() {
    assertThat(run(new ByteArrayOutputStream(), "a", "1", "extra")).isEqualTo(2);
    assertThat(run(new ByteArrayOutputStream(), "a", "many")).isEqualTo(2);
  }

  @Test
  void anEmptyKeysFileExitsWithTwo(@TempDir Path dir) throws Exception {
    Path empty = Files.writeString(dir.resolve("empty.txt"), "\n\n");
    assertThat(run(new ByteArrayOutputStream(), empty.toString())).isEqualTo(2);
  }

  @Test
  void theShippedSampleHasAtLeastTwentyThousandDistinctKeys() throws Exception {
    List<String> keys = KeySample.read(KeySample.locateDefault(), Integer.MAX_VALUE);
    assertThat(keys).hasSize(29_989).doesNotHaveDuplicates();
    assertThat(keys.get(0)).isEqualTo("@types/staticmaps");
    assertThat(keys).anyMatch(k -> k.chars().anyMatch(c -> c > 127));
  }

  @Test
  void readStopsAtTheLimitAndSkipsEmptyLines(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("keys.txt"), "a\n\nb\nc\n", StandardCharsets.UTF_8);
    assertThat(KeySample.read(file, 2)).containsExactly("a", "b");
    assertThat(KeySample.read(file, 10)).containsExactly("a", "b", "c");
    assertThatThrownBy(() -> KeySample.read(file, -1)).isInstanceOf(IllegalArgumentException.class);
  }
}
