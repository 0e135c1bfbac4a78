package io.github.routingkit.switching;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.switching.SwitchWatch.Kind;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A stuck switch is reported once, and its end once; late records and ignored markers once each. */
class SwitchWatchTest {
  private static final SwitchPlan PLAN = SwitchPlan.oneStep("g", 3,
      new TableRouter(new int[] {0}), new TableRouter(new int[] {1}), 2);

  @Test
  void oneLinePerStuckWaitAndOneWhenItEnds() {
    MemberBarrier<String> b = new MemberBarrier<>(PLAN, 10, 10);
    List<String> out = new ArrayList<>();
    SwitchWatch w = new SwitchWatch(1_000);
    b.offer("k0", 1, 0, TableRouter.key(0), out);
    assertThat(w.check(b, 0)).isEmpty();
    assertThat(w.check(b, 1_000)).isEmpty();
    List<SwitchWatch.Event> stuck = w.check(b, 1_001);
    assertThat(stuck).containsExactly(new SwitchWatch.Event(Kind.STUCK, 0, List.of(3), 1_001, null));
    assertThat(w.check(b, 5_000)).as("reported once").isEmpty();
    b.offerMarker(new SwitchMarker("g", 3, 0), 0, 0, 0, out);
    b.offer("k0 late", 0, 1, TableRouter.key(0), out);
    b.offerMarker(new SwitchMarker("older", 3, 0), 0, 2, 0, out);
    assertThat(w.check(b, 6_000)).extracting(SwitchWatch.Event::kind)
        .containsExactly(Kind.UNSTUCK, Kind.LATE_RECORD, Kind.IGNORED_MARKER);
    assertThat(w.check(b, 7_000)).isEmpty();
  }

  @Test
  void theStuckLineRolloutMdShows() {
    SwitchPlan plan = SwitchPlan.oneStep("canary-5c1f0e9a2b7d4e61", 2,
        new TableRouter(new int[] {3}), new TableRouter(new int[] {5}), 12);
    MemberBarrier<String> b = new MemberBarrier<>(plan, 10_000, 1_000_000);
    for (int i = 0; i < 412; i++) {
      b.offer("r", 5, i, TableRouter.key(0), new ArrayList<>());
    }
    SwitchWatch w = new SwitchWatch(60_000_000_000L);
    w.check(b, 0);
    SwitchWatch.Event e = w.check(b, 60_000_000_001L).get(0);
    assertThat(SwitchWatch.warns(e)).isTrue();
    assertThat(SwitchWatch.message(e, "orders", b, "committed: 1234 ''")).isEqualTo(
        "routing switch of orders stuck for 60 s: 412 held and 0 skipped records wait for"
        + " partition 3 to pass step(s) [2] of generation canary-5c1f0e9a2b7d4e61, and the"
        + " group's progress does not say so (committed: 1234 ''): its owner is down or lagging,"
        + " the step's markers were not sent, or the progress was erased (a commit of the topic"
        + " without the barrier)");
  }
}
