package io.github.routingkit.testbrokers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.admin.TopicDescription;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * The JUnit extension run by JUnit's own launcher on small test classes (static nested, so the
 * build does not run them by themselves): which broker each class gets, which topics exist, when
 * brokers stop, and how bad attributes fail.
 */
@Tag("broker")
@Tag("slow")
class EmbeddedBrokersExtensionTest {
  /** Per test class: the bootstrap servers of the broker it was given. */
  static final Map<String, String> SEEN = new ConcurrentHashMap<>();
  static final Map<String, EmbeddedKafka> BROKERS = new ConcurrentHashMap<>();

  @WithEmbeddedKafka(topics = {"orders", "payments"}, partitions = 3, shared = true)
  static class SharedA {
    @Test
    void seesItsTopics(EmbeddedKafka kafka) throws Exception {
      record(kafka, "A");
      Map<String, TopicDescription> d = kafka.admin()
          .describeTopics(List.of("orders", "payments")).allTopicNames().get();
      assertThat(d.get("orders").partitions()).hasSize(3);
      assertThat(d.get("payments").partitions()).hasSize(3);
    }
  }

  @WithEmbeddedKafka(topics = "invoices", partitions = 5, shared = true)
  static class SharedB {
    private final EmbeddedKafka kafka;

    SharedB(EmbeddedKafka kafka) {
      this.kafka = kafka;
    }

    @Test
    void constructorInjectionAndItsOwnTopic() throws Exception {
      record(kafka, "B");
      assertThat(kafka.admin().describeTopics(List.of("invoices")).allTopicNames().get()
          .get("invoices").partitions()).hasSize(5);
    }
  }

  @WithEmbeddedKafka(topics = "orders", partitions = 2)
  static class OwnBroker {
    @Test
    void getsABrokerOfItsOwn(EmbeddedKafka kafka) throws Exception {
      record(kafka, "own");
      assertThat(kafka.admin().describeTopics(List.of("orders")).allTopicNames().get()
          .get("orders").partitions()).hasSize(2);
    }

    @Nested
    class Inner {
      @Test
      void nestedClassesUseTheEnclosingBroker(EmbeddedKafka kafka) {
        record(kafka, "own-nested");
      }
    }
  }

  @WithEmbeddedKafka(topics = "orders", partitions = 7, shared = true)
  static class ConflictingPartitions {
    @Test
    void neverRuns(EmbeddedKafka kafka) {
      record(kafka, "conflict");
    }
  }

  @WithEmbeddedKafka(brokerProperties = "num.partitions")
  static class BadProperty {
    @Test
    void neverRuns() {}
  }

  @WithEmbeddedKafka(brokerProperties = "listeners=PLAINTEXT://:9092")
  static class OwnedProperty {
    @Test
    void neverRuns() {}
  }

  private static void record(EmbeddedKafka kafka, String who) {
    SEEN.put(who, kafka.bootstrapServers());
    BROKERS.put(who, kafka);
  }

  private static TestExecutionSummary run(Class<?>... classes) {
    LauncherDiscoveryRequestBuilder request = LauncherDiscoveryRequestBuilder.request();
    for (Class<?> c : classes) {
      request.selectors(selectClass(c));
    }
    LauncherDiscoveryRequest built = request.build();
    Launcher launcher = LauncherFactory.create();
    SummaryGeneratingListener listener = new SummaryGeneratingListener();
    launcher.execute(built, listener);
    return listener.getSummary();
  }

  @Test
  void sharedClassesGetOneBrokerAndOthersTheirOwnAllStoppedAfterTheRun() {
    SEEN.clear();
    BROKERS.clear();
    TestExecutionSummary s = run(SharedA.class, SharedB.class, OwnBroker.class);
    assertThat(s.getFailures()).isEmpty();
    assertThat(s.getTestsSucceededCount()).isEqualTo(4);
    assertThat(SEEN.get("A")).isEqualTo(SEEN.get("B"));
    assertThat(BROKERS.get("A")).isSameAs(BROKERS.get("B"));
    assertThat(SEEN.get("own")).isNotEqualTo(SEEN.get("A"));
    assertThat(BROKERS.get("own-nested")).isSameAs(BROKERS.get("own"));
    // every broker stopped: its admin client was closed and the broker no longer answers
    for (EmbeddedKafka k : Set.copyOf(BROKERS.values())) {
      assertThat(PortProbe.listening(k.bootstrapServers())).as(k.bootstrapServers()).isFalse();
    }
  }

  @Test
  void aTopicWithAnotherPartitionCountOnASharedBrokerFailsTheClass() {
    SEEN.clear();
    TestExecutionSummary s = run(SharedA.class, ConflictingPartitions.class);
    assertThat(s.getTestsSucceededCount()).isEqualTo(1);
    assertThat(s.getFailures()).singleElement().satisfies(f -> assertThat(f.getException())
        .hasMessageContaining("topic orders has 3 partitions on the shared broker")
        .hasMessageContaining("7"));
    assertThat(SEEN).doesNotContainKey("conflict");
  }

  @Test
  void badBrokerPropertiesFailTheClassNamingTheEntry() {
    TestExecutionSummary s = run(BadProperty.class, OwnedProperty.class);
    assertThat(s.getFailures()).hasSize(2);
    assertThat(s.getFailures()).anySatisfy(f -> assertThat(f.getException())
        .hasMessageContaining("brokerProperties entry \"num.partitions\" is not name=value"));
    assertThat(s.getFailures()).anySatisfy(f -> assertThat(f.getException())
        .hasMessageContaining("listeners").hasMessageContaining("cannot be overridden"));
  }
}
