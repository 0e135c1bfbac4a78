package io.github.routingkit.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.Test;

class KeyTallyTest {

  @Test
  void exactUpToTheLimit() {
    KeyTally t = new KeyTally(3, 10);
    t.add("a", 5);
    t.add("b", 1);
    t.add("a", 2);
    t.add("c", 1);
    assertThat(t.isExact()).isTrue();
    assertThat(t.distinct()).isEqualTo(3);
    assertThat(t.total()).isEqualTo(9);
    assertThat(t.sumOfSquares()).isEqualTo(49 + 1 + 1);
    assertThat(t.top(1)).containsExactly(Map.entry("a", 7L));
    t.add("d", 1);
    assertThat(t.isExact()).isFalse();
    assertThatThrownBy(t::exactCounts).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void sketchesEstimateDistinctKeysAndNeverOvercountHeavyHitters() {
    KeyTally t = new KeyTally(1000, 100);
    long total = 0;
    for (int i = 0; i < 200_000; i++) {
      t.add("user-" + i, 1);
      total++;
      if (i % 4 == 0) {
        t.add("hot", 3); // 150,000 messages in all
        total += 3;
      }
    }
    assertThat(t.isExact()).isFalse();
    assertThat((double) t.distinct()).isCloseTo(200_001, Percentage.withPercentage(3));
    Map.Entry<String, Long> top = t.top(1).get(0);
    assertThat(top.getKey()).isEqualTo("hot");
    assertThat(top.getValue()).isLessThanOrEqualTo(150_000L)
        .isGreaterThanOrEqualTo(150_000L - total / 101);
    // lower bound of Σw², dominated by the hot key
    assertThat(t.sumOfSquares()).isGreaterThan((double) top.getValue() * top.getValue());
  }

  @Test
  void smallCardinalitiesAfterTheSwitchUseLinearCounting() {
    KeyTally t = new KeyTally(1, 10);
    for (int i = 0; i < 500; i++) {
      t.add("k" + i, 1);
    }
    assertThat((double) t.distinct()).isCloseTo(500, Percentage.withPercentage(3));
  }

  @Test
  void rejectsBadArguments() {
    assertThatThrownBy(() -> new KeyTally(0, 1)).hasMessageContaining("exactLimit was 0");
    assertThatThrownBy(() -> new KeyTally(1, 1).add("a", 0)).hasMessageContaining("count was 0");
  }
}
