package io.github.routingkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.testing.ClassFiles;
import java.util.Map;
import java.util.TreeMap;
import net.openhft.hashing.LongHashFunction;
import org.junit.jupiter.api.Test;

/** routing-core runs inside Kafka and Pulsar clients on Java 11 (docs/compatibility.md). */
class JavaElevenBytecodeTest {

  @Test
  void everyMainClassIsJava11Bytecode() {
    Map<String, byte[]> classes = ClassFiles.besides(KeyRouter.class);
    Map<String, Integer> newer = new TreeMap<>();
    classes.forEach((name, bytes) -> {
      if (ClassFiles.majorVersion(bytes) != ClassFiles.JAVA_11) {
        newer.put(name, ClassFiles.majorVersion(bytes));
      }
    });
    assertThat(classes).hasSizeGreaterThan(50);
    assertThat(newer).as("main classes not compiled for Java 11 (major 55)").isEmpty();
  }

  @Test
  void zeroAllocationHashingRunsOnJava11() {
    assertThat(ClassFiles.majorVersion(LongHashFunction.class))
        .isLessThanOrEqualTo(ClassFiles.JAVA_11);
  }
}
