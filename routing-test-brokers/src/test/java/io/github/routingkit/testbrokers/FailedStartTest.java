package io.github.routingkit.testbrokers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker that cannot start fails fast with a message saying why, and leaves nothing behind: no
 * thread that would keep the JVM alive, no directory, no port.
 */
@Tag("broker")
class FailedStartTest {
  /** Our own parent for the data directories: other builds on the machine use java.io.tmpdir. */
  @TempDir
  static Path dataParent;

  @org.junit.jupiter.api.BeforeEach
  void ownDataParent() {
    System.setProperty(TempDirs.PARENT_PROPERTY, dataParent.toString());
  }

  @org.junit.jupiter.api.AfterEach
  void defaultDataParent() {
    System.clearProperty(TempDirs.PARENT_PROPERTY);
  }

  @Test
  void kafkaOnABoundPortFailsAndReleasesEverything() throws Exception {
    Set<Path> dirsBefore = brokerDirs("routingkit-kafka-");
    Set<Thread> threadsBefore = Threads.live();
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int controller = TempDirs.freeLoopbackPorts(1)[0];
      EmbeddedKafka.portPicker = n -> new int[] {taken.getLocalPort(), controller};
      long start = System.nanoTime();
      assertThatThrownBy(EmbeddedKafka::start)
          .hasStackTraceContaining("Address already in use");
      assertThat((System.nanoTime() - start) / 1e9).as("seconds to fail").isLessThan(60);
      assertThat(Threads.startedSince(threadsBefore, null)).as("non-daemon threads left").isEmpty();
      assertThat(brokerDirs("routingkit-kafka-")).as("data directories").isEqualTo(dirsBefore);
      assertThat(canBind(controller)).as("controller port released").isTrue();
    } finally {
      EmbeddedKafka.portPicker = TempDirs::freeLoopbackPorts;
    }
    // and a broker starts afterwards in the same JVM
    try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
      kafka.createTopic("after-failure", 1);
    }
  }

  @Test
  void pulsarOnABoundPortFailsAndReleasesEverything() throws Exception {
    Set<Path> dirsBefore = brokerDirs("routingkit-pulsar-");
    Set<Thread> threadsBefore = Threads.live();
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      long start = System.nanoTime();
      // The bookie and the metadata store are up when the broker fails to bind: all must stop.
      assertThatThrownBy(() -> EmbeddedPulsar.start(Map.of("brokerServicePort", taken.getLocalPort())))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("Pulsar standalone failed to start")
          .hasMessageNotContaining("threads still running");
      assertThat((System.nanoTime() - start) / 1e9).as("seconds to fail").isLessThan(90);
      assertThat(Threads.startedSince(threadsBefore, null)).as("non-daemon threads left").isEmpty();
      assertThat(brokerDirs("routingkit-pulsar-")).as("data directories").isEqualTo(dirsBefore);
    }
    // and a standalone starts afterwards in the same JVM
    try (EmbeddedPulsar pulsar = EmbeddedPulsar.start()) {
      pulsar.createPartitionedTopic("after-failure", 2);
    }
  }

  @Test
  void anUnwritableDataDirectoryFailsWithItsName(@TempDir Path tmp) throws IOException {
    Path notADirectory = Files.writeString(tmp.resolve("plain-file"), "x");
    String old = System.getProperty(TempDirs.PARENT_PROPERTY);
    System.setProperty(TempDirs.PARENT_PROPERTY, notADirectory.toString());
    try {
      assertThatThrownBy(EmbeddedKafka::start)
          .isInstanceOf(UncheckedIOException.class)
          .hasMessageContaining(notADirectory.toString())
          .hasMessageContaining(TempDirs.PARENT_PROPERTY);
      assertThatThrownBy(EmbeddedPulsar::start)
          .isInstanceOf(UncheckedIOException.class)
          .hasMessageContaining(notADirectory.toString());
    } finally {
      if (old == null) {
        System.clearProperty(TempDirs.PARENT_PROPERTY);
      } else {
        System.setProperty(TempDirs.PARENT_PROPERTY, old);
      }
    }
  }

  private static boolean canBind(int port) {
    try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static Set<Path> brokerDirs(String prefix) throws IOException {
    try (Stream<Path> s = Files.list(dataParent)) {
      return s.filter(p -> p.getFileName().toString().startsWith(prefix))
          .collect(Collectors.toSet());
    }
  }

}
