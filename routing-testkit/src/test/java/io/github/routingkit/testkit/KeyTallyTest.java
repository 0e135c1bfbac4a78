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
  void exactTableAgreesWithAPlainMapThroughGrowthTiesAndUnicode() {
    java.util.Random r = new java.util.Random(16);
    KeyTally t = new KeyTally(1_000_000, 10);
    Map<String, Long> expected = new java.util.HashMap<>();
    String[] alphabet = {"a", "b", "é", "東", "\uD83D\uDE00", ""};
    for (int i = 0; i < 200_000; i++) {
      StringBuilder sb = new StringBuilder();
      int len = r.nextInt(6);
      for (int j = 0; j < len; j++) {
        sb.append(alphabet[r.nextInt(alphabet.length)]);
      }
      String key = r.nextInt(3) == 0 ? sb.toString() : sb + "-" + r.nextInt(50_000);
      long c = 1 + r.nextInt(3);
      t.add(key, c);
      expected.merge(key, c, Long::sum);
    }
    assertThat(t.isExact()).isTrue();
    assertThat(t.distinct()).isEqualTo(expected.size());
    assertThat(t.exactCounts()).isEqualTo(expected);
    double squares = expected.values().stream().mapToDouble(v -> (double) v * v).sum();
    assertThat(t.sumOfSquares()).isEqualTo(squares);
    java.util.List<Map.Entry<String, Long>> naive = new java.util.ArrayList<>(expected.entrySet());
    naive.sort(java.util.Comparator.comparing((Map.Entry<String, Long> e) -> e.getValue())
        .reversed().thenComparing(Map.Entry::getKey));
    for (int k : new int[] {0, 1, 10, 1000}) {
      assertThat(t.top(k)).containsExactlyElementsOf(naive.subList(0, k));
    }
    // every key of count 1 tied: the order is the keys' String order
    KeyTally ties = new KeyTally(100, 10);
    for (String k : new String[] {"b", "a", "東", "ab", "", "a\uD83D\uDE00"}) {
      ties.add(k, 1);
    }
    assertThat(ties.top(6)).extracting(Map.Entry::getKey)
        .containsExactly("", "a", "ab", "a\uD83D\uDE00", "b", "東");
  }

  @Test
  void rejectsBadArguments() {
    assertThatThrownBy(() -> new KeyTally(0, 1)).hasMessageContaining("exactLimit was 0");
    assertThatThrownBy(() -> new KeyTally(1, 1).add("a", 0)).hasMessageContaining("count was 0");
  }
}
