package io.github.routingkit.testbrokers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.StringJoiner;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntFunction;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigException;

/**
 * An Apache Kafka cluster running inside the current JVM, for demos and integration tests: one
 * combined KRaft broker and controller by default, or up to {@value EmbeddedKafkaBuilder#MAX_NODES}
 * such nodes with racks through {@link #builder()}.
 *
 * <p>{@link #start()} picks two free loopback ports per node (a {@code PLAINTEXT} client listener
 * and a {@code CONTROLLER} listener), formats a fresh log directory per node under a new temporary
 * directory with Kafka's own {@code StorageTool} and starts {@code kafka.server.KafkaRaftServer}.
 * On one node all replication factors and minimum in-sync replica counts are 1; on several nodes
 * the replication factor of topics and internal topics is {@code min(nodes, 3)} and
 * {@code min.insync.replicas} one less (see {@link EmbeddedKafkaBuilder#minInsyncReplicas}). The
 * consumer offsets topic has one partition and the initial rebalance delay is 0, so consumer groups
 * form quickly. {@link #close()} stops every node and deletes the temporary directory.
 *
 * <p>Any broker property can be overridden or added with {@link #start(Map)}, for example
 * {@code group.consumer.assignors} to register a server-side (KIP-848) assignor. The listener,
 * controller and log-directory properties are owned by this class and cannot be overridden.
 *
 * <pre>{@code
 * try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
 *   kafka.createTopic("orders", 12);
 *   Properties p = new Properties();
 *   p.putAll(kafka.clientProperties()); // bootstrap.servers (and SASL settings when enabled)
 *   ...
 * }
 * }</pre>
 *
 * <p>Built against {@code org.apache.kafka:kafka_2.13} 4.1.1 (a server-internal API without a
 * compatibility promise). Instances are thread-safe. On a 2-core machine one node starts in about
 * 2-3 s; three nodes start in parallel (see docs/test-brokers.md for the measured cost).
 */
public final class EmbeddedKafka implements AutoCloseable {
  /** How long {@link #start} and {@link #createTopic} wait for the broker before giving up. */
  public static final Duration TIMEOUT = Duration.ofSeconds(60);

  static final List<String> OWNED = List.of(
      "process.roles", "node.id", "controller.quorum.voters", "controller.quorum.bootstrap.servers",
      "listeners", "advertised.listeners", "controller.listener.names",
      "listener.security.protocol.map", "inter.broker.listener.name", "log.dirs", "log.dir");

  /** How long a failed start waits for the broker's threads to end. */
  private static final Duration THREADS_TIMEOUT = Duration.ofSeconds(20);

  /** Picks the client and controller ports; tests replace it to make a start fail. */
  static volatile IntFunction<int[]> portPicker = TempDirs::freeLoopbackPorts;

  private final Path dir;
  private final List<KafkaNode> nodes;
  private final Map<String, Object> clientProperties;
  private final Admin admin;
  private final int replicationFactor;
  private boolean closed;

  private EmbeddedKafka(Path dir, List<KafkaNode> nodes, Map<String, Object> clientProperties,
      Admin admin, int replicationFactor) {
    this.dir = dir;
    this.nodes = List.copyOf(nodes);
    this.clientProperties = Collections.unmodifiableMap(new LinkedHashMap<>(clientProperties));
    this.admin = admin;
    this.replicationFactor = replicationFactor;
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
    return builder().brokerProperties(brokerProperties).start();
  }

  /**
   * Returns a builder for a broker or cluster with more settings: several nodes with racks,
   * {@code min.insync.replicas}, a SASL/PLAIN client listener.
   *
   * @return a new builder with the defaults of {@link #start()}
   */
  public static EmbeddedKafkaBuilder builder() {
    return new EmbeddedKafkaBuilder();
  }

  /** Starts what the builder describes; the builder has checked its settings. */
  static EmbeddedKafka start(EmbeddedKafkaBuilder settings) {
    QuietLogs.apply();
    // The ports are free when chosen but only bound later: another process may take one in
    // between. Then the broker fails with a BindException and is started again on new ports.
    for (int attempt = 1; ; attempt++) {
      try {
        return startOnce(settings);
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

  private static EmbeddedKafka startOnce(EmbeddedKafkaBuilder settings) {
    Path dir;
    try {
      dir = TempDirs.create("routingkit-kafka-");
    } catch (IOException e) {
      throw new UncheckedIOException("Kafka: " + e.getMessage(), e);
    }
    List<KafkaNode> nodes = new ArrayList<>();
    Admin admin = null;
    Set<Thread> before = Threads.live();
    try {
      boolean sasl = settings.saslUsername() != null;
      int perNode = sasl ? 3 : 2;
      int[] ports = portPicker.apply(settings.nodes() * perNode); // distinct
      StringJoiner voters = new StringJoiner(",");
      StringJoiner bootstrap = new StringJoiner(",");
      for (int i = 0; i < settings.nodes(); i++) {
        int id = i + 1;
        KafkaNode node = new KafkaNode(id, settings.rack(id), dir.resolve("node-" + id),
            ports[i * perNode], ports[i * perNode + 1], sasl ? ports[i * perNode + 2] : 0);
        nodes.add(node);
        voters.add(id + "@127.0.0.1:" + node.controllerPort);
        bootstrap.add("127.0.0.1:" + node.clientPort);
      }
      String clusterId = Uuid.randomUuid().toString();
      Map<KafkaNode, Properties> configs = new LinkedHashMap<>();
      for (KafkaNode node : nodes) {
        Properties props = node.config(voters.toString(), settings);
        node.format(props, clusterId);
        configs.put(node, props);
      }
      KafkaNode.forEach(nodes, n -> n.start(configs.get(n)), TIMEOUT.toMillis());

      Map<String, Object> client = new LinkedHashMap<>();
      client.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap.toString());
      if (sasl) {
        client.put(AdminClientConfig.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
        client.put("sasl.mechanism", "PLAIN");
        client.put("sasl.jaas.config",
            saslPlainJaasConfig(settings.saslUsername(), settings.saslPassword()));
      }
      Map<String, Object> adminConfig = new LinkedHashMap<>(client);
      adminConfig.put(AdminClientConfig.CLIENT_ID_CONFIG, "routingkit-embedded-kafka-admin");
      admin = Admin.create(adminConfig);
      awaitReady(admin, nodes.size());
      return new EmbeddedKafka(dir, nodes, client, admin, settings.replicationFactor());
    } catch (RuntimeException | Error e) {
      closeQuietly(admin, nodes, dir);
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

  /**
   * Returns the {@code sasl.jaas.config} value with which a client logs in with SASL/PLAIN as
   * this user, for example to try credentials other than those of {@link #clientProperties()}.
   *
   * @param username the user name, without {@code "} or a backslash
   * @param password the password, without {@code "} or a backslash
   * @return {@code org.apache.kafka.common.security.plain.PlainLoginModule required
   *     username="..." password="...";}
   * @throws IllegalArgumentException if either contains {@code "} or a backslash
   * @throws NullPointerException if either is null
   */
  public static String saslPlainJaasConfig(String username, String password) {
    for (String v : List.of(Objects.requireNonNull(username, "username"),
        Objects.requireNonNull(password, "password"))) {
      if (v.indexOf('"') >= 0 || v.indexOf('\\') >= 0) {
        throw new IllegalArgumentException(
            "SASL username and password must not contain '\"' or '\\'");
      }
    }
    return "org.apache.kafka.common.security.plain.PlainLoginModule required username=\""
        + username + "\" password=\"" + password + "\";";
  }

  /** Waits until the cluster has {@code brokers} unfenced brokers. */
  private static void awaitReady(Admin admin, int brokers) {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    Exception last = null;
    while (System.nanoTime() < deadline) {
      try {
        if (admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).size() >= brokers) {
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
    throw new IllegalStateException("Kafka: " + brokers + " broker(s) not ready after " + TIMEOUT,
        last);
  }

  /**
   * Returns the {@code bootstrap.servers} value of the client listeners, {@code 127.0.0.1:port}
   * for each node in node-id order, comma-separated.
   */
  public String bootstrapServers() {
    return (String) clientProperties.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG);
  }

  /**
   * Returns what a client needs to connect: {@code bootstrap.servers} and, with SASL/PLAIN on,
   * {@code security.protocol=SASL_PLAINTEXT}, {@code sasl.mechanism=PLAIN} and the
   * {@code sasl.jaas.config} of the configured user. A new modifiable map on each call, to add a
   * client's own settings to.
   */
  public Map<String, Object> clientProperties() {
    return new LinkedHashMap<>(clientProperties);
  }

  /** Returns the node ids, 1 to the node count. */
  public List<Integer> nodeIds() {
    List<Integer> ids = new ArrayList<>();
    for (KafkaNode n : nodes) {
      ids.add(n.id);
    }
    return ids;
  }

  /** Returns the ids of the nodes that run (not stopped with {@link #stopNode}). */
  public List<Integer> runningNodeIds() {
    List<Integer> ids = new ArrayList<>();
    for (KafkaNode n : nodes) {
      if (n.running()) {
        ids.add(n.id);
      }
    }
    return ids;
  }

  /**
   * Returns the replication factor of {@link #createTopic}'s topics and of the internal topics:
   * {@code min(nodes, 3)}.
   */
  public int replicationFactor() {
    return replicationFactor;
  }

  /**
   * Stops one node (broker and controller) with a controlled shutdown and waits until it is down:
   * while a controller quorum runs (a majority of the nodes), the controller first moves the
   * leaderships of this node's partitions to in-sync followers and removes it from the ISRs. Its
   * data stays until {@link #close()}; it cannot be started again. Stopping a stopped node does
   * nothing.
   *
   * @param nodeId a node id from {@link #nodeIds()}
   * @throws IllegalArgumentException if there is no such node
   */
  public void stopNode(int nodeId) {
    for (KafkaNode n : nodes) {
      if (n.id == nodeId) {
        n.stop();
        return;
      }
    }
    throw new IllegalArgumentException("no Kafka node " + nodeId + "; nodes are " + nodeIds());
  }

  /**
   * Creates a topic with replication factor {@link #replicationFactor()} and waits until every
   * partition has a leader that serves it and, while every node runs, a full ISR, so the first
   * produce requests cannot hit a leader change.
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
      admin.createTopics(List.of(new NewTopic(name, partitions, (short) replicationFactor)))
          .all().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("cannot create Kafka topic " + name, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while creating Kafka topic " + name, e);
    }
    int fullIsr = Math.min(replicationFactor, runningNodeIds().size());
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    Exception last = null;
    while (System.nanoTime() < deadline) {
      try {
        // Right after creation the topic can still be unknown to the broker's metadata cache.
        TopicDescription d = admin.describeTopics(List.of(name)).allTopicNames()
            .get(5, TimeUnit.SECONDS).get(name);
        if (d.partitions().size() == partitions
            && d.partitions().stream().allMatch(p -> p.leader() != null && !p.leader().isEmpty()
                && p.isr().size() >= fullIsr)
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
   * Returns the admin client of this cluster (owned by this object: do not close it), for topic
   * configs, consumer groups and anything {@link #createTopic} does not cover.
   */
  public Admin admin() {
    return admin;
  }

  /** Stops every node and deletes the data directory; safe to call more than once. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    closeQuietly(admin, nodes, dir);
  }

  private static void closeQuietly(Admin admin, List<KafkaNode> nodes, Path dir) {
    if (admin != null) {
      try {
        admin.close(Duration.ofSeconds(5));
      } catch (RuntimeException ignored) {
        // closing anyway
      }
    }
    // In parallel: each node's controlled shutdown needs a controller quorum, which stopping
    // the nodes one after another would take away from the last ones.
    if (!nodes.isEmpty()) {
      try {
        KafkaNode.forEach(nodes, KafkaNode::stop, TIMEOUT.toMillis());
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
