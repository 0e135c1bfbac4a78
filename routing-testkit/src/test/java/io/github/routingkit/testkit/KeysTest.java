package io.github.routingkit.testkit;

import io.github.routingkit.property.Gen;
import io.github.routingkit.property.Property;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class KeysTest {

  @Test
  void minValueHashCodeStringsReallyHashToMinValue() {
    Property.check(300, minValue(), key -> {
      assertThat(key.hashCode()).isEqualTo(Integer.MIN_VALUE);
      assertThat(Math.abs(key.hashCode())).isNegative(); // why these keys break routers
    });
  }
  Gen<String> minValue() {
    return Gen.fromRandom(Keys.minValueHashCode()::next);
  }

  @Test
  void nonAsciiIsWellFormedAndMultiByte() {
    Property.check(200, nonAscii(), key -> {
      byte[] utf8 = key.getBytes(StandardCharsets.UTF_8);
      assertThat(new String(utf8, StandardCharsets.UTF_8)).isEqualTo(key);
      assertThat(utf8.length).isGreaterThan(key.codePointCount(0, key.length()) - 1);
      assertThat(key.chars().anyMatch(c -> c > 0x7f)).isTrue();
    });
  }
  Gen<String> nonAscii() {
    return Gen.fromRandom(Keys.nonAscii()::next);
  }

  @Test
  void truncatedIdsEndInZeros() {
    Property.check(200, truncated(), key -> {
      assertThat(key).endsWith("0").matches("\\d{13,}");
    });
  }
  Gen<String> truncated() {
    return Gen.fromRandom(Keys.truncatedLowDigits()::next);
  }

  @Test
  void sequentialBatchesAreConsecutive() {
    Property.check(50, batches(), ids -> {
      for (int i = 1; i < ids.size(); i++) {
        assertThat(Long.parseLong(ids.get(i))).isEqualTo(Long.parseLong(ids.get(i - 1)) + 1);
      }
    });
  }
  Gen<List<String>> batches() {
    return Gen.fromRandom(Keys.sequentialIdBatches(100)::next);
  }

  @Test
  void hugeKeysAreHuge() {
    Property.check(20, huge(), key -> {
      assertThat(key.length()).isBetween(16 * 1024, 256 * 1024);
    });
  }
  Gen<String> huge() {
    return Gen.fromRandom(Keys.huge()::next);
  }

  @Test
  void illFormedTextHasAnUnpairedSurrogate() {
    Property.check(100, illFormed(), key -> {
      String roundTrip = new String(key.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
      assertThat(roundTrip).isNotEqualTo(key);
    });
  }
  Gen<String> illFormed() {
    return Gen.fromRandom(Keys.illFormedUtf16()::next);
  }

  @Test
  void zipfSampleIsReproducibleAndSkewed() {
    List<String> a = Keys.zipfSample(100_000, 1_000, 1.0, 1);
    assertThat(Keys.zipfSample(100_000, 1_000, 1.0, 1)).isEqualTo(a);
    Map<String, Long> counts = a.stream()
        .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
    // exponent 1, 1000 keys: P(rank 1) = 1 / H(1000) = 0.1336
    assertThat(counts.get("key-1") / 100_000.0).isBetween(0.128, 0.139);
    assertThat(counts.get("key-1")).isGreaterThan(counts.get("key-2"));
    assertThat(counts).hasSizeLessThanOrEqualTo(1000);
  }

  /** The plain-Java way, no runner: a seeded stream feeding a parameterized test. */
  static Stream<String> tenantKeys() {
    return Keys.tenantPrefixed(50, 1.2, 10_000).stream(7).limit(200);
  }

  @ParameterizedTest
  @MethodSource("tenantKeys")
  void tenantKeysHaveATenantAndAnEntity(String key) {
    assertThat(key).matches("tenant-([1-9]|[1-4][0-9]|50)/\\d{1,4}");
  }

  @Test
  void tenantsAreSkewedAndSamplesAreReproducible() {
    List<String> keys = Keys.tenantPrefixed(50, 1.2, 10_000).sample(20_000, 3);
    assertThat(Keys.tenantPrefixed(50, 1.2, 10_000).sample(20_000, 3)).isEqualTo(keys);
    long first = keys.stream().filter(k -> k.startsWith("tenant-1/")).count();
    long last = keys.stream().filter(k -> k.startsWith("tenant-50/")).count();
    assertThat(first).isGreaterThan(20 * last);
    List<String> real = List.of("@types/node", "react", "東京/13/渋谷区");
    assertThat(Keys.sampledFrom(real).stream(1).limit(300)).containsOnlyElementsOf(real)
        .contains("@types/node", "react", "東京/13/渋谷区");
    Iterator<String> it = Keys.zipf(10, 1.0).iterator(5);
    Supplier<String> sup = Keys.zipf(10, 1.0).supplier(5);
    for (int i = 0; i < 100; i++) {
      assertThat(it.next()).isEqualTo(sup.get());
    }
  }

  @Test
  void edgeCasesCoverTheKnownBreakers() {
    List<String> e = Keys.edgeCases();
    assertThat(e).contains("", "polygenelubricants", "GydZG_", "DESIGNING WORKHOUSES", "日本語");
    assertThat(e.stream().filter(k -> k.hashCode() == Integer.MIN_VALUE).count()).isEqualTo(4);
    assertThat(e.stream().mapToInt(String::length).max().getAsInt()).isEqualTo(100 * 1024);
  }

  @Test
  void routerBreakersAreAllStrings() {
    Property.check(200, breakers(), key -> {
      assertThat(key).isNotNull();
    });
  }
  Gen<String> breakers() {
    return Gen.fromRandom(Keys.routerBreakers()::next);
  }
}
