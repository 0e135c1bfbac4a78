package io.github.routingkit.kafka;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.routingkit.testing.EdgeKeys;
import io.github.routingkit.testing.SampleKeys;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.clients.producer.RoundRobinPartitioner;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link RoutingProducer} routes every keyed record exactly where {@link RoutingPartitioner} puts
 * it, for every layer a partitioner supports, and refuses what the partitioner refuses; keyless
 * records and records with a partition reach the wrapped producer unchanged.
 */
class RoutingProducerDifferentialTest {
  private static final Node NODE = new Node(0, "localhost", 9092);
  /** Topic name to partition count; key i goes to topic i % size. */
  private static final Map<String, Integer> TOPICS = new LinkedHashMap<>();

  static {
    int[] counts = {6, 7, 12, 64, 997};
    for (int c : counts) {
      TOPICS.put("t" + c, c);
    }
  }

  private static final List<String> TOPIC_NAMES = new ArrayList<>(TOPICS.keySet());
  private static final Cluster CLUSTER = cluster();

  /** Every layer a partitioner supports, one spec each (version source key-prefix only). */
  static List<Map<String, String>> specs() {
    return List.of(
        Map.of(),
        Map.of("routing.scheme", "xxh3-64"),
        Map.of("routing.scheme", "librdkafka-crc32", "routing.placement", "jump"),
        Map.of("routing.scheme", "pulsar-murmur3", "routing.placement", "jump-back"),
        Map.of("routing.segment.weights", "order:3,payment:1,*:2",
            "routing.segment.exclusive", "payment"),
        Map.of("routing.segment.ranges", "vip:0-1", "routing.segment.exclusive", "vip",
            "routing.segment.regex", "^@([^/]+)/"),
        Map.of("routing.hotkey.keys", hotKeys(), "routing.hotkey.candidates", "4"),
        Map.of("routing.hotkey.keys", hotKeys(), "routing.hotkey.choice", "round-robin"),
        Map.of("routing.hotkey.keys", hotKeys(), "routing.hotkey.choice", "value-hash",
            "routing.hotkey.candidates", "all"),
        Map.of("routing.hotkey.detect", "true", "routing.hotkey.threshold", "0.001"),
        Map.of("routing.version.generations", "v1:kafka-murmur2,v2:xxh3-64:jump:*",
            "routing.version.default", "v1"),
        Map.of("routing.canary.share", "25%", "routing.canary.next.scheme", "xxh3-64"));
  }

  /** 100,000 real keys, every fourth a hot key, tenant and version prefixes, and the edge keys. */
  static List<byte[]> keys() {
    List<byte[]> keys = new ArrayList<>();
    List<String> sample = SampleKeys.all().subList(0, 100_000);
    String[] prefixes = {"", "order:", "payment:", "@vip/", "v2|", "v1|", "other:"};
    for (int i = 0; i < sample.size(); i++) {
      String k = i % 4 == 0 ? "hot-" + (i % 3) : prefixes[i % prefixes.length] + sample.get(i);
      keys.add(k.getBytes(UTF_8));
    }
    for (String s : EdgeKeys.strings()) {
      keys.add(s.getBytes(UTF_8));
    }
    keys.add(new byte[0]);
    keys.add(EdgeKeys.mibBytes());
    keys.add(EdgeKeys.mibMixed().getBytes(UTF_8));
    keys.add(new byte[] {(byte) 0x80, (byte) 0xff, 0});
    return keys;
  }

  private static String hotKeys() {
    return "hot-0,hot-1,hot-2";
  }

  @Tag("slow") // 12 specs x 100,000 keys: about 30 s on a loaded 2-core machine
  @ParameterizedTest
  @MethodSource("specs")
  void everyKeyedRecordGoesWhereRoutingPartitionerPutsIt(Map<String, String> spec) {
    RoutingPartitioner partitioner = new RoutingPartitioner();
    partitioner.configure(spec);
    Capture capture = new Capture();
    Producer<byte[], byte[]> producer = RoutingProducer.wrap(capture.producer(), spec,
        new ByteArraySerializer(), new ByteArraySerializer());
    List<byte[]> keys = keys();
    int differing = 0;
    for (int i = 0; i < keys.size(); i++) {
      String topic = TOPIC_NAMES.get(i % TOPIC_NAMES.size());
      byte[] key = keys.get(i);
      byte[] value = ("value-" + i).getBytes(UTF_8);
      producer.send(new ProducerRecord<>(topic, key, value));
      int expected = partitioner.partition(topic, key, key, value, value, CLUSTER);
      Integer got = capture.last.get().partition();
      assertThat(got).as("partition set for key %d", i).isNotNull();
      if (got != expected) {
        differing++;
      }
      assertThat(got).as("key %d on %s", i, topic).isBetween(0, TOPICS.get(topic) - 1);
    }
    assertThat(keys).hasSizeGreaterThan(100_000);
    assertThat(differing).as("keys routed differently from RoutingPartitioner").isZero();
    assertThat(capture.sends).isEqualTo(keys.size());
  }

  @Test
  void stringKeysAreSerializedByTheGivenSerializer() {
    RoutingPartitioner partitioner = new RoutingPartitioner();
    partitioner.configure(Map.of());
    Capture capture = new Capture();
    @SuppressWarnings("unchecked")
    Producer<String, String> producer = RoutingProducer.wrap((Producer<String, String>)
        (Producer<?, ?>) capture.producer(), Map.of("key.serializer", StringSerializer.class));
    StringSerializer utf8 = new StringSerializer();
    List<String> keys = new ArrayList<>(SampleKeys.all().subList(0, 20_000));
    keys.addAll(EdgeKeys.strings());
    for (String key : keys) {
      producer.send(new ProducerRecord<>("t12", key, "v"));
      byte[] bytes = utf8.serialize("t12", key);
      assertThat(capture.last.get().partition())
          .as(key).isEqualTo(partitioner.partition("t12", key, bytes, "v", null, CLUSTER));
    }
  }

  @Test
  void keylessAndExplicitRecordsReachTheProducerUnchanged() {
    Capture capture = new Capture();
    Serializer<byte[]> nullForEmpty = (topic, data) -> data.length == 0 ? null : data;
    Producer<byte[], byte[]> producer =
        RoutingProducer.wrap(capture.producer(), Map.of(), nullForEmpty, null);
    for (ProducerRecord<byte[], byte[]> r : List.of(
        new ProducerRecord<byte[], byte[]>("t12", null, "keyless".getBytes(UTF_8)),
        new ProducerRecord<>("t12", 11, "k".getBytes(UTF_8), "explicit".getBytes(UTF_8)),
        new ProducerRecord<>("t12", new byte[0], "null bytes".getBytes(UTF_8)))) {
      producer.send(r);
      assertThat(capture.last.get()).isSameAs(r);
    }
    assertThat(capture.partitionsForCalls).isZero();
  }

  @Test
  void theSameSpecsAreRefusedWithTheSameMessage() {
    for (Map<String, String> bad : List.of(
        Map.of("routing.version.generations", "v1:kafka-murmur2", "routing.version.default", "v1",
            "routing.version.source", "header"),
        Map.of("routing.shceme", "xxh3-64"),
        Map.of("routing.scheme", "md5"),
        Map.of("routing.hotkey.candidates", "1", "routing.hotkey.keys", "a"),
        Map.of("routing.segment.weights", "a:1,b:zero"),
        Map.of("routing.canary.share", "half", "routing.canary.next.placement", "jump"))) {
      Throwable byPartitioner = catchFrom(() -> new RoutingPartitioner().configure(bad));
      Throwable byProducer = catchFrom(() -> RoutingProducer.wrap(new Capture().producer(), bad,
          new ByteArraySerializer(), new ByteArraySerializer()));
      assertThat(byPartitioner).as("%s", bad).isInstanceOf(ConfigException.class);
      assertThat(byProducer).as("%s", bad).isInstanceOf(ConfigException.class)
          .hasMessage(byPartitioner.getMessage());
    }
  }

  @Test
  void refusesAPartitionerClassAndAValueHashSpecWithoutValueSerializer() {
    assertThatThrownBy(() -> RoutingProducer.wrap(new Capture().producer(),
        Map.of("partitioner.class", RoundRobinPartitioner.class.getName()),
        new ByteArraySerializer(), null))
        .isInstanceOf(ConfigException.class).hasMessageContaining("partitioner.class");
    assertThatThrownBy(() -> RoutingProducer.wrap(new Capture().producer(),
        Map.of("routing.hotkey.keys", "a", "routing.hotkey.choice", "value-hash"),
        new ByteArraySerializer(), null))
        .isInstanceOf(ConfigException.class).hasMessageContaining("value serializer");
  }

  @Test
  void aMetadataTimeoutFailsTheSendThroughCallbackAndFuture() {
    Capture capture = new Capture();
    capture.metadataFailure = new TimeoutException("Topic t12 not present in metadata");
    Producer<byte[], byte[]> producer = RoutingProducer.wrap(capture.producer(), Map.of(),
        new ByteArraySerializer(), null);
    AtomicReference<Exception> reported = new AtomicReference<>();
    AtomicReference<RecordMetadata> metadata = new AtomicReference<>();
    Future<RecordMetadata> f = producer.send(new ProducerRecord<>("t12", new byte[] {1}, null),
        (m, e) -> {
          metadata.set(m);
          reported.set(e);
        });
    assertThat(reported.get()).isSameAs(capture.metadataFailure);
    assertThat(metadata.get().topic()).isEqualTo("t12");
    assertThat(metadata.get().partition()).isEqualTo(-1);
    assertThatThrownBy(f::get).isInstanceOf(ExecutionException.class)
        .hasCause(capture.metadataFailure);
    assertThat(capture.sends).isZero();
  }

  @Test
  void everyOtherMethodIsForwarded() {
    Capture capture = new Capture();
    Producer<byte[], byte[]> producer = RoutingProducer.wrap(capture.producer(), Map.of(),
        new ByteArraySerializer(), null);
    producer.flush();
    producer.beginTransaction();
    producer.close();
    assertThat(capture.forwarded).containsExactly("flush", "beginTransaction", "close");
    assertThat(producer.partitionsFor("t7")).hasSize(7);
    assertThat(producer).isEqualTo(producer).isNotEqualTo(capture.producer());
    assertThat(producer.toString()).startsWith("RoutingProducer.wrap(");
  }

  private static Throwable catchFrom(Runnable r) {
    try {
      r.run();
      return null;
    } catch (RuntimeException e) {
      return e;
    }
  }

  private static Cluster cluster() {
    List<PartitionInfo> all = new ArrayList<>();
    TOPICS.forEach((topic, count) -> all.addAll(partitions(topic, count)));
    return new Cluster("c", List.of(NODE), all, Set.of(), Set.of());
  }

  private static List<PartitionInfo> partitions(String topic, int count) {
    List<PartitionInfo> out = new ArrayList<>();
    for (int p = 0; p < count; p++) {
      out.add(new PartitionInfo(topic, p, NODE, new Node[] {NODE}, new Node[] {NODE}));
    }
    return out;
  }

  /** A Producer that records what reaches it. */
  private static final class Capture {
    final AtomicReference<ProducerRecord<?, ?>> last = new AtomicReference<>();
    final List<String> forwarded = new ArrayList<>();
    final Map<String, List<PartitionInfo>> metadata = new HashMap<>();
    RuntimeException metadataFailure;
    int sends;
    int partitionsForCalls;
    private Producer<byte[], byte[]> proxy;

    @SuppressWarnings("unchecked")
    Producer<byte[], byte[]> producer() {
      if (proxy == null) {
        proxy = (Producer<byte[], byte[]>) Proxy.newProxyInstance(
            Producer.class.getClassLoader(), new Class<?>[] {Producer.class},
            (self, method, args) -> {
              switch (method.getName()) {
                case "send":
                  sends++;
                  last.set((ProducerRecord<?, ?>) args[0]);
                  return null;
                case "partitionsFor":
                  partitionsForCalls++;
                  if (metadataFailure != null) {
                    throw metadataFailure;
                  }
                  return metadata.computeIfAbsent((String) args[0],
                      t -> partitions(t, TOPICS.get(t)));
                case "equals":
                  return self == args[0];
                case "hashCode":
                  return System.identityHashCode(self);
                case "toString":
                  return "Capture";
                default:
                  forwarded.add(method.getName());
                  return null;
              }
            });
      }
      return proxy;
    }
  }
}
