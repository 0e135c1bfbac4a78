package io.github.routingkit.config;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.RoutingConfigException;
import io.github.routingkit.hash.HashScheme;

import io.github.routingkit.property.Gen;
import io.github.routingkit.property.Property;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Fuzz: random (often invalid) specs x random keys (binary, malformed UTF-8, unpaired surrogates,
 * empty, long) x partition counts 1..10,000. A spec either fails to parse with a
 * {@link RoutingConfigException}, or its router returns a partition in [0, n) or throws a
 * documented exception ({@link IllegalArgumentException} incl. {@link RoutingConfigException},
 * {@link IllegalStateException}) &mdash; never an out-of-range partition or any other exception.
 */
class RoutingSpecFuzzProperties {

  @Test
  void everySpecParsesOrFailsCleanlyAndRoutesInRange() {
    AtomicInteger parsedCount = new AtomicInteger();
    AtomicInteger tried = new AtomicInteger();
    Property.check(400, specs(), keys(), Gen.ints(1, 10_000), (spec, keys, n) -> {
      tried.incrementAndGet();
      RoutingSpec parsed;
      try {
        parsed = RoutingSpec.parse(spec);
      } catch (RoutingConfigException e) {
        assertThat(e.property()).startsWith("routing.");
        return;
      }
      parsedCount.incrementAndGet();
      KeyRouter router = parsed.keyRouter();
      for (byte[] key : keys) {
        check(n, () -> router.partition(key, n));
        check(n, () -> router.partition(key, key, n));
        check(n, () -> router.partition(new String(key, StandardCharsets.UTF_16BE), n));
      }
      check(n, () -> router.keylessPartition(n));
      check(n, () -> router.partition((byte[]) null, n));
    });
    // Coverage over random specs: 60 runs of 400 tries (earlier runner) parsed 63..95 (mean 19 %).
    // Requiring 5 % fails with probability below e^(-400 * D(0.05 || 0.19)) = 2e-15.
    assertThat(parsedCount.get() * 100).as("specs that parsed, of %s", tried).isGreaterThanOrEqualTo(5 * tried.get());
  }

  /**
   * The documented String contract under hostile text: a String key (lone surrogates, NUL, BOM,
   * astral characters) lands where its UTF-8 bytes land, for every scheme but pulsar-java-string
   * and every pure layer (segments by separator or regex, versions).
   */
  @Test
  void stringKeysLandWhereTheirUtf8BytesLand() {
    Property.check(300, hostileText(), Gen.enums(HashScheme.class), placements(), pureLayers(), Gen.ints(1, 10_000), (key, scheme, placement, layers, n) -> {
      Assumptions.assumeTrue(scheme != HashScheme.PULSAR_JAVA_STRING);
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
    });
  }
  Gen<String> placements() {
    return Gen.of("native", "modulo", "jump", "jump-back");
  }
  Gen<String> pureLayers() {
    return Gen.of("",
        "routing.segment.ranges=a:0-0,\ud800:1-1,\u00e9:2-3",
        "routing.segment.weights=a:1,b:2,*:1, routing.segment.separator=\u00a7",
        "routing.segment.ranges=a:0-0, routing.segment.regex=^(.)",
        "routing.version.generations=v1:SCHEME:PLACEMENT,v2:xxh3-64:jump,"
            + " routing.version.default=v1");
  }
  Gen<String> hostileText() {
    Gen<Character> chars = Gen.oneOf(
        Gen.chars('\ud800', '\udfff'), // surrogates, mostly unpaired
        Gen.of('a', ':', '|', '\u0000', '\ufeff', '\u00e9', '\uffff', '\ufffd'),
        Gen.chars());
    Gen<String> prefix = Gen.of("", "a:", "v2|", "v1|a:", "\ud800:", "\u00e9:");
    return Gen.combine(prefix, chars.list(0, 40), (p, l) -> {
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
  Gen<List<byte[]>> keys() {
    Gen<byte[]> binary = Gen.bytes(0, 64);
    Gen<byte[]> tenantish = Gen.combine(
        Gen.of("a", "b", "order", "payment", "v1", "v2", "x", "", "\u00e9"),
        Gen.of(":", "|", "/", "", "v2|a:", "v1|b:"),
        Gen.strings(0, 12), (t, s, r) -> (t + s + r).getBytes(StandardCharsets.UTF_8));
    Gen<byte[]> malformed = Gen.of(new byte[] {(byte) 0xff, ':', 'a'},
        new byte[] {(byte) 0xc3}, new byte[] {(byte) 0xed, (byte) 0xa0, (byte) 0x80, ':'},
        new byte[0], "a".repeat(5000).getBytes(StandardCharsets.UTF_8));
    return Gen.oneOf(binary, tenantish, malformed).list(1, 6);
  }
  Gen<String> specs() {
    Gen<String> number = Gen.of("0", "1", "2", "3", "7", "12", "-1", "+2", "1e308",
        "NaN", "0.5", "2147483647", "99999999999", "\u0663", "", " ", "all", "0x1p3", "1e-300");
    Gen<String> name = Gen.of("a", "b", "order", "payment", "*", "a:b", "", " a ");
    Gen<String> range = Gen.combine(name, number, number, (nm, f, t) -> nm + ":" + f + "-" + t);
    Gen<String> weight = Gen.combine(name, number, (nm, w) -> nm + ":" + w);
    Gen<String> gen = Gen.combine(Gen.of("v1", "v2", "", "v|3"),
        Gen.of("kafka-murmur2", "xxh3-64", "pulsar-java-string", "murmur"),
        Gen.of("native", "jump", "modulo", "jump-back", "jumpback", "consistent"), number, (v, s, p, c) -> v + ":" + s + ":" + p + ":" + c);
    Gen<String> entry = Gen.oneOf(
        range.list(1, 4).map(l -> "routing.segment.ranges=" + String.join(",", l)),
        weight.list(1, 4).map(l -> "routing.segment.weights=" + String.join(",", l)),
        name.list(0, 3).map(l -> "routing.segment.exclusive=" + String.join(",", l)),
        Gen.of(":", "/", "|", "").map(s -> "routing.segment.separator=" + s),
        Gen.of("^([^:]*):", "(", "abc", "^(a+)+:(x)", "(?<t>x)").map(s -> "routing.segment.regex=" + s),
        name.list(0, 3).map(l -> "routing.hotkey.keys=" + String.join(",", l)),
        Gen.of("true", "false", "TRUE").map(s -> "routing.hotkey.detect=" + s),
        number.map(s -> "routing.hotkey.threshold=" + s),
        number.map(s -> "routing.hotkey.memory=" + s),
        number.map(s -> "routing.hotkey.window=" + s),
        number.map(s -> "routing.hotkey.sample=" + s),
        number.map(s -> "routing.hotkey.candidates=" + s),
        Gen.of("least-loaded", "round-robin", "value-hash", "x").map(s -> "routing.hotkey.choice=" + s),
        gen.list(1, 3).map(l -> "routing.version.generations=" + String.join(",", l)),
        Gen.of("v1", "v2", "v9").map(s -> "routing.version.default=" + s),
        Gen.of("kafka-murmur2", "xxh3-64", "bogus").map(s -> "routing.scheme=" + s),
        Gen.of("native", "jump", "modulo", "jump-back").map(s -> "routing.placement=" + s),
        Gen.of("round-robin", "sticky", "random").map(s -> "routing.keyless=" + s),
        Gen.oneOf(number, Gen.of("5%", "100%", "101%", "-1%", "%", "0.5%%"))
            .map(s -> "routing.canary.share=" + s),
        Gen.of("jump", "native", "bogus").map(s -> "routing.canary.next.placement=" + s),
        Gen.of("xxh3-64", "pulsar-murmur3", "x").map(s -> "routing.canary.next.scheme=" + s),
        range.list(1, 3).map(l -> "routing.canary.next.segment.ranges=" + String.join(",", l)),
        name.list(0, 3).map(l -> "routing.canary.next.hotkey.keys=" + String.join(",", l)),
        Gen.of("random", "sticky").map(s -> "routing.canary.next.keyless=" + s));
    // one entry per property name (the first drawn wins)
    return entry.list(0, 6).map(l -> {
      java.util.Map<String, String> byName = new java.util.LinkedHashMap<>();
      l.forEach(e -> byName.putIfAbsent(e.substring(0, e.indexOf('=')), e));
      return String.join(", ", byName.values());
    });
  }
}
