package io.github.routingkit.stats;


import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class LoadStatisticsTest {

  @Test
  void derivesMaxOverMeanCvAndChiSquare() {
    LoadStatistics s = LoadStatistics.of(new long[] {10, 30, 20, 20});
    assertThat(s.partitions()).isEqualTo(4);
    assertThat(s.total()).isEqualTo(80);
    assertThat(s.mean()).isEqualTo(20);
    assertThat(s.max()).isEqualTo(30);
    assertThat(s.min()).isEqualTo(10);
    assertThat(s.hottestPartition()).isEqualTo(1);
    assertThat(s.maxOverMean()).isEqualTo(1.5);
    assertThat(s.coefficientOfVariation()).isCloseTo(Math.sqrt(50) / 20, within(1e-12));
    assertThat(s.chiSquare()).isCloseTo(10, within(1e-12));
    assertThat(s.degreesOfFreedom()).isEqualTo(3);
    assertThat(s.pValue()).isCloseTo(0.018566135, within(1e-8));
  }

  @Test
  void oneHotPartitionAndEmptyInput() {
    LoadStatistics all = LoadStatistics.of(new long[] {0, 0, 12});
    assertThat(all.maxOverMean()).isEqualTo(3.0);
    assertThat(all.hottestPartition()).isEqualTo(2);
    LoadStatistics empty = LoadStatistics.of(new long[] {0, 0});
    assertThat(empty.maxOverMean()).isEqualTo(1.0);
    assertThat(empty.coefficientOfVariation()).isZero();
    assertThat(LoadStatistics.of(new long[] {5}).pValue()).isEqualTo(1.0);
  }

  @Test
  void copiesCountsInAndOut() {
    long[] counts = {1, 2};
    LoadStatistics s = LoadStatistics.of(counts);
    counts[0] = 100;
    s.counts()[1] = 100;
    assertThat(s.counts()).containsExactly(1, 2);
  }

  @Test
  void rejectsNegativeAndEmptyCounts() {
    assertThatThrownBy(() -> LoadStatistics.of(new long[0])).hasMessageContaining("empty");
    assertThatThrownBy(() -> LoadStatistics.of(new long[] {3, -1}))
        .hasMessageContaining("partition 1 was -1");
  }
}
