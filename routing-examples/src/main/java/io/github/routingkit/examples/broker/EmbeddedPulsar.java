package io.github.routingkit.examples.broker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.pulsar.PulsarStandalone;
import org.apache.pulsar.PulsarStandaloneBuilder;
import org.apache.pulsar.broker.ServiceConfiguration;
import org.apache.pulsar.client.admin.PulsarAdmin;
import org.apache.pulsar.client.admin.PulsarAdminException;
import org.apache.pulsar.client.api.PulsarClientException;
import org.apache.pulsar.common.util.FieldParser;

/**
 * An Apache Pulsar standalone (one broker, one bookie, a RocksDB metadata store) running inside the
 * current JVM, for demos and integration tests.
 *
 * <p>{@link #start()} builds a {@code org.apache.pulsar.PulsarStandalone} with
 * {@code PulsarStandaloneBuilder}, puts the bookie's journal and ledgers and the metadata store in a
 * new temporary directory, binds the broker and web service to free loopback ports (port 0, read back
 * after start), advertises {@code 127.0.0.1}, uses ensemble, write and ack quorums of 1 and runs
 * without the functions worker, stream storage or transaction coordinator. The default namespace
 * {@code public/default} exists once {@code start} returns. {@link #close()} stops everything and
 * deletes the temporary directory.
 *
 * <p>Any {@code broker.conf} setting can be overridden with {@link #start(Map)}, for example
 * {@code defaultNumberOfNamespaceBundles} or {@code subscriptionKeySharedUseConsistentHashing}. The
 * values are applied to the standalone's {@code ServiceConfiguration} after the defaults above.
 *
 * <pre>{@code
 * try (EmbeddedPulsar pulsar = EmbeddedPulsar.start()) {
 *   pulsar.createPartitionedTopic("persistent://public/default/orders", 12);
 *   PulsarClient client = PulsarClient.builder().serviceUrl(pulsar.brokerServiceUrl()).build();
 *   ...
 * }
 * }</pre>
 *
 * <p>Built against {@code org.apache.pulsar:pulsar-broker} 4.2.4. Where the standalone offers no
 * setter (the metadata directory, 4.2.4), a private field is set reflectively; a newer Pulsar that
 * renames it makes {@code start} fail with a clear {@link IllegalStateException}. The bookie needs
 * {@code allowLoopback=true} in a server config file to bind 127.0.0.1; this class writes that file.
 * Starting takes about 5-10 s on a 2-core machine. Instances are thread-safe.
 */
public final class EmbeddedPulsar implements AutoCloseable {
  private static final String CLUSTER = "standalone";

  /**
   * Jersey ("WADL feature is disabled") and OpenTelemetry ("automatic configuration is disabled")
   * log through java.util.logging, not SLF4J; their warnings and notices are noise here. The strong
   * references keep the levels: JUL holds its loggers weakly.
   */
  private static final List<java.util.logging.Logger> QUIET_JUL_LOGGERS =
      List.of(quiet("org.glassfish.jersey"), quiet("io.opentelemetry"));

  private static java.util.logging.Logger quiet(String name) {
    java.util.logging.Logger logger = java.util.logging.Logger.getLogger(name);
    if (logger.getLevel() == null) {
      logger.setLevel(java.util.logging.Level.SEVERE);
    }
    return logger;
  }

  private final Path dir;
  private final PulsarStandalone standalone;
  private final PulsarAdmin admin;
  private boolean closed;

  private EmbeddedPulsar(Path dir, PulsarStandalone standalone, PulsarAdmin admin) {
    this.dir = dir;
    this.standalone = standalone;
    this.admin = admin;
  }

  /**
   * Starts a standalone with the default configuration and waits until it serves clients.
   *
   * @return the running standalone; close it to stop it and delete its data
   * @throws IllegalStateException if the standalone fails to start
   * @throws UncheckedIOException if the temporary directory cannot be prepared
   */
  public static EmbeddedPulsar start() {
    return start(Map.of());
  }

  /**
   * Starts a standalone with extra or overriding broker settings and waits until it serves clients.
   *
   * @param brokerProperties {@code broker.conf} settings (names of {@code ServiceConfiguration}
   *     fields) applied after the defaults; values are converted with {@code toString()}
   * @return the running standalone; close it to stop it and delete its data
   * @throws IllegalArgumentException if a name is not a {@code ServiceConfiguration} setting or a
   *     value cannot be converted to the setting's type
   * @throws IllegalStateException if the standalone fails to start
   * @throws UncheckedIOException if the temporary directory cannot be prepared
   */
  public static EmbeddedPulsar start(Map<String, ?> brokerProperties) {
    Objects.requireNonNull(brokerProperties, "brokerProperties");
    Map<String, String> overrides = new LinkedHashMap<>();
    brokerProperties.forEach((k, v) -> overrides.put(k, String.valueOf(v)));
    for (String key : overrides.keySet()) {
      if (!isSetting(key)) {
        throw new IllegalArgumentException("Pulsar broker setting " + key + " (value "
            + overrides.get(key) + ") is not a field of " + ServiceConfiguration.class.getName());
      }
    }

    Path dir;
    Path bookieConf;
    try {
      dir = TempDirs.create("routingkit-pulsar-");
      bookieConf = dir.resolve("bookie.conf");
      // Without allowLoopback the bookie refuses to register a 127.0.0.1 address.
      Files.write(bookieConf, List.of("allowLoopback=true"), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prepare a temporary directory for Pulsar", e);
    }

    PulsarStandalone standalone = null;
    PulsarAdmin admin = null;
    try {
      String metadataUrl = "rocksdb://" + dir.resolve("metadata").toAbsolutePath();
      standalone = PulsarStandaloneBuilder.instance()
          .withWipeData(true)
          .withNumOfBk(1)
          .withBkPort(0)
          .withBkDir(dir.resolve("bookkeeper").toString())
          // Must not exist: an existing ZooKeeper dir switches the standalone to ZooKeeper mode.
          .withZkDir(dir.resolve("zookeeper").toString())
          .withNoStreamStorage(true)
          .withAdvertisedAddress("127.0.0.1")
          .build();
      standalone.setNoFunctionsWorker(true);
      standalone.setConfigFile(bookieConf.toString());
      setPrivateField(standalone, "metadataDir", dir.resolve("metadata").toString());

      // The builder replaces any config given with withConfig, so configure its own object.
      ServiceConfiguration config = standalone.getConfig();
      config.setClusterName(CLUSTER);
      config.setMetadataStoreUrl(metadataUrl);
      config.setConfigurationMetadataStoreUrl(metadataUrl);
      config.setAdvertisedAddress("127.0.0.1");
      config.setBindAddress("127.0.0.1");
      config.setBrokerServicePort(Optional.of(0));
      config.setWebServicePort(Optional.of(0));
      config.setManagedLedgerDefaultEnsembleSize(1);
      config.setManagedLedgerDefaultWriteQuorum(1);
      config.setManagedLedgerDefaultAckQuorum(1);
      config.setFunctionsWorkerEnabled(false);
      config.setTransactionCoordinatorEnabled(false);
      if (!overrides.isEmpty()) {
        FieldParser.update(overrides, config);
        config.getProperties().putAll(overrides);
      }

      standalone.start();
      admin = PulsarAdmin.builder().serviceHttpUrl(standalone.getWebServiceUrl()).build();
      return new EmbeddedPulsar(dir, standalone, admin);
    } catch (PulsarClientException e) {
      closeQuietly(admin, standalone, dir);
      throw new IllegalStateException("cannot create a Pulsar admin client", e);
    } catch (RuntimeException | Error e) {
      closeQuietly(admin, standalone, dir);
      throw e;
    } catch (Exception e) {
      closeQuietly(admin, standalone, dir);
      throw new IllegalStateException("Pulsar standalone failed to start", e);
    }
  }

  private static boolean isSetting(String name) {
    for (Class<?> c = ServiceConfiguration.class; c != null; c = c.getSuperclass()) {
      try {
        c.getDeclaredField(name);
        return true;
      } catch (NoSuchFieldException e) {
        // look in the superclass
      }
    }
    return false;
  }

  private static void setPrivateField(Object target, String name, Object value) {
    try {
      Field f = target.getClass().getDeclaredField(name);
      f.setAccessible(true);
      f.set(target, value);
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new IllegalStateException("cannot set " + target.getClass().getName() + "." + name
          + " (written for pulsar-broker 4.2.4)", e);
    }
  }

  /** Returns the binary protocol URL for clients, {@code pulsar://127.0.0.1:port}. */
  public String brokerServiceUrl() {
    return standalone.getBrokerServiceUrl();
  }

  /** Returns the HTTP URL for admin clients, {@code http://127.0.0.1:port}. */
  public String webServiceUrl() {
    return standalone.getWebServiceUrl();
  }

  /**
   * Creates a partitioned topic.
   *
   * @param topic a full topic name ({@code persistent://tenant/namespace/name}) or a short name,
   *     which Pulsar places in {@code public/default}
   * @param partitions the partition count, at least 1
   * @throws IllegalArgumentException if {@code partitions < 1}
   * @throws IllegalStateException if Pulsar rejects the topic (for example, it already exists)
   */
  public void createPartitionedTopic(String topic, int partitions) {
    if (partitions < 1) {
      throw new IllegalArgumentException("partitions must be at least 1, was " + partitions);
    }
    try {
      admin.topics().createPartitionedTopic(topic, partitions);
    } catch (PulsarAdminException e) {
      throw new IllegalStateException("cannot create Pulsar topic " + topic, e);
    }
  }

  /**
   * Returns the admin client of this standalone (owned by this object: do not close it), for
   * namespaces, policies and anything {@link #createPartitionedTopic} does not cover.
   */
  public PulsarAdmin admin() {
    return admin;
  }

  /** Stops the standalone and deletes its data directory; safe to call more than once. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    closeQuietly(admin, standalone, dir);
  }

  private static void closeQuietly(PulsarAdmin admin, PulsarStandalone standalone, Path dir) {
    if (admin != null) {
      admin.close();
    }
    if (standalone != null) {
      try {
        standalone.close();
      } catch (RuntimeException ignored) {
        // closing anyway
      }
    }
    TempDirs.delete(dir);
  }
}
