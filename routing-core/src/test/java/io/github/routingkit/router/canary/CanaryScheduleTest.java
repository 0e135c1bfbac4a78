package io.github.routingkit.router.canary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.routingkit.RoutingConfigException;
import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.switching.SwitchPlan;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code routing.canary.schedule}: parsing, errors, the step in force, settle instants, the plan. */
class CanaryScheduleTest {
  private static final String T1 = "2026-12-02T10:00:00Z";
  private static final String T2 = "2026-12-02T11:00:00Z";
  private static final String T3 = "2026-12-02T12:00:00Z";

  private static Map<String, String> spec(String schedule) {
    Map<String, String> m = new HashMap<>();
    m.put(RoutingSpec.CANARY_SCHEDULE, schedule);
    m.put("routing.canary.next.placement", "jump");
    return m;
  }

  private static RoutingConfigException error(Map<String, String> props) {
    try {
      RoutingSpec.parse(props);
    } catch (RoutingConfigException e) {
      return e.problems().get(0);
    }
    throw new AssertionError("accepted " + props);
  }

  @Test
  void aScheduleGivesTheShareInForceAtEachInstantAndItsSettleInstants() {
    Map<String, String> props = spec("5%@" + T1 + ", 25%@" + T2 + ",100%@" + T3);
    props.put(RoutingSpec.CANARY_MAX_CLOCK_SKEW, "250ms");
    props.put(RoutingSpec.CANARY_DELIVERY_TIMEOUT, "3s");
    RoutingSpec spec = RoutingSpec.parse(props);
    CanarySchedule s = spec.canarySchedule();
    long t1 = Instant.parse(T1).toEpochMilli();
    assertThat(s.steps()).isEqualTo(3);
    assertThat(s.startShare()).isZero();
    assertThat(s.shareAt(t1 - 1)).isZero();
    assertThat(s.shareAt(t1)).isEqualTo(0.05);
    assertThat(s.stepAt(Instant.parse(T2).toEpochMilli() + 1)).isEqualTo(1);
    assertThat(s.shareAt(Long.MAX_VALUE)).isEqualTo(1.0);
    assertThat(s.settleInstant(0)).isEqualTo(t1 + 500 + 3000);
    assertThat(spec.canaryShare()).as("the share before the first step").isZero();
    assertThat(RoutingSpec.parse(spec.toString())).isEqualTo(spec);
    assertThat(spec.withoutCanary().canarySchedule()).isNull();
    assertThat(spec.withoutCanary().toMap()).doesNotContainKeys(RoutingSpec.CANARY_SCHEDULE,
        RoutingSpec.CANARY_MAX_CLOCK_SKEW, RoutingSpec.CANARY_DELIVERY_TIMEOUT);
  }

  @Test
  void thePlanIsTheScheduleAndEverySpecCopyNamesItAlike() {
    Map<String, String> props = spec("5%@" + T1 + ",25%@" + T2);
    props.put(RoutingSpec.CANARY_SHARE, "1%");
    RoutingSpec spec = RoutingSpec.parse(props);
    SwitchPlan plan = spec.switchPlan(12);
    assertThat(plan.generation()).matches("canary-[0-9a-f]{16}")
        .isEqualTo(RoutingSpec.parse(spec.toString()).switchPlan(12).generation());
    assertThat(plan.steps()).isEqualTo(2);
    assertThat(plan.stepNumber(1)).isEqualTo(2);
    assertThat(plan.settleInstant(1)).isEqualTo(spec.canarySchedule().settleInstant(1));
    props.put(RoutingSpec.CANARY_SCHEDULE, "5%@" + T1 + ",30%@" + T2);
    assertThat(RoutingSpec.parse(props).switchPlan(12).generation()).as("another share, another plan")
        .isNotEqualTo(plan.generation());
    props.put(RoutingSpec.CANARY_SCHEDULE, "5%@" + T2 + ",25%@" + T3);
    assertThat(RoutingSpec.parse(props).switchPlan(12).generation()).as("rescheduled: the same plan")
        .isEqualTo(plan.generation());
    // moves agree with the spec's routers at each step's share
    var routers = spec.canarySchedule().routers(spec.withoutCanary().keyRouter(),
        spec.canaryNext().keyRouter());
    assertThat(routers).hasSize(3);
    for (int i = 0; i < 2_000; i++) {
      byte[] key = ("k" + i).getBytes(StandardCharsets.UTF_8);
      SwitchPlan.Move m = plan.moveOf(key);
      int at1 = routers[0].partition(key, 12);
      int at5 = routers[1].partition(key, 12);
      int at25 = routers[2].partition(key, 12);
      assertThat(spec.keyRouter().partition(key, 12)).isEqualTo(at1);
      SwitchPlan.Move expected = at1 != at5 ? new SwitchPlan.Move(0, at1, at5)
          : at5 != at25 ? new SwitchPlan.Move(1, at5, at25) : null;
      assertThat(m).isEqualTo(expected);
    }
    assertThatThrownBy(() -> RoutingSpec.parse(Map.of(RoutingSpec.CANARY_SHARE, "1%",
        "routing.canary.next.placement", "jump")).switchPlan(12))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("routing.canary.schedule");
  }

  @Test
  void theSchedulesOfRolloutMdParse() throws Exception {
    Matcher m = Pattern.compile("```properties\\R(.*?)```", Pattern.DOTALL)
        .matcher(Files.readString(Path.of("..", "docs", "rollout.md")));
    int schedules = 0;
    while (m.find()) {
      Properties p = new Properties();
      p.load(new StringReader(m.group(1)));
      if (p.containsKey(RoutingSpec.CANARY_SCHEDULE)) {
        if (!p.containsKey("routing.canary.next.placement")
            && !p.containsKey("routing.canary.next.version.generations")) {
          continue;
        }
        RoutingSpec spec = RoutingSpec.parse(p);
        assertThat(spec.canarySchedule()).isNotNull();
        schedules++;
      }
    }
    assertThat(schedules).isEqualTo(2);
  }

  @Test
  void badSchedulesNamePropertyValueAndRule() {
    for (String bad : new String[] {"5%", "5%@tomorrow", "lots@" + T1, "5%@" + T1 + ",5%@" + T2,
        "25%@" + T1 + ",5%@" + T2, "5%@" + T2 + ",25%@" + T1, "0%@" + T1, "101%@" + T1,
        "5%@2026-12-02"}) {
      RoutingConfigException e = error(spec(bad));
      assertThat(e.property()).as(bad).isEqualTo(RoutingSpec.CANARY_SCHEDULE);
      assertThat(e.getMessage()).as(bad).contains("'" + bad + "'", "share@instant");
    }
    Map<String, String> below = spec("5%@" + T1);
    below.put(RoutingSpec.CANARY_SHARE, "10%");
    assertThat(error(below).getMessage()).contains("must be above 0.1");
    for (String key : new String[] {RoutingSpec.CANARY_MAX_CLOCK_SKEW,
        RoutingSpec.CANARY_DELIVERY_TIMEOUT}) {
      for (String bad : new String[] {"1", "2 h", "-1s", "1.5s", "61m", "soon"}) {
        Map<String, String> p = spec("5%@" + T1);
        p.put(key, bad);
        RoutingConfigException e = error(p);
        assertThat(e.property()).isEqualTo(key);
        assertThat(e.getMessage()).contains("'" + bad + "'", "500ms, 2s, 1m");
      }
      assertThat(error(Map.of(RoutingSpec.CANARY_SHARE, "5%", "routing.canary.next.placement",
          "jump", key, "1s")).getMessage()).contains(key,
          "has no effect unless routing.canary.schedule is set");
    }
    assertThat(error(Map.of(RoutingSpec.CANARY_SCHEDULE, "5%@" + T1)).getMessage())
        .contains("routing.canary.schedule", "routing.canary.next.");
    assertThat(RoutingSpec.knownProperties()).contains(RoutingSpec.CANARY_SCHEDULE,
        RoutingSpec.CANARY_MAX_CLOCK_SKEW, RoutingSpec.CANARY_DELIVERY_TIMEOUT);
  }
}
