package io.github.routingkit.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.router.canary.CanaryRouter;
import io.github.routingkit.router.version.VersionedRouter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link RolloutReport} against {@link MigrationPlan}: each step's moved keys and messages are what
 * MigrationPlan finds between the canary routers at the two shares, the steps add up to the
 * cumulative figures, the last (100 %) equals the direct old &rarr; new plan, and the partition
 * deltas account for every moved message.
 */
class RolloutReportTest {
  static final RoutingSpec SPEC = RoutingSpec.parse("routing.scheme=kafka-murmur2,"
      + " routing.canary.share=0, routing.canary.next.scheme=xxh3-64");
  static final double[] PLAN = {0.01, 0.05, 0.25, 1};
  static final int N = 12;

  static List<String> sample() {
    List<String> keys = new ArrayList<>(Keys.zipf(20_000, 1.1).sample(60_000, 7));
    for (int i = 0; i < 40_000; i++) {
      keys.add("order-" + i);
    }
    return keys;
  }

  static VersionedRouter.Generation gen(String name, KeyRouter r) {
    return new VersionedRouter.Generation(name, r, 0);
  }

  static long[] load(List<String> keys, KeyRouter r) {
    long[] load = new long[N];
    for (String k : keys) {
      load[r.partition(k, N)]++;
    }
    return load;
  }

  /**
   * 13,733 of 20,000 (docs/rollout.md's last step) is 68.665 % exactly: the double 0.68665 times
   * 100 formats as 68.66 %, 100.0 * 13733 / 20000 as 68.67 %; percent rounds the exact ratio.
   */
  @Test
  void percentRoundsTheExactRatioHalfUp() {
    assertThat(Text.pct(13_733 / 20_000.0)).isEqualTo("68.66%"); // why the exact form is needed
    assertThat(RolloutReport.percent(13_733, 20_000)).isEqualTo("68.67%");
    assertThat(RolloutReport.percent(1, 3)).isEqualTo("33.33%");
    assertThat(RolloutReport.percent(2, 3)).isEqualTo("66.67%");
    assertThat(RolloutReport.percent(0, 7)).isEqualTo("0.00%");
    assertThat(RolloutReport.percent(7, 7)).isEqualTo("100.00%");
    assertThat(RolloutReport.percent(Long.MAX_VALUE, Long.MAX_VALUE)).isEqualTo("100.00%");
    assertThat(RolloutReport.percent(-1, 7)).isEqualTo("n/a");
    assertThat(RolloutReport.percent(1, 0)).isEqualTo("n/a");
  }

  @Test
  void eachStepIsTheMigrationPlanBetweenItsTwoCanaries() {
    List<String> keys = sample();
    RolloutReport report = RolloutReport.builder(SPEC, N, PLAN).addAll(keys).build();
    KeyRouter old = SPEC.withoutCanary().keyRouter();
    KeyRouter next = SPEC.canaryNext().keyRouter();
    assertThat(report.messages()).isEqualTo(keys.size());
    double previous = 0;
    long cumKeys = 0;
    long cumMessages = 0;
    for (int i = 0; i < PLAN.length; i++) {
      RolloutReport.Step s = report.steps().get(i);
      MigrationPlan plan = MigrationPlan.of(keys, gen("a", CanaryRouter.of(old, next, previous)),
          gen("b", CanaryRouter.of(old, next, PLAN[i])), N);
      assertThat(s.fromShare()).isEqualTo(previous);
      assertThat(s.toShare()).isEqualTo(PLAN[i]);
      assertThat(s.movedKeys()).isEqualTo(plan.movedKeys().size());
      assertThat((double) s.movedMessages() / keys.size()).isEqualTo(plan.movedMessageFraction());
      assertThat(report.distinctKeys()).isEqualTo(plan.distinctKeys());
      cumKeys += s.movedKeys();
      cumMessages += s.movedMessages();
      assertThat(s.cumulativeMovedKeys()).isEqualTo(cumKeys);
      assertThat(s.cumulativeMovedMessages()).isEqualTo(cumMessages);
      // the deltas are the net load change between the two canary routers, partition by partition
      long[] before = load(keys, CanaryRouter.of(old, next, previous));
      long[] after = load(keys, CanaryRouter.of(old, next, PLAN[i]));
      long[] got = new long[N];
      for (RolloutReport.PartitionDelta d : s.deltas()) {
        got[d.partition()] = d.delta();
        assertThat(d.load()).isEqualTo(after[d.partition()]);
      }
      for (int p = 0; p < N; p++) {
        assertThat(got[p]).as("partition %s", p).isEqualTo(after[p] - before[p]);
      }
      assertThat(s.deltas().stream().mapToLong(d -> Math.abs(d.delta())).sum())
          .isLessThanOrEqualTo(2 * s.movedMessages());
      long max = java.util.Arrays.stream(after).max().getAsLong();
      assertThat(s.maxOverMean()).isEqualTo(max / ((double) keys.size() / N));
      assertThat(s.switchedKeys()).isGreaterThanOrEqualTo(s.movedKeys());
      previous = PLAN[i];
    }
    MigrationPlan direct = MigrationPlan.of(keys, gen("old", old), gen("new", next), N);
    RolloutReport.Step last = report.steps().get(PLAN.length - 1);
    assertThat(last.cumulativeMovedKeys()).isEqualTo(direct.movedKeys().size());
    assertThat((double) last.cumulativeMovedMessages() / keys.size())
        .isEqualTo(direct.movedMessageFraction());
    // keys switch in proportion to the step: 4 % of the distinct keys at 1 % -> 5 %
    assertThat((double) report.steps().get(1).switchedKeys() / report.distinctKeys())
        .isCloseTo(0.04, within(0.005));
  }

  @Test
  void theOldAndNewRoutersCanBeGivenApart() {
    KeyRouter old = RoutingSpec.defaults().keyRouter();
    KeyRouter next = RoutingSpec.defaults().withPlacement("jump").keyRouter();
    RolloutReport r = RolloutReport.builder(old, next, 16, 0.5, 1).addAll(sample()).build();
    // jump vs to-positive modulo on 16 partitions: different mappings, ~15/16 of keys move in all
    assertThat((double) r.steps().get(1).cumulativeMovedKeys() / r.distinctKeys())
        .isCloseTo(15.0 / 16, within(0.02));
    assertThat(r.toText(3)).contains("0% -> 50%", "50% -> 100%", "gain", "lose");
    assertThat(r.toJson(3)).startsWith("{\"partitions\":16,").contains("\"gains\":[{\"partition\":");
  }

  @Test
  void keyBytesRouteAndPlaceInTheCanaryByTheBytesTheyGive() {
    // each name stands for the key bytes of another key: the report is that key's report
    List<String> keys = sample();
    List<String> names = new ArrayList<>();
    java.util.Map<String, byte[]> bytes = new java.util.HashMap<>();
    for (String k : keys) {
      String name = "name-of-" + k;
      names.add(name);
      bytes.put(name, k.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    String expected = RolloutReport.builder(SPEC, N, PLAN).addAll(keys).build().toJson(5);
    String got = RolloutReport.builder(SPEC, N, PLAN).keyBytes(bytes::get).addAll(names).build()
        .toJson(5);
    assertThat(got).isEqualTo(expected);
    assertThat(RolloutReport.builder(SPEC, N, PLAN).addAll(names).build().toJson(5))
        .isNotEqualTo(expected);
    // null bytes: a text key, as without keyBytes
    assertThat(RolloutReport.builder(SPEC, N, PLAN).keyBytes(k -> null).addAll(keys).build()
        .toJson(5)).isEqualTo(expected);
    RolloutReport.Builder started = RolloutReport.builder(SPEC, N, PLAN).add("k");
    assertThatThrownBy(() -> started.keyBytes(k -> null))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void badPlansAndCountsAreRejected() {
    KeyRouter r = RoutingSpec.defaults().keyRouter();
    assertThatThrownBy(() -> RolloutReport.builder(r, r, 12, 0.5, 0.25))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("step 2")
        .hasMessageContaining("rollback");
    assertThatThrownBy(() -> RolloutReport.builder(r, r, 12, 0, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("step 1");
    assertThatThrownBy(() -> RolloutReport.builder(r, r, 12, 1.5))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> RolloutReport.builder(r, r, 12))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("steps");
    assertThatThrownBy(() -> RolloutReport.builder(r, r, 0, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("partitions");
    assertThatThrownBy(() -> RolloutReport.builder(RoutingSpec.defaults(), 12, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no canary");
  }
}
