package io.github.routingkit.testbrokers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.pulsar.PulsarStandalone;
import org.apache.pulsar.PulsarStandaloneBuilder;
import org.apache.pulsar.broker.ServiceConfiguration;
import org.apache.pulsar.client.admin.PulsarAdmin;
import org.apache.pulsar.client.admin.PulsarAdminException;
import org.apache.pulsar.common.util.FieldParser;

/**
 * The Pulsar standalone itself, loaded by {@link PulsarClassLoader} (never by the caller's class
 * loader), so that the shaded {@code pulsar-client} a user has on the class path cannot hide the
 * unshaded {@code pulsar-common} classes the broker is compiled against. {@link EmbeddedPulsar}
 * talks to it by reflection, through JDK types only.
 */
final class PulsarNode implements AutoCloseable {
  private static final String CLUSTER = "standalone";

  private final PulsarStandalone standalone;
  private final PulsarAdmin admin;

  /**
   * Starts a standalone with its data under {@code dir}; on any failure stops whatever part of it
   * was started before rethrowing.
   *
   * @throws IllegalArgumentException if a setting is not a {@code ServiceConfiguration} field or its
   *     value cannot be converted
   * @throws Exception whatever the standalone throws while starting
   */
  public PulsarNode(Path dir, Map<String, String> settings) throws Exception {
    QuietLogs.apply(); // this loader's own copy of the logging backend
    for (Map.Entry<String, String> e : settings.entrySet()) {
      if (!isSetting(e.getKey())) {
        throw new IllegalArgumentException("Pulsar broker setting " + e.getKey() + " (value "
            + e.getValue() + ") is not a field of " + ServiceConfiguration.class.getName());
      }
    }
    Path bookieConf = dir.resolve("bookie.conf");
    try {
      // Without allowLoopback the bookie refuses to register a 127.0.0.1 address.
      Files.write(bookieConf, List.of("allowLoopback=true"), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + bookieConf, e);
    }

    PulsarStandalone s = PulsarStandaloneBuilder.instance()
        .withWipeData(true)
        .withNumOfBk(1)
        .withBkPort(0)
        .withBkDir(dir.resolve("bookkeeper").toString())
        // Must not exist: an existing ZooKeeper dir switches the standalone to ZooKeeper mode.
        .withZkDir(dir.resolve("zookeeper").toString())
        .withNoStreamStorage(true)
        .withAdvertisedAddress("127.0.0.1")
        .build();
    s.setNoFunctionsWorker(true);
    s.setConfigFile(bookieConf.toString());
    setPrivateField(s, "metadataDir", dir.resolve("metadata").toString());

    // The builder replaces any config given with withConfig, so configure its own object.
    String metadataUrl = "rocksdb://" + dir.resolve("metadata").toAbsolutePath();
    ServiceConfiguration config = s.getConfig();
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
    if (!settings.isEmpty()) {
      try {
        FieldParser.update(settings, config);
      } catch (RuntimeException e) {
        throw new IllegalArgumentException("Pulsar broker settings " + settings
            + " cannot be applied: " + e.getMessage(), e);
      }
      config.getProperties().putAll(settings);
    }

    PulsarAdmin a = null;
    try {
      s.start();
      a = PulsarAdmin.builder().serviceHttpUrl(s.getWebServiceUrl()).build();
    } catch (Exception | Error e) {
      if (a != null) {
        a.close();
      }
      stop(s);
      throw e;
    }
    this.standalone = s;
    this.admin = a;
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

  public String brokerServiceUrl() {
    return standalone.getBrokerServiceUrl();
  }

  public String webServiceUrl() {
    return standalone.getWebServiceUrl();
  }

  /** Creates a partitioned topic; Pulsar's refusal becomes an IllegalStateException (a JDK type). */
  public void createPartitionedTopic(String topic, int partitions) {
    try {
      admin.topics().createPartitionedTopic(topic, partitions);
    } catch (PulsarAdminException e) {
      throw new IllegalStateException("cannot create Pulsar topic " + topic + ": " + e.getMessage());
    }
  }

  @Override
  public void close() {
    admin.close();
    stop(standalone);
  }

  /**
   * Stops every part of a standalone, each on its own: PulsarStandalone.close() stops them in one
   * try block, so a broker that failed to start (and throws on close) would leave the bookie and
   * its metadata store running, and their non-daemon threads keep the JVM alive.
   */
  private static void stop(PulsarStandalone s) {
    // Package-private fields of PulsarStandalone 4.2.4 (no getters); a missing one reads as null.
    for (String part : List.of("broker", "bkCluster")) {
      if (readField(s, part) instanceof AutoCloseable c) {
        try {
          c.close();
        } catch (Exception | Error ignored) {
          // stopping the rest anyway
        }
      }
    }
  }

  private static Object readField(Object target, String name) {
    try {
      Field f = target.getClass().getDeclaredField(name);
      f.setAccessible(true);
      return f.get(target);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }
}
