package io.github.routingkit.testkit;

import io.github.routingkit.Routers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.stats.SkewVerdict;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class DistributionReportTest {
  private static final KeyRouter KAFKA = Routers.kafkaDefault();

  /** A broken router: every key on partition 0. */
  static final class OnePartition implements KeyRouter {
    private static final long serialVersionUID = 1L;

    @Override
    public int partition(byte[] key, int n) {
      return 0;
    }

    @Override
    public int partition(byte[] key, int offset, int length, int n) {
      return 0;
    }

    @Override
    public int partition(CharSequence key, int n) {
      return 0;
    }

    @Override
    public int keylessPartition(int n) {
      return 0;
    }

    @Override
    public io.github.routingkit.KeylessPolicy keylessPolicy() {
      return io.github.routingkit.KeylessPolicy.ROUND_ROBIN;
    }
  }

  static final class ByNumber implements KeyRouter {
    private static final long serialVersionUID = 1L;

    @Override
    public int partition(byte[] key, int n) {
      return partition(new String(key, java.nio.charset.StandardCharsets.UTF_8), n);
    }

    @Override
    public int partition(byte[] key, int offset, int length, int n) {
      return partition(new String(key, offset, length, java.nio.charset.StandardCharsets.UTF_8), n);
    }

    @Override
    public int partition(CharSequence key, int n) {
      String k = key.toString();
      return Math.floorMod(Integer.parseInt(k.substring(0, k.indexOf(':'))), n);
    }

    @Override
    public int keylessPartition(int n) {
      return 0;
    }

    @Override
    public io.github.routingkit.KeylessPolicy keylessPolicy() {
      return io.github.routingkit.KeylessPolicy.ROUND_ROBIN;
    }

    @Override
    public String toString() {
      return "ByNumber";
    }
  }

  private static List<String> distinct(int count) {
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      keys.add("user-" + i);
    }
    return keys;
  }

  @Test
  void uniformKeysAreWithinThePerfectHashBound() {
    DistributionReport r = DistributionReport.of(KAFKA, 24, distinct(100_000));
    assertThat(r.messages()).isEqualTo(100_000);
    assertThat(r.distinctKeys()).isEqualTo(100_000);
    assertThat(r.distinctKeysExact()).isTrue();
    assertThat(r.effectiveKeys()).isEqualTo(100_000.0);
    assertThat(r.perfectHashExpected()).isBetween(1.029, 1.031);
    assertThat(r.maxOverMean()).isLessThan(r.samplingP99());
    assertThat(r.verdict()).isEqualTo(SkewVerdict.WITHIN_PERFECT_HASH_BOUND);
    assertThat(r.hotKeyFloor()).isEqualTo(1.0);
  }

  @Test
  void smallSamplesAreNotFlaggedForChanceUnevenness() {
    // 48 distinct keys on 24 partitions: max/mean around 2-3 by chance alone, above the 1.5 rule
    DistributionReport r = DistributionReport.of(KAFKA, 24, distinct(48));
    assertThat(r.maxOverMean()).isGreaterThan(1.5);
    assertThat(r.verdict()).isEqualTo(SkewVerdict.WITHIN_PERFECT_HASH_BOUND);
    assertThat(r.advice()).contains("too small");
  }

  @Test
  void aHotKeyMeansFixTheKeyDesign() {
    List<String> keys = distinct(20_000);
    keys.addAll(Collections.nCopies(5_000, "US"));
    DistributionReport r = DistributionReport.of(KAFKA, 24, keys);
    assertThat(r.verdict()).isEqualTo(SkewVerdict.FIX_KEY_DESIGN);
    assertThat(r.topKeys().get(0).key()).isEqualTo("US");
    assertThat(r.topKeys().get(0).count()).isEqualTo(5_000);
    assertThat(r.topKeys().get(0).share()).isEqualTo(0.2);
    assertThat(r.topKeys().get(0).partition()).isEqualTo(KAFKA.partition("US", 24));
    assertThat(r.hotKeyFloor()).isEqualTo(24 * 0.2);
    assertThat(r.advice()).contains("fix the key design").contains("'US'").contains("20.00%");
  }

  @Test
  void moderateSkewMeansKeepHeadroomAndSlightSkewIsBalanced() {
    // few heavy keys (the keys explain the skew): 13 on partition 0, 11 on each other, 1,000 each
    DistributionReport.Builder b = DistributionReport.builder(new ByNumber(), 4);
    int[] perPartition = {13, 11, 11, 11};
    for (int p = 0; p < 4; p++) {
      for (int i = 0; i < perPartition[p]; i++) {
        b.add(p + ":" + i, 1000);
      }
    }
    DistributionReport headroom = b.build();
    assertThat(headroom.maxOverMean()).isBetween(1.1, 1.5);
    assertThat(headroom.verdict()).isEqualTo(SkewVerdict.KEEP_HEADROOM);
    assertThat(headroom.advice()).contains("30 % headroom");

    DistributionReport balanced = DistributionReport.of(new ByNumber(), 4, placed(105000, 100000, 100000, 95000));
    assertThat(balanced.maxOverMean()).isEqualTo(1.05);
    assertThat(balanced.verdict()).isEqualTo(SkewVerdict.BALANCED);
  }

  @Test
  void aRouterPilingDistinctKeysOnOnePartitionIsSuspectedNotTheKeys() {
    // 50,000 distinct keys, every one on partition 0 of 24: the router is suspected, not the keys
    DistributionReport r = DistributionReport.of(new OnePartition(), 24, distinct(50_000));
    assertThat(r.maxOverMean()).isEqualTo(24.0);
    assertThat(r.verdict()).isEqualTo(SkewVerdict.SUSPECT_ROUTER);
    assertThat(r.advice()).contains("suspect the router").contains("50,000 effective keys")
        .doesNotContain("fix the key design");
    // a milder router fault (13:11:11:11 over 46,000 distinct keys, 1.13) is the router's too
    DistributionReport mild = DistributionReport.of(new ByNumber(), 4, placed(13000, 11000, 11000, 11000));
    assertThat(mild.maxOverMean()).isBetween(1.1, 1.5);
    assertThat(mild.verdict()).isEqualTo(SkewVerdict.SUSPECT_ROUTER);
    // but a hot key that explains the skew stays the key design's fault (aHotKeyMeansFixTheKeyDesign)
  }

  /** Distinct keys "p:i", perPartition[p] of them for each partition p. */
  private static List<String> placed(int... perPartition) {
    List<String> keys = new ArrayList<>();
    for (int p = 0; p < perPartition.length; p++) {
      for (int i = 0; i < perPartition[p]; i++) {
        keys.add(p + ":" + i);
      }
    }
    return keys;
  }

  @Test
  void csvRatiosAreTheCorrectlyRoundedQuotient() {
    // the counts of docs/cli.md's csv example (geonames 20k, country, 6 partitions); the
    // ratio is rounded from the exact quotient (3255 / (20000 / 6) is 0.9765, not 0.9764999999999999)
    long[] counts = {3255, 2386, 4137, 5691, 2829, 1702};
    DistributionReport.Builder b = DistributionReport.observedBuilder("observed", 6);
    for (int p = 0; p < counts.length; p++) {
      b.add("k" + p, p, counts[p]);
    }
    assertThat(b.build().toCsv()).isEqualTo("partition,messages,share,ratio_to_mean\n"
        + "0,3255,0.16275,0.9765\n1,2386,0.1193,0.7158\n2,4137,0.20685,1.2411\n"
        + "3,5691,0.28455,1.7073\n4,2829,0.14145,0.8487\n5,1702,0.0851,0.5106\n");
  }

  @Test
  void textGroupsTheThousandsOfTheMean() {
    // the mean is grouped like the counts next to it ("5,000.0", not "5000.0")
    DistributionReport.Builder b = DistributionReport.observedBuilder("observed", 2);
    b.add("a", 0, 5188).add("b", 1, 4812);
    assertThat(b.build().toText()).contains("(partition 0: 5,188 messages, mean 5,000.0)");
  }

  @Test
  void textCsvAndJsonCarryTheNumbers() {
    DistributionReport r = DistributionReport.builder(KAFKA, 3).topK(2)
        .add("a", 5).add("b\"q", 3).add("c").build();
    String text = r.toText();
    assertThat(text).contains("partitions        3").contains("messages          9")
        .contains("verdict").contains("'a'");
    String csv = r.toCsv();
    assertThat(csv.lines()).hasSize(4).first().isEqualTo("partition,messages,share,ratio_to_mean");
    long sum = csv.lines().skip(1).mapToLong(l -> Long.parseLong(l.split(",")[1])).sum();
    assertThat(sum).isEqualTo(9);
    String json = r.toJson();
    assertThat(json).startsWith("{\"router\":").endsWith("]}").contains("\"messages\":9")
        .contains("\"key\":\"b\\\"q\"").contains("\"verdict\":");
    assertThat(r.topKeys()).hasSize(2);
  }

  /**
   * One JSON string escaper across the project: a key holding U+2028 / U+2029 (which JavaScript
   * and some line readers take for line ends) is escaped in the report's JSON exactly as the audit
   * log escapes it.
   */
  @Test
  void jsonEscapesLineSeparatorsAsTheAuditLogDoes() {
    String key = "a\u2028b\u2029c\u0001";
    DistributionReport r = DistributionReport.builder(KAFKA, 3).topK(1).add(key, 2).build();
    String escaped = io.github.routingkit.audit.AuditLog.appendJsonString(key,
        new StringBuilder()).toString();
    assertThat(escaped).isEqualTo("\"a\\u2028b\\u2029c\\u0001\"");
    assertThat(r.toJson()).contains("\"key\":" + escaped).doesNotContain("\u2028");
  }

  @Test
  void emptyReportIsWellDefined() {
    DistributionReport r = DistributionReport.builder(KAFKA, 5).build();
    assertThat(r.messages()).isZero();
    assertThat(r.maxOverMean()).isEqualTo(1.0);
    assertThat(r.topKeys()).isEmpty();
    assertThat(r.toJson()).contains("\"messages\":0");
  }

  @Test
  void switchesToSketchesPastTheExactLimitAndKeepsTheHotKeys() {
    DistributionReport.Builder b = DistributionReport.builder(KAFKA, 12).exactKeyLimit(1000);
    for (String k : Keys.zipfSample(200_000, 50_000, 1.1, 3)) {
      b.add(k);
    }
    DistributionReport r = b.build();
    DistributionReport exact = DistributionReport.of(KAFKA, 12, Keys.zipfSample(200_000, 50_000, 1.1, 3));
    assertThat(r.distinctKeysExact()).isFalse();
    assertThat(exact.distinctKeysExact()).isTrue();
    assertThat((double) r.distinctKeys()).isCloseTo(exact.distinctKeys(),
        org.assertj.core.data.Percentage.withPercentage(4));
    assertThat(r.topKeys().get(0).key()).isEqualTo(exact.topKeys().get(0).key());
    // Misra-Gries undercounts by at most total / (capacity + 1)
    long error = exact.topKeys().get(0).count() - r.topKeys().get(0).count();
    assertThat(error).isBetween(0L, 200_000L / 10_001 + 1);
    assertThat(r.statistics()).isEqualTo(exact.statistics());
    assertThat(r.verdict()).isEqualTo(exact.verdict());
  }

  @Test
  void rejectsBadArguments() {
    assertThatThrownBy(() -> DistributionReport.builder(KAFKA, 0))
        .hasMessageContaining("numPartitions was 0");
    assertThatThrownBy(() -> DistributionReport.builder(KAFKA, 2).add("a", 0))
        .hasMessageContaining("count was 0");
    assertThatThrownBy(() -> DistributionReport.builder(KAFKA, 2).add("a").topK(3))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void observedPlacementCountsWhereEachKeyWasReadNotWhereARouterPutsIt() {
    DistributionReport.Builder b = DistributionReport.observedBuilder("observed: topic t", 4);
    // 4,000 distinct keys, 70 % of them read from partition 2: the keys are fine, the placement not
    for (int i = 0; i < 4_000; i++) {
      b.add("key-" + i, i % 10 < 7 ? 2 : i % 4, 1);
    }
    b.add("key-7", 3, 1); // seen last on partition 3
    DistributionReport r = b.build();
    assertThat(r.router()).isEqualTo("observed: topic t");
    assertThat(r.statistics().counts()).containsExactly(200, 400, 3_000, 401);
    assertThat(r.messages()).isEqualTo(4_001);
    assertThat(r.verdict()).isEqualTo(SkewVerdict.SUSPECT_ROUTER);
    assertThat(r.topKeys().get(0).key()).isEqualTo("key-7");
    assertThat(r.topKeys().get(0).partition()).isEqualTo(3);

    DistributionReport.Builder even = DistributionReport.observedBuilder("observed", 4);
    for (int i = 0; i < 4_000; i++) {
      even.add("key-" + i, i % 4, 1);
    }
    assertThat(even.build().verdict()).isEqualTo(SkewVerdict.WITHIN_PERFECT_HASH_BOUND);
  }

  @Test
  void observedAndRoutedBuildersRefuseEachOthersAdd() {
    assertThatThrownBy(() -> DistributionReport.observedBuilder("o", 4).add("k"))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("add(key, partition, count)");
    assertThatThrownBy(() -> DistributionReport.builder(Routers.kafkaDefault(), 4).add("k", 1, 1))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("observedBuilder");
    assertThatThrownBy(() -> DistributionReport.observedBuilder("o", 4).add("k", 4, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("[0, 4)");
  }

  @Test
  void observedTopKeyThatFellOutOfTheRecentKeysHasPartitionMinusOne() {
    DistributionReport.Builder b = DistributionReport.observedBuilder("o", 4);
    b.add("hot", 1, 10);
    for (int i = 0; i < DistributionReport.Builder.OBSERVED_TRACKED; i++) {
      b.add("k" + i, i % 4, 1);
    }
    DistributionReport r = b.build();
    assertThat(r.topKeys().get(0).key()).isEqualTo("hot");
    assertThat(r.topKeys().get(0).partition()).isEqualTo(-1);
    assertThat(r.toText()).contains("partition ?");
    b.add("hot", 2, 1);
    assertThat(b.build().topKeys().get(0).partition()).isEqualTo(2);
  }
}
