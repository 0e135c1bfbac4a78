package io.github.routingkit.testbrokers;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * A command that keeps an {@link EmbeddedKafka} and/or an {@link EmbeddedPulsar} running outside
 * any test, for live tools ({@code routing analyze}, kcat, a local application), until it is
 * stopped with Ctrl-C (SIGINT) or SIGTERM.
 *
 * <pre>
 * java -cp &lt;class path&gt; io.github.routingkit.testbrokers.EmbeddedBrokers [options]
 *   --kafka                      run Kafka (default: both brokers when neither is named)
 *   --pulsar                     run Pulsar
 *   --topic NAME:PARTITIONS      create a topic on each running broker (repeatable)
 *   --kafka-property NAME=VALUE  a Kafka broker property (repeatable)
 *   --pulsar-property NAME=VALUE a Pulsar broker.conf setting (repeatable)
 * </pre>
 *
 * <p>Once every broker serves clients it prints their addresses to standard output, one
 * {@code name=value} line each, then {@code ready}:
 * <pre>
 * kafka.bootstrap.servers=127.0.0.1:40527
 * pulsar.service.url=pulsar://127.0.0.1:39211
 * pulsar.web.service.url=http://127.0.0.1:41375
 * ready
 * </pre>
 * On SIGINT or SIGTERM it closes the brokers (each deletes its data directory), prints
 * {@code stopped} and exits with status 0. Exit status 2: bad arguments (the message names the
 * argument); 3: a broker failed to start. Progress and errors go to standard error.
 */
public final class EmbeddedBrokers {
  private EmbeddedBrokers() {}

  /**
   * Runs the command; returns only by exiting the JVM.
   *
   * @param args the options above
   */
  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** What the arguments ask for. */
  record Options(boolean kafka, boolean pulsar, Map<String, Integer> topics,
      Map<String, String> kafkaProperties, Map<String, String> pulsarProperties) {}

  /**
   * Parses the arguments.
   *
   * @throws IllegalArgumentException naming the bad argument and the rule
   */
  static Options parse(String[] args) {
    boolean kafka = false;
    boolean pulsar = false;
    Map<String, Integer> topics = new LinkedHashMap<>();
    Map<String, String> kafkaProps = new LinkedHashMap<>();
    Map<String, String> pulsarProps = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      switch (a) {
        case "--kafka" -> kafka = true;
        case "--pulsar" -> pulsar = true;
        case "--topic", "--kafka-property", "--pulsar-property" -> {
          if (i + 1 >= args.length) {
            throw new IllegalArgumentException(a + " needs a value");
          }
          String v = args[++i];
          if (a.equals("--topic")) {
            int colon = v.lastIndexOf(':');
            int n;
            try {
              n = colon > 0 ? Integer.parseInt(v.substring(colon + 1)) : -1;
            } catch (NumberFormatException e) {
              n = -1;
            }
            if (n < 1) {
              throw new IllegalArgumentException("--topic " + v
                  + ": expected NAME:PARTITIONS with PARTITIONS at least 1");
            }
            topics.put(v.substring(0, colon), n);
          } else {
            int eq = v.indexOf('=');
            if (eq <= 0) {
              throw new IllegalArgumentException(a + " " + v + ": expected NAME=VALUE");
            }
            (a.equals("--kafka-property") ? kafkaProps : pulsarProps)
                .put(v.substring(0, eq), v.substring(eq + 1));
          }
        }
        default -> throw new IllegalArgumentException("unknown argument " + a
            + " (expected --kafka, --pulsar, --topic, --kafka-property, --pulsar-property)");
      }
    }
    if (!kafka && !pulsar) {
      kafka = true;
      pulsar = true;
    }
    return new Options(kafka, pulsar, topics, kafkaProps, pulsarProps);
  }

  static int run(String[] args, PrintStream out, PrintStream err) {
    Options o;
    try {
      o = parse(args);
    } catch (IllegalArgumentException e) {
      err.println("error: " + e.getMessage());
      return 2;
    }
    List<AutoCloseable> running = new ArrayList<>();
    CountDownLatch stop = new CountDownLatch(1);
    Signals.onInterruptOrTerminate(stop::countDown);
    // Also on other exits (SIGHUP, System.exit elsewhere): close what runs.
    Thread hook = new Thread(() -> closeAll(running), "embedded-brokers-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      if (o.kafka()) {
        err.println("starting Kafka ...");
        EmbeddedKafka kafka = EmbeddedKafka.start(o.kafkaProperties());
        add(running, kafka);
        o.topics().forEach(kafka::createTopic);
        out.println("kafka.bootstrap.servers=" + kafka.bootstrapServers());
      }
      if (o.pulsar()) {
        err.println("starting Pulsar ...");
        EmbeddedPulsar pulsar = EmbeddedPulsar.start(o.pulsarProperties());
        add(running, pulsar);
        o.topics().forEach(pulsar::createPartitionedTopic);
        out.println("pulsar.service.url=" + pulsar.brokerServiceUrl());
        out.println("pulsar.web.service.url=" + pulsar.webServiceUrl());
      }
    } catch (IllegalArgumentException e) {
      err.println("error: " + e.getMessage());
      closeAll(running);
      return 2;
    } catch (RuntimeException e) {
      err.println("error: " + e);
      closeAll(running);
      return 3;
    }
    out.println("ready");
    out.flush();
    err.println("running; stop with Ctrl-C or SIGTERM");
    try {
      stop.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    err.println("stopping ...");
    closeAll(running);
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException exiting) {
      // the hook runs anyway and finds nothing left to close
    }
    out.println("stopped");
    out.flush();
    return 0;
  }

  private static void add(List<AutoCloseable> running, AutoCloseable broker) {
    synchronized (running) {
      running.add(broker);
    }
  }

  /** Closes the brokers, the last started first; each close is idempotent. */
  private static void closeAll(List<AutoCloseable> running) {
    synchronized (running) {
      for (int i = running.size() - 1; i >= 0; i--) {
        try {
          running.get(i).close();
        } catch (Exception e) {
          // closing the others anyway
        }
      }
      running.clear();
    }
  }
}
