package io.github.routingkit.pulsar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.routingkit.config.RoutingSpec;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.Range;
import org.apache.pulsar.client.api.TopicMetadata;
import org.junit.jupiter.api.Test;

/** Odd messages, metadata, consumer sets and bundle boundaries against the Pulsar helpers. */
class HostilePulsarInputTest {
  private static final String[] SPECS = {
      "",
      "routing.scheme=pulsar-murmur3, routing.placement=jump",
      "routing.segment.ranges=order:0-2,payment:3, routing.segment.exclusive=payment",
      "routing.segment.weights=a:1,b:1,*:1, routing.hotkey.keys=a:1, routing.hotkey.choice=value-hash",
      "routing.version.generations=v1:pulsar-java-string:native:4,v2:xxh3-64:jump,"
          + " routing.version.default=v1, routing.version.source=header",
  };

  @Test
  void oddKeysRouteInRangeOrFailClearly() {
    Message<?>[] messages = {
        RoutingMessageRouterDifferentialTest.keyed(""),
        RoutingMessageRouterDifferentialTest.keyed("\ud800order:1"), // unpaired surrogate
        RoutingMessageRouterDifferentialTest.keyedBytes(new byte[] {(byte) 0xff, ':', 0}),
        RoutingMessageRouterDifferentialTest.keyedBytes(new byte[0]),
        RoutingMessageRouterDifferentialTest.keyed("payment:" + "x".repeat(1 << 20)),
        RoutingMessageRouterDifferentialTest.message(b -> { }),
        RoutingMessageRouterDifferentialTest.message(b -> b.property("routing-version", "v9")),
        RoutingMessageRouterDifferentialTest.message(b -> b.key("a:1").property("routing-version", "")),
    };
    for (String spec : SPECS) {
      RoutingMessageRouter router = new RoutingMessageRouter(RoutingSpec.parse(spec));
      for (int n : new int[] {4, 5, 16, 1000}) {
        TopicMetadata topic = () -> n;
        for (Message<?> m : messages) {
          if (spec.contains("source=header") && m.getProperty("routing-version") != null) {
            // documented: a header naming no generation (a typo, or empty) must not silently
            // route to the default generation
            assertThatThrownBy(() -> router.choosePartition(m, topic))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown routing version");
            continue;
          }
          assertThat(router.choosePartition(m, topic)).as("%s n=%d", spec, n).isBetween(0, n - 1);
        }
      }
      for (int bad : new int[] {0, -1, Integer.MIN_VALUE}) {
        assertThatThrownBy(() -> router.choosePartition(messages[0], () -> bad))
            .as(spec).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining(String.valueOf(bad));
      }
    }
  }

  @Test
  void aRouterWhoseHotKeysHoldKeyValueTextSurvivesSerialization() throws Exception {
    // guards against: the proxy re-parsed the string form, where ", user.id=2" reads as a new pair:
    // InvalidObjectException for a valid router
    RoutingSpec spec = RoutingSpec.parse(Map.of("routing.hotkey.keys", "user.id=1,user.id=2"));
    java.io.ByteArrayOutputStream bos = new java.io.ByteArrayOutputStream();
    try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(bos)) {
      out.writeObject(new RoutingMessageRouter(spec));
    }
    try (java.io.ObjectInputStream in = new java.io.ObjectInputStream(
        new java.io.ByteArrayInputStream(bos.toByteArray()))) {
      RoutingMessageRouter copy = (RoutingMessageRouter) in.readObject();
      assertThat(copy.spec()).isEqualTo(spec);
      assertThat(copy.choosePartition(RoutingMessageRouterDifferentialTest.keyed("user.id=1"),
          () -> 8)).isBetween(0, 7);
    }
  }

  @Test
  void keySharedPredictorWithNoOrDuplicateConsumers() {
    for (KeySharedPredictor p : new KeySharedPredictor[] {
        KeySharedPredictor.consistentHashing(List.of()), KeySharedPredictor.autoSplit(List.of()),
        KeySharedPredictor.sticky(Map.of())}) {
      assertThat(p.consumerOf("k")).isEqualTo(Optional.empty());
      assertThat(p.consumerOf(new byte[0])).isEqualTo(Optional.empty());
    }
    KeySharedPredictor dup = KeySharedPredictor.consistentHashing(List.of("c", "c", "c"));
    for (int i = 0; i < 200; i++) {
      assertThat(dup.consumerOf("k" + i)).contains("c");
    }
    assertThat(dup.leave("c").leave("c").leave("c").consumerOf("k")).isEmpty();
    assertThatThrownBy(() -> dup.leave("c").leave("c").leave("c").leave("c"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void absurdPointCountsAreRejectedInsteadOfHanging() {
    // guards against: Integer.MAX_VALUE points hashed 2^31 ring points per consumer (hang, then OOM)
    org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(20),
        () -> {
          assertThatThrownBy(() -> KeySharedPredictor.consistentHashing(List.of("a"),
              Integer.MAX_VALUE)).isInstanceOf(IllegalArgumentException.class)
              .hasMessageContaining("2147483647");
          assertThatThrownBy(() -> KeySharedPredictor.consistentHashingClassic(List.of("a"),
              KeySharedPredictor.MAX_POINTS + 1)).isInstanceOf(IllegalArgumentException.class);
          java.util.List<String> many = new java.util.ArrayList<>();
          for (int i = 0; i < 200; i++) {
            many.add("c" + i);
          }
          assertThatThrownBy(() -> KeySharedPredictor.consistentHashing(many,
              KeySharedPredictor.MAX_POINTS)).isInstanceOf(IllegalArgumentException.class)
              .hasMessageContaining("at most 10000000");
          KeySharedPredictor ok = KeySharedPredictor.consistentHashing(List.of("a", "b"),
              KeySharedPredictor.MAX_POINTS);
          assertThat(ok.consumerOf("k")).isPresent();
        });
  }

  @Test
  void stickyRangesOutOfBoundsOrOverlappingAreRejected() {
    for (Range r : new Range[] {Range.of(0, 65536), Range.of(70000, 70001)}) {
      assertThatThrownBy(() -> KeySharedPredictor.sticky(Map.of("c", List.of(r))))
          .isInstanceOf(IllegalArgumentException.class);
    }
    Map<String, List<Range>> overlap = new LinkedHashMap<>();
    overlap.put("a", List.of(Range.of(0, 100)));
    overlap.put("b", List.of(Range.of(100, 200)));
    assertThatThrownBy(() -> KeySharedPredictor.sticky(overlap))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> KeySharedPredictor.sticky(Map.of("c", List.of())))
        .isInstanceOf(IllegalArgumentException.class);
    // gaps are allowed: their keys go to nobody
    KeySharedPredictor gap = KeySharedPredictor.sticky(Map.of("c", List.of(Range.of(0, 0))));
    long nobody = 0;
    for (int i = 0; i < 100; i++) {
      nobody += gap.consumerOf(("k" + i).getBytes(StandardCharsets.UTF_8)).isEmpty() ? 1 : 0;
    }
    assertThat(nobody).isGreaterThan(90);
  }

  @Test
  void malformedBundleBoundariesAndTopicNamesAreRejected() {
    for (List<String> b : List.<List<String>>of(List.of("0x00000000", "0xZZ", "0xffffffff"),
        List.of("0x00000000", "0x80000000", "0x40000000", "0xffffffff"),
        List.of("0x00000000", "0x80000000"), List.of("0x10", "0xffffffff"),
        List.of("0x00000000", "0x1ffffffff"), List.of("0x00000000"), List.of(),
        List.of("0x00000000", "-0x1", "0xffffffff"), List.of("0x00000000", "", "0xffffffff"))) {
      assertThatThrownBy(() -> BundleLocator.ofBoundaries(b)).as("%s", b)
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bundle boundar");
    }
    BundleLocator l = BundleLocator.equalBundles(4);
    for (String t : new String[] {"", " ", "a/b", "a/b/c/d", "http://a/b/c", "persistent://a/b",
        "persistent://a/b/", "persistent://a/b/c/d"}) {
      assertThatThrownBy(() -> l.bundleOf(t)).as(t).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("topic value was");
    }
    assertThat(l.bundleOf("t").index()).isBetween(0, 3);
    assertThat(l.bundleOfHash(0xffffffffL).index()).isEqualTo(3);
    assertThatThrownBy(() -> l.bundleOfHash(-1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> l.bundleOf("t", -1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> BundleLocator.equalBundles(0)).isInstanceOf(IllegalArgumentException.class);
  }
}
