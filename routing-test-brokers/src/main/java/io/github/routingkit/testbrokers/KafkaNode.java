package io.github.routingkit.testbrokers;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.common.utils.Time;

/**
 * One combined KRaft broker and controller of an {@link EmbeddedKafka}: its ports, rack, log
 * directory and server. Start and stop are serialised per node.
 */
final class KafkaNode {
  /** The client listener's name (and security protocol) when SASL/PLAIN is on. */
  static final String SASL_LISTENER = "SASL_PLAINTEXT";

  final int id;
  final String rack;
  final Path dir;
  final int clientPort;
  final int controllerPort;
  /** The PLAINTEXT listener the brokers replicate over when clients use SASL; 0 without SASL. */
  final int internalPort;
  private KafkaRaftServer server;
  private boolean running;

  KafkaNode(int id, String rack, Path dir, int clientPort, int controllerPort, int internalPort) {
    this.id = id;
    this.rack = rack;
    this.dir = dir;
    this.clientPort = clientPort;
    this.controllerPort = controllerPort;
    this.internalPort = internalPort;
  }

  /**
   * The broker configuration of this node: the listeners and identity it owns, then the
   * replication defaults of the cluster, then the user's properties on top.
   */
  Properties config(String voters, EmbeddedKafkaBuilder settings) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("process.roles", "broker,controller");
    p.put("node.id", Integer.toString(id));
    p.put("controller.quorum.voters", voters);
    p.put("controller.listener.names", "CONTROLLER");
    if (settings.saslUsername() == null) {
      p.put("listeners", "PLAINTEXT://127.0.0.1:" + clientPort
          + ",CONTROLLER://127.0.0.1:" + controllerPort);
      p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + clientPort);
      p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
      p.put("inter.broker.listener.name", "PLAINTEXT");
    } else {
      p.put("listeners", SASL_LISTENER + "://127.0.0.1:" + clientPort + ",INTERNAL://127.0.0.1:"
          + internalPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
      p.put("advertised.listeners", SASL_LISTENER + "://127.0.0.1:" + clientPort
          + ",INTERNAL://127.0.0.1:" + internalPort);
      p.put("listener.security.protocol.map", SASL_LISTENER + ":SASL_PLAINTEXT,"
          + "INTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT");
      p.put("inter.broker.listener.name", "INTERNAL");
      p.put("sasl.enabled.mechanisms", "PLAIN");
      p.put("listener.name." + SASL_LISTENER.toLowerCase() + ".plain.sasl.jaas.config",
          "org.apache.kafka.common.security.plain.PlainLoginModule required username=\""
              + settings.saslUsername() + "\" password=\"" + settings.saslPassword() + "\" user_"
              + settings.saslUsername() + "=\"" + settings.saslPassword() + "\";");
    }
    if (rack != null) {
      p.put("broker.rack", rack);
    }
    p.put("log.dirs", dir.resolve("logs").toString());
    int rf = settings.replicationFactor();
    String minIsr = Integer.toString(settings.effectiveMinInsyncReplicas());
    p.put("num.partitions", "1");
    p.put("default.replication.factor", Integer.toString(rf));
    p.put("offsets.topic.replication.factor", Integer.toString(rf));
    p.put("offsets.topic.num.partitions", "1");
    p.put("transaction.state.log.replication.factor", Integer.toString(rf));
    p.put("transaction.state.log.min.isr", minIsr);
    p.put("transaction.state.log.num.partitions", "1");
    p.put("share.coordinator.state.topic.replication.factor", Integer.toString(rf));
    p.put("share.coordinator.state.topic.min.isr", minIsr);
    p.put("group.initial.rebalance.delay.ms", "0");
    p.put("min.insync.replicas", minIsr);
    if (settings.nodes() > 1) {
      // Bounded footprint per node: the log cleaner's dedupe buffer is a heap buffer of 128 MB
      // by default, and the request threads are sized for a production machine.
      p.put("log.cleaner.dedupe.buffer.size", Integer.toString(16 << 20));
      p.put("num.network.threads", "2");
      p.put("num.io.threads", "4");
    }
    Properties props = new Properties();
    props.putAll(p);
    settings.brokerProperties().forEach((k, v) -> props.put(k, String.valueOf(v)));
    return props;
  }

  /** Runs {@code kafka-storage format -t <cluster id> -c <file>} in-process, quietly. */
  void format(Properties props, String clusterId) {
    Path file = dir.resolve("server.properties");
    try {
      Files.createDirectories(dir);
      try (OutputStream out = Files.newOutputStream(file)) {
        props.store(out, "routingkit embedded kafka node " + id);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    int rc;
    try (PrintStream ps = new PrintStream(captured, true, StandardCharsets.UTF_8)) {
      rc = StorageTool.execute(new String[] {"format", "-t", clusterId, "-c", file.toString()}, ps);
    }
    if (rc != 0) {
      throw new IllegalStateException("kafka storage format of node " + id + " failed (exit code "
          + rc + "): " + captured.toString(StandardCharsets.UTF_8));
    }
  }

  /** Builds and starts the server; returns once {@code KafkaRaftServer.startup()} returns. */
  void start(Properties props) {
    KafkaRaftServer s = new KafkaRaftServer(KafkaConfig.fromProps(props, false), Time.SYSTEM);
    synchronized (this) {
      server = s;
      running = true;
    }
    s.startup();
  }

  synchronized boolean running() {
    return running;
  }

  /**
   * Stops the server (a controlled shutdown: the controller moves this node's leaderships first
   * while a quorum runs) and waits for it; does nothing if it is not running. Never throws.
   */
  void stop() {
    KafkaRaftServer s;
    synchronized (this) {
      s = server;
      server = null;
      running = false;
    }
    if (s != null) {
      try {
        s.shutdown();
        s.awaitShutdown();
      } catch (RuntimeException ignored) {
        // stopping anyway
      }
    }
  }

  /**
   * Runs the action for every node, on a thread per node when there are several (a combined
   * KRaft node's startup waits for a controller quorum, which needs the other nodes; their
   * controlled shutdowns need a controller too), and rethrows the first failure.
   */
  static void forEach(List<KafkaNode> nodes, Consumer<KafkaNode> action, long timeoutMillis) {
    if (nodes.size() == 1) {
      action.accept(nodes.get(0));
      return;
    }
    ExecutorService pool = Executors.newFixedThreadPool(nodes.size(), r -> {
      Thread t = new Thread(r, "routingkit-embedded-kafka-node");
      t.setDaemon(true);
      return t;
    });
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (KafkaNode n : nodes) {
        futures.add(pool.submit(() -> action.accept(n)));
      }
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
      RuntimeException first = null;
      for (Future<?> f : futures) {
        try {
          f.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
          Throwable c = e.getCause();
          if (first == null) {
            first = c instanceof RuntimeException ? (RuntimeException) c
                : new IllegalStateException(c.toString(), c);
          }
        } catch (TimeoutException e) {
          if (first == null) {
            first = new IllegalStateException(
                "Kafka nodes not done after " + timeoutMillis + " ms", e);
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted while waiting for the Kafka nodes", e);
        }
      }
      if (first != null) {
        throw first;
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
