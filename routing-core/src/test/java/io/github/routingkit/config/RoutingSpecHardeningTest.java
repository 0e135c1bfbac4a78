package io.github.routingkit.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.RoutingConfigException;
import io.github.routingkit.Routers;
import io.github.routingkit.testing.TestSerialization;
import io.github.routingkit.router.hotkey.HotKeyRouter;
import io.github.routingkit.router.version.VersionedRouter;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Configuration and memory limits that hostile or careless specs hit, each pinned. */
class RoutingSpecHardeningTest {

  private static RoutingConfigException parseFails(Map<String, ?> config) {
    try {
      RoutingSpec spec = RoutingSpec.parse(config);
      throw new AssertionError("accepted " + config + " as " + spec);
    } catch (RoutingConfigException e) {
      return e;
    }
  }

  /** Item 1: empty segment entries fail at configure time, never at send time. */
  @Nested
  class EmptySegmentEntries {
    @Test
    void emptyWeightsOrRangesAreRejectedWithTheProperty() {
      for (Object bad : new Object[] {",", " , ", List.of("", ""), "a:1,", ",a:1", "a:1,,b:2"}) {
        assertThat(parseFails(Map.of(RoutingSpec.SEGMENT_WEIGHTS, bad)).property())
            .as("%s", bad).isEqualTo(RoutingSpec.SEGMENT_WEIGHTS);
        assertThat(parseFails(Map.of(RoutingSpec.SEGMENT_RANGES, bad)).property())
            .as("%s", bad).isEqualTo(RoutingSpec.SEGMENT_RANGES);
      }
      assertThat(parseFails(Map.of(RoutingSpec.SEGMENT_WEIGHTS, ",")).getMessage())
          .contains("none of them empty");
      assertThatThrownBy(() -> RoutingSpec.defaults().with(RoutingSpec.SEGMENT_RANGES, ","))
          .isInstanceOf(RoutingConfigException.class);
    }
  }

  /** Item 2: validation allocates no detector; the memory a spec may claim is bounded in total. */
  @Nested
  class BoundedMemory {
    private long allocated(Runnable r) {
      com.sun.management.ThreadMXBean bean =
          (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
      long before = bean.getCurrentThreadAllocatedBytes();
      r.run();
      return bean.getCurrentThreadAllocatedBytes() - before;
    }

    @Test
    void parsingAndBuildingAllocateNoDetector() {
      Map<String, String> config = Map.of(RoutingSpec.HOTKEY_DETECT, "true",
          RoutingSpec.HOTKEY_MEMORY, String.valueOf(HotKeyRouter.MAX_MEMORY));
      RoutingSpec.parse(config); // warm up the classes
      assertThat(allocated(() -> RoutingSpec.parse(config))).isLessThan(1 << 20);
      KeyRouter[] router = new KeyRouter[1];
      assertThat(allocated(() -> router[0] = RoutingSpec.parse(config).keyRouter()))
          .isLessThan(1 << 20);
      assertThat(router[0].claimedMemoryBytes()).isPositive()
          .isLessThanOrEqualTo(HotKeyRouter.MAX_MEMORY);
    }

    @Test
    void generationsTimesDetectorMemoryIsCappedAtParseTime() {
      StringBuilder gens = new StringBuilder();
      for (int i = 0; i < 30; i++) {
        gens.append(i == 0 ? "" : ",").append('v').append(i).append(":kafka-murmur2");
      }
      Map<String, String> config = Map.of(RoutingSpec.VERSION_GENERATIONS, gens.toString(),
          RoutingSpec.VERSION_DEFAULT, "v0", RoutingSpec.HOTKEY_DETECT, "true",
          RoutingSpec.HOTKEY_MEMORY, "67108864");
      RoutingConfigException e = parseFails(config);
      assertThat(e.property()).isEqualTo(RoutingSpec.HOTKEY_MEMORY);
      assertThat(e.getMessage()).contains("30 generations").contains("at most 67108864");
      // two generations of 32 MiB fit exactly
      RoutingSpec fits = RoutingSpec.parse(Map.of(RoutingSpec.VERSION_GENERATIONS,
          "a:kafka-murmur2,b:xxh3-64", RoutingSpec.VERSION_DEFAULT, "a",
          RoutingSpec.HOTKEY_DETECT, "true", RoutingSpec.HOTKEY_MEMORY, "33554432"));
      assertThat(fits.claimedMemoryBytes()).isLessThanOrEqualTo(HotKeyRouter.MAX_MEMORY);
      assertThat(fits.keyRouter().claimedMemoryBytes()).isEqualTo(fits.claimedMemoryBytes());
    }

    @Test
    void aComposedRouterInCodeIsCappedToo() {
      VersionedRouter.Builder b = VersionedRouter.builder().defaultVersion("v0");
      for (int i = 0; i < 3; i++) {
        b.generation("v" + i, HotKeyRouter.builder(Routers.kafkaDefault()).detect(true)
            .memoryBytes(HotKeyRouter.MAX_MEMORY).build(), 0);
      }
      // a code caller is told the rule in code terms, not a routing.* property it never wrote
      assertThatThrownBy(b::build).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("hot-key detectors")
          .hasMessageContaining("must be at most " + HotKeyRouter.MAX_MEMORY + " bytes");
    }

    @Test
    void deserializingARouterAllocatesNoDetector() throws Exception {
      KeyRouter router = RoutingSpec.parse(Map.of(RoutingSpec.HOTKEY_DETECT, "true",
          RoutingSpec.HOTKEY_MEMORY, String.valueOf(HotKeyRouter.MAX_MEMORY))).keyRouter();
      byte[] stream = TestSerialization.serialize(router);
      TestSerialization.deserialize(stream);
      long bytes = allocated(() -> {
        try {
          TestSerialization.deserialize(stream);
        } catch (Exception e) {
          throw new AssertionError(e);
        }
      });
      assertThat(bytes).isLessThan(4 << 20);
    }
  }

  /** Item 3: every spec equals the parse of its string form and its map, and survives serialization. */
  @Nested
  class RoundTrip {
    private final String[] keys = {RoutingSpec.SEGMENT_WEIGHTS, RoutingSpec.SEGMENT_RANGES,
        RoutingSpec.SEGMENT_EXCLUSIVE, RoutingSpec.SEGMENT_SEPARATOR, RoutingSpec.SEGMENT_REGEX,
        RoutingSpec.HOTKEY_KEYS, RoutingSpec.HOTKEY_DETECT, RoutingSpec.HOTKEY_THRESHOLD,
        RoutingSpec.HOTKEY_CANDIDATES, RoutingSpec.HOTKEY_CHOICE, RoutingSpec.VERSION_GENERATIONS,
        RoutingSpec.VERSION_DEFAULT, RoutingSpec.VERSION_SEPARATOR, RoutingSpec.SCHEME,
        RoutingSpec.PLACEMENT, RoutingSpec.KEYLESS};
    private final String[] atoms = {"a", "b", " a ", "k", "v1", "v2", "a:1", "b:2", "*:1",
        "a:0-3", "b:4-5", "", " ", "true", "false", "0.25", "all", "3", "value-hash",
        "v1:kafka-murmur2", "v2:xxh3-64:jump:8", "|", ":", "-", "(\\w+):", "a.b=c", "x=1", "routing.x=1", "\"q\\",
        "kafka-murmur2", "jump", "sticky", "\u00a0", "é"};

    private Object value(Random r) {
      int n = 1 + r.nextInt(3);
      List<String> items = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        items.add(atoms[r.nextInt(atoms.length)]);
      }
      return r.nextInt(4) == 0 ? items : String.join(r.nextBoolean() ? "," : ", ", items)
          + (r.nextInt(8) == 0 ? "," : "");
    }

    @Test
    void everyAcceptedSpecRoundTrips() throws Exception {
      long seed = 0x5EED15L;
      Random r = new Random(seed);
      int accepted = 0;
      for (int run = 0; run < 20_000; run++) {
        Map<String, Object> config = new LinkedHashMap<>();
        for (int i = 0, n = 1 + r.nextInt(4); i < n; i++) {
          config.put(keys[r.nextInt(keys.length)], value(r));
        }
        RoutingSpec spec;
        try {
          spec = RoutingSpec.parse(config);
        } catch (RoutingConfigException e) {
          continue;
        }
        accepted++;
        try {
          assertThat(RoutingSpec.parse(spec.toString())).isEqualTo(spec);
          assertThat(RoutingSpec.parse(spec.toMap())).isEqualTo(spec);
          assertThat(TestSerialization.roundTrip(spec)).isEqualTo(spec);
        } catch (Exception | AssertionError e) {
          fail("seed " + seed + ", run " + run + ": " + config + " -> " + spec + ": " + e, e);
        }
      }
      assertThat(accepted).as("specs accepted of 20,000").isGreaterThan(200);
    }

    @Test
    void theTrialsCounterexamples() throws Exception {
      assertThat(parseFails(Map.of(RoutingSpec.HOTKEY_KEYS, "k,")).property())
          .isEqualTo(RoutingSpec.HOTKEY_KEYS);
      RoutingSpec listSeparator = RoutingSpec.parse(Map.of(RoutingSpec.SEGMENT_WEIGHTS, "a:1",
          RoutingSpec.SEGMENT_SEPARATOR, List.of(" : ")));
      assertThat(listSeparator.toMap()).containsEntry(RoutingSpec.SEGMENT_SEPARATOR, ":");
      assertThat(TestSerialization.roundTrip(listSeparator)).isEqualTo(listSeparator);
      assertThat(RoutingSpec.parse(listSeparator.toString())).isEqualTo(listSeparator);
      // a value the comma rule would cut is written in double quotes and read back whole
      RoutingSpec pairs = RoutingSpec.parse(Map.of(RoutingSpec.HOTKEY_KEYS, "a, routing.c=d"));
      assertThat(pairs.toString()).isEqualTo("routing.hotkey.keys=\"a,routing.c=d\", "
          + "routing.keyless=round-robin, routing.scheme=kafka-murmur2");
      assertThat(RoutingSpec.parse(pairs.toString())).isEqualTo(pairs);
      RoutingSpec regex = RoutingSpec.parse(Map.of(RoutingSpec.SEGMENT_WEIGHTS, "a:1",
          RoutingSpec.SEGMENT_REGEX, "\"(\\w+)\\\",,"));
      assertThat(RoutingSpec.parse(regex.toString())).isEqualTo(regex);
      RoutingSpec dotted = RoutingSpec.parse(Map.of(RoutingSpec.HOTKEY_KEYS, "user.id=1,user.id=2"));
      assertThat(RoutingSpec.parse(dotted.toString())).isEqualTo(dotted);
    }
  }

  /** Item 4: every problem of a spec at once; a disabled layer's option keeps its range error. */
  @Nested
  class EveryProblemAtOnce {
    @Test
    void aDisabledOptionReportsItsRangeErrorToo() {
      RoutingConfigException e = parseFails(Map.of(RoutingSpec.HOTKEY_THRESHOLD, "5"));
      assertThat(e.problems()).hasSize(2);
      assertThat(e.getMessage()).contains("must be a decimal share in (0, 1]")
          .contains("has no effect unless routing.hotkey.detect=true");
    }

    @Test
    void problemsOfSeveralPropertiesAreReportedTogether() {
      RoutingConfigException e = parseFails(Map.of(RoutingSpec.SCHEME, "murmur",
          RoutingSpec.SEGMENT_WEIGHTS, "a:x", RoutingSpec.HOTKEY_CANDIDATES, "1",
          RoutingSpec.HOTKEY_KEYS, "k", "routing.hotky.detect", "true"));
      assertThat(e.problems()).extracting(RoutingConfigException::property)
          .contains(RoutingSpec.SCHEME, RoutingSpec.SEGMENT_WEIGHTS, RoutingSpec.HOTKEY_CANDIDATES,
              "routing.hotky.detect");
      assertThat(e.rule()).contains("more problems");
      assertThat(e.getMessage()).contains("did you mean routing.hotkey.detect?");
    }

    @Test
    void aSingleProblemReadsAsBefore() {
      RoutingConfigException e = parseFails(Map.of(RoutingSpec.SCHEME, "murmur"));
      assertThat(e.problems()).containsExactly(e);
      assertThat(e.getMessage()).startsWith("routing.scheme value was 'murmur', must be one of [");
    }
  }
}
