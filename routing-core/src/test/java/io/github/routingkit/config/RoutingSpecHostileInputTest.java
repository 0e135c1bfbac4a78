package io.github.routingkit.config;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.RoutingConfigException;
import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.router.segment.SegmentRouter;

import io.github.routingkit.testing.TestSerialization;
import static io.github.routingkit.testing.TestSerialization.deserialize;
import static io.github.routingkit.testing.TestSerialization.serialize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InvalidObjectException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Hostile and careless configurations and inputs: each must fail at parse time with a
 * {@link RoutingConfigException} naming the property, the value and the rule, or at routing time
 * with a clear exception; never an out-of-range partition, a hang or an out-of-memory error.
 * Every case here failed (wrongly accepted, wrong exception, hang or OOM) before its fix.
 */
class RoutingSpecHostileInputTest {

  private static void rejected(String spec, String property, String ruleFragment) {
    assertThatThrownBy(() -> RoutingSpec.parse(spec))
        .isInstanceOf(RoutingConfigException.class)
        .satisfies(e -> {
          RoutingConfigException r = (RoutingConfigException) e;
          assertThat(r.property()).isEqualTo(property);
          assertThat(r.getMessage()).contains(ruleFragment);
        });
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      // non-ASCII digits (Arabic-Indic 3-5) and signs were read as numbers by Integer.parseInt
      "routing.segment.ranges=a:\u0663-\u0665|routing.segment.ranges|must be from-to",
      "routing.segment.ranges=a:+1-+5|routing.segment.ranges|must be from-to",
      "routing.hotkey.detect=true, routing.hotkey.memory=\u0668\u0660\u0660\u0660|routing.hotkey.memory|positive number of bytes",
      "routing.hotkey.keys=x, routing.hotkey.candidates=+4|routing.hotkey.candidates|at least 2",
      "routing.hotkey.detect=true, routing.hotkey.window=+200000|routing.hotkey.window|positive number",
      "routing.version.generations=v1:kafka-murmur2:native:\u0661\u0662, routing.version.default=v1|routing.version.generations|partition count",
      // Java-literal forms Double.parseDouble took as weights and thresholds
      "routing.segment.weights=a:0x1p3|routing.segment.weights|must be a positive number",
      "routing.segment.weights=a:1d|routing.segment.weights|must be a positive number",
      "routing.hotkey.detect=true, routing.hotkey.threshold=0x1p-2|routing.hotkey.threshold|(0, 1]",
      // weights whose sum overflows: every segment but the first silently got 0 partitions
      "routing.segment.weights=a:1e308,b:1e308|routing.segment.weights|finite",
      // duplicates that were silently merged (last '*' won)
      "routing.segment.weights=a:1,*:1,*:2|routing.segment.weights|'*' is listed twice",
      "routing.segment.weights=a:1,b:1, routing.segment.exclusive=a,a|routing.segment.exclusive|listed twice",
      "routing.hotkey.keys=k,k|routing.hotkey.keys|listed twice",
      // a segment name containing the separator can never match a tenant: keys went to the shared range
      "routing.segment.ranges=a:b:0-5|routing.segment.ranges|contains the separator",
      "routing.segment.ranges=x/y:0-1, routing.segment.separator=/|routing.segment.ranges|contains the separator",
      // a tiny threshold overflowed the long warm-up check: NegativeArraySizeException
      "routing.hotkey.detect=true, routing.hotkey.threshold=1e-300|routing.hotkey.window|200 / threshold",
      "routing.hotkey.detect=true, routing.hotkey.threshold=4.9e-324|routing.hotkey.window|200 / threshold",
      // a 2 GiB detector was accepted and ran out of memory on the first message
      "routing.hotkey.detect=true, routing.hotkey.memory=2147483647|routing.hotkey.memory|at most",
      // sampling: a power of two in [1, 1024], only with detection, and the window must cover it
      "routing.hotkey.detect=true, routing.hotkey.sample=3|routing.hotkey.sample|power of two from 1 to 1024",
      "routing.hotkey.detect=true, routing.hotkey.sample=0|routing.hotkey.sample|power of two from 1 to 1024",
      "routing.hotkey.detect=true, routing.hotkey.sample=2048|routing.hotkey.sample|power of two from 1 to 1024",
      "routing.hotkey.detect=true, routing.hotkey.sample=+8|routing.hotkey.sample|power of two from 1 to 1024",
      "routing.hotkey.sample=8|routing.hotkey.sample|routing.hotkey.detect=true",
      // the version's key-prefix separator and its header name are alternatives: each is inert with the other
      "routing.version.generations=v1:kafka-murmur2, routing.version.default=v1, routing.version.source=header, routing.version.separator=#|routing.version.separator|has no effect unless routing.version.source=key-prefix",
      "routing.version.generations=v1:kafka-murmur2, routing.version.default=v1, routing.version.header=x-v|routing.version.header|has no effect unless routing.version.source=header",
      "routing.hotkey.detect=true, routing.hotkey.sample=1024, routing.hotkey.window=100000|routing.hotkey.window|200 * sample / threshold = 20480000",
  })
  void badValuesFailAtParseTime(String spec, String property, String rule) {
    rejected(spec, property, rule);
  }

  @Test
  void invisibleCharactersAreShownEscapedAndHugeValuesCut() {
    // guards against: "routing.scheme value was 'kafka-murmur2 ', must be one of [kafka-murmur2, ...]":
    // the no-break space (not removed by trim) was invisible, the value looked valid
    assertThatThrownBy(() -> RoutingSpec.parse(Map.of(RoutingSpec.SCHEME, "kafka-murmur2\u00a0")))
        .hasMessageStartingWith("routing.scheme value was 'kafka-murmur2\\u00a0'");
    assertThatThrownBy(() -> RoutingSpec.parse(Map.of("routing.scheme\u200b", "xxh3-64")))
        .hasMessageStartingWith("routing.scheme\\u200b value was 'xxh3-64'");
    assertThatThrownBy(() -> RoutingSpec.parse(Map.of(RoutingSpec.KEYLESS, "random\ud800")))
        .hasMessageContaining("'random\\ud800'");
    // guards against: a 1 MiB bad value made a 1 MiB exception message
    String huge = "x".repeat(1 << 20);
    assertThatThrownBy(() -> RoutingSpec.parse(Map.of(RoutingSpec.SCHEME, huge)))
        .isInstanceOf(RoutingConfigException.class)
        .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(2000)
            .contains("(1048576 chars)"))
        .satisfies(e -> assertThat(((RoutingConfigException) e).value()).isEqualTo(huge));
    // emoji (surrogate pairs) and plain non-ASCII text are shown as they are
    assertThatThrownBy(() -> RoutingSpec.parse(Map.of(RoutingSpec.SCHEME, "h\u00e9\ud83d\ude00")))
        .hasMessageStartingWith("routing.scheme value was 'h\u00e9\ud83d\ude00'");
  }

  @Test
  void hugeButFiniteWeightsLayOutWithinTheTopic() {
    // found by RoutingSpecFuzzProperties (then HostileFuzzProperties): n * 1e308 overflowed to Infinity, the segment's count became
    // Integer.MAX_VALUE and the layout ran out of memory ("Requested array size exceeds VM limit")
    for (String weights : new String[] {"order:1e308", "*:3,order:1e308", "a:1e-300,b:1e300,*:1e300"}) {
      KeyRouter r = RoutingSpec.parse("routing.segment.weights=" + weights).keyRouter();
      for (int n : new int[] {1, 7, 1790, 9954}) {
        try {
          assertThat(r.partition("order:1", n)).as("%s n=%d", weights, n).isBetween(0, n - 1);
          assertThat(r.keylessPartition(n)).isBetween(0, n - 1);
        } catch (RoutingConfigException e) {
          assertThat(e.getMessage()).as(weights).contains("gets 0 of the topic's").doesNotContain("Infinity");
        }
      }
    }
    SegmentRouter s = (SegmentRouter) RoutingSpec.parse("routing.segment.weights=a:1e308,*:1e307")
        .keyRouter();
    assertThat(s.layout(10).get("a")).hasSize(9); // 10 x 10/11 = 9.09
  }

  @Test
  void separatorInNameIsFineWithRegexTenants() {
    KeyRouter r = RoutingSpec.parse("routing.segment.ranges=a:b:0-1,c:2-3,"
        + " routing.segment.regex=^([a-z]:[a-z])/").keyRouter();
    for (int i = 0; i < 50; i++) {
      assertThat(r.partition("a:b/" + i, 8)).isBetween(0, 1);
    }
  }

  @Test
  void nullMapKeyIsIgnoredLikeAnyNonRoutingKey() {
    Map<String, Object> config = new HashMap<>();
    config.put(null, "x");
    config.put(RoutingSpec.SCHEME, "xxh3-64");
    assertThat(RoutingSpec.parse(config).scheme()).isEqualTo(HashScheme.XXH3_64);
  }

  @Test
  void catastrophicRegexFailsTheMessageInsteadOfHanging() {
    KeyRouter r = RoutingSpec.parse(
        "routing.segment.ranges=a:0-1, routing.segment.regex=^(.*a){12}:(b)").keyRouter();
    String key = "a".repeat(40) + "!"; // backtracking ~ C(40,12) steps: hours without a budget
    org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(20), () ->
        assertThatThrownBy(() -> r.partition(key, 8))
            .isInstanceOf(RoutingConfigException.class)
            .hasMessageContaining(RoutingSpec.SEGMENT_REGEX)
            .hasMessageContaining("catastrophic backtracking")
            .hasMessageContaining("; use a regex without nested or ambiguous repetition"));
    // linear regexes on a 1 MiB key stay within the budget
    KeyRouter ok = RoutingSpec.parse(
        "routing.segment.ranges=a:0-1, routing.segment.regex=^([^:]*):").keyRouter();
    assertThat(ok.partition("a".repeat(1 << 20) + ":x", 8)).isBetween(2, 7);
    assertThat(ok.partition("a:" + "x".repeat(1 << 20), 8)).isBetween(0, 1);
  }

  @Test
  void hugePartitionCountsGetAClearExceptionNotOutOfMemory() {
    for (String spec : new String[] {"routing.segment.ranges=a:0-3",
        "routing.segment.weights=a:1,b:2", "routing.hotkey.keys=x",
        "routing.hotkey.keys=x, routing.hotkey.candidates=all"}) {
      KeyRouter r = RoutingSpec.parse(spec).keyRouter();
      assertThatThrownBy(() -> r.partition("x".getBytes(StandardCharsets.UTF_8), Integer.MAX_VALUE))
          .as(spec).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("at most 1048576 partitions");
      assertThat(r.partition("x", (1 << 20)))
          .as(spec).isBetween(0, (1 << 20) - 1);
    }
    // the plain hash router needs no table: any count works
    assertThat(RoutingSpec.defaults().keyRouter().partition("x", Integer.MAX_VALUE)).isNotNegative();
  }

  @Test
  void tamperedSerializedSpecsAreRejected() throws Exception {
    RoutingSpec spec = RoutingSpec.parse("routing.segment.ranges=a:0-5,b:6-8");
    byte[] bytes = serialize(spec);
    // same length, now overlapping: 'b:6-8' -> 'b:5-8'
    byte[] tampered = replace(bytes, "b:6-8", "b:5-8");
    assertThatThrownBy(() -> deserialize(tampered)).isInstanceOf(InvalidObjectException.class)
        .hasMessageContaining("overlaps");
    // only the first copy (the string form) changed, now valid but different: still rejected
    byte[] oneCopy = bytes.clone();
    byte[] from = "a:0-5".getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i + from.length <= oneCopy.length; i++) {
      if (java.util.Arrays.equals(oneCopy, i, i + from.length, from, 0, from.length)) {
        oneCopy[i + 4] = '4';
        break;
      }
    }
    assertThatThrownBy(() -> deserialize(oneCopy)).isInstanceOf(InvalidObjectException.class)
        .hasMessageContaining("differ");
    byte[] unknown = replace(bytes, "routing.segment.ranges", "routing.segment.rangez");
    assertThatThrownBy(() -> deserialize(unknown)).isInstanceOf(InvalidObjectException.class);
    KeyRouter router = spec.keyRouter();
    byte[] r = replace(serialize(router), "a:0-5", "a:9-5");
    assertThatThrownBy(() -> deserialize(r)).isInstanceOf(InvalidObjectException.class);
  }

  @Test
  void specsWhoseListValuesHoldKeyValueTextSurviveSerializationAndTheStringForm()
      throws Exception {
    // guards against: "user=2" was read as a new (unknown) pair, so this valid spec failed to deserialize
    RoutingSpec spec = RoutingSpec.parse(Map.of(RoutingSpec.HOTKEY_KEYS, "user=1,user=2",
        RoutingSpec.SEGMENT_RANGES, "a:0-1", RoutingSpec.SEGMENT_REGEX, "^(\\w+),x=1"));
    assertThat(deserialize(serialize(spec))).isEqualTo(spec);
    assertThat(RoutingSpec.parse(spec.toString())).isEqualTo(spec);
    // a dotted key is still a new pair: a typo of a routing.* key is not swallowed by a list
    assertThatThrownBy(() -> RoutingSpec.parse("routing.hotkey.keys=a, routng.scheme=xxh3-64"))
        .isInstanceOf(RoutingConfigException.class).hasMessageContaining("routng.scheme");
  }

  @Test
  @Tag("slow")
  void randomlyCorruptedSerializedRoutersNeverYieldAnInvalidRouter() throws Exception {
    KeyRouter router = RoutingSpec.parse("routing.version.generations=v1:kafka-murmur2:native:8,"
        + "v2:xxh3-64:jump, routing.version.default=v1, routing.segment.weights=a:1,b:2,*:1,"
        + " routing.hotkey.keys=a:1").keyRouter();
    byte[] bytes = serialize(router);
    java.util.Random rnd = new java.util.Random(42);
    for (int i = 0; i < 2000; i++) {
      byte[] copy = bytes.clone();
      copy[rnd.nextInt(copy.length)] ^= (byte) (1 << rnd.nextInt(8));
      Object o;
      try {
        o = deserialize(copy);
      } catch (Exception e) {
        continue; // rejected: fine (InvalidObjectException, StreamCorruptedException, ...)
      }
      if (o instanceof KeyRouter k) {
        for (int n : new int[] {8, 9, 100}) {
          try {
            int p = k.partition("a:" + i, n);
            assertThat(p).isBetween(0, n - 1);
          } catch (IllegalArgumentException | IllegalStateException e) {
            // a changed but valid configuration that does not fit n: a clear exception is fine
          }
        }
      }
    }
  }

  @Test
  void corruptSerializedSpecIsRejected() throws Exception {
    byte[] bytes = serialize(RoutingSpec.defaults().withScheme(HashScheme.PULSAR_MURMUR3));
    TestSerialization.replace(bytes, "pulsar-murmur3", "pulsar-murmurX"); // the first copy only
    assertThatThrownBy(() -> deserialize(bytes)).isInstanceOf(InvalidObjectException.class)
        .hasMessageContaining("pulsar-murmurX");
  }

  private static byte[] replace(byte[] data, String from, String to) {
    byte[] f = from.getBytes(StandardCharsets.UTF_8);
    byte[] t = to.getBytes(StandardCharsets.UTF_8);
    byte[] out = data.clone();
    boolean found = false;
    for (int i = 0; i + f.length <= out.length; i++) { // every copy (string form and properties)
      if (java.util.Arrays.equals(out, i, i + f.length, f, 0, f.length)) {
        System.arraycopy(t, 0, out, i, t.length);
        found = true;
      }
    }
    if (!found) {
      throw new AssertionError(from + " not found in the serialized form");
    }
    return out;
  }
}
