package io.github.routingkit.testbrokers;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * With default settings a broker's start, topic creation and stop print no INFO line and no stack
 * trace (the test JVM logs through SLF4J Simple to standard error, as a user's tests would).
 */
@Tag("broker")
class QuietLogsBrokerTest {
  private static final Pattern NOISE =
      Pattern.compile("^\\s+at \\S+\\(.*\\)$|Exception|\\bINFO\\b");

  @Test
  void kafkaAndPulsarStartAndStopQuietly() {
    String printed = captured(() -> {
      try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
        kafka.createTopic("quiet", 2);
      }
      try (EmbeddedPulsar pulsar = EmbeddedPulsar.start()) {
        pulsar.createPartitionedTopic("persistent://public/default/quiet", 2);
      }
    });
    List<String> noise = Arrays.stream(printed.split("\\R"))
        .filter(line -> NOISE.matcher(line).find())
        .collect(Collectors.toList());
    assertThat(noise).as("noisy lines of %s", printed).isEmpty();
  }

  /** Runs the action with standard output and error going to a buffer, returns what it got. */
  private static String captured(Runnable action) {
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    PrintStream capture = new PrintStream(buffer, true, StandardCharsets.UTF_8);
    System.setOut(capture);
    System.setErr(capture);
    try {
      action.run();
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
    return buffer.toString(StandardCharsets.UTF_8);
  }
}
