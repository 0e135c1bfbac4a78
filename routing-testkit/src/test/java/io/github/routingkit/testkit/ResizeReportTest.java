package io.github.routingkit.testkit;

import io.github.routingkit.Routers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.github.routingkit.router.HashRouter;
import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.placement.Placement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResizeReportTest {

  private static List<String> keys(int n) {
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      keys.add("order-" + i);
    }
    return keys;
  }

  @Test
  void theoreticalFractionsMatchTheReferenceNumbers() {
    // FACTS: 12 -> 16 modulo moves 75 %, minimum 25 %; 24 -> 25 modulo moves 96 %
    assertThat(ResizeReport.moduloFraction(12, 16)).isEqualTo(0.75);
    assertThat(ResizeReport.minimumFraction(12, 16)).isEqualTo(0.25);
    assertThat(ResizeReport.moduloFraction(24, 25)).isCloseTo(0.96, within(1e-12));
    assertThat(ResizeReport.minimumFraction(16, 12)).isEqualTo(0.25);
    assertThat(ResizeReport.minimumFraction(8, 8)).isZero();
    assertThat(ResizeReport.moduloFraction(8, 16)).isEqualTo(0.5);
  }

  @Test
  void everySchemeAndPlacementIsMeasured() {
    ResizeReport r = ResizeReport.builder(12, 16).addAll(keys(50_000)).build();
    assertThat(r.rows()).hasSize(HashScheme.values().length * Placement.values().length);
    for (ResizeReport.Row row : r.rows()) {
      assertThat(row.total()).isEqualTo(50_000);
      assertThat(row.movedFraction()).isGreaterThanOrEqualTo(r.minimumFraction() - 0.01);
    }
    ResizeReport.Row kafka = r.rows().stream()
        .filter(x -> x.router().equals("kafka-murmur2 / to-positive")).findFirst().orElseThrow();
    assertThat(kafka.movedFraction()).isCloseTo(0.75, within(0.01));
    assertThat(r.toText()).contains("12 -> 16").contains("25.00%").contains("kafka-murmur2");
    assertThat(r.toCsv().lines()).hasSize(r.rows().size() + 1);
    assertThat(r.toJson()).contains("\"minimumFraction\":0.25");
  }

  @Test
  void countsExactlyTheKeysThatChangePartition() {
    HashRouter router = Routers.kafkaDefault();
    List<String> sample = keys(2_000);
    long expected = sample.stream()
        .filter(k -> router.partition(k, 6) != router.partition(k, 9)).count();
    ResizeReport r = ResizeReport.builder(6, 9).router("kafka", router).addAll(sample).build();
    assertThat(r.rows()).hasSize(1);
    assertThat(r.rows().get(0).moved()).isEqualTo(expected);
  }

  @Test
  void rejectsBadCounts() {
    assertThatThrownBy(() -> ResizeReport.builder(0, 3)).hasMessageContaining("0 -> 3");
  }
}
