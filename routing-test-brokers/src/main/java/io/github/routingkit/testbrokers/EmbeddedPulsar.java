package io.github.routingkit.testbrokers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.pulsar.client.admin.PulsarAdmin;
import org.apache.pulsar.client.api.PulsarClientException;

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
 * <p>The standalone runs in a class loader of its own: the JVM's class path without the shaded
 * Pulsar client jars ({@code pulsar-client}, {@code pulsar-client-admin}, {@code pulsar-client-all}),
 * whose bundled copies of {@code org.apache.pulsar.common} would otherwise hide the ones the broker
 * is built against. So it works next to a shaded {@code pulsar-client} in any declaration order;
 * clients connect to it over the network as to any broker.
 *
 * <p>If it cannot start, {@code start} stops whatever part of it had started (broker, bookie,
 * metadata store), waits for their threads to end and deletes the temporary directory before it
 * throws, so a failed start leaves no thread that keeps the JVM alive.
 *
 * <p>Built against {@code org.apache.pulsar:pulsar-broker} 4.2.4. Where the standalone offers no
 * setter or getter (the metadata directory, the bookie cluster, 4.2.4), a package-private field is
 * used reflectively; a newer Pulsar that renames it makes {@code start} fail with a clear
 * {@link IllegalStateException}. The bookie needs {@code allowLoopback=true} in a server config file
 * to bind 127.0.0.1; this class writes that file. Starting takes about 5-10 s on a 2-core machine.
 * Instances are thread-safe.
 */

public final class EmbeddedPulsar implements AutoCloseable {
  /** How long a failed start or a close waits for the standalone's threads to end. */
  private static final Duration THREADS_TIMEOUT = Duration.ofSeconds(20);

  private final Path dir;
  private final AutoCloseable node;
  private final Method createPartitionedTopic;
  private final String brokerServiceUrl;
  private final String webServiceUrl;
  private final Set<Thread> threadsBefore;
  private PulsarAdmin admin;
  private boolean closed;

  private EmbeddedPulsar(Path dir, AutoCloseable node, Set<Thread> threadsBefore)
      throws ReflectiveOperationException {
    this.dir = dir;
    this.node = node;
    this.threadsBefore = threadsBefore;
    Class<?> c = node.getClass();
    this.brokerServiceUrl = (String) accessible(c.getMethod("brokerServiceUrl")).invoke(node);
    this.webServiceUrl = (String) accessible(c.getMethod("webServiceUrl")).invoke(node);
    this.createPartitionedTopic =
        accessible(c.getMethod("createPartitionedTopic", String.class, int.class));
  }

  private static Method accessible(Method m) {
    m.setAccessible(true);
    return m;
  }

  /**
   * Starts a standalone with the default configuration and waits until it serves clients.
   *
   * @return the running standalone; close it to stop it and delete its data
   * @throws IllegalStateException if the standalone fails to start (everything it started is
   *     stopped and its directory deleted first)
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
   * @throws IllegalStateException if the standalone fails to start (everything it started is
   *     stopped and its directory deleted first)
   * @throws UncheckedIOException if the temporary directory cannot be prepared
   */
  public static EmbeddedPulsar start(Map<String, ?> brokerProperties) {
    Objects.requireNonNull(brokerProperties, "brokerProperties");
    QuietLogs.apply();
    Map<String, String> settings = new LinkedHashMap<>();
    brokerProperties.forEach((k, v) -> settings.put(k, String.valueOf(v)));

    Path dir;
    try {
      dir = TempDirs.create("routingkit-pulsar-");
    } catch (IOException e) {
      throw new UncheckedIOException("Pulsar: " + e.getMessage(), e);
    }
    ClassLoader loader = PulsarClassLoader.get();
    Set<Thread> before = Threads.live();
    Thread current = Thread.currentThread();
    ClassLoader callerContext = current.getContextClassLoader();
    current.setContextClassLoader(loader); // the standalone's threads inherit it
    AutoCloseable node = null;
    try {
      Class<?> c = Class.forName(PulsarNode.class.getName(), true, loader);
      Constructor<?> ctor = c.getConstructor(Path.class, Map.class);
      ctor.setAccessible(true);
      node = (AutoCloseable) ctor.newInstance(dir, settings);
      return new EmbeddedPulsar(dir, node, before);
    } catch (InvocationTargetException e) {
      throw failed(dir, before, loader, null, e.getCause());
    } catch (ReflectiveOperationException | RuntimeException | Error e) {
      throw failed(dir, before, loader, node, e);
    } finally {
      current.setContextClassLoader(callerContext);
    }
  }

  /** Cleans up after a failed start and returns the exception to throw. */
  private static RuntimeException failed(
      Path dir, Set<Thread> before, ClassLoader loader, AutoCloseable node, Throwable cause) {
    if (node != null) {
      closeQuietly(node);
    }
    List<Thread> left = Threads.awaitEnd(before, loader, THREADS_TIMEOUT);
    TempDirs.delete(dir);
    String leak = left.isEmpty() ? "" : "; threads still running: " + Threads.names(left);
    if (cause instanceof IllegalArgumentException iae && leak.isEmpty()) {
      return iae;
    }
    return new IllegalStateException("Pulsar standalone failed to start: " + cause + leak, cause);
  }

  /** Returns the binary protocol URL for clients, {@code pulsar://127.0.0.1:port}. */
  public String brokerServiceUrl() {
    return brokerServiceUrl;
  }

  /** Returns the HTTP URL for admin clients, {@code http://127.0.0.1:port}. */
  public String webServiceUrl() {
    return webServiceUrl;
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
    // Jersey (the admin client inside) finds its services through the context class loader.
    Thread current = Thread.currentThread();
    ClassLoader callerContext = current.getContextClassLoader();
    current.setContextClassLoader(node.getClass().getClassLoader());
    try {
      createPartitionedTopic.invoke(node, topic, partitions);
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      throw cause instanceof RuntimeException re ? re
          : new IllegalStateException("cannot create Pulsar topic " + topic, cause);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("cannot create Pulsar topic " + topic, e);
    } finally {
      current.setContextClassLoader(callerContext);
    }
  }

  /**
   * Returns an admin client of this standalone (owned by this object: do not close it), for
   * namespaces, policies and anything {@link #createPartitionedTopic} does not cover. It is built
   * on first call from the caller's class path, so it needs a consistent Pulsar admin client there:
   * {@code pulsar-client-admin-original} (which this artifact brings) where the class path has no
   * shaded {@code pulsar-client}, or the shaded {@code pulsar-client-admin} next to a shaded
   * {@code pulsar-client}.
   *
   * @throws IllegalStateException if the admin client cannot be built
   */
  public synchronized PulsarAdmin admin() {
    if (admin == null) {
      try {
        admin = PulsarAdmin.builder().serviceHttpUrl(webServiceUrl).build();
      } catch (PulsarClientException e) {
        throw new IllegalStateException("cannot create a Pulsar admin client", e);
      }
    }
    return admin;
  }

  /**
   * Stops the standalone, waits for its threads to end and deletes its data directory; safe to
   * call more than once.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (admin != null) {
      admin.close();
    }
    closeQuietly(node);
    Threads.awaitEnd(threadsBefore, PulsarClassLoader.get(), THREADS_TIMEOUT);
    TempDirs.delete(dir);
  }

  private static void closeQuietly(AutoCloseable node) {
    ClassLoader loader = PulsarClassLoader.get();
    Thread current = Thread.currentThread();
    ClassLoader callerContext = current.getContextClassLoader();
    current.setContextClassLoader(loader);
    try {
      node.close();
    } catch (Exception | Error ignored) {
      // closing anyway
    } finally {
      current.setContextClassLoader(callerContext);
    }
  }
}
