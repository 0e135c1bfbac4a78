package io.github.routingkit.property;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The property runner itself: edge cases first, tries counted, failures shrunk and replayable. */
class PropertyTest {

  @Test
  void runsEveryEdgeCaseThenTheRandomTries() {
    List<Integer> seen = new ArrayList<>();
    Property.check(100, RoutingGen.partitions(), seen::add);
    assertThat(seen).hasSize(3 + 100);
    assertThat(seen.subList(0, 3)).containsExactly(1, 2, 10_000);
    assertThat(seen).allMatch(n -> n >= 1 && n <= 10_000);
  }

  @Test
  void keyEdgeCasesMeetPartitionEdgeCases() {
    List<String> keys = new ArrayList<>();
    List<Integer> ns = new ArrayList<>();
    Property.check(10, RoutingGen.keys(), RoutingGen.partitions(), (k, n) -> {
      keys.add(k);
      ns.add(n);
    });
    assertThat(keys).containsAll(RoutingGen.EDGE_KEYS);
    assertThat(ns).contains(1, 10_000);
  }

  @Test
  void aFailureIsShrunkAndNamesItsSeed() {
    assertThatThrownBy(() -> Property.check(1000, Gen.strings(0, 64), s -> assertThat(s).doesNotContain("z")))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("seed ")
        .hasMessageContaining("-Droutingkit.seed=")
        .hasMessageContaining("arg0 = \"z\"");
  }

  @Test
  void aFailingListShrinksToTheOneElementThatMatters() {
    assertThatThrownBy(() -> Property.check(1000, Gen.ints(0, 1000).list(0, 5000),
        l -> assertThat(l).allMatch(x -> x < 900)))
        .hasMessageContaining("arg0 = [900]");
  }

  @Test
  void theSameSeedReplaysTheSameCases() {
    String old = System.getProperty(Property.SEED);
    try {
      System.setProperty(Property.SEED, "42");
      List<String> a = new ArrayList<>();
      Property.check(50, RoutingGen.keys(), a::add);
      List<String> b = new ArrayList<>();
      Property.check(50, RoutingGen.keys(), b::add);
      assertThat(a).isEqualTo(b);
      AtomicInteger huge = new AtomicInteger();
      Property.check(2000, RoutingGen.keys(), k -> {
        if (k.length() > 16 * 1024) {
          huge.incrementAndGet();
        }
      });
      assertThat(huge).hasPositiveValue();
    } finally {
      if (old == null) {
        System.clearProperty(Property.SEED);
      } else {
        System.setProperty(Property.SEED, old);
      }
    }
  }

  @Test
  void withoutASeedPropertyEveryRunChecksTheSameCases() {
    String old = System.getProperty(Property.SEED);
    try {
      System.clearProperty(Property.SEED);
      List<String> a = new ArrayList<>();
      Property.check(50, RoutingGen.keys(), a::add);
      List<String> b = new ArrayList<>();
      Property.check(50, RoutingGen.keys(), b::add);
      assertThat(a).isEqualTo(b);
      assertThat(Property.seed("A#b")).isEqualTo(Property.seed("A#b"))
          .isNotEqualTo(Property.seed("A#c"));
      System.setProperty(Property.SEED, Property.RANDOM);
      assertThat(Property.seed("A#b")).isNotEqualTo(Property.seed("A#b"));
    } finally {
      if (old == null) {
        System.clearProperty(Property.SEED);
      } else {
        System.setProperty(Property.SEED, old);
      }
    }
  }

  @Test
  void minValueKeysHashToMinValue() {
    Property.check(300, RoutingGen.minValueHash(), k -> assertThat(k.hashCode()).isEqualTo(Integer.MIN_VALUE));
  }
}
