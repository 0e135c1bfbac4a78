package io.github.routingkit.micrometer;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.assignment.AssignableTopic;
import io.github.routingkit.assignment.AssignmentPolicy;
import io.github.routingkit.assignment.GroupMember;
import io.github.routingkit.assignment.RebalanceMode;
import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.metrics.AssignorMetrics;
import io.github.routingkit.metrics.RouterMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The binder against a real Micrometer registry: names, tags, live values, removal. */
class RoutingMeterBinderTest {
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final RoutingMeterBinder binder = new RoutingMeterBinder(List.of(), Duration.ofHours(1));
  private final List<AutoCloseable> open = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : open) {
      c.close();
    }
    binder.close();
  }

  /** The metrics' clock: read values are cached for a second of it. */
  private final java.util.concurrent.atomic.AtomicLong clock = new java.util.concurrent.atomic.AtomicLong();

  private RouterMetrics router(String clientId, String spec) {
    RoutingSpec s = RoutingSpec.parse(spec);
    RouterMetrics m = RouterMetrics.create(clientId, s, s, clock::get);
    open.add(m::close);
    return m;
  }

  @Test
  void countsAndStatesAreLiveMeters() {
    binder.bindTo(registry);
    RouterMetrics m = router("mm-1", "routing.scheme=kafka-murmur2");
    KeyRouter r = m.router();
    long[] expected = new long[5];
    for (int i = 0; i < 5_000; i++) {
      byte[] k = ("k" + i).getBytes(UTF_8);
      int p = r.partition(k, 5);
      m.keyed("orders", 5, k, p);
      expected[p]++;
    }
    for (int p = 0; p < 5; p++) {
      assertThat(registry.get("routingkit.records.keyed").tags("client.id", "mm-1", "topic",
          "orders", "partition", String.valueOf(p)).functionCounter().count())
          .isEqualTo(expected[p]);
    }
    assertThat(registry.get("routingkit.skew.verdict").tags("client.id", "mm-1", "topic", "orders",
        "verdict", "WITHIN_PERFECT_HASH_BOUND").gauge().value()).isEqualTo(1.0);
    assertThat(registry.get("routingkit.spec.fingerprint").tags("topic", "orders").gauge().value())
        .isEqualTo(m.fingerprint());
    assertThat(registry.find("routingkit.canary.share").gauges()).isEmpty();
    m.close();
    assertThat(registry.find("routingkit.records.keyed").tag("client.id", "mm-1").meters()).isEmpty();
  }

  @Test
  void hotKeysAreRowsWithTheirKey() {
    RouterMetrics m = router("mm-2", "routing.metrics.hotkey.sample=1");
    binder.bindTo(registry); // an instance that existed before binding is bound too
    for (int i = 0; i < 30_000; i++) {
      byte[] k = (i % 3 == 0 ? "hot" : "k" + i).getBytes(UTF_8);
      m.keyed("orders", 4, k, m.router().partition(k, 4));
    }
    clock.addAndGet(2_000_000_000L);
    binder.refreshHotKeys();
    double share = registry.get("routingkit.hotkey.share").tags("client.id", "mm-2", "rank", "1",
        "key", "hot").gauge().value();
    assertThat(share).isBetween(1 / 3.0 - 1e-9, 1 / 3.0 + 0.002);
  }

  @Test
  void assignorsAreBound() {
    binder.bindTo(registry);
    AssignorMetrics a = AssignorMetrics.create("mm-consumer");
    open.add(a::close);
    List<GroupMember> members = List.of(GroupMember.of("a", Set.of("t")),
        GroupMember.of("b", Set.of("t")));
    a.record(AssignmentPolicy.assign(members, List.of(AssignableTopic.of("t", 7)),
        RebalanceMode.EAGER), 2_000_000);
    assertThat(registry.get("routingkit.assignments").tags("client.id", "mm-consumer")
        .functionCounter().count()).isEqualTo(1);
    assertThat(registry.get("routingkit.assignment.time").functionCounter().count()).isEqualTo(2.0);
    assertThat(registry.get("routingkit.balance.spread").gauge().value()).isEqualTo(1.0);
    assertThat(registry.get("routingkit.group.shape").tags("shape",
        "EQUAL_SUBSCRIPTIONS_WITHOUT_RACKS").gauge().value()).isEqualTo(1.0);
  }
}
