package io.github.routingkit.testkit;

import io.github.routingkit.property.Gen;
import io.github.routingkit.property.Property;
import io.github.routingkit.property.RoutingGen;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
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
    return Keys.minValueHashCode();
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
    return Keys.nonAscii();
  }

  @Test
  void truncatedIdsEndInZeros() {
    Property.check(200, truncated(), key -> {
      assertThat(key).endsWith("0").matches("\\d{13,}");
    });
  }
  Gen<String> truncated() {
    return Keys.truncatedLowDigits();
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
    return Keys.sequentialIdBatches(100);
  }

  @Test
  void hugeKeysAreHuge() {
    Property.check(20, huge(), key -> {
      assertThat(key.length()).isBetween(16 * 1024, 256 * 1024);
    });
  }
  Gen<String> huge() {
    return Keys.huge();
  }

  @Test
  void illFormedTextHasAnUnpairedSurrogate() {
    Property.check(100, illFormed(), key -> {
      String roundTrip = new String(key.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
      assertThat(roundTrip).isNotEqualTo(key);
    });
  }
  Gen<String> illFormed() {
    return Keys.illFormedUtf16();
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
    return Keys.routerBreakers();
  }
}
