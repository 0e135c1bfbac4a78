package io.github.routingkit.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.routingkit.RoutingConfigException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every decimal-valued property (the canary share, the hot-key threshold, segment weights) reads
 * numbers with huge exponents as a configuration error naming the property, the value and the
 * rule: never a raw {@link NumberFormatException}, never a silent 0 or infinity.
 */
class DecimalPropertiesTest {
  static final String[] HUGE = {"1e99999999999", "1e-99999999999", "0e99999999999",
      "1e2147483648", "1E+2147483648", ".5e-9999"};

  private static RoutingConfigException refused(Map<String, String> config) {
    Throwable t = org.assertj.core.api.Assertions.catchThrowable(() -> RoutingSpec.parse(config));
    assertThat(t).as(config.toString()).isInstanceOf(RoutingConfigException.class);
    return (RoutingConfigException) t;
  }

  @Test
  void canaryShares() {
    for (String h : HUGE) {
      for (String share : new String[] {h, h + "%"}) {
        RoutingConfigException e = refused(Map.of(RoutingSpec.CANARY_SHARE, share,
            RoutingSpec.CANARY_NEXT_PREFIX + "placement", "jump"));
        assertThat(e.property()).isEqualTo(RoutingSpec.CANARY_SHARE);
        assertThat(e.getMessage()).contains(share).contains(CanaryCheck.SHARE_RULE)
            .contains("an exponent has at most 3 digits");
        // the string form reads it the same way
        assertThatThrownBy(() -> RoutingSpec.parse("routing.canary.share=" + share
            + ", routing.canary.next.placement=jump")).isInstanceOf(RoutingConfigException.class)
            .hasMessageContaining(RoutingSpec.CANARY_SHARE);
      }
    }
  }

  @Test
  void hotKeyThresholdsAndSegmentWeights() {
    for (String h : HUGE) {
      RoutingConfigException t = refused(Map.of(RoutingSpec.HOTKEY_DETECT, "true",
          RoutingSpec.HOTKEY_THRESHOLD, h));
      assertThat(t.property()).isEqualTo(RoutingSpec.HOTKEY_THRESHOLD);
      assertThat(t.getMessage()).contains(h).contains("must be a decimal share in (0, 1]")
          .contains("an exponent has at most 3 digits");
      RoutingConfigException w = refused(Map.of(RoutingSpec.SEGMENT_WEIGHTS, "a:" + h + ",b:1"));
      assertThat(w.property()).isEqualTo(RoutingSpec.SEGMENT_WEIGHTS);
      assertThat(w.getMessage()).contains("segment 'a' weight '" + h + "' must be a positive"
          + " number (an exponent has at most 3 digits)");
      // and in a canary's new spec, under its own name
      RoutingConfigException n = refused(Map.of(RoutingSpec.CANARY_SHARE, "1%",
          RoutingSpec.CANARY_NEXT_PREFIX + "segment.weights", "a:" + h));
      assertThat(n.getMessage()).contains("routing.canary.next.segment.weights");
    }
  }

  @Test
  void exponentsOfUpToThreeDigitsStillRead() {
    assertThat(RoutingSpec.parse(Map.of(RoutingSpec.CANARY_SHARE, "5e-2",
        RoutingSpec.CANARY_NEXT_PREFIX + "placement", "jump")).canaryShare()).isEqualTo(0.05);
    assertThat(RoutingSpec.parse(Map.of(RoutingSpec.CANARY_SHARE, "5E0%",
        RoutingSpec.CANARY_NEXT_PREFIX + "placement", "jump")).canaryShare()).isEqualTo(0.05);
    assertThat(RoutingSpec.parse(Map.of(RoutingSpec.CANARY_SHARE, "1e-999%",
        RoutingSpec.CANARY_NEXT_PREFIX + "placement", "jump")).canaryShare()).isEqualTo(0.0);
    assertThat(RoutingSpec.parse(Map.of(RoutingSpec.SEGMENT_WEIGHTS, "a:1e2,b:5e-1"))
        .hasSegments()).isTrue();
    // a share above 100 % keeps the plain rule, without the exponent hint
    assertThat(refused(Map.of(RoutingSpec.CANARY_SHARE, "1e3%",
        RoutingSpec.CANARY_NEXT_PREFIX + "placement", "jump")).getMessage())
        .contains(CanaryCheck.SHARE_RULE).doesNotContain("exponent");
  }
}
