package io.github.routingkit.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SortedIntSetTest {
  @Test
  void behavesAsTheSetOfItsValues() {
    SortedIntSet s = new SortedIntSet(new int[] {0, 3, 7, 1999});
    Set<Integer> expected = new HashSet<>(Set.of(0, 3, 7, 1999));
    assertThat(s).isEqualTo(expected);
    assertThat(expected).isEqualTo(s);
    assertThat(s.hashCode()).isEqualTo(expected.hashCode());
    assertThat(s).containsExactly(0, 3, 7, 1999);
    assertThat(s.contains(7)).isTrue();
    assertThat(s.contains(8)).isFalse();
    assertThat(s.contains("7")).isFalse();
    assertThat(new SortedIntSet(new int[0])).isEqualTo(Set.of());
  }
}
