package io.github.routingkit.testbrokers;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntFunction;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.utils.Time;

/**
 * A single-node Apache Kafka cluster (one combined KRaft broker and controller) running inside the
 * current JVM, for demos and integration tests.
 *
 * <p>{@link #start()} picks two free loopback ports (a {@code PLAINTEXT} client listener and a
 * {@code CONTROLLER} listener), formats a fresh log directory under a new temporary directory with
 * Kafka's own {@code StorageTool} and starts {@code kafka.server.KafkaRaftServer}. All replication
 * factors and minimum in-sync replica counts are 1, the consumer offsets topic has one partition and
 * the initial rebalance delay is 0, so consumer groups form quickly. {@link #close()} stops the
 * server and deletes the temporary directory.
 *
 * <p>Any broker property can be overridden or added with {@link #start(Map)}, for example
 * {@code group.consumer.assignors} to register a server-side (KIP-848) assignor. The listener,
 * controller and log-directory properties are owned by this class and cannot be overridden.
 *
 * <pre>{@code
 * try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
 *   kafka.createTopic("orders", 12);
 *   Properties p = new Properties();
 *   p.put("bootstrap.servers", kafka.bootstrapServers());
 *   ...
 * }
 * }</pre>
 *
 * <p>Built against {@code org.apache.kafka:kafka_2.13} 4.1.1 (a server-internal API without a
 * compatibility promise). Instances are thread-safe; start takes about 2-3 s on a 2-core machine.
 */
public final class EmbeddedKafka implements AutoCloseable {
  /** How long {@link #start} and {@link #createTopic} wait for the broker before giving up. */
  public static final Duration TIMEOUT = Duration.ofSeconds(60);

  private static final List<String> OWNED = List.of(
      "process.roles", "node.id", "controller.quorum.voters", "controller.quorum.bootstrap.servers",
      "listeners", "advertised.listeners", "controller.listener.names",
      "listener.security.protocol.map", "inter.broker.listener.name", "log.dirs", "log.dir");

  /** How long a failed start waits for the broker's threads to end. */
  private static final Duration THREADS_TIMEOUT = Duration.ofSeconds(20);

  /** Picks the client and controller ports; tests replace it to make a start fail. */
  static volatile IntFunction<int[]> portPicker = TempDirs::freeLoopbackPorts;

  private final Path dir;
  private final KafkaRaftServer server;
  private final String bootstrapServers;
  private final Admin admin;
  private boolean closed;

  private EmbeddedKafka(Path dir, KafkaRaftServer server, String bootstrapServers, Admin admin) {
    this.dir = dir;
    this.server = server;
    this.bootstrapServers = bootstrapServers;
    this.admin = admin;
  }

  /**
   * Starts a broker with the default configuration and waits until it serves clients.
   *
   * @return the running broker; close it to stop it and delete its data
   * @throws IllegalStateException if the storage cannot be formatted or the broker does not become
   *     ready within {@link #TIMEOUT}
   * @throws UncheckedIOException if the temporary directory cannot be created
   */
  public static EmbeddedKafka start() {
    return start(Map.of());
  }

  /**
   * Starts a broker with extra or overriding broker properties and waits until it serves clients.
   *
   * @param brokerProperties broker properties ({@code server.properties} names) applied on top of
   *     the defaults; values are converted with {@code toString()}
   * @return the running broker; close it to stop it and delete its data
   * @throws IllegalArgumentException if a property owned by this class (listeners, node and
   *     controller identity, log directories) is given, or Kafka rejects the configuration
   * @throws IllegalStateException if the storage cannot be formatted or the broker does not become
   *     ready within {@link #TIMEOUT}
   * @throws UncheckedIOException if the temporary directory cannot be created
   */
  public static EmbeddedKafka start(Map<String, ?> brokerProperties) {
    Objects.requireNonNull(brokerProperties, "brokerProperties");
    QuietLogs.apply();
    for (String key : brokerProperties.keySet()) {
      if (OWNED.contains(key)) {
        throw new IllegalArgumentException(
            "broker property " + key + " is set by EmbeddedKafka and cannot be overridden");
      }
    }
    // The ports are free when chosen but only bound later: another process may take one in
    // between. Then the broker fails with a BindException and is started again on new ports.
    for (int attempt = 1; ; attempt++) {
      try {
        return startOnce(brokerProperties);
      } catch (RuntimeException e) {
        if (attempt >= 3 || !causedByBindException(e)) {
          throw e;
        }
      }
    }
  }

  private static boolean causedByBindException(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof java.net.BindException) {
        return true;
      }
    }
    return false;
  }

  private static EmbeddedKafka startOnce(Map<String, ?> brokerProperties) {
    Path dir;
    try {
      dir = TempDirs.create("routingkit-kafka-");
    } catch (IOException e) {
      throw new UncheckedIOException("Kafka: " + e.getMessage(), e);
    }
    KafkaRaftServer server = null;
    Admin admin = null;
    Set<Thread> before = Threads.live();
    try {
      int[] ports = portPicker.apply(2); // distinct
      int port = ports[0];
      int controllerPort = ports[1];
      Properties props = new Properties();
      props.putAll(defaults(dir, port, controllerPort));
      brokerProperties.forEach((k, v) -> props.put(k, String.valueOf(v)));

      format(dir, props);
      server = new KafkaRaftServer(KafkaConfig.fromProps(props, false), Time.SYSTEM);
      server.startup();

      String bootstrap = "127.0.0.1:" + port;
      Map<String, Object> adminConfig = new LinkedHashMap<>();
      adminConfig.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
      adminConfig.put(AdminClientConfig.CLIENT_ID_CONFIG, "routingkit-embedded-kafka-admin");
      admin = Admin.create(adminConfig);
      awaitReady(admin);
      return new EmbeddedKafka(dir, server, bootstrap, admin);
    } catch (RuntimeException | Error e) {
      closeQuietly(admin, server, dir);
      // A broker that failed half-way can leave its threads (request handlers, the controller's
      // event queue) running; they would keep the JVM alive after the test failed.
      List<Thread> left = Threads.awaitEnd(before, null, THREADS_TIMEOUT);
      if (!left.isEmpty()) {
        throw new IllegalStateException("Kafka broker failed to start (" + e
            + ") and left threads running: " + Threads.names(left), e);
      }
      if (e instanceof ConfigException) {
        throw new IllegalArgumentException(
            "Kafka rejects the broker configuration: " + e.getMessage(), e);
      }
      if (e instanceof IllegalArgumentException || e instanceof IllegalStateException
          || e instanceof UncheckedIOException) {
        throw (RuntimeException) e;
      }
      throw new IllegalStateException("Kafka broker failed to start: " + e, e);
    }
  }

  private static Map<String, String> defaults(Path dir, int port, int controllerPort) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("process.roles", "broker,controller");
    p.put("node.id", "1");
    p.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
    p.put("listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
    p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
    p.put("controller.listener.names", "CONTROLLER");
    p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    p.put("inter.broker.listener.name", "PLAINTEXT");
    p.put("log.dirs", dir.resolve("logs").toString());
    p.put("num.partitions", "1");
    p.put("default.replication.factor", "1");
    p.put("offsets.topic.replication.factor", "1");
    p.put("offsets.topic.num.partitions", "1");
    p.put("transaction.state.log.replication.factor", "1");
    p.put("transaction.state.log.min.isr", "1");
    p.put("transaction.state.log.num.partitions", "1");
    p.put("share.coordinator.state.topic.replication.factor", "1");
    p.put("share.coordinator.state.topic.min.isr", "1");
    p.put("group.initial.rebalance.delay.ms", "0");
    p.put("min.insync.replicas", "1");
    return p;
  }

  /** Runs {@code kafka-storage format -t <id> -c <file>} in-process; its output is kept quiet. */
  private static void format(Path dir, Properties props) {
    Path file = dir.resolve("server.properties");
    try (OutputStream out = Files.newOutputStream(file)) {
      props.store(out, "routingkit embedded kafka");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    int rc;
    try (PrintStream ps = new PrintStream(captured, true, StandardCharsets.UTF_8)) {
      rc = StorageTool.execute(
          new String[] {"format", "-t", Uuid.randomUuid().toString(), "-c", file.toString()}, ps);
    }
    if (rc != 0) {
      throw new IllegalStateException("kafka storage format failed (exit code " + rc + "): "
          + captured.toString(StandardCharsets.UTF_8));
    }
  }

  private static void awaitReady(Admin admin) {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    Exception last = null;
    while (System.nanoTime() < deadline) {
      try {
        if (!admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty()) {
          return;
        }
      } catch (ExecutionException | TimeoutException e) {
        last = e;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for Kafka", e);
      }
      sleep(100);
    }
    throw new IllegalStateException("Kafka broker not ready after " + TIMEOUT, last);
  }

  /** Returns the {@code bootstrap.servers} value of the client listener, {@code 127.0.0.1:port}. */
  public String bootstrapServers() {
    return bootstrapServers;
  }

  /**
   * Creates a topic with replication factor 1 and waits until the broker leads every partition
   * (it answers ListOffsets for each), so the first produce requests cannot hit a leader change.
   *
   * @param name the topic name
   * @param partitions the partition count, at least 1
   * @throws IllegalArgumentException if {@code partitions < 1}
   * @throws IllegalStateException if Kafka rejects the topic (for example, it already exists) or
   *     the partitions have no leader within {@link #TIMEOUT}
   */
  public void createTopic(String name, int partitions) {
    if (partitions < 1) {
      throw new IllegalArgumentException("partitions must be at least 1, was " + partitions);
    }
    try {
      admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1)))
          .all().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("cannot create Kafka topic " + name, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while creating Kafka topic " + name, e);
    }
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    Exception last = null;
    while (System.nanoTime() < deadline) {
      try {
        // Right after creation the topic can still be unknown to the broker's metadata cache.
        TopicDescription d = admin.describeTopics(List.of(name)).allTopicNames()
            .get(5, TimeUnit.SECONDS).get(name);
        if (d.partitions().size() == partitions
            && d.partitions().stream().allMatch(p -> p.leader() != null && !p.leader().isEmpty())
            && servesOffsets(name, partitions)) {
          return;
        }
      } catch (ExecutionException | TimeoutException e) {
        last = e;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while creating Kafka topic " + name, e);
      }
      sleep(50);
    }
    throw new IllegalStateException(
        "Kafka topic " + name + " not led by the broker after " + TIMEOUT, last);
  }

  /**
   * Returns true once the broker answers ListOffsets for every partition, that is, once its replica
   * manager leads them. The metadata can name the leader a moment earlier; a produce request in
   * that window fails with NOT_LEADER_OR_FOLLOWER, and the idempotent producer of kafka-clients
   * 4.1.1 can then be left retrying sequence 0 after a later batch was appended
   * (OUT_OF_ORDER_SEQUENCE_NUMBER until delivery.timeout.ms; seen here under load).
   */
  private boolean servesOffsets(String topic, int partitions) throws InterruptedException {
    Map<TopicPartition, OffsetSpec> request = new LinkedHashMap<>();
    for (int p = 0; p < partitions; p++) {
      request.put(new TopicPartition(topic, p), OffsetSpec.latest());
    }
    try {
      admin.listOffsets(request, new ListOffsetsOptions().timeoutMs(2_000))
          .all().get(5, TimeUnit.SECONDS);
      return true;
    } catch (ExecutionException | TimeoutException e) {
      return false;
    }
  }

  /**
   * Returns the admin client of this broker (owned by this object: do not close it), for topic
   * configs, consumer groups and anything {@link #createTopic} does not cover.
   */
  public Admin admin() {
    return admin;
  }

  /** Stops the broker and deletes its data directory; safe to call more than once. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    closeQuietly(admin, server, dir);
  }

  private static void closeQuietly(Admin admin, KafkaRaftServer server, Path dir) {
    if (admin != null) {
      try {
        admin.close(Duration.ofSeconds(5));
      } catch (RuntimeException ignored) {
        // closing anyway
      }
    }
    if (server != null) {
      try {
        server.shutdown();
        server.awaitShutdown();
      } catch (RuntimeException ignored) {
        // closing anyway
      }
    }
    TempDirs.delete(dir);
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for Kafka", e);
    }
  }
}
