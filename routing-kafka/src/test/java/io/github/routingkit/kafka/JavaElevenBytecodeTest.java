package io.github.routingkit.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.testing.ClassFiles;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.producer.Partitioner;
import org.apache.kafka.coordinator.group.api.assignor.ConsumerGroupPartitionAssignor;
import org.apache.kafka.streams.processor.StreamPartitioner;
import org.junit.jupiter.api.Test;

/**
 * The partitioner, the classic assignor and the Streams partitioner run inside clients on Java 11;
 * the KIP-848 assignor runs on the broker (Java 17) and compiles against a Java 17 API
 * (docs/compatibility.md).
 */
class JavaElevenBytecodeTest {
  private static final String COORDINATOR_API = "org/apache/kafka/coordinator/";
  private static final String BROKER_SIDE = "io/github/routingkit/kafka/RoutingGroupAssignor";

  private final Map<String, byte[]> classes = ClassFiles.besides(RoutingPartitioner.class);

  @Test
  void everyMainClassIsJava11Bytecode() {
    Map<String, Integer> newer = new TreeMap<>();
    classes.forEach((name, bytes) -> {
      if (ClassFiles.majorVersion(bytes) != ClassFiles.JAVA_11) {
        newer.put(name, ClassFiles.majorVersion(bytes));
      }
    });
    assertThat(classes).containsKeys(BROKER_SIDE, "io/github/routingkit/kafka/RoutingAssignor",
        "io/github/routingkit/kafka/streams/RoutingStreamPartitioner");
    assertThat(newer).as("main classes not compiled for Java 11 (major 55)").isEmpty();
  }

  /**
   * A client on Java 11 never loads a class of the Java 17 coordinator API: only the broker-side
   * assignor names it, and no client-side class names the broker-side assignor.
   */
  @Test
  void onlyTheBrokerSideAssignorTouchesTheJava17CoordinatorApi() {
    assertThat(ClassFiles.majorVersion(ConsumerGroupPartitionAssignor.class))
        .isGreaterThan(ClassFiles.JAVA_11);
    List<String> touching = classes.entrySet().stream()
        .filter(e -> ClassFiles.mentions(e.getValue(), COORDINATOR_API))
        .map(Map.Entry::getKey).collect(Collectors.toList());
    assertThat(touching).isNotEmpty().allMatch(name -> name.startsWith(BROKER_SIDE));
    List<String> naming = classes.entrySet().stream()
        .filter(e -> !e.getKey().startsWith(BROKER_SIDE))
        .filter(e -> ClassFiles.mentions(e.getValue(), BROKER_SIDE))
        .map(Map.Entry::getKey).collect(Collectors.toList());
    assertThat(naming).as("client-side classes that name RoutingGroupAssignor").isEmpty();
  }

  @Test
  void theClientApisTheAdaptersImplementRunOnJava11() {
    for (Class<?> api : List.of(Partitioner.class, ConsumerPartitionAssignor.class,
        StreamPartitioner.class)) {
      assertThat(ClassFiles.majorVersion(api)).as(api.getName())
          .isLessThanOrEqualTo(ClassFiles.JAVA_11);
    }
  }
}
