package io.github.routingkit;

import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.hash.HashScheme;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;

/**
 * Fuzz: random (often invalid) specs x random keys (binary, malformed UTF-8, unpaired surrogates,
 * empty, long) x partition counts 1..10,000. A spec either fails to parse with a
 * {@link RoutingConfigException}, or its router returns a partition in [0, n) or throws a
 * documented exception ({@link IllegalArgumentException} incl. {@link RoutingConfigException},
 * {@link IllegalStateException}) &mdash; never an out-of-range partition or any other exception.
 */
class HostileFuzzProperties {

  @Property(tries = 400)
  void everySpecParsesOrFailsCleanlyAndRoutesInRange(
      @ForAll("specs") String spec, @ForAll("keys") List<byte[]> keys,
      @ForAll @IntRange(min = 1, max = 10_000) int n) {
    RoutingSpec parsed;
    try {
      parsed = RoutingSpec.parse(spec);
    } catch (RoutingConfigException e) {
      assertThat(e.property()).startsWith("routing.");
      Statistics.label("spec").collect("rejected");
      // Coverage over random specs: measured over 60 runs of 400 tries, 63..95 parse (mean 77,
      // 19 %). Requiring 10 % (40) failed with probability ~1e-6 per run (Chernoff: e^-12);
      // requiring 5 % (20) fails with probability below e^(-400 * D(0.05 || 0.19)) = 2e-15.
      Statistics.label("spec").coverage(c -> c.check("parsed").percentage(p -> p >= 5));
      return;
    }
    Statistics.label("spec").collect("parsed");
    KeyRouter router = parsed.keyRouter();
    for (byte[] key : keys) {
      check(n, () -> router.partition(key, n));
      check(n, () -> router.partition(key, key, n));
      check(n, () -> router.partition(new String(key, StandardCharsets.UTF_16BE), n));
    }
    check(n, () -> router.keylessPartition(n));
    check(n, () -> router.partition((byte[]) null, n));
  }

  /**
   * The documented String contract under hostile text: a String key (lone surrogates, NUL, BOM,
   * astral characters) lands where its UTF-8 bytes land, for every scheme but pulsar-java-string
   * and every pure layer (segments by separator or regex, versions).
   */
  @Property(tries = 300)
  void stringKeysLandWhereTheirUtf8BytesLand(@ForAll("hostileText") String key,
      @ForAll HashScheme scheme, @ForAll("placements") String placement,
      @ForAll("pureLayers") String layers, @ForAll @IntRange(min = 1, max = 10_000) int n) {
    net.jqwik.api.Assume.that(scheme != HashScheme.PULSAR_JAVA_STRING);
    KeyRouter router;
    if (layers.contains("version")) {
      router = RoutingSpec.parse(layers.replace("SCHEME", scheme.id()).replace("PLACEMENT",
          placement)).keyRouter();
    } else {
      router = RoutingSpec.parse(layers).withScheme(scheme).withPlacement(placement).keyRouter();
    }
    byte[] utf8 = key.getBytes(StandardCharsets.UTF_8);
    int fromString;
    try {
      fromString = router.partition(key, n);
    } catch (IllegalArgumentException | IllegalStateException e) {
      return; // e.g. a segment range beyond n: the same for the bytes, checked below
    }
    assertThat(fromString).isBetween(0, n - 1);
    assertThat(router.partition(utf8, n)).as("%s / %s", scheme.id(), layers).isEqualTo(fromString);
    assertThat(router.partition(new StringBuilder(key), n)).isEqualTo(fromString);
  }

  @Provide
  Arbitrary<String> placements() {
    return Arbitraries.of("native", "modulo", "jump", "jump-back");
  }

  @Provide
  Arbitrary<String> pureLayers() {
    return Arbitraries.of("",
        "routing.segment.ranges=a:0-0,\ud800:1-1,\u00e9:2-3",
        "routing.segment.weights=a:1,b:2,*:1, routing.segment.separator=\u00a7",
        "routing.segment.ranges=a:0-0, routing.segment.regex=^(.)",
        "routing.version.generations=v1:SCHEME:PLACEMENT,v2:xxh3-64:jump,"
            + " routing.version.default=v1");
  }

  @Provide
  Arbitrary<String> hostileText() {
    Arbitrary<Character> chars = Arbitraries.oneOf(
        Arbitraries.chars().range('\ud800', '\udfff'), // surrogates, mostly unpaired
        Arbitraries.of('a', ':', '|', '\u0000', '\ufeff', '\u00e9', '\uffff', '\ufffd'),
        Arbitraries.chars());
    Arbitrary<String> prefix = Arbitraries.of("", "a:", "v2|", "v1|a:", "\ud800:", "\u00e9:");
    return Combinators.combine(prefix, chars.list().ofMaxSize(40))
        .as((p, l) -> {
          StringBuilder sb = new StringBuilder(p);
          l.forEach(sb::append);
          return sb.toString();
        });
  }

  private static void check(int n, java.util.function.IntSupplier call) {
    int p;
    try {
      p = call.getAsInt();
    } catch (IllegalArgumentException | IllegalStateException e) {
      assertThat(e.getMessage()).isNotBlank();
      return;
    }
    assertThat(p).isBetween(0, n - 1);
  }

  @Provide
  Arbitrary<List<byte[]>> keys() {
    Arbitrary<byte[]> binary = Arbitraries.bytes().array(byte[].class).ofMaxSize(64);
    Arbitrary<byte[]> tenantish = Combinators.combine(
        Arbitraries.of("a", "b", "order", "payment", "v1", "v2", "x", "", "\u00e9"),
        Arbitraries.of(":", "|", "/", "", "v2|a:", "v1|b:"),
        Arbitraries.strings().ofMaxLength(12))
        .as((t, s, r) -> (t + s + r).getBytes(StandardCharsets.UTF_8));
    Arbitrary<byte[]> malformed = Arbitraries.of(new byte[] {(byte) 0xff, ':', 'a'},
        new byte[] {(byte) 0xc3}, new byte[] {(byte) 0xed, (byte) 0xa0, (byte) 0x80, ':'},
        new byte[0], "a".repeat(5000).getBytes(StandardCharsets.UTF_8));
    return Arbitraries.oneOf(binary, tenantish, malformed).list().ofMinSize(1).ofMaxSize(6);
  }

  @Provide
  Arbitrary<String> specs() {
    Arbitrary<String> number = Arbitraries.of("0", "1", "2", "3", "7", "12", "-1", "+2", "1e308",
        "NaN", "0.5", "2147483647", "99999999999", "\u0663", "", " ", "all", "0x1p3", "1e-300");
    Arbitrary<String> name = Arbitraries.of("a", "b", "order", "payment", "*", "a:b", "", " a ");
    Arbitrary<String> range = Combinators.combine(name, number, number)
        .as((nm, f, t) -> nm + ":" + f + "-" + t);
    Arbitrary<String> weight = Combinators.combine(name, number).as((nm, w) -> nm + ":" + w);
    Arbitrary<String> gen = Combinators.combine(Arbitraries.of("v1", "v2", "", "v|3"),
        Arbitraries.of("kafka-murmur2", "xxh3-64", "pulsar-java-string", "murmur"),
        Arbitraries.of("native", "jump", "modulo", "jump-back", "jumpback", "consistent"), number)
        .as((v, s, p, c) -> v + ":" + s + ":" + p + ":" + c);
    Arbitrary<String> entry = Arbitraries.oneOf(
        range.list().ofMinSize(1).ofMaxSize(4).map(l -> "routing.segment.ranges=" + String.join(",", l)),
        weight.list().ofMinSize(1).ofMaxSize(4).map(l -> "routing.segment.weights=" + String.join(",", l)),
        name.list().ofMaxSize(3).map(l -> "routing.segment.exclusive=" + String.join(",", l)),
        Arbitraries.of(":", "/", "|", "").map(s -> "routing.segment.separator=" + s),
        Arbitraries.of("^([^:]*):", "(", "abc", "^(a+)+:(x)", "(?<t>x)").map(s -> "routing.segment.regex=" + s),
        name.list().ofMaxSize(3).map(l -> "routing.hotkey.keys=" + String.join(",", l)),
        Arbitraries.of("true", "false", "TRUE").map(s -> "routing.hotkey.detect=" + s),
        number.map(s -> "routing.hotkey.threshold=" + s),
        number.map(s -> "routing.hotkey.memory=" + s),
        number.map(s -> "routing.hotkey.window=" + s),
        number.map(s -> "routing.hotkey.sample=" + s),
        number.map(s -> "routing.hotkey.candidates=" + s),
        Arbitraries.of("least-loaded", "round-robin", "value-hash", "x").map(s -> "routing.hotkey.choice=" + s),
        gen.list().ofMinSize(1).ofMaxSize(3).map(l -> "routing.version.generations=" + String.join(",", l)),
        Arbitraries.of("v1", "v2", "v9").map(s -> "routing.version.default=" + s),
        Arbitraries.of("kafka-murmur2", "xxh3-64", "bogus").map(s -> "routing.scheme=" + s),
        Arbitraries.of("native", "jump", "modulo", "jump-back").map(s -> "routing.placement=" + s),
        Arbitraries.of("round-robin", "sticky", "random").map(s -> "routing.keyless=" + s));
    return entry.list().ofMaxSize(6).uniqueElements(e -> e.substring(0, e.indexOf('=')))
        .map(l -> String.join(", ", l));
  }
}
