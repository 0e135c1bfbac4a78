package io.github.routingkit.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.routingkit.RoutingConfigException;
import io.github.routingkit.router.segment.SegmentDefinition;
import java.util.Map;
import java.util.StringJoiner;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * Every list-valued property parses in time linear in its entries: each case lists
 * {@value #N} entries, which a parser comparing each entry with every earlier one (about
 * 5 &times; 10^9 comparisons) would take many minutes over, and checks what the parse found,
 * including a repeated or overlapping entry at the very end.
 */
@org.junit.jupiter.api.Tag("slow")
class LargeListPropertiesTest {
  static final int N = 100_000;

  private static String list(int n, IntFunction<String> entry) {
    StringJoiner j = new StringJoiner(",");
    for (int i = 0; i < n; i++) {
      j.add(entry.apply(i));
    }
    return j.toString();
  }

  @Test
  void segmentRangesWithExclusives() {
    String ranges = list(N, i -> "t" + i + ":" + i);
    String exclusive = list(N / 2, i -> "t" + (2 * i));
    RoutingSpec spec = RoutingSpec.parse(Map.of(RoutingSpec.SEGMENT_RANGES, ranges,
        RoutingSpec.SEGMENT_EXCLUSIVE, exclusive));
    SegmentDefinition d = SegmentDefinition.parse(ranges, null, exclusive, null, null);
    assertThat(d.names()).hasSize(N).endsWith("t" + (N - 1));
    assertThat(d.exclusiveNames()).hasSize(N / 2);
    assertThat(spec.hasSegments()).isTrue();
    assertThat(spec.toMap().get(RoutingSpec.SEGMENT_EXCLUSIVE)).isEqualTo(exclusive);
  }

  @Test
  void aRepeatedSegmentAtTheEndIsFound() {
    String ranges = list(N, i -> "t" + i + ":" + i) + ",t0:" + N;
    assertThatThrownBy(() -> RoutingSpec.parse(Map.of(RoutingSpec.SEGMENT_RANGES, ranges)))
        .isInstanceOf(RoutingConfigException.class).hasMessageContaining("segment 't0' is listed twice");
    String weights = list(N, i -> "t" + i + ":1") + ",t" + (N / 2) + ":2";
    assertThatThrownBy(() -> RoutingSpec.parse(Map.of(RoutingSpec.SEGMENT_WEIGHTS, weights)))
        .hasMessageContaining("segment 't" + (N / 2) + "' is listed twice");
  }

  @Test
  void anOverlapAtTheEndIsFound() {
    String ranges = list(N, i -> "t" + i + ":" + (2 * i)) + ",late:" + (2 * N - 3) + "-" + (2 * N);
    assertThatThrownBy(() -> RoutingSpec.parse(Map.of(RoutingSpec.SEGMENT_RANGES, ranges)))
        .hasMessageContaining("segment 'late' range " + (2 * N - 3) + "-" + (2 * N)
            + " overlaps segment 't" + (N - 1) + "' range " + (2 * N - 2) + "-" + (2 * N - 2));
    // built from typed values, too
    SegmentDefinition.Builder b = SegmentDefinition.builder();
    for (int i = 0; i < N; i++) {
      b.range("t" + i, 2 * i, 2 * i);
    }
    b.range("late", 2, 3);
    assertThatThrownBy(b::build)
        .hasMessageContaining("segment 'late' range 2-3 overlaps segment 't1' range 2-2");
  }

  @Test
  void segmentWeightsAndAnExclusiveListedTwice() {
    String weights = list(N, i -> "t" + i + ":1") + ",*:5";
    RoutingSpec spec = RoutingSpec.parse(Map.of(RoutingSpec.SEGMENT_WEIGHTS, weights));
    assertThat(spec.toMap().get(RoutingSpec.SEGMENT_WEIGHTS)).isEqualTo(weights);
    String exclusive = list(N, i -> "t" + i) + ",t" + (N - 1);
    assertThatThrownBy(() -> RoutingSpec.parse(Map.of(RoutingSpec.SEGMENT_WEIGHTS, weights,
        RoutingSpec.SEGMENT_EXCLUSIVE, exclusive)))
        .hasMessageContaining("segment 't" + (N - 1) + "' is listed twice");
  }

  @Test
  void hotKeys() {
    String keys = list(N, i -> "k" + i);
    RoutingSpec spec = RoutingSpec.parse(Map.of(RoutingSpec.HOTKEY_KEYS, keys));
    assertThat(spec.hasHotKeys()).isTrue();
    assertThatThrownBy(() -> RoutingSpec.parse(Map.of(RoutingSpec.HOTKEY_KEYS, keys + ",k7")))
        .hasMessageContaining("key 'k7' is listed twice");
  }

  @Test
  void generations() {
    String generations = list(N, i -> "g" + i + ":kafka-murmur2");
    RoutingSpec spec = RoutingSpec.parse(Map.of(RoutingSpec.VERSION_GENERATIONS, generations,
        RoutingSpec.VERSION_DEFAULT, "g" + (N - 1)));
    assertThat(spec.hasVersions()).isTrue();
    assertThat(spec.keyRouter()).isNotNull();
    assertThatThrownBy(() -> RoutingSpec.parse(Map.of(RoutingSpec.VERSION_GENERATIONS,
        generations + ",g3:xxh3-64", RoutingSpec.VERSION_DEFAULT, "g0")))
        .hasMessageContaining("generation 'g3' is listed twice");
  }

  @Test
  void aCanaryWithALargeNewSpecInTheStringForm() {
    String ranges = list(N / 2, i -> "t" + i + ":" + i);
    RoutingSpec spec = RoutingSpec.parse("routing.canary.share=5%, "
        + RoutingSpec.CANARY_NEXT_PREFIX + "segment.ranges=" + ranges);
    assertThat(spec.hasCanary()).isTrue();
    assertThat(spec.canaryNext().hasSegments()).isTrue();
    assertThat(RoutingSpec.parse(spec.toString())).isEqualTo(spec);
  }
}
