package io.github.routingkit.examples;

import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.testbrokers.EmbeddedKafka;
import io.github.routingkit.testbrokers.EmbeddedPulsar;
import io.github.routingkit.kafka.RoutingPartitioner;
import io.github.routingkit.pulsar.RoutingMessageRouter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.utils.AppInfoParser;
import org.apache.pulsar.PulsarVersion;

/**
 * The end-to-end demo: real keys through RoutingKit into real, in-process Kafka and Pulsar brokers.
 *
 * <p>It starts an {@link EmbeddedKafka} broker and an {@link EmbeddedPulsar} standalone, creates a
 * {@value #PARTITIONS}-partition topic on each, sends every key of the sample once to each broker
 * (the message value is the key's index) through {@link RoutingPartitioner} (producer property
 * {@code partitioner.class}, spec {@code routing.scheme=kafka-murmur2}) and
 * {@link RoutingMessageRouter} (custom partition mode, spec {@code routing.scheme=pulsar-murmur3}),
 * reads every message back, and prints per broker: messages sent and received, per-partition counts,
 * max/mean, and how many messages were read from exactly the partition that
 * {@code spec.keyRouter().partition(key, 12)} predicts.
 *
 * <p>Usage: {@code RoutingDemo [keys-file [max-keys]]}. The keys file holds one key per line (UTF-8,
 * gzip if the name ends in {@code .gz}); by default the shipped {@code docs/samples/routing-keys.txt.gz}
 * (29,989 keys), found from the working directory or its parents.
 *
 * <p>Exit status: 0 if, on both brokers, every message was acknowledged, read back exactly once and
 * read from its predicted partition; 1 if any of these checks fails; 2 if the demo could not run
 * (bad arguments, missing sample, a broker that does not start).
 */
public final class RoutingDemo {
  /** The partition count of both topics. */
  public static final int PARTITIONS = 12;

  /** The spec given to the Kafka producer (as {@code routing.*} producer properties). */
  public static final RoutingSpec KAFKA_SPEC =
      RoutingSpec.parse(Map.of(RoutingSpec.SCHEME, "kafka-murmur2"));

  /** The spec of the Pulsar message router: Murmur3, the hash Java, C++ and Go clients share. */
  public static final RoutingSpec PULSAR_SPEC =
      RoutingSpec.parse(Map.of(RoutingSpec.SCHEME, "pulsar-murmur3"));

  /** How long reading back may go on without receiving a new message. */
  static final Duration READ_TIMEOUT = Duration.ofSeconds(60);

  private RoutingDemo() {}

  /**
   * Runs the demo and exits with its status (see the class documentation).
   *
   * @param args {@code [keys-file [max-keys]]}
   */
  public static void main(String[] args) {
    System.exit(run(args, System.out));
  }

  /**
   * Runs the demo with command-line arguments and returns the exit status instead of exiting.
   *
   * @param args {@code [keys-file [max-keys]]}
   * @param out where the report goes
   * @return 0 if every check passed, 1 if a check failed, 2 if the demo could not run
   */
  public static int run(String[] args, PrintStream out) {
    List<String> keys;
    Path file;
    try {
      if (args.length > 2) {
        throw new IllegalArgumentException("usage: RoutingDemo [keys-file [max-keys]]");
      }
      file = args.length > 0 ? Path.of(args[0]) : KeySample.locateDefault();
      int limit = args.length > 1 ? Integer.parseInt(args[1]) : Integer.MAX_VALUE;
      keys = KeySample.read(file, limit);
      if (keys.isEmpty()) {
        throw new IllegalArgumentException("no keys in " + file);
      }
    } catch (IOException e) {
      out.println("routing demo: cannot read the keys: " + e);
      return 2;
    } catch (IllegalArgumentException e) {
      out.println("routing demo: " + e.getMessage());
      return 2;
    }
    try {
      out.printf(Locale.ROOT, "RoutingKit demo: %,d keys from %s, %d partitions per topic%n",
          keys.size(), file, PARTITIONS);
      List<RoundTrip.Result> results = run(keys, out);
      boolean passed = results.stream().allMatch(RoundTrip.Result::passed);
      out.println(passed ? "ALL CHECKS PASSED" : "SOME CHECKS FAILED");
      return passed ? 0 : 1;
    } catch (Exception e) {
      out.println("routing demo could not run: " + e);
      e.printStackTrace(out);
      return 2;
    }
  }

  /**
   * Starts both brokers, runs the round trip of {@code keys} through each, prints the report to
   * {@code out} and stops the brokers.
   *
   * @param keys the keys to send, in order (message {@code i} has key {@code keys.get(i)})
   * @param out where the report goes
   * @return the Kafka result, then the Pulsar result
   * @throws Exception if a broker does not start or a client cannot be created
   */
  public static List<RoundTrip.Result> run(List<String> keys, PrintStream out) throws Exception {
    long t0 = System.nanoTime();
    List<RoundTrip.Result> results = new ArrayList<>();
    try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
      out.printf(Locale.ROOT, "Kafka %s broker (KRaft, in-process) started in %.1f s at %s%n",
          AppInfoParser.getVersion(), seconds(t0), kafka.bootstrapServers());
      long t1 = System.nanoTime();
      try (EmbeddedPulsar pulsar = EmbeddedPulsar.start()) {
        out.printf(Locale.ROOT, "Pulsar %s standalone (in-process) started in %.1f s at %s%n",
            PulsarVersion.getVersion(), seconds(t1), pulsar.brokerServiceUrl());

        long t2 = System.nanoTime();
        String kafkaTopic = "routing-demo";
        kafka.createTopic(kafkaTopic, PARTITIONS);
        RoundTrip kafkaTrip = new RoundTrip("Kafka", "partitioner.class="
            + RoutingPartitioner.class.getSimpleName() + ", " + KAFKA_SPEC, keys, PARTITIONS,
            KAFKA_SPEC.keyRouter());
        KafkaRoundTrip.run(kafka.bootstrapServers(), kafkaTopic, PARTITIONS, KAFKA_SPEC, kafkaTrip,
            READ_TIMEOUT);
        results.add(report(kafkaTrip.result(), seconds(t2), out));

        long t3 = System.nanoTime();
        String pulsarTopic = "persistent://public/default/routing-demo";
        pulsar.createPartitionedTopic(pulsarTopic, PARTITIONS);
        RoundTrip pulsarTrip = new RoundTrip("Pulsar", "messageRouter="
            + RoutingMessageRouter.class.getSimpleName() + ", " + PULSAR_SPEC, keys, PARTITIONS,
            PULSAR_SPEC.keyRouter());
        PulsarRoundTrip.run(pulsar.brokerServiceUrl(), pulsarTopic, PULSAR_SPEC, pulsarTrip,
            READ_TIMEOUT);
        results.add(report(pulsarTrip.result(), seconds(t3), out));
      }
    }
    out.printf(Locale.ROOT, "%nTotal %.1f s (brokers started and stopped)%n", seconds(t0));
    return results;
  }

  private static RoundTrip.Result report(RoundTrip.Result r, double seconds, PrintStream out) {
    long[] counts = r.perPartition();
    double mean = (double) java.util.Arrays.stream(counts).sum() / counts.length;
    long max = java.util.Arrays.stream(counts).max().orElse(0);
    long min = java.util.Arrays.stream(counts).min().orElse(0);
    out.println();
    out.printf(Locale.ROOT, "== %s: %s ==%n", r.broker(), r.spec());
    out.printf(Locale.ROOT, "  sent       %,d of %,d acknowledged (send failures %,d)%n",
        r.sent(), r.messages(), r.sendFailures());
    out.printf(Locale.ROOT, "  received   %,d (lost %,d, duplicates %,d, unexpected %,d)%n",
        r.received(), r.lost(), r.duplicates(), r.unknown());
    StringBuilder head = new StringBuilder("  partition ");
    StringBuilder row = new StringBuilder("  messages  ");
    for (int p = 0; p < counts.length; p++) {
      head.append(String.format(Locale.ROOT, "%7d", p));
      row.append(String.format(Locale.ROOT, "%7d", counts[p]));
    }
    out.println(head);
    out.println(row);
    out.printf(Locale.ROOT, "  max/mean   %.4f (max %,d, min %,d, mean %,.1f)%n",
        r.maxOverMean(), max, min, mean);
    out.printf(Locale.ROOT, "  on the partition the core predicted: %,d of %,d%n",
        r.onPredicted(), r.messages());
    out.printf(Locale.ROOT, "  round trip %.1f s: %s%n", seconds,
        r.passed() ? "PASS" : "FAIL (" + r.firstProblem() + ")");
    return r;
  }

  private static double seconds(long since) {
    return (System.nanoTime() - since) / 1e9;
  }
}
