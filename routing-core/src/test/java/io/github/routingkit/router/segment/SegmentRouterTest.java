package io.github.routingkit.router.segment;


import io.github.routingkit.KeyRouter;
import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.Routers;
import io.github.routingkit.RoutingConfigException;
import io.github.routingkit.property.Gen;
import io.github.routingkit.property.Property;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SegmentRouterTest {

  static final KeyRouter MURMUR = Routers.kafkaDefault();

  @Test
  void explicitRangesKeepTenantsInTheirRange() {
    SegmentRouter r = SegmentRouter.builder(MURMUR).range("order", 0, 5).range("payment", 6, 8).build();
    for (int i = 0; i < 2000; i++) {
      assertThat(r.partition(("order:" + i).getBytes(UTF_8), 12)).isBetween(0, 5);
      assertThat(r.partition(("payment:" + i).getBytes(UTF_8), 12)).isBetween(6, 8);
      // unknown tenants and keys without a tenant use the shared range: all partitions here
      assertThat(r.partition(("other:" + i).getBytes(UTF_8), 12)).isBetween(0, 11);
    }
    // within the range, the inner router decides: the same as murmur over the range's size
    byte[] k = "order:42".getBytes(UTF_8);
    assertThat(r.partition(k, 12)).isEqualTo(MURMUR.partition(k, 6));
    assertThat(r.partition("order:42", 12)).isEqualTo(r.partition(k, 12));
  }

  @Test
  void weightsUseEveryPartitionWithinOneOfTheShare() {
    SegmentRouter r = SegmentRouter.builder(MURMUR).weight("a", 3).weight("b", 2).weight("c", 1).sharedWeight(1)
        .exclusive("a").build();
    for (int n = 4; n <= 64; n++) {
      Map<String, List<Integer>> layout = r.layout(n);
      Set<Integer> seen = new HashSet<>();
      double[] w = {3, 2, 1};
      String[] names = {"a", "b", "c"};
      for (int i = 0; i < 3; i++) {
        List<Integer> ps = layout.get(names[i]);
        assertThat(Math.abs(ps.size() - n * w[i] / 7)).as("n=" + n + " " + names[i]).isLessThan(1);
        seen.addAll(ps);
      }
      seen.addAll(layout.get("*"));
      assertThat(seen).as("no partition unused at n=" + n).hasSize(n);
      assertThat(layout.get("*")).doesNotContainAnyElementsOf(layout.get("a"));
    }
  }

  /** Code callers get the rule and the segment, not a property name they never wrote. */
  @Test
  void builderErrorsNameTheSegment() {
    assertThatThrownBy(() -> SegmentRouter.builder(MURMUR).range("order", 0, 5).range("payment", 5, 8).build())
        .isInstanceOf(IllegalArgumentException.class).isNotInstanceOf(RoutingConfigException.class)
        .hasMessageNotContaining("routing.segment").hasMessageContaining("payment")
        .hasMessageContaining("overlaps segment 'order'");
    assertThatThrownBy(() -> SegmentRouter.builder(MURMUR).weight("a", 1).weight("b", 2).exclusive("a", "b").build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("shared range");
    assertThatThrownBy(() -> SegmentRouter.builder(MURMUR).weight("a", 1).weight("b", Double.NaN))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("segment 'b' weight NaN");
    assertThatThrownBy(() -> SegmentRouter.builder(MURMUR).range("a", 0, 1).exclusive("zz").build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageNotContaining("routing.segment")
        .hasMessageContaining("'zz'");
    assertThatThrownBy(() -> SegmentRouter.builder(MURMUR).range("a", 3, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("segment 'a'");
    assertThatThrownBy(() -> SegmentRouter.builder(MURMUR).range("a", 0, 1).regex("no-group").build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageNotContaining("routing.segment")
        .hasMessageContaining("capturing group 1");
    assertThatThrownBy(() -> SegmentRouter.builder(MURMUR).range("a", 0, 1).weight("b", 1).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not both");
  }

  /** The same mistakes in the property notation name the property, the value and the segment. */
  @Test
  void specErrorsNameThePropertyAndTheSegment() {
    assertThatThrownBy(() -> RoutingSpec.parse("routing.segment.ranges=order:0-5,payment:5-8"))
        .isInstanceOf(RoutingConfigException.class)
        .hasMessageContaining("routing.segment.ranges").hasMessageContaining("payment")
        .hasMessageContaining("overlaps segment 'order'");
    assertThatThrownBy(() -> RoutingSpec.parse(
            "routing.segment.weights=a:1,b:2, routing.segment.exclusive=a,b"))
        .isInstanceOf(RoutingConfigException.class).hasMessageContaining("shared range");
    assertThatThrownBy(() -> RoutingSpec.parse("routing.segment.weights=a:1,b:x"))
        .hasMessageContaining("segment 'b' weight 'x'");
    assertThatThrownBy(() -> RoutingSpec.parse(
            "routing.segment.ranges=a:0-1, routing.segment.exclusive=zz"))
        .hasMessageContaining("routing.segment.exclusive").hasMessageContaining("'zz'");
    assertThatThrownBy(() -> RoutingSpec.parse("routing.segment.ranges=a:3-1"))
        .hasMessageContaining("segment 'a'");
    assertThatThrownBy(() -> RoutingSpec.parse(
            "routing.segment.ranges=a:0-1, routing.segment.regex=no-group"))
        .hasMessageContaining("routing.segment.regex");
  }

  /** Layouts that do not fit a partition count fail at routing time, for every key. */
  @Test
  void countsALayoutDoesNotFitFailWhenRouted() {
    SegmentRouter r = SegmentRouter.builder(MURMUR).range("order", 0, 5).range("payment", 6, 8)
        .exclusive("order", "payment").build();
    assertThat(r.partition("x:1".getBytes(UTF_8), 12)).isBetween(9, 11);
    // the partition count is only known when routing: a clear exception, never a bad partition
    assertThatThrownBy(() -> r.partition("order:1".getBytes(UTF_8), 8))
        .isInstanceOf(RoutingConfigException.class)
        .hasMessageContaining("segment 'payment' range 6-8 exceeds the topic's 8 partitions");
    assertThatThrownBy(() -> r.partition("x:1".getBytes(UTF_8), 9))
        .isInstanceOf(RoutingConfigException.class)
        .hasMessageContaining("shared range for unknown tenants is empty");
    SegmentRouter w = SegmentRouter.builder(MURMUR).weight("a", 1).weight("b", 1).weight("c", 1).build();
    assertThatThrownBy(() -> w.partition("a:1".getBytes(UTF_8), 2))
        .hasMessageContaining("segment 'c' gets 0 of the topic's 2 partitions");
  }

  @Test
  void regexExtractsTheTenant() {
    SegmentRouter r = SegmentRouter.builder(MURMUR).regex("^@([^/]+)/").range("types", 0, 3)
        .exclusive("types").build();
    assertThat(r.segmentOf("@types/node".getBytes(UTF_8))).isEqualTo("types");
    assertThat(r.segmentOf("react".getBytes(UTF_8))).isNull();
    assertThat(r.partition("@types/node", 10)).isBetween(0, 3);
    assertThat(r.partition("react", 10)).isBetween(4, 9);
  }

  @Test
  void keylessMessagesStayOutOfExclusiveSegments() {
    SegmentRouter r = SegmentRouter.builder(MURMUR).range("vip", 0, 1).exclusive("vip").build();
    for (int i = 0; i < 100; i++) {
      assertThat(r.partition((byte[]) null, 6)).isBetween(2, 5);
    }
  }

  @Test
  void survivesSerialization() throws Exception {
    SegmentRouter r = SegmentRouter.builder(MURMUR).separator("/").weight("a", 2).weight("b", 1).sharedWeight(1)
        .exclusive("b").build();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(r);
    }
    KeyRouter copy = (KeyRouter) new ObjectInputStream(
        new ByteArrayInputStream(bytes.toByteArray())).readObject();
    for (int i = 0; i < 500; i++) {
      byte[] k = ((i % 3 == 0 ? "a/" : i % 3 == 1 ? "b/" : "c/") + i).getBytes(UTF_8);
      assertThat(copy.partition(k, 17)).isEqualTo(r.partition(k, 17));
    }
  }

  // --- isolation as a property over random specifications and keys ------------------------------

  /** A random segment specification: names s0..sk-1, ranges or weights, a random exclusive subset. */
  record Spec(boolean weighted, List<int[]> ranges, List<Integer> weights, int sharedWeight,
      List<Boolean> exclusive) {
    SegmentRouter build() {
      SegmentRouter.Builder b = SegmentRouter.builder(MURMUR);
      int k = weighted ? weights.size() : ranges.size();
      for (int i = 0; i < k; i++) {
        if (weighted) {
          b.weight("s" + i, weights.get(i));
        } else {
          b.range("s" + i, ranges.get(i)[0], ranges.get(i)[1]);
        }
        if (exclusive.get(i)) {
          b.exclusive("s" + i);
        }
      }
      if (weighted && sharedWeight > 0) {
        b.sharedWeight(sharedWeight);
      }
      return b.build();
    }
  }
  Gen<Spec> specs() {
    Gen<Integer> k = Gen.ints(1, 6);
    return k.flatMap(n -> Gen.combine(
        Gen.of(true, false),
        Gen.ints(1, 4).list(n, n),
        Gen.ints(1, 9).list(n, n),
        Gen.ints(0, 3),
        Gen.of(true, false).list(n, n), (weighted, lengths, weights, shared, exclusive) -> {
          List<int[]> ranges = new ArrayList<>();
          int next = 0;
          for (int len : lengths) {
            next += len % 2; // sometimes a gap: partitions no range names go to the shared range
            ranges.add(new int[] {next, next + len - 1});
            next += len;
          }
          return new Spec(weighted, ranges, weights, shared, exclusive);
        }));
  }

  @Test
  void exclusiveSegmentsReceiveOnlyTheirTenantsKeys() {
    Property.check(300, specs(), Gen.ints(1, 40), tenantKeys(), (spec, n, keys) -> {
      SegmentRouter router;
      Map<String, List<Integer>> layout;
      try {
        router = spec.build();
        layout = router.layout(n);
      } catch (IllegalArgumentException e) {
        // a spec the builder rejects (IllegalArgumentException) or that does not fit n
        // (RoutingConfigException) is rejected with a message, never routed
        return;
      }
      Set<Integer> exclusiveOwned = new HashSet<>();
      for (String s : router.segments()) {
        if (router.isExclusive(s)) {
          exclusiveOwned.addAll(layout.get(s));
        }
      }
      for (String key : keys) {
        byte[] bytes = key.getBytes(UTF_8);
        int p = router.partition(bytes, n);
        assertThat(p).isBetween(0, n - 1);
        String segment = router.segmentOf(bytes);
        if (segment != null) {
          assertThat(layout.get(segment)).as(key).contains(p);
        } else {
          assertThat(layout.get("*")).as(key).contains(p);
        }
        if (exclusiveOwned.contains(p)) {
          assertThat(segment).as("key %s reached exclusive partition %d", key, p).isNotNull();
          assertThat(router.isExclusive(segment)).isTrue();
          assertThat(layout.get(segment)).contains(p);
        }
      }
    });
  }
  Gen<List<String>> tenantKeys() {
    Gen<String> tenant = Gen.of("s0", "s1", "s2", "s3", "s4", "s5", "x", "", "s0s");
    Gen<String> key = Gen.combine(tenant, Gen.strings(0, 8),
        Gen.of(":", "", "::"), (t, rest, sep) -> t + sep + rest);
    return key.list(1, 60);
  }
}
