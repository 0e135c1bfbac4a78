package io.github.routingkit.examples.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.testbrokers.EmbeddedKafka;
import io.github.routingkit.kafka.RoutingPartitioner;
import io.github.routingkit.kafka.streams.RoutingStreamPartitioner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link RoutingStreamPartitioner} in a real Kafka Streams topology on the in-process broker, two
 * application instances, 10,000 customer keys.
 *
 * <p>Inputs, both produced through {@link RoutingPartitioner} with a non-default spec (xxh3-64,
 * jump placement), 6 partitions each: {@code customers} (customer &rarr; region, read as a table,
 * store {@code customers-store}) and {@code orders} (order id &rarr; customer, two orders per
 * customer). The topology re-keys orders by customer, <b>repartitions</b> them, <b>counts</b> them
 * by key (store {@code orders-per-customer}), <b>joins</b> the counts with the customers table
 * (co-partitioned KTable-KTable join) and writes the result to {@code customer-summary}. Then,
 * for every key, {@code queryMetadataForKey} must name the instance and partition whose local store
 * holds it.
 *
 * <p>Run once with the adapter in {@code Repartitioned}, {@code Produced} and
 * {@code queryMetadataForKey}: no mismatch. Run once without it (Streams' default partitioner):
 * the test asserts the mismatch it exists to prevent, and prints both sets of counts.
 */
@Tag("broker")
class StreamPartitionerBrokerTest {
  private static final int PARTITIONS = 6;
  private static final int CUSTOMERS = 10_000;
  private static final int ORDERS_PER_CUSTOMER = 2;
  private static final RoutingSpec SPEC =
      RoutingSpec.parse("routing.scheme=xxh3-64, routing.placement=jump");
  private static final Duration WAIT = Duration.ofSeconds(180);

  private static EmbeddedKafka kafka;
  private static Path stateDir;

  @BeforeAll
  static void start() throws IOException {
    kafka = EmbeddedKafka.start();
    stateDir = Files.createTempDirectory("routingkit-streams-");
  }

  @AfterAll
  static void stop() {
    if (kafka != null) {
      kafka.close();
    }
    try (var paths = Files.walk(stateDir)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    } catch (IOException | RuntimeException ignored) {
      // a temp dir left behind is harmless
    }
  }

  /** What one run saw; every count is over the 10,000 customer keys. */
  record Outcome(int joined, int summaryOnRoutedPartition, int customerQueriesAnswered,
      int countQueriesAnswered, int queriesOnRoutedPartition) {}

  @Test
  void withTheAdapterEveryKeyMeetsItsStateAndEveryQueryItsInstance() throws Exception {
    Outcome o = run("with", true);
    System.out.println("streams with RoutingStreamPartitioner: " + o);
    assertThat(o.joined()).as("customers joined with their order count").isEqualTo(CUSTOMERS);
    assertThat(o.summaryOnRoutedPartition()).as("summary records on the spec's partition")
        .isEqualTo(CUSTOMERS);
    assertThat(o.queriesOnRoutedPartition()).isEqualTo(CUSTOMERS);
    assertThat(o.customerQueriesAnswered()).as("keys found where queryMetadataForKey points")
        .isEqualTo(CUSTOMERS);
    assertThat(o.countQueriesAnswered()).isEqualTo(CUSTOMERS);
  }

  @Test
  void withoutTheAdapterJoinsMissAndQueriesGoAstray() throws Exception {
    Outcome o = run("without", false);
    System.out.println("streams with the default partitioner: " + o);
    // jump(xxh3) and murmur2 agree on about 1/6 of the keys at 6 partitions
    assertThat(o.joined()).isLessThan(CUSTOMERS / 3);
    assertThat(o.summaryOnRoutedPartition()).isLessThan(CUSTOMERS / 3);
    assertThat(o.queriesOnRoutedPartition()).isLessThan(CUSTOMERS / 3);
    // the input topic's table is where producers put the keys; the default partitioner's
    // metadata points elsewhere (the count store, written by Streams itself, stays consistent)
    assertThat(o.customerQueriesAnswered()).isLessThan(CUSTOMERS / 3);
  }

  private Outcome run(String name, boolean adapter) throws Exception {
    String customers = name + "-customers";
    String orders = name + "-orders";
    String summary = name + "-customer-summary";
    kafka.createTopic(customers, PARTITIONS);
    kafka.createTopic(orders, PARTITIONS);
    kafka.createTopic(summary, PARTITIONS);
    produceInputs(customers, orders);

    RoutingStreamPartitioner<String, String> p =
        RoutingStreamPartitioner.of(SPEC, new StringSerializer());
    List<KafkaStreams> instances = new ArrayList<>();
    try {
      for (int i = 0; i < 2; i++) {
        KafkaStreams s = new KafkaStreams(topology(customers, orders, summary, adapter ? p : null),
            streamsConfig(name, i));
        instances.add(s);
        s.start();
      }
      awaitConverged(instances);
      List<String> keys = new ArrayList<>();
      for (int c = 0; c < CUSTOMERS; c++) {
        keys.add(customer(c));
      }
      int customerAnswered = 0;
      int countAnswered = 0;
      int onRouted = 0;
      for (String key : keys) {
        for (String store : List.of("customers-store", "orders-per-customer")) {
          KeyQueryMetadata meta = adapter
              ? instances.get(0).queryMetadataForKey(store, key, p.forKeys())
              : instances.get(0).queryMetadataForKey(store, key, new StringSerializer());
          if (store.equals("customers-store")) {
            onRouted += meta.partition() == routed(key) ? 1 : 0;
          }
          KafkaStreams holder = instances.get(meta.activeHost().port() - 7000);
          Object v = holder.store(StoreQueryParameters.fromNameAndType(store,
              QueryableStoreTypes.<String, Object>keyValueStore()).withPartition(meta.partition())
              .enableStaleStores()).get(key);
          if (v != null) {
            if (store.equals("customers-store")) {
              customerAnswered++;
            } else {
              countAnswered++;
            }
          }
        }
      }
      Map<String, String> out = new HashMap<>();
      int routedOut = readSummary(summary, out);
      int joined = (int) out.values().stream().filter(v -> v.endsWith(":" + ORDERS_PER_CUSTOMER))
          .count();
      return new Outcome(joined, routedOut, customerAnswered, countAnswered, onRouted);
    } finally {
      for (KafkaStreams s : instances) {
        s.close(Duration.ofSeconds(30));
      }
    }
  }

  private static Topology topology(String customers, String orders, String summary,
      RoutingStreamPartitioner<String, String> p) {
    StreamsBuilder b = new StreamsBuilder();
    KTable<String, String> regions = b.table(customers, Consumed.with(Serdes.String(), Serdes.String()),
        Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("customers-store"));
    Repartitioned<String, String> byCustomer = Repartitioned.<String, String>as("by-customer")
        .withKeySerde(Serdes.String()).withValueSerde(Serdes.String());
    KTable<String, Long> counts = b.stream(orders, Consumed.with(Serdes.String(), Serdes.String()))
        .selectKey((orderId, customer) -> customer)
        .repartition(p == null ? byCustomer : byCustomer.withStreamPartitioner(p))
        .groupByKey(Grouped.with(Serdes.String(), Serdes.String()))
        .count(Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("orders-per-customer")
            .withKeySerde(Serdes.String()).withValueSerde(Serdes.Long()));
    Produced<String, String> produced = Produced.with(Serdes.String(), Serdes.String());
    counts.join(regions, (count, region) -> region + ":" + count).toStream()
        .to(summary, p == null ? produced : produced.withStreamPartitioner(p));
    return b.build();
  }

  private static Properties streamsConfig(String name, int instance) {
    Properties c = new Properties();
    c.put(StreamsConfig.APPLICATION_ID_CONFIG, "routingkit-streams-" + name);
    c.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    c.put(StreamsConfig.APPLICATION_SERVER_CONFIG, "localhost:" + (7000 + instance));
    c.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.resolve(name + "-" + instance).toString());
    c.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
    c.put("statestore.cache.max.bytes", 0);
    c.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
    c.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
    c.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
    return c;
  }

  private static String customer(int c) {
    return "customer-" + c;
  }

  private static void produceInputs(String customers, String orders) throws Exception {
    Map<String, Object> cfg = new HashMap<>(SPEC.toMap());
    cfg.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    cfg.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, RoutingPartitioner.class.getName());
    cfg.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(cfg, new StringSerializer(), new StringSerializer())) {
      for (int c = 0; c < CUSTOMERS; c++) {
        producer.send(new ProducerRecord<>(customers, customer(c), "region-" + (c % 7)));
        for (int o = 0; o < ORDERS_PER_CUSTOMER; o++) {
          producer.send(new ProducerRecord<>(orders, "order-" + c + "-" + o, customer(c)));
        }
      }
      producer.flush();
    }
  }

  /** The partition RoutingPartitioner gives {@code key} (the spec's; where producers put it). */
  private static int routed(String key) {
    return SPEC.keyRouter().partition(key, PARTITIONS);
  }

  /** Waits until both instances run and their stores have seen every input record. */
  private static void awaitConverged(List<KafkaStreams> instances) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    long customersSeen = 0;
    long ordersSeen = 0;
    while (System.nanoTime() < deadline) {
      customersSeen = 0;
      ordersSeen = 0;
      boolean running = instances.stream().allMatch(s -> s.state() == KafkaStreams.State.RUNNING)
          && instances.get(0).metadataForAllStreamsClients().size() == instances.size();
      if (running) {
        try {
          for (KafkaStreams s : instances) {
            customersSeen += s.store(StoreQueryParameters.fromNameAndType("customers-store",
                QueryableStoreTypes.<String, Object>keyValueStore())).approximateNumEntries();
            ReadOnlyKeyValueStore<String, Long> counts = s.store(StoreQueryParameters
                .fromNameAndType("orders-per-customer", QueryableStoreTypes.keyValueStore()));
            try (var it = counts.all()) {
              while (it.hasNext()) {
                ordersSeen += it.next().value;
              }
            }
          }
        } catch (org.apache.kafka.streams.errors.InvalidStateStoreException e) {
          customersSeen = -1; // rebalancing: ask again
        }
        if (customersSeen == CUSTOMERS && ordersSeen == (long) CUSTOMERS * ORDERS_PER_CUSTOMER) {
          return;
        }
      }
      Thread.sleep(200);
    }
    throw new AssertionError("streams did not converge within " + WAIT + ": states "
        + instances.stream().map(KafkaStreams::state).toList() + ", customers " + customersSeen
        + ", orders " + ordersSeen);
  }

  /**
   * Reads the summary topic until it has been quiet for 3 s; keeps the last value per key and
   * returns how many keys' last record sits on the spec's partition.
   */
  private static int readSummary(String topic, Map<String, String> last) {
    Map<String, Object> cfg = new HashMap<>();
    cfg.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    Map<String, Integer> partitionOf = new HashMap<>();
    try (KafkaConsumer<String, String> c =
        new KafkaConsumer<>(cfg, new StringDeserializer(), new StringDeserializer())) {
      List<TopicPartition> tps = new ArrayList<>();
      for (int i = 0; i < PARTITIONS; i++) {
        tps.add(new TopicPartition(topic, i));
      }
      c.assign(tps);
      c.seekToBeginning(tps);
      long quietSince = System.nanoTime();
      long deadline = System.nanoTime() + WAIT.toNanos();
      while (System.nanoTime() - quietSince < 3_000_000_000L && System.nanoTime() < deadline) {
        var records = c.poll(Duration.ofMillis(200));
        for (ConsumerRecord<String, String> r : records) {
          last.put(r.key(), r.value());
          partitionOf.put(r.key(), r.partition());
          quietSince = System.nanoTime();
        }
      }
    }
    return (int) partitionOf.entrySet().stream().filter(e -> e.getValue() == routed(e.getKey()))
        .count();
  }
}
