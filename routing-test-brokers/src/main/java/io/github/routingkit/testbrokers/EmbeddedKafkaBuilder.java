package io.github.routingkit.testbrokers;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Settings of an {@link EmbeddedKafka} to start: node count, racks, {@code min.insync.replicas},
 * a SASL/PLAIN client listener and broker properties. Obtained from {@link EmbeddedKafka#builder()}.
 *
 * <pre>{@code
 * try (EmbeddedKafka kafka = EmbeddedKafka.builder()
 *     .nodes(3).racks("eu-1a", "eu-1b", "eu-1c").minInsyncReplicas(2)
 *     .saslPlain("app", "app-secret")
 *     .start()) {
 *   Map<String, Object> client = kafka.clientProperties(); // bootstrap.servers, SASL settings
 *   ...
 * }
 * }</pre>
 *
 * <p>Each setter checks its own argument and throws {@link IllegalArgumentException} naming it;
 * {@link #start()} checks how they fit together. Not thread-safe; a builder can start any number
 * of brokers.
 */
public final class EmbeddedKafkaBuilder {
  /** The most nodes a cluster may have. */
  public static final int MAX_NODES = 5;

  private static final Pattern USERNAME = Pattern.compile("[A-Za-z0-9._-]+");

  private int nodes = 1;
  private List<String> racks = List.of();
  private int minInsyncReplicas;
  private final Map<String, String> brokerProperties = new TreeMap<>();
  private String saslUsername;
  private String saslPassword;

  EmbeddedKafkaBuilder() {}

  /**
   * Sets the number of combined KRaft broker-and-controller nodes (node ids 1 to {@code nodes},
   * every node a voter of the controller quorum). With more than one node, topics and the
   * internal topics get replication factor {@code min(nodes, 3)}.
   *
   * @param nodes 1 to {@value #MAX_NODES}; default 1
   * @return this builder
   * @throws IllegalArgumentException if {@code nodes} is out of range
   */
  public EmbeddedKafkaBuilder nodes(int nodes) {
    if (nodes < 1 || nodes > MAX_NODES) {
      throw new IllegalArgumentException(
          "nodes must be between 1 and " + MAX_NODES + ", was " + nodes);
    }
    this.nodes = nodes;
    return this;
  }

  /**
   * Sets {@code broker.rack} of each node, in node-id order (the first rack for node 1). Without
   * it, a cluster of several nodes puts node {@code n} in rack {@code rack-n} and a single node
   * has no rack.
   *
   * @param racks one non-blank rack per node (checked against {@link #nodes} by {@link #start()})
   * @return this builder
   * @throws IllegalArgumentException if a rack is blank
   * @throws NullPointerException if {@code racks} or an element is null
   */
  public EmbeddedKafkaBuilder racks(String... racks) {
    List<String> list = new ArrayList<>();
    for (String r : Objects.requireNonNull(racks, "racks")) {
      if (Objects.requireNonNull(r, "rack").isBlank()) {
        throw new IllegalArgumentException("racks: a rack is blank");
      }
      list.add(r);
    }
    this.racks = Collections.unmodifiableList(list);
    return this;
  }

  /**
   * Sets {@code min.insync.replicas} of the brokers (and {@code transaction.state.log.min.isr}).
   * Without it: 1 on a single node, replication factor minus 1 on a cluster (2 on 3 nodes, so a
   * producer with {@code acks=all} keeps writing while one node is down).
   *
   * @param minInsyncReplicas at least 1 and at most the replication factor (checked by
   *     {@link #start()})
   * @return this builder
   * @throws IllegalArgumentException if {@code minInsyncReplicas < 1}
   */
  public EmbeddedKafkaBuilder minInsyncReplicas(int minInsyncReplicas) {
    if (minInsyncReplicas < 1) {
      throw new IllegalArgumentException(
          "minInsyncReplicas must be at least 1, was " + minInsyncReplicas);
    }
    this.minInsyncReplicas = minInsyncReplicas;
    return this;
  }

  /**
   * Makes the client listener {@code SASL_PLAINTEXT} with the PLAIN mechanism and one user; the
   * nodes replicate over a PLAINTEXT listener of their own that is not advertised to clients.
   * {@link EmbeddedKafka#clientProperties()} then carries {@code security.protocol},
   * {@code sasl.mechanism} and {@code sasl.jaas.config} for this user.
   *
   * @param username letters, digits, {@code .}, {@code _} and {@code -}
   * @param password non-empty, without {@code "} or {@code \}
   * @return this builder
   * @throws IllegalArgumentException if the username or password breaks these rules
   * @throws NullPointerException if either is null
   */
  public EmbeddedKafkaBuilder saslPlain(String username, String password) {
    Objects.requireNonNull(username, "username");
    Objects.requireNonNull(password, "password");
    if (!USERNAME.matcher(username).matches()) {
      throw new IllegalArgumentException("SASL username \"" + username
          + "\" must be letters, digits, '.', '_' and '-' only");
    }
    if (password.isEmpty() || password.indexOf('"') >= 0 || password.indexOf('\\') >= 0) {
      throw new IllegalArgumentException("SASL password must be non-empty, without '\"' or '\\'");
    }
    this.saslUsername = username;
    this.saslPassword = password;
    return this;
  }

  /**
   * Adds or overrides one broker property ({@code server.properties} name), applied to every
   * node after the defaults.
   *
   * @param name the property name
   * @param value the value, converted with {@code toString()}
   * @return this builder
   * @throws IllegalArgumentException if the property is owned by {@link EmbeddedKafka}
   *     (listeners, node and controller identity, log directories)
   * @throws NullPointerException if either is null
   */
  public EmbeddedKafkaBuilder brokerProperty(String name, Object value) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(value, "value");
    if (EmbeddedKafka.OWNED.contains(name)) {
      throw new IllegalArgumentException(
          "broker property " + name + " is set by EmbeddedKafka and cannot be overridden");
    }
    brokerProperties.put(name, String.valueOf(value));
    return this;
  }

  /**
   * Adds or overrides broker properties, as {@link #brokerProperty} does for each.
   *
   * @param properties names to values
   * @return this builder
   * @throws IllegalArgumentException if a property is owned by {@link EmbeddedKafka}
   * @throws NullPointerException if the map, a name or a value is null
   */
  public EmbeddedKafkaBuilder brokerProperties(Map<String, ?> properties) {
    Objects.requireNonNull(properties, "properties").forEach(this::brokerProperty);
    return this;
  }

  /**
   * Starts the brokers and waits until every node serves clients (start and failure as
   * {@link EmbeddedKafka#start(Map)}).
   *
   * @return the running cluster; close it to stop it and delete its data
   * @throws IllegalArgumentException if the settings do not fit together (a rack count other than
   *     the node count, {@code min.insync.replicas} above the replication factor, racks given
   *     together with a {@code broker.rack} or {@code min.insync.replicas} property), or Kafka
   *     rejects the configuration
   * @throws IllegalStateException if the storage cannot be formatted or a node does not become
   *     ready within {@link EmbeddedKafka#TIMEOUT}
   * @throws java.io.UncheckedIOException if the temporary directory cannot be created
   */
  public EmbeddedKafka start() {
    if (!racks.isEmpty() && racks.size() != nodes) {
      throw new IllegalArgumentException(
          "racks: " + racks.size() + " racks given for " + nodes + " nodes (one per node)");
    }
    if (!racks.isEmpty() && brokerProperties.containsKey("broker.rack")) {
      throw new IllegalArgumentException("racks and the broker property broker.rack both given");
    }
    if (minInsyncReplicas > replicationFactor()) {
      throw new IllegalArgumentException("minInsyncReplicas " + minInsyncReplicas
          + " is above the replication factor " + replicationFactor() + " of " + nodes
          + " node(s)");
    }
    if (minInsyncReplicas > 0 && brokerProperties.containsKey("min.insync.replicas")) {
      throw new IllegalArgumentException(
          "minInsyncReplicas and the broker property min.insync.replicas both given");
    }
    return EmbeddedKafka.start(this);
  }

  int nodes() {
    return nodes;
  }

  /** The rack of the node with this id (1-based), or null for none. */
  String rack(int nodeId) {
    if (!racks.isEmpty()) {
      return racks.get(nodeId - 1);
    }
    return nodes > 1 ? "rack-" + nodeId : null;
  }

  int replicationFactor() {
    return Math.min(nodes, 3);
  }

  int effectiveMinInsyncReplicas() {
    if (minInsyncReplicas > 0) {
      return minInsyncReplicas;
    }
    return Math.max(1, replicationFactor() - 1);
  }

  Map<String, String> brokerProperties() {
    return Collections.unmodifiableMap(brokerProperties);
  }

  String saslUsername() {
    return saslUsername;
  }

  String saslPassword() {
    return saslPassword;
  }

  /** A description that is equal for two builders exactly when they start the same brokers. */
  String describe() {
    return "nodes=" + nodes + " racks=" + racks + " minInsyncReplicas=" + minInsyncReplicas
        + " sasl=" + (saslUsername == null ? "none" : saslUsername + ":" + saslPassword)
        + " properties=" + brokerProperties;
  }
}
