package io.github.routingkit.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.testbrokers.EmbeddedPulsar;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A router change across a producer fleet and a Failover subscription, on the in-process Pulsar
 * standalone: three producer instances ({@code PulsarRouting.customPartition}) follow a canary
 * schedule 5 % &rarr; 25 % &rarr; 100 % (old spec Murmur3, new spec jump placement) and restart
 * during the steps; markers go out at each step's settle instant; three to four consumers of one
 * Failover subscription on the 6-partition topic run a {@code FailoverSwitchBarrier}, lag, are
 * killed, restarted and added mid-step; the failover news reach each barrier late, as on a busy
 * machine ({@link PulsarSwitchRun#NEWS_DELAY_MILLIS}). Counted: produced = handed to business code,
 * none lost, per-key order across consumers, duplicates only in a later ownership of their
 * partition. When records are missing, the failure names their partitions, the subscription's
 * backlog there and each consumer's barrier, and prints the deliveries of the example keys.
 */
@Tag("broker")
class PulsarFailoverSwitchBrokerTest {
  private static final int KEYS = 300;
  private static final long STEP_MILLIS = 10_000;
  private static EmbeddedPulsar pulsar;

  @BeforeAll
  static void start() {
    pulsar = EmbeddedPulsar.start();
  }

  @AfterAll
  static void stop() {
    if (pulsar != null) {
      pulsar.close();
    }
  }

  @Test
  void failoverSubscriptionThroughThreeCanarySteps() throws Exception {
    String topic = "persistent://public/default/switch-failover";
    pulsar.createPartitionedTopic(topic, 6);
    long t0 = System.currentTimeMillis() + 10_000;
    long t1 = t0 + STEP_MILLIS;
    long t2 = t1 + STEP_MILLIS;
    Map<String, String> routing = new HashMap<>();
    routing.put(RoutingSpec.SCHEME, "pulsar-murmur3");
    routing.put("routing.canary.next.scheme", "pulsar-murmur3");
    routing.put("routing.canary.next.placement", "jump");
    routing.put(RoutingSpec.CANARY_SCHEDULE, "5%@" + Instant.ofEpochMilli(t0) + ",25%@"
        + Instant.ofEpochMilli(t1) + ",100%@" + Instant.ofEpochMilli(t2));
    routing.put(RoutingSpec.CANARY_MAX_CLOCK_SKEW, "250ms");
    routing.put(RoutingSpec.CANARY_DELIVERY_TIMEOUT, "20s");
    try (PulsarSwitchRun run = new PulsarSwitchRun(pulsar, topic, routing, 6,
        KafkaSwitchRun.barrierFromSystemProperty())) {
      run.startMember("a");
      run.startMember("b");
      run.startMember("c");
      SwitchRunBase.until(t0 - 6_000);
      run.startProducers(3, KEYS, 200);
      run.startMarkerSender();
      SwitchRunBase.until(t0 + 1_000);
      run.kill("a");
      run.restartProducer(2, 1_000);
      SwitchRunBase.until(t0 + 4_000);
      run.startMember("a");
      SwitchRunBase.until(t1 - 2_000);
      run.slow("c", 5);
      run.restartProducer(0, 1_500);
      SwitchRunBase.until(t1 + 1_500);
      run.startMember("d");
      run.restartProducer(1, 500);
      SwitchRunBase.until(t1 + 4_000);
      run.slow("c", 0);
      run.kill("b");
      SwitchRunBase.until(t2 + 1_000);
      run.startMember("b");
      SwitchRunBase.until(t2 + 2_000);
      run.kill("d");
      // on past the last step's markers (settle t2 + 20.5 s)
      SwitchRunBase.until(t2 + 23_000);
      run.stopProducers();
      run.check.awaitDelivered(60_000);
      SwitchRunCheck.Result r = run.check.result();
      String line = "SWITCH-RUN pulsar failover canary 5 -> 25 -> 100 % [" + run.barrier + "]: "
          + r + "; consumers started " + run.memberStarts + ", killed " + run.kills
          + ", producer restarts " + run.producerRestarts + ", most messages waiting in one"
          + " consumer " + run.maxWaiting + ", failover news " + PulsarSwitchRun.NEWS_DELAY_MILLIS
          + " ms late";
      System.out.println(line);
      if (!r.clean()) {
        line += "; " + run.diagnosis();
        for (String e : r.examples()) {
          String key = e.substring(0, Math.max(0, e.indexOf('#')));
          System.out.println("SWITCH-RUN deliveries of " + key + " (seq, partition, ownership,"
              + " consumer, ms): " + run.check.trace(key));
        }
      }
      assertThat(r.clean()).as(line).isTrue();
      assertThat(r.keys()).isEqualTo(KEYS);
      assertThat(r.acked()).isGreaterThan(10_000);
    }
  }
}
