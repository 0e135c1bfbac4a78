package io.github.routingkit.switching;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.Routers;
import io.github.routingkit.router.canary.CanaryRouter;
import io.github.routingkit.switching.SwitchPlan.MarkerVerdict;
import io.github.routingkit.switching.SwitchPlan.Move;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A plan's moves are the canary's (and one step's) own, and its marker verdicts. */
class SwitchPlanTest {
  private static final KeyRouter OLD = Routers.kafkaDefault();
  private static final KeyRouter NEW = Routers.consistent();

  @Test
  void aCanaryPlanMovesEachKeyAtTheStepWhereTheCanaryRouterMovesIt() {
    double[] shares = {0.05, 0.25, 1};
    SwitchPlan plan = SwitchPlan.canary("c1", OLD, NEW, 0.01, shares, 12);
    double[] all = {0.01, 0.05, 0.25, 1};
    int moved = 0;
    for (int i = 0; i < 20_000; i++) {
      String text = "key-" + i;
      byte[] key = text.getBytes(StandardCharsets.UTF_8);
      Move expected = null;
      for (int s = 0; s < shares.length; s++) {
        int before = CanaryRouter.of(OLD, NEW, all[s]).partition(key, 12);
        int after = CanaryRouter.of(OLD, NEW, all[s + 1]).partition(key, 12);
        if (before != after) {
          assertThat(expected).as("%s moves once", text).isNull();
          expected = new Move(s, before, after);
        }
      }
      assertThat(plan.moveOf(key)).as(text).isEqualTo(expected);
      assertThat(plan.moveOf(text)).as(text).isEqualTo(expected);
      moved += expected == null ? 0 : 1;
    }
    // keys above the 1 % start, 11 of 12 change partition: 20,000 x 0.99 x 11/12 = 18,150
    assertThat(moved).isBetween(17_800, 18_500);
  }

  @Test
  void aOneStepPlanMovesWhatTheTwoRoutersDisagreeOn() {
    SwitchPlan plan = SwitchPlan.oneStep("g2", 7, OLD, NEW, 16);
    for (int i = 0; i < 5_000; i++) {
      byte[] key = ("k" + i).getBytes(StandardCharsets.UTF_8);
      int a = OLD.partition(key, 16);
      int b = NEW.partition(key, 16);
      assertThat(plan.moveOf(key)).isEqualTo(a == b ? null : new Move(0, a, b));
    }
    assertThat(plan.stepNumber(0)).isEqualTo(7);
    assertThat(plan.stepIndex(7)).isZero();
    assertThat(plan.stepIndex(1)).isEqualTo(-1);
  }

  @Test
  void markerVerdicts() {
    SwitchPlan plan = SwitchPlan.canary("c1", OLD, NEW, 0, new double[] {0.5, 1}, 4)
        .withSettleInstants(1_000, 2_000);
    assertThat(plan.verdict(new SwitchMarker("c1", 2, 3), 3, 2_000)).isEqualTo(MarkerVerdict.ACCEPTED);
    assertThat(plan.verdict(new SwitchMarker("c0", 2, 3), 3, 2_000)).isEqualTo(MarkerVerdict.OTHER_GENERATION);
    assertThat(plan.verdict(new SwitchMarker("c1", 3, 3), 3, 2_000)).isEqualTo(MarkerVerdict.UNKNOWN_STEP);
    assertThat(plan.verdict(new SwitchMarker("c1", 0, 3), 3, 2_000)).isEqualTo(MarkerVerdict.UNKNOWN_STEP);
    assertThat(plan.verdict(new SwitchMarker("c1", 2, 1), 3, 2_000)).isEqualTo(MarkerVerdict.WRONG_PARTITION);
    assertThat(plan.verdict(new SwitchMarker("c1", 2, 3), 3, 1_999)).isEqualTo(MarkerVerdict.PREMATURE);
    assertThat(plan.verdict(new SwitchMarker("c1", 1, 3), 3, 1_000)).isEqualTo(MarkerVerdict.ACCEPTED);
  }

  @Test
  void badPlansNameTheRule() {
    assertThatThrownBy(() -> SwitchPlan.canary("c", OLD, NEW, 0.1, new double[] {0.05}, 4))
        .hasMessage("share of step 1 was 0.05, must be above the share before it (0.1) and at most 1");
    assertThatThrownBy(() -> SwitchPlan.canary("c", OLD, NEW, 0, new double[0], 4))
        .hasMessageContaining("must have 1 to 63");
    assertThatThrownBy(() -> SwitchPlan.oneStep("", 1, OLD, NEW, 4))
        .hasMessageContaining("generation was ''");
    assertThatThrownBy(() -> SwitchPlan.oneStep("g", 1, OLD, NEW, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SwitchPlan.oneStep("g", 1, OLD, NEW, 4).withSettleInstants(1, 2))
        .hasMessage("2 settle instants for 1 steps");
  }
}
