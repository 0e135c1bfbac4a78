package io.github.routingkit.testbrokers;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Keeps the brokers' own logging off the console unless asked for: their INFO lines (thousands on a
 * start and stop) and the few WARN and ERROR lines with stack traces that every in-process start or
 * stop logs and that say nothing about the test (JDK-internal reflection refused inside the JVM, the
 * bookie's missing journal mark on a fresh directory, the bookie's death watcher at shutdown).
 *
 * <p>Applied once per class loader before a broker starts. It sets the levels of {@link #LEVELS}
 * in whichever SLF4J backend the class path has, and only for loggers the user's own configuration
 * does not name: SLF4J Simple (through its {@code org.slf4j.simpleLogger.log.*} system properties,
 * unless that property or a {@code simplelogger.properties} entry exists), Log4j 2 (unless the
 * configuration has a logger of that name) and Logback (unless the logger has a level). The
 * java.util.logging loggers of {@link #JUL_SEVERE} (Jersey, OpenTelemetry, Caffeine) go to SEVERE
 * unless they have a level. With the system
 * property {@code routingkit.brokers.verbose=true} nothing is changed.
 */
final class QuietLogs {
  /** The system property that keeps every broker log line. */
  static final String VERBOSE = "routingkit.brokers.verbose";

  /**
   * Logger name to level: WARN for the brokers' hierarchies, higher for the loggers whose WARN or
   * ERROR lines every in-process start or stop prints.
   */
  static final Map<String, String> LEVELS = levels();

  /** The java.util.logging loggers set to SEVERE unless they have a level of their own. */
  static final List<String> JUL_SEVERE =
      List.of("org.glassfish.jersey", "io.opentelemetry", "com.github.benmanes.caffeine");

  private static final String SIMPLE_PREFIX = "org.slf4j.simpleLogger.log.";

  /** Strong references: java.util.logging holds its loggers weakly, and would forget the level. */
  private static final List<java.util.logging.Logger> JUL = new ArrayList<>();

  private static boolean applied;

  private QuietLogs() {}

  private static Map<String, String> levels() {
    Map<String, String> m = new LinkedHashMap<>();
    for (String name : List.of("kafka", "state.change.logger", "org.apache.kafka",
        "org.apache.pulsar", "org.apache.bookkeeper", "org.apache.distributedlog",
        "org.apache.zookeeper", "org.eclipse.jetty", "org.glassfish.jersey", "org.rocksdb",
        "io.netty", "io.opentelemetry", "io.prometheus")) {
      m.put(name, "warn");
    }
    // A WARN or ERROR with a stack trace on every start or stop, about the JVM, not the test:
    // reflection into jdk.internal.platform / sun.management refused (no --add-opens in-process),
    m.put("org.apache.pulsar.broker.loadbalance.LinuxInfoUtils", "off");
    m.put("org.apache.pulsar.common.stats.JvmDefaultGCMetricsLogger", "off");
    // "Bookie is not running any more" from the bookie's death watcher when it is stopped,
    m.put("org.apache.bookkeeper.common.component.ComponentStarter", "off");
    // "Got Exception while trying to shutdown Bookie" (RejectedExecutionException) when the
    // bookie's sync thread is already stopped as the standalone stops,
    m.put("org.apache.bookkeeper.bookie.Bookie", "off");
    // "Uncaught exception in thread BookieShutdownTrigger" (the same RejectedExecutionException,
    // from the bookie's shutdown thread when its sync thread stopped first),
    m.put("org.apache.bookkeeper.bookie.BookieThread", "off");
    // "Problems reading from .../lastMark (this is okay if it is the first time starting this
    // bookie)": every bookie here starts on a fresh directory.
    m.put("org.apache.bookkeeper.bookie.Journal", "off");
    // WARNs without a stack trace on every start or stop: no rack resolver for 127.0.0.1, the
    // client's worker pool still busy at shutdown, an empty metadata log bootstrapped.
    m.put("org.apache.bookkeeper.client.TopologyAwareEnsemblePlacementPolicy", "error");
    m.put("org.apache.bookkeeper.client.BookKeeper", "error");
    m.put("org.apache.kafka.controller.QuorumController", "error");
    // A WARN with a stack trace when the load report task runs after the standalone released
    // its broker lock ("Lock was not in valid state: Released") while it stops.
    m.put("org.apache.pulsar.broker.loadbalance.impl.ModularLoadManagerImpl", "error");
    // "Graceful shutdown of RaftClient failed" (TimeoutException) from the last node of a cluster
    // that stops after the other voters.
    m.put("org.apache.kafka.raft.KafkaRaftClientDriver", "off");
    m.put("org.apache.kafka.raft.KafkaRaftClient", "error");
    return Collections.unmodifiableMap(m);
  }

  /** Whether the given system properties ask for the brokers' full logs. */
  static boolean verbose(Properties system) {
    return Boolean.parseBoolean(system.getProperty(VERBOSE, "false").trim());
  }

  /** Applies {@link #LEVELS} in this class loader's logging backends, once; never throws. */
  static synchronized void apply() {
    if (applied) {
      return;
    }
    applied = true;
    if (verbose(System.getProperties())) {
      return;
    }
    try {
      // The backend SLF4J is bound to: a Log4j 2 or Logback merely present is not touched.
      String backend = org.slf4j.LoggerFactory.getILoggerFactory().getClass().getName();
      if (backend.startsWith("org.slf4j.simple.")) {
        simple();
      } else if (backend.startsWith("org.apache.logging.slf4j.")) {
        log4j2();
      } else if (backend.startsWith("ch.qos.logback.")) {
        logback();
      }
      jul();
    } catch (RuntimeException | LinkageError e) {
      // A backend that does not look as expected keeps its own levels.
    }
  }

  private static void simple() {
    Properties file = new Properties();
    try (InputStream in = QuietLogs.class.getClassLoader()
        .getResourceAsStream("simplelogger.properties")) {
      if (in != null) {
        file.load(in);
      }
    } catch (IOException e) {
      // unreadable: SLF4J Simple ignores it too
    }
    for (Map.Entry<String, String> e : LEVELS.entrySet()) {
      String key = SIMPLE_PREFIX + e.getKey();
      if (System.getProperty(key) == null && file.getProperty(key) == null) {
        System.setProperty(key, e.getValue());
      }
    }
  }

  private static void log4j2() {
    ClassLoader cl = QuietLogs.class.getClassLoader();
    Class<?> configurator;
    Class<?> level;
    Class<?> logManager;
    try {
      configurator = Class.forName("org.apache.logging.log4j.core.config.Configurator", true, cl);
      level = Class.forName("org.apache.logging.log4j.Level", true, cl);
      logManager = Class.forName("org.apache.logging.log4j.LogManager", true, cl);
    } catch (ClassNotFoundException e) {
      return;
    }
    try {
      Object context = logManager.getMethod("getContext", boolean.class).invoke(null, false);
      Object config = context.getClass().getMethod("getConfiguration").invoke(context);
      Map<?, ?> configured = (Map<?, ?>) config.getClass().getMethod("getLoggers").invoke(config);
      Method toLevel = level.getMethod("toLevel", String.class);
      Method setLevel = configurator.getMethod("setLevel", String.class, level);
      for (Map.Entry<String, String> e : LEVELS.entrySet()) {
        if (!configured.containsKey(e.getKey())) {
          setLevel.invoke(null, e.getKey(), toLevel.invoke(null, e.getValue().toUpperCase()));
        }
      }
    } catch (ReflectiveOperationException | ClassCastException e) {
      // not Log4j 2's core as expected: leave it alone
    }
  }

  private static void logback() {
    ClassLoader cl = QuietLogs.class.getClassLoader();
    Class<?> logger;
    Class<?> level;
    try {
      logger = Class.forName("ch.qos.logback.classic.Logger", true, cl);
      level = Class.forName("ch.qos.logback.classic.Level", true, cl);
    } catch (ClassNotFoundException e) {
      return;
    }
    try {
      Method toLevel = level.getMethod("toLevel", String.class);
      Method getLevel = logger.getMethod("getLevel");
      Method setLevel = logger.getMethod("setLevel", level);
      for (Map.Entry<String, String> e : LEVELS.entrySet()) {
        Object l = org.slf4j.LoggerFactory.getLogger(e.getKey());
        if (logger.isInstance(l) && getLevel.invoke(l) == null) {
          setLevel.invoke(l, toLevel.invoke(null, e.getValue().toUpperCase()));
        }
      }
    } catch (ReflectiveOperationException e) {
      // not Logback classic as expected: leave it alone
    }
  }

  private static void jul() {
    // Jersey ("WADL feature is disabled"), OpenTelemetry ("automatic configuration is
    // disabled") and Caffeine (a metadata-store lookup that fails with AlreadyClosedException
    // while the Pulsar standalone stops, logged as a WARNING with its stack trace) log through
    // java.util.logging.
    for (String name : JUL_SEVERE) {
      java.util.logging.Logger l = java.util.logging.Logger.getLogger(name);
      if (l.getLevel() == null) {
        l.setLevel(java.util.logging.Level.SEVERE);
      }
      JUL.add(l);
    }
  }
}
