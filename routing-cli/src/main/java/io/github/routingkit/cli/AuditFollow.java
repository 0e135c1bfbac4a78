package io.github.routingkit.cli;

import io.github.routingkit.audit.AuditFinding;
import io.github.routingkit.audit.streams.AuditTotals;
import io.github.routingkit.audit.streams.ContinuousAudit;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * {@code routing audit --follow}: runs the continuous audit ({@link ContinuousAudit}) as one Kafka
 * Streams instance until it is stopped (SIGTERM, Ctrl-C), printing each pair this instance finds
 * on stdout and the instance's totals on stderr.
 */
final class AuditFollow {
  private AuditFollow() {}

  /** The options {@code --follow} reads, as AuditCommand parsed them. */
  static final class Options {
    String bootstrapServer;
    String eventsTopic = ContinuousAudit.DEFAULT_EVENTS_TOPIC;
    String pairsTopic = ContinuousAudit.DEFAULT_PAIRS_TOPIC;
    String applicationId = "routingkit-audit";
    Path stateDir;
    Path config;
    boolean atLeastOnce;
    String grace = "5s";
    String retention = "7d";
    int threads = 1;
    boolean quiet;
    long statusEveryMillis = 60_000;
    String instance;
  }

  /**
   * Runs until the JVM is asked to stop or the calling thread is interrupted.
   *
   * @return 0 after a clean stop, {@link RoutingCli#EXIT_INTERNAL} if the instance failed
   * @throws ParameterException for bad options or an unreadable {@code --config}
   */
  static int run(CommandLine cmd, Options o) {
    if (o.bootstrapServer == null || o.bootstrapServer.isBlank()) {
      throw new ParameterException(cmd, "--follow needs --bootstrap-server HOST:PORT");
    }
    if (o.threads < 1 || o.threads > 64) {
      throw new ParameterException(cmd, "--threads was " + o.threads + ", must be in [1, 64]");
    }
    Duration grace = "0".equals(o.grace.trim()) ? Duration.ZERO
        : AnalyzeCommand.duration(cmd, "--grace", o.grace, Duration.ofDays(1));
    Duration retention = AnalyzeCommand.duration(cmd, "--retention", o.retention,
        Duration.ofDays(3650));
    PrintWriter out = cmd.getOut();
    PrintWriter err = cmd.getErr();
    ContinuousAudit audit;
    try {
      audit = ContinuousAudit.builder().eventsTopic(o.eventsTopic).pairsTopic(o.pairsTopic)
          .grace(grace).retention(retention)
          .instance(o.instance != null ? o.instance : o.applicationId)
          .onPair(f -> print(out, f)).build();
    } catch (IllegalArgumentException e) {
      throw new ParameterException(cmd, e.getMessage());
    }
    Properties p = ContinuousAudit.streamsConfig(o.applicationId, o.bootstrapServer,
        !o.atLeastOnce, o.stateDir);
    p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, o.threads);
    if (o.config != null) {
      Properties extra = new Properties();
      try (java.io.Reader r = Files.newBufferedReader(o.config, StandardCharsets.UTF_8)) {
        extra.load(r);
      } catch (java.io.IOException | IllegalArgumentException e) {
        throw new ParameterException(cmd, "cannot read --config " + o.config + ": "
            + e.getMessage());
      }
      p.putAll(extra);
    }
    CountDownLatch stopped = new CountDownLatch(1);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    KafkaStreams streams;
    try {
      streams = new KafkaStreams(audit.topology(), p);
    } catch (org.apache.kafka.common.KafkaException e) {
      throw new ParameterException(cmd, "cannot start the audit: " + e.getMessage());
    }
    streams.setUncaughtExceptionHandler(e -> {
      failure.set(e);
      stopped.countDown();
      return org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler
          .StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
    });
    Thread hook = new Thread(stopped::countDown, "routing-audit-follow-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    if (!o.quiet) {
      err.printf("audit --follow: %s on %s, events %s -> pairs %s, %s, grace %s, retention %s%n",
          o.applicationId, o.bootstrapServer, o.eventsTopic, o.pairsTopic,
          o.atLeastOnce ? "at-least-once" : "exactly-once", grace, retention);
      err.flush();
    }
    streams.start();
    try {
      while (!stopped.await(o.statusEveryMillis, TimeUnit.MILLISECONDS)) {
        if (!o.quiet) {
          status(err, audit.totals(), streams.state());
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      streams.close(Duration.ofSeconds(30));
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // shutting down already
      }
    }
    if (!o.quiet) {
      status(err, audit.totals(), streams.state());
    }
    Throwable f = failure.get();
    if (f != null) {
      err.println("routing audit --follow: the audit stopped: " + f);
      err.flush();
      return RoutingCli.EXIT_INTERNAL;
    }
    return 0;
  }

  private static void print(PrintWriter out, AuditFinding f) {
    synchronized (out) {
      out.println(f);
      out.flush();
    }
  }

  private static void status(PrintWriter err, AuditTotals totals, KafkaStreams.State state) {
    StringBuilder b = new StringBuilder("audit --follow: ").append(state);
    for (Map.Entry<String, Long> e : totals.snapshot().entrySet()) {
      if (e.getValue() > 0 || !e.getKey().startsWith("pairs-")) {
        b.append(", ").append(e.getKey()).append(' ').append(String.format("%,d", e.getValue()));
      }
    }
    err.println(b);
    err.flush();
  }
}
