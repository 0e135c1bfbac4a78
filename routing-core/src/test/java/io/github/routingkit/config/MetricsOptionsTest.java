package io.github.routingkit.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** routing.metrics.*: parsed into MetricsOptions, every bad value named at parse time. */
class MetricsOptionsTest {

  @Test
  void defaultsAreOnWithAMinuteWindowAndNoTracker() {
    MetricsOptions o = RoutingSpec.defaults().metricsOptions();
    assertThat(o).isEqualTo(MetricsOptions.defaults());
    assertThat(o.enabled()).isTrue();
    assertThat(o.windowMillis()).isEqualTo(60_000);
    assertThat(o.hotKeySample()).isZero();
  }

  @Test
  void valuesAreRead() {
    MetricsOptions o = RoutingSpec.parse("routing.metrics.window.ms=5000,"
        + " routing.metrics.hotkey.sample=64, routing.metrics.hotkey.threshold=0.05").metricsOptions();
    assertThat(o).isEqualTo(MetricsOptions.of(true, 5000, 64, 0.05));
    assertThat(RoutingSpec.parse("routing.metrics.enabled=false").metricsOptions().enabled())
        .isFalse();
  }

  @Test
  void badValuesNameThePropertyTheValueAndTheRule() {
    assertThatThrownBy(() -> RoutingSpec.parse("routing.metrics.enabled=yes"))
        .hasMessageContaining("routing.metrics.enabled").hasMessageContaining("yes")
        .hasMessageContaining("true or false");
    assertThatThrownBy(() -> RoutingSpec.parse("routing.metrics.window.ms=10"))
        .hasMessageContaining("routing.metrics.window.ms").hasMessageContaining("[1000, 86400000]");
    assertThatThrownBy(() -> RoutingSpec.parse("routing.metrics.hotkey.sample=3"))
        .hasMessageContaining("routing.metrics.hotkey.sample").hasMessageContaining("power of two");
    assertThatThrownBy(() -> RoutingSpec.parse("routing.metrics.hotkey.threshold=0.05"))
        .hasMessageContaining("has no effect unless routing.metrics.hotkey.sample");
    assertThatThrownBy(() -> RoutingSpec.parse(
        "routing.metrics.enabled=false, routing.metrics.window.ms=5000"))
        .hasMessageContaining("has no effect unless routing.metrics.enabled=true");
    assertThatThrownBy(() -> RoutingSpec.parse("routing.metrics.windw.ms=5000"))
        .hasMessageContaining("did you mean routing.metrics.window.ms");
  }

  @Test
  void metricsPropertiesStayInTheOldSpecAndRoundTrip() {
    RoutingSpec s = RoutingSpec.parse("routing.metrics.window.ms=5000, routing.canary.share=0.1,"
        + " routing.canary.next.scheme=xxh3-64");
    assertThat(RoutingSpec.parse(s.toParsableString())).isEqualTo(s);
    assertThat(s.canaryNext().metricsOptions()).isEqualTo(MetricsOptions.defaults());
    assertThatThrownBy(() -> RoutingSpec.parse("routing.canary.share=0.1,"
        + " routing.canary.next.metrics.enabled=false"))
        .hasMessageContaining("routing.canary.next.metrics.enabled");
  }
}
