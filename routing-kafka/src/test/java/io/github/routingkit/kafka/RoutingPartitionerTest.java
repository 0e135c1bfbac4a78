package io.github.routingkit.kafka;

import io.github.routingkit.testing.SampleKeys;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.routingkit.router.HashRouter;
import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.KeylessPolicy;
import io.github.routingkit.config.RoutingSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link RoutingPartitioner} against kafka-clients 4.1.1 with a real {@link Cluster}: with the
 * default spec every keyed record goes where {@code KafkaProducer}'s built-in keyed path puts it
 * ({@code BuiltInPartitioner.partitionForKey(serializedKey, partitionsForTopic(topic).size())}) for
 * 320,000 real keys at partition counts 1..1,000; bad {@code routing.*} values fail
 * {@code configure} (and a real {@code KafkaProducer}'s construction) with a
 * {@link ConfigException}; with {@code routing.keyless=round-robin} keyless records round-robin
 * over the available partitions (the default, kafka-sticky, is in BatchStickyKeylessTest).
 */
class RoutingPartitionerTest {
  private static final Node NODE = new Node(0, "localhost", 9092);
  private static final StringSerializer KEYS = new StringSerializer();
  /** Topic {@code t<n>} has n partitions, for n in 1..1000, all with a leader. */
  private static Cluster cluster;

  @BeforeAll
  static void buildCluster() {
    List<PartitionInfo> partitions = new ArrayList<>(500_500);
    for (int n = 1; n <= 1000; n++) {
      for (int p = 0; p < n; p++) {
        partitions.add(new PartitionInfo(topic(n), p, NODE, new Node[] {NODE}, new Node[] {NODE}));
      }
    }
    cluster = new Cluster("c", List.of(NODE), partitions, Set.of(), Set.of());
  }

  private static String topic(int n) {
    return "t" + n;
  }

  private static int[] countsFor(long i) {
    return new int[] {
        (int) (1 + i % 1000), (int) (1 + (i * 7919 + 13) % 1000), 1, 2, 12, 997,
    };
  }

  @Test
  void defaultSpecAgreesWithTheBuiltInKeyedPathOnRealKeys() {
    RoutingPartitioner partitioner = new RoutingPartitioner();
    partitioner.configure(Map.of("bootstrap.servers", "localhost:9092"));
    assertThat(partitioner.spec()).isEqualTo(RoutingSpec.defaults());
    List<String> keys = SampleKeys.all();
    assertThat(keys).hasSizeGreaterThanOrEqualTo(300_000);
    long compared = 0;
    for (int i = 0; i < keys.size(); i++) {
      for (int n : countsFor(i)) {
        compare(partitioner, keys.get(i), n);
        compared++;
      }
    }
    assertThat(compared).isGreaterThanOrEqualTo(300_000L * 6);
  }

  @Test
  void everyCountFrom1To1000OnEdgeKeys() {
    RoutingPartitioner partitioner = new RoutingPartitioner();
    partitioner.configure(Map.of());
    List<String> edge = List.of("", "日本語のキー", "😀", "a\uD800b", "\uDC00",
        "polygenelubricants", "GydZG_", "DESIGNING WORKHOUSES");
    for (String key : edge) {
      for (int n = 1; n <= 1000; n++) {
        compare(partitioner, key, n);
      }
    }
    Random r = new Random(3);
    for (int len = 0; len <= 64; len++) {
      byte[] b = new byte[len];
      r.nextBytes(b);
      for (int n = 1; n <= 1000; n++) {
        compareBytes(partitioner, b, n);
      }
    }
    byte[] mib = new byte[1 << 20];
    r.nextBytes(mib);
    for (int n : new int[] {1, 2, 12, 997, 1000}) {
      compareBytes(partitioner, mib, n);
    }
  }

  private static void compare(RoutingPartitioner partitioner, String key, int n) {
    String topic = topic(n);
    byte[] keyBytes = KEYS.serialize(topic, key); // exactly what the producer hands over
    int expected = BuiltInPartitioner.partitionForKey(keyBytes, cluster.partitionsForTopic(topic).size());
    int actual = partitioner.partition(topic, key, keyBytes, "v", new byte[] {1}, cluster);
    if (actual != expected) {
      fail("key " + key + " n=" + n + ": RoutingPartitioner " + actual + ", kafka-clients " + expected);
    }
  }

  private static void compareBytes(RoutingPartitioner partitioner, byte[] key, int n) {
    String topic = topic(n);
    int expected = BuiltInPartitioner.partitionForKey(key, cluster.partitionsForTopic(topic).size());
    int actual = partitioner.partition(topic, key, key, null, null, cluster);
    if (actual != expected) {
      fail(key.length + "-byte key n=" + n + ": RoutingPartitioner " + actual + ", kafka " + expected);
    }
  }

  @ParameterizedTest
  @CsvSource({"pulsar-java-string, PULSAR_JAVA_STRING", "pulsar-murmur3, PULSAR_MURMUR3",
      "kafka-murmur2, KAFKA_MURMUR2"})
  void otherSchemesRouteLikeTheCoreRouter(String id, HashScheme scheme) {
    RoutingPartitioner partitioner = new RoutingPartitioner();
    partitioner.configure(Map.of(RoutingSpec.SCHEME, id, "acks", "all"));
    assertThat(partitioner.spec().scheme()).isEqualTo(scheme);
    HashRouter reference = HashRouter.of(scheme, KeylessPolicy.ROUND_ROBIN);
    List<String> keys = SampleKeys.all();
    for (int i = 0; i < keys.size(); i += 97) {
      byte[] keyBytes = keys.get(i).getBytes(UTF_8);
      for (int n : countsFor(i)) {
        assertThat(partitioner.partition(topic(n), null, keyBytes, null, null, cluster))
            .isEqualTo(reference.partition(keyBytes, n));
      }
    }
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "routing.scheme | murmur2",
      "routing.scheme | KAFKA_MURMUR2",
      "routing.keyless | sticky-batch",
      "routing.keyless | ''",
      "routing.shceme | kafka-murmur2",
  })
  void badRoutingConfigThrowsConfigExceptionNamingPropertyAndValue(String property, String value) {
    RoutingPartitioner partitioner = new RoutingPartitioner();
    Map<String, Object> configs = new HashMap<>();
    configs.put("bootstrap.servers", "localhost:9092");
    configs.put(property, value);
    assertThatThrownBy(() -> partitioner.configure(configs))
        .isExactlyInstanceOf(ConfigException.class)
        .hasMessageContaining(property)
        .hasMessageContaining(value);
    assertThat(partitioner.spec()).as("spec unchanged after a failed configure")
        .isEqualTo(RoutingSpec.defaults());
  }

  @Test
  void configExceptionListsTheAcceptedValues() {
    assertThatThrownBy(() -> new RoutingPartitioner().configure(Map.of(RoutingSpec.SCHEME, "crc32")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("kafka-murmur2").hasMessageContaining("pulsar-java-string")
        .hasMessageContaining("pulsar-murmur3");
    assertThatThrownBy(() -> new RoutingPartitioner().configure(Map.of(RoutingSpec.KEYLESS, "x")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("round-robin").hasMessageContaining("random");
  }

  @Test
  void unknownKeyListsTheAssignorKeysTheProducerAlsoAccepts() {
    // guards against: the list named the 40-odd spec keys but not routing.assignor.*, which a producer
    // config may hold (one shared client file) and the partitioner accepts and ignores
    RoutingPartitioner shared = new RoutingPartitioner();
    shared.configure(Map.of(RoutingAssignorConfig.WEIGHT, "2", RoutingSpec.PLACEMENT, "jump"));
    assertThatThrownBy(() -> new RoutingPartitioner().configure(Map.of("routing.zzzzzzzz", "1")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("known routing properties are [")
        .hasMessageContaining(RoutingSpec.SCHEME)
        .hasMessageContaining("accepted and ignored here: [routing.assignor.instance.weights,"
            + " routing.assignor.rebalance.protocol, routing.assignor.topic.weights,"
            + " routing.assignor.weight]");
    // with a near key the message stays short: the suggestion only
    assertThatThrownBy(() -> new RoutingPartitioner().configure(Map.of("routing.shceme", "x")))
        .message().contains("did you mean routing.scheme?").doesNotContain("routing.assignor");
  }

  @Test
  void aMissingRequiredKeyIsNotSetRatherThanAnInvalidNull() {
    assertThatThrownBy(() -> new RoutingPartitioner().configure(
        Map.of(RoutingSpec.VERSION_GENERATIONS, "v1:kafka-murmur2")))
        .isExactlyInstanceOf(ConfigException.class)
        .hasMessageStartingWith("routing.version.default is not set, must name a generation")
        .message().doesNotContain("null");
  }

  /** A real KafkaProducer (no broker needed to construct one) hands routing.* to configure. */
  @Test
  void realKafkaProducerRejectsBadRoutingConfigAtConstruction() {
    Properties props = producerProps();
    props.put(RoutingSpec.SCHEME, "murmur3");
    assertThatThrownBy(() -> new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer()))
        .isInstanceOf(KafkaException.class)
        .rootCause()
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(RoutingSpec.SCHEME)
        .hasMessageContaining("murmur3");
  }

  @Test
  void realKafkaProducerAcceptsGoodRoutingConfig() {
    Properties props = producerProps();
    props.put(RoutingSpec.SCHEME, "pulsar-murmur3");
    props.put(RoutingSpec.KEYLESS, "random");
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
      assertThat(producer).isNotNull();
      producer.close(Duration.ZERO);
    }
  }

  private static Properties producerProps() {
    Properties props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9");
    props.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, RoutingPartitioner.class.getName());
    props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "1");
    return props;
  }

  /** Records sent through a MockProducer with our partitioner land where the built-in path puts them. */
  @Test
  void mockProducerWithRoutingPartitioner() throws Exception {
    RoutingPartitioner partitioner = new RoutingPartitioner();
    partitioner.configure(Map.of(RoutingSpec.KEYLESS, "round-robin"));
    try (MockProducer<String, String> producer = new MockProducer<>(
        cluster, true, partitioner, new StringSerializer(), new StringSerializer())) {
      List<String> keys = SampleKeys.all();
      for (int i = 0; i < 20_000; i++) {
        String key = keys.get(i * 13);
        int n = 1 + i % 1000;
        Future<RecordMetadata> sent = producer.send(new ProducerRecord<>(topic(n), key, "v"));
        assertThat(sent.get().partition())
            .isEqualTo(BuiltInPartitioner.partitionForKey(key.getBytes(UTF_8), n));
      }
      // keyless: round-robin, each of the 24 partitions exactly 10 times
      int[] counts = new int[24];
      for (int i = 0; i < 240; i++) {
        counts[producer.send(new ProducerRecord<>(topic(24), null, "v")).get().partition()]++;
      }
      assertThat(counts).containsOnly(10);
    }
  }

  /**
   * Partitions without a leader: keyed records still count all partitions (as the built-in path
   * does), keyless records go round-robin over the available ones only.
   */
  @Test
  void keylessRecordsRoundRobinOverAvailablePartitions() {
    int n = 12;
    Set<Integer> down = Set.of(1, 4, 5, 11);
    List<PartitionInfo> infos = new ArrayList<>();
    for (int p = 0; p < n; p++) {
      Node leader = down.contains(p) ? null : NODE;
      infos.add(new PartitionInfo("orders", p, leader, new Node[] {NODE}, new Node[0]));
    }
    Cluster partial = new Cluster("c", List.of(NODE), infos, Set.of(), Set.of());
    assertThat(partial.availablePartitionsForTopic("orders")).hasSize(n - down.size());

    RoutingPartitioner partitioner = new RoutingPartitioner();
    partitioner.configure(Map.of(RoutingSpec.KEYLESS, "round-robin"));
    int[] counts = new int[n];
    int rounds = 25;
    for (int i = 0; i < rounds * (n - down.size()); i++) {
      counts[partitioner.partition("orders", null, null, "v", null, partial)]++;
    }
    for (int p = 0; p < n; p++) {
      assertThat(counts[p]).as("partition %d", p).isEqualTo(down.contains(p) ? 0 : rounds);
    }

    List<String> keys = SampleKeys.all();
    for (int i = 0; i < 10_000; i++) {
      byte[] keyBytes = keys.get(i).getBytes(UTF_8);
      assertThat(partitioner.partition("orders", null, keyBytes, null, null, partial))
          .isEqualTo(BuiltInPartitioner.partitionForKey(keyBytes, n));
    }
  }

  @Test
  void keylessWithNoAvailablePartitionStaysInRange() {
    List<PartitionInfo> infos = new ArrayList<>();
    for (int p = 0; p < 5; p++) {
      infos.add(new PartitionInfo("dark", p, null, new Node[] {NODE}, new Node[0]));
    }
    Cluster dark = new Cluster("c", List.of(NODE), infos, Set.of(), Set.of());
    RoutingPartitioner partitioner = new RoutingPartitioner();
    partitioner.configure(Map.of(RoutingSpec.KEYLESS, "random"));
    for (int i = 0; i < 100; i++) {
      assertThat(partitioner.partition("dark", null, null, null, null, dark)).isBetween(0, 4);
    }
  }

  @Test
  void unknownTopicFailsClearly() {
    RoutingPartitioner partitioner = new RoutingPartitioner();
    assertThatThrownBy(() -> partitioner.partition("nope", null, new byte[] {1}, null, null, cluster))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("nope");
  }
}
