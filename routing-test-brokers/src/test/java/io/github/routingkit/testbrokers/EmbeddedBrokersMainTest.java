package io.github.routingkit.testbrokers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** {@link EmbeddedBrokers}: arguments, and a real run stopped by SIGTERM. */
class EmbeddedBrokersMainTest {

  @Test
  void parsesTheOptionsAndDefaultsToBothBrokers() {
    EmbeddedBrokers.Options o = EmbeddedBrokers.parse(new String[] {
        "--topic", "orders:12", "--kafka-property", "num.partitions=3"});
    assertThat(o.kafka()).isTrue();
    assertThat(o.pulsar()).isTrue();
    assertThat(o.topics()).isEqualTo(Map.of("orders", 12));
    assertThat(o.kafkaProperties()).isEqualTo(Map.of("num.partitions", "3"));
    assertThat(EmbeddedBrokers.parse(new String[] {"--pulsar"}).kafka()).isFalse();
  }

  @Test
  void badArgumentsExitWith2NamingTheArgument() {
    for (String[] args : List.of(new String[] {"--topic", "orders"},
        new String[] {"--topic", "orders:0"}, new String[] {"--kafka-property", "x"},
        new String[] {"--nope"}, new String[] {"--topic"})) {
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      int rc = EmbeddedBrokers.run(args, new PrintStream(new ByteArrayOutputStream()),
          new PrintStream(err, true, StandardCharsets.UTF_8));
      assertThat(rc).as(String.join(" ", args)).isEqualTo(2);
      assertThat(err.toString(StandardCharsets.UTF_8)).contains(args[0]);
    }
    assertThatThrownBy(() -> EmbeddedBrokers.parse(new String[] {"--topic", "a:x"}))
        .hasMessageContaining("NAME:PARTITIONS");
  }

  @Test
  @Tag("broker")
  void keepsKafkaUpUntilSigtermThenStopsCleanly() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    ProcessBuilder pb = new ProcessBuilder(java.toString(), "-Xmx512m", "-XX:+UseSerialGC",
        "-cp", System.getProperty("java.class.path"), EmbeddedBrokers.class.getName(),
        "--kafka", "--topic", "orders:4");
    Path log = Files.createTempFile("embedded-brokers", ".log");
    pb.redirectError(log.toFile());
    Process p = pb.start();
    try {
      BufferedReader out = new BufferedReader(
          new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      List<String> lines = new ArrayList<>();
      for (String line; (line = out.readLine()) != null && !line.equals("ready"); ) {
        lines.add(line);
      }
      assertThat(lines).singleElement().asString().matches("kafka\\.bootstrap\\.servers=127\\.0\\.0\\.1:\\d+");
      String bootstrap = lines.get(0).substring(lines.get(0).indexOf('=') + 1);
      try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
        assertThat(admin.describeTopics(List.of("orders")).allTopicNames().get(30, TimeUnit.SECONDS)
            .get("orders").partitions()).hasSize(4);
      }
      // Process.destroy() sends SIGTERM too but closes the pipes first; kill keeps them open.
      assertThat(new ProcessBuilder("kill", "-TERM", Long.toString(p.pid())).start().waitFor())
          .isZero();
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("exited after SIGTERM").isTrue();
      assertThat(p.exitValue()).isZero();
      assertThat(out.readLine()).isEqualTo("stopped");
      assertThat(PortProbe.listening(bootstrap)).isFalse();
    } finally {
      p.destroyForcibly();
      Files.deleteIfExists(log);
    }
  }
}
