package io.github.routingkit.switching;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The progress claim in commit metadata: round trip, foreign and garbage text decode to 0. */
class SwitchProgressTest {
  @Test
  void roundTrips() {
    for (long steps : new long[] {1, 2, 5, 0x7fffffffffffffffL, 0x4000000000000000L}) {
      String text = SwitchProgress.encode("canary-9f", steps);
      assertThat(text).startsWith("rk-switch/1 canary-9f ").hasSizeLessThanOrEqualTo(12 + 128 + 17);
      assertThat(SwitchProgress.decode(text, "canary-9f")).isEqualTo(steps);
    }
    assertThat(SwitchProgress.encode("g", 0)).isEmpty();
    assertThat(SwitchProgress.encode("g", 6)).isEqualTo("rk-switch/1 g 6");
  }

  @Test
  void foreignOrMalformedTextIsNoProgress() {
    String[] bad = {null, "", "rk-switch/1 ", "rk-switch/1 g", "rk-switch/1 g ", "rk-switch/1 h 1",
        "rk-switch/1 gg 1", "rk-switch/2 g 1", "rk-switch/1 g 1x", "rk-switch/1 g -1",
        "rk-switch/1 g FF", "rk-switch/1 g 1 ", "rk-switch/1 g 11111111111111111", "user metadata",
        "RK-SWITCH/1 g 1"};
    for (String t : bad) {
      assertThat(SwitchProgress.decode(t, "g")).as("'%s'", t).isZero();
    }
    assertThat(SwitchProgress.decode("rk-switch/1 g 1", null)).isZero();
  }
}
