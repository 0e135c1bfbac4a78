package io.github.routingkit.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;

/** The compact target map and the range-backed partition sets behave as the plain collections. */
class TopicPartitionMapTest {
  private static final Uuid A = new Uuid(1, 1);
  private static final Uuid B = new Uuid(2, 2);
  private static final Uuid C = new Uuid(3, 3);

  @Test
  void aRangeOfAnArrayIsTheSetOfThoseValuesOnly() {
    int[] values = {4, 9, 0, 3, 7, 1999, 5};
    SortedIntSet s = new SortedIntSet(values, 2, 6);
    Set<Integer> expected = new HashSet<>(Set.of(0, 3, 7, 1999));
    assertThat(s).isEqualTo(expected).hasSize(4).containsExactly(0, 3, 7, 1999);
    assertThat(expected).isEqualTo(s);
    assertThat(s.hashCode()).isEqualTo(expected.hashCode());
    assertThat(s.contains(4)).isFalse(); // in the array, outside the range
    assertThat(s.contains(5)).isFalse();
    assertThat(s.contains(7)).isTrue();
    assertThat(new SortedIntSet(values, 3, 3)).isEmpty();
    assertThatThrownBy(() -> new SortedIntSet(values, 5, 8)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> new SortedIntSet(values, 3, 2)).isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void behavesAsTheHashMapOfItsEntries() {
    Map<Uuid, Integer> positions = new HashMap<>(Map.of(A, 0, B, 1, C, 2));
    TopicPartitionMap.Topics topics = new TopicPartitionMap.Topics(new Uuid[] {A, B, C}, positions);
    int[] ps = {0, 2, 5, 1};
    @SuppressWarnings("unchecked")
    Set<Integer>[] sets = new Set[] {new SortedIntSet(ps, 0, 3), Set.of(8)};
    TopicPartitionMap map = new TopicPartitionMap(topics, new int[] {0, 2}, sets);
    Map<Uuid, Set<Integer>> expected = new HashMap<>(Map.of(A, Set.of(0, 2, 5), C, Set.of(8)));
    assertThat(map).isEqualTo(expected).hasSize(2).isNotEmpty();
    assertThat(expected).isEqualTo(map);
    assertThat(map.hashCode()).isEqualTo(expected.hashCode());
    assertThat(map.get(A)).isEqualTo(Set.of(0, 2, 5));
    assertThat(map.get(B)).isNull(); // a topic of the table the member has nothing of
    assertThat(map.get(new Uuid(9, 9))).isNull(); // not in the table
    assertThat(map.get("not a uuid")).isNull();
    assertThat(map.containsKey(C)).isTrue();
    assertThat(map.containsKey(B)).isFalse();
    List<Uuid> order = new ArrayList<>();
    map.forEach((t, s) -> order.add(t));
    assertThat(order).containsExactly(A, C);
    assertThat(map.keySet()).containsExactly(A, C);
    assertThat(map.entrySet()).hasSize(2);
    TopicPartitionMap none = new TopicPartitionMap(topics, new int[0], new Set[0]);
    assertThat(none).isEqualTo(Map.of());
    assertThat(none.isEmpty()).isTrue();
    assertThatThrownBy(() -> map.put(B, Set.of(1))).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> map.keySet().remove(A)).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> new TopicPartitionMap(topics, new int[] {0}, new Set[0]))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
