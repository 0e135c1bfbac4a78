package io.github.routingkit.pulsar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.routingkit.pulsar.KeySharedPredictor.Selector;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.pulsar.client.api.KeySharedPolicy;
import org.apache.pulsar.client.api.Range;
import org.apache.pulsar.common.util.Murmur3_32Hash;
import org.junit.jupiter.api.Test;

class KeySharedPredictorTest {

  static final List<String> ABC = List.of("consumer-a", "consumer-b", "consumer-c");

  static List<String> keys(int n) {
    return IntStream.range(0, n).mapToObj(i -> "key-" + i).collect(Collectors.toList());
  }

  @Test
  void slotsFollowTheBrokersMurmur3AndRanges() {
    // The hash is pulsar-common's real Murmur3_32Hash; the ranges are the 4.x selectors'.
    for (String key : keys(20_000)) {
      byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
      int h = Murmur3_32Hash.getInstance().makeHash(bytes);
      assertThat(Selector.CONSISTENT_HASHING.slot(bytes)).isEqualTo(h % 65535 + 1);
      int range = h % 65536 == 0 ? 1 : h % 65536;
      assertThat(Selector.AUTO_SPLIT.slot(bytes)).isEqualTo(range);
      assertThat(Selector.STICKY.slot(bytes)).isEqualTo(range);
      assertThat(Selector.CONSISTENT_HASHING_CLASSIC.slot(bytes))
          .isEqualTo(h % (Integer.MAX_VALUE - 1) + 1);
      assertThat(Selector.STICKY.slot(key)).isEqualTo(Selector.STICKY.slot(bytes));
    }
  }

  @Test
  void slotZeroBecomesOne() {
    assertThat(Selector.AUTO_SPLIT.slotOfHash(65536 * 7)).isEqualTo(1);
    assertThat(Selector.STICKY.slotOfHash(0)).isEqualTo(1);
    assertThat(Selector.CONSISTENT_HASHING.slotOfHash(65535 * 3)).isEqualTo(1);
    assertThat(Selector.CONSISTENT_HASHING.slotOfHash(65534)).isEqualTo(65535);
  }

  @Test
  void consistentHashingSpreadsThreeConsumersEvenly() {
    KeySharedPredictor p = KeySharedPredictor.consistentHashing(ABC);
    KeyShare share = p.shareOf(keys(100_000));
    assertThat(share.total()).isEqualTo(100_000);
    assertThat(share.unassigned()).isZero();
    assertThat(share.consumers()).isEqualTo(ABC);
    // 100 points per consumer: a few per cent of imbalance, never a starved consumer.
    assertThat(share.maxOverMean()).isBetween(1.0, 1.25);
    assertThat(share.min()).isGreaterThan(25_000);
  }

  @Test
  void hashRangesPartitionTheSlotsAndAgreeWithOwners() {
    for (KeySharedPredictor p : List.of(
        KeySharedPredictor.consistentHashing(ABC),
        KeySharedPredictor.consistentHashing(ABC, 7),
        KeySharedPredictor.autoSplit(List.of("a", "b", "c", "d", "e")))) {
      int first = p.selector() == Selector.AUTO_SPLIT ? 0 : 1;
      int[] owner = new int[65536];
      java.util.Arrays.fill(owner, -1);
      for (int c = 0; c < p.consumers().size(); c++) {
        for (Range r : p.hashRanges(c)) {
          // auto-split's top range ends at the broker's upper bound 65536, which is not a slot
          for (int s = r.getStart(); s <= Math.min(r.getEnd(), 65535); s++) {
            assertThat(owner[s]).as("slot %d owned twice", s).isEqualTo(-1);
            owner[s] = c;
          }
        }
      }
      for (int s = first; s < 65536; s++) {
        assertThat(owner[s]).as("slot %d in %s", s, p).isEqualTo(p.ownerIndexOfSlot(s));
      }
    }
  }

  @Test
  void autoSplitGivesTheNewConsumerTheLowerHalfOfTheBiggestRange() {
    KeySharedPredictor p = KeySharedPredictor.autoSplit(List.of("c1", "c2", "c3"));
    // c1 owns everything; c2 takes the lower half (0, 32768]; c3 the lower half of the lowest of
    // the two equal halves. The top range ends at 65536, as the broker reports it (before: 65535).
    assertThat(p.hashRanges(0)).containsExactly(Range.of(32769, 65536));
    assertThat(p.hashRanges(1)).containsExactly(Range.of(16385, 32768));
    assertThat(p.hashRanges(2)).containsExactly(Range.of(0, 16384));
    // Another join order, other owners for the same slots.
    KeySharedPredictor q = KeySharedPredictor.autoSplit(List.of("c3", "c2", "c1"));
    assertThat(q.hashRanges(0)).containsExactly(Range.of(32769, 65536));
    assertThat(q.consumers().get(0)).isEqualTo("c3");
  }

  @Test
  void autoSplitTopOwnerLeavingHandsTheTopToTheRangeBelow() {
    KeySharedPredictor p = KeySharedPredictor.autoSplit(List.of("c1", "c2", "c3")).leave("c1");
    // c2's (16384, 32768] moves up to (16384, 65536]; c3 keeps [0, 16384].
    assertThat(p.consumers()).containsExactly("c2", "c3");
    assertThat(p.hashRanges(0)).containsExactly(Range.of(16385, 65536));
    assertThat(p.hashRanges(1)).containsExactly(Range.of(0, 16384));
    // A middle consumer leaving merges its range into the range above it.
    KeySharedPredictor q = KeySharedPredictor.autoSplit(List.of("c1", "c2", "c3")).leave("c2");
    assertThat(q.hashRanges(0)).containsExactly(Range.of(16385, 65536));
    assertThat(q.hashRanges(1)).containsExactly(Range.of(0, 16384));
  }

  @Test
  void consistentHashingJoinMovesKeysOnlyToTheNewConsumer() {
    KeySharedPredictor before = KeySharedPredictor.consistentHashing(ABC);
    KeySharedPredictor after = before.join("consumer-d");
    int moved = 0;
    for (String key : keys(50_000)) {
      String from = before.consumerOf(key).orElseThrow();
      String to = after.consumerOf(key).orElseThrow();
      if (!from.equals(to)) {
        assertThat(to).isEqualTo("consumer-d");
        moved++;
      }
    }
    assertThat(moved).isBetween(50_000 / 4 * 3 / 4, 50_000 / 4 * 5 / 4);
  }

  @Test
  void leavingAndRejoiningRestoresTheSameRing() {
    KeySharedPredictor p = KeySharedPredictor.consistentHashing(ABC);
    KeySharedPredictor q = p.leave("consumer-b").join("consumer-b");
    for (String key : keys(20_000)) {
      assertThat(q.consumerOf(key)).isEqualTo(p.consumerOf(key));
    }
  }

  @Test
  void duplicateNamesGetDistinctNameIndexes() {
    KeySharedPredictor p = KeySharedPredictor.consistentHashing(List.of("same", "same", "same"));
    KeyShare share = p.shareOf(keys(30_000));
    assertThat(share.min()).isGreaterThan(5_000);
    // the earliest-joined "same" leaves; its name index 0 is free again for the next "same"
    KeySharedPredictor q = p.leave("same").join("same");
    for (String key : keys(5_000)) {
      int before = p.ownerIndex(key);
      int after = q.ownerIndex(key);
      // indexes shift by join order: old 0 is now last (2); old 1, 2 are now 0, 1
      assertThat(after).isEqualTo(before == 0 ? 2 : before - 1);
    }
  }

  @Test
  void collidingPointsStayWithTheFirstAndPassOnInJoinOrder() {
    // With 65535 slots and many points, collisions are certain; join order then decides owners.
    List<String> many = IntStream.range(0, 40).mapToObj(i -> "c" + i).collect(Collectors.toList());
    KeySharedPredictor p = KeySharedPredictor.consistentHashing(many, 2000);
    List<String> reversed = new ArrayList<>(many);
    java.util.Collections.reverse(reversed);
    KeySharedPredictor q = KeySharedPredictor.consistentHashing(reversed, 2000);
    int differ = 0;
    for (int s = 1; s < 65536; s++) {
      String a = p.consumers().get(p.ownerIndexOfSlot(s));
      String b = q.consumers().get(q.ownerIndexOfSlot(s));
      if (!a.equals(b)) {
        differ++;
      }
    }
    assertThat(differ).isPositive();
    // When a point's owner leaves, the next colliding consumer takes it over; no slot is lost.
    KeySharedPredictor r = p.leave("c0");
    for (int s = 1; s < 65536; s++) {
      assertThat(r.ownerIndexOfSlot(s)).isNotNegative();
      assertThat(r.consumers().get(r.ownerIndexOfSlot(s))).isNotEqualTo("c0");
    }
  }

  @Test
  void orderingKeyWinsOverKey() {
    KeySharedPredictor p = KeySharedPredictor.consistentHashing(ABC);
    byte[] ordering = "order-42".getBytes(StandardCharsets.UTF_8);
    assertThat(p.consumerOf("anything", ordering)).isEqualTo(p.consumerOf("order-42"));
    assertThat(p.consumerOf("k1", null)).isEqualTo(p.consumerOf("k1"));
    assertThatThrownBy(() -> p.consumerOf((String) null, null))
        .isInstanceOf(NullPointerException.class);
  }

  @Test
  void noConsumersMeansNobody() {
    KeySharedPredictor p = KeySharedPredictor.consistentHashing(List.of());
    assertThat(p.consumerOf("k")).isEmpty();
    assertThat(p.shareOf(keys(10)).unassigned()).isEqualTo(10);
    assertThat(p.shareOf(keys(10)).maxOverMean()).isNaN();
  }

  @Test
  void stickyRangesRouteByDeclaredRangesAndGapsReachNobody() {
    Map<String, List<Range>> ranges = new LinkedHashMap<>();
    ranges.put("a", List.of(Range.of(0, 20000)));
    ranges.put("b", List.of(Range.of(20001, 40000)));
    ranges.put("c", List.of(Range.of(50001, 65535))); // gap 40001..50000
    KeySharedPredictor p = KeySharedPredictor.sticky(ranges);
    KeyShare share = p.shareOf(keys(100_000));
    StickyRangeReport report = KeySharedPredictor.validateStickyRanges(ranges, keys(100_000));
    assertThat(report.isValid()).isTrue();
    assertThat(report.coversAllSlots()).isFalse();
    assertThat(report.gaps()).containsExactly(Range.of(40001, 50000));
    assertThat(report.gapSlots()).isEqualTo(10000);
    assertThat(report.keysInGaps()).isEqualTo(share.unassigned());
    assertThat(report.gapShare()).isBetween(0.14, 0.16);
    for (String key : keys(2000)) {
      int slot = p.slot(key);
      String expected = slot <= 20000 ? "a" : slot <= 40000 ? "b" : slot <= 50000 ? null : "c";
      assertThat(p.consumerOf(key).orElse(null)).isEqualTo(expected);
    }
  }

  @Test
  void stickyRejectsWhatTheBrokerRejects() {
    assertThatThrownBy(() -> KeySharedPredictor.sticky(Map.of(
            "a", List.of(Range.of(0, 100)), "b", List.of(Range.of(100, 200)))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("overlaps");
    assertThatThrownBy(() -> KeySharedPredictor.sticky(Map.of("a", List.of(Range.of(0, 65536)))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("[0, 65536]")
        .hasMessageContaining("outside [0, 65535]");
    assertThatThrownBy(() -> KeySharedPredictor.sticky(Map.of("a", List.of())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no ranges");
    assertThatThrownBy(() -> KeySharedPredictor.sticky(
            Map.of("a", List.of(Range.of(0, 10), Range.of(5, 20)))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("of consumer 'a' overlap");
    KeySharedPredictor p = KeySharedPredictor.sticky(Map.of("a", List.of(Range.of(0, 100))));
    assertThatThrownBy(() -> p.join("b", List.of(Range.of(50, 60))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("the broker rejects the later consumer");
    assertThatThrownBy(() -> p.join("b")).isInstanceOf(IllegalStateException.class);
    assertThat(p.join("b", List.of(Range.of(101, 65535))).leave("a").consumers())
        .containsExactly("b");
  }

  @Test
  void validationReportsEveryProblemAtOnce() {
    Map<String, List<Range>> ranges = new LinkedHashMap<>();
    ranges.put("a", List.of(Range.of(0, 30000), Range.of(29000, 31000)));
    ranges.put("b", List.of(Range.of(30500, 70000)));
    ranges.put("c", List.of());
    StickyRangeReport r = KeySharedPredictor.validateStickyRanges(ranges, List.of());
    assertThat(r.isValid()).isFalse();
    assertThat(r.overlaps()).hasSize(2);
    assertThat(r.overlaps().get(0).consumer()).isEqualTo("a");
    assertThat(r.overlaps().get(0).otherConsumer()).isEqualTo("a");
    assertThat(r.overlaps().get(1).otherConsumer()).isEqualTo("b");
    assertThat(r.outOfRange()).containsExactly(
        new StickyRangeReport.OutOfRange("b", Range.of(30500, 70000)));
    assertThat(r.consumersWithoutRanges()).containsExactly("c");
    assertThat(r.gaps()).isEmpty();
    assertThat(r.gapShare()).isZero();
    assertThat(r.toString()).contains("INVALID", "overlap: a [0, 30000] and a [29000, 31000]",
        "no ranges: c");
  }

  @Test
  void validityAgreesWithTheClientsKeySharedPolicyValidate() {
    List<List<Range>> cases = List.of(
        List.of(Range.of(0, 65535)),
        List.of(Range.of(0, 65536)),
        List.of(Range.of(-1, 5)),
        List.of(Range.of(0, 5), Range.of(5, 9)),
        List.of(Range.of(0, 5), Range.of(6, 9)),
        List.of(),
        List.of(Range.of(10, 10), Range.of(0, 9), Range.of(11, 65535)));
    for (List<Range> ranges : cases) {
      boolean clientAccepts;
      try {
        KeySharedPolicy.stickyHashRange().ranges(ranges).validate();
        clientAccepts = true;
      } catch (IllegalArgumentException e) {
        clientAccepts = false;
      }
      assertThat(KeySharedPredictor.validateStickyRanges(Map.of("x", ranges), List.of()).isValid())
          .as("%s", ranges).isEqualTo(clientAccepts);
    }
  }

  @Test
  void badArgumentsFailClearly() {
    assertThatThrownBy(() -> KeySharedPredictor.consistentHashing(ABC, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("subscriptionKeySharedConsistentHashingReplicaPoints value was 0");
    assertThatThrownBy(() -> KeySharedPredictor.consistentHashing(ABC).leave("nobody"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'nobody' is not connected");
    assertThatThrownBy(() -> KeySharedPredictor.autoSplit(java.util.Arrays.asList("a", null)))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> KeySharedPredictor.consistentHashing(ABC).hashRanges(3))
        .isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void shareReportsCountsAndMaxOverMean() {
    KeySharedPredictor p = KeySharedPredictor.sticky(Map.of("only", List.of(Range.of(0, 65535))));
    KeyShare s = p.shareOfBytes(List.of(new byte[0], new byte[] {1}, new byte[] {2}));
    assertThat(s.counts()).containsExactly(3);
    assertThat(s.maxOverMean()).isEqualTo(1.0);
    assertThat(s.fraction(0)).isEqualTo(1.0);
    assertThat(s.toString()).contains("only", "max/mean 1.0000");
  }

  @Test
  void aLaterInstanceOfASharedNameCanLeaveByItsHandle() {
    // a handle names one instance of a repeated name, so a later instance can leave, as on the
    // broker; leave(name) alone would always remove the earliest.
    KeySharedPredictor p = KeySharedPredictor.consistentHashing(List.of("svc", "svc", "svc"));
    ConsumerHandle second = p.handles().get(1);
    assertThat(second).isEqualTo(new ConsumerHandle("svc", 1));
    KeySharedPredictor q = p.leave(second);
    assertThat(q.handles()).containsExactly(new ConsumerHandle("svc", 0), new ConsumerHandle("svc", 2));
    // the remaining instances keep their points: every key of instance 0 or 2 stays with it
    for (String key : keys(20_000)) {
      ConsumerHandle before = p.ownerOf(key).orElseThrow();
      ConsumerHandle after = q.ownerOf(key).orElseThrow();
      if (!before.equals(second)) {
        assertThat(after).isEqualTo(before);
      }
    }
    // a rejoining "svc" gets the freed name index 1 and the same points back
    KeySharedPredictor r = q.join("svc");
    assertThat(r.lastJoined()).isEqualTo(new ConsumerHandle("svc", 3));
    for (int s = 1; s < 65536; s += 7) {
      ConsumerHandle was = p.handles().get(p.ownerIndexOfSlot(s));
      ConsumerHandle now = r.handles().get(r.ownerIndexOfSlot(s));
      assertThat(now).isEqualTo(was.equals(second) ? r.lastJoined() : was);
    }
    assertThatThrownBy(() -> q.leave(second)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is not connected");
  }

  @Test
  void stickyInstancesMayShareANameWithDisjointRanges() {
    // the broker accepts a repeated consumer name under sticky, so the predictor does too.
    KeySharedPredictor p = KeySharedPredictor.sticky(Map.of("svc", List.of(Range.of(0, 21000))))
        .join("svc", List.of(Range.of(21001, 42000)))
        .join("svc", List.of(Range.of(42001, 65535)));
    assertThat(p.consumers()).containsExactly("svc", "svc", "svc");
    assertThat(p.ownerIndexOfSlot(30000)).isEqualTo(1);
    KeySharedPredictor q = p.leave(p.handles().get(1));
    assertThat(q.ownerIndexOfSlot(30000)).isEqualTo(-1);
    assertThat(q.ownerIndexOfSlot(50000)).isEqualTo(1);
    assertThat(q.hashRanges(1)).containsExactly(Range.of(42001, 65535));
  }

  @Test
  void autoSplitBuildsTheDocumentedMaximumAndRejectsOneMore() {
    // JMH (KeySharedPredictorBenchmark) measures the build of 65,536 consumers and the rejection
    // of the 65,537th; this checks their result.
    List<String> names = IntStream.range(0, 65536).mapToObj(i -> "c" + i).toList();
    KeySharedPredictor p = KeySharedPredictor.autoSplit(names);
    for (int c = 0; c < names.size(); c += 997) {
      Range r = p.hashRanges(c).get(0);
      assertThat(r.getEnd() - Math.max(r.getStart(), 1) + 1).isEqualTo(1);
    }
    // the first consumer keeps the top bound 65536, which no key reaches
    assertThat(p.hashRanges(0)).containsExactly(Range.of(65536, 65536));
    List<String> tooMany = new ArrayList<>(names);
    tooMany.add("one-more");
    assertThatThrownBy(() -> KeySharedPredictor.autoSplit(tooMany))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'one-more' cannot join");
    assertThatThrownBy(() -> p.join("one-more"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'one-more' cannot join");
  }

  @Test
  void incrementalJoinsAndLeavesEqualAFreshBuild() {
    // The incremental state after joins and leaves equals the bulk build of the survivors when
    // they would have joined in that order and no collisions are order-sensitive: checked here
    // for auto-split (join-only prefix) and for the ring with unique names.
    java.util.Random random = new java.util.Random(7);
    KeySharedPredictor inc = KeySharedPredictor.consistentHashing(List.of());
    List<String> names = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      inc = inc.join("n" + i);
      names.add("n" + i);
    }
    KeySharedPredictor bulk = KeySharedPredictor.consistentHashing(names);
    for (int s = 1; s < 65536; s++) {
      assertThat(inc.ownerIndexOfSlot(s)).isEqualTo(bulk.ownerIndexOfSlot(s));
    }
    KeySharedPredictor as = KeySharedPredictor.autoSplit(List.of());
    for (int i = 0; i < 300; i++) {
      as = as.join("a" + random.nextInt(5));
    }
    KeySharedPredictor asBulk = KeySharedPredictor.autoSplit(as.consumers());
    for (int s = 0; s < 65536; s++) {
      assertThat(as.ownerIndexOfSlot(s)).isEqualTo(asBulk.ownerIndexOfSlot(s));
    }
  }

  @Test
  void slotZeroIsNoGapBecauseNoKeyHashesToIt() {
    // [1, 65535] leaves only slot 0 uncovered, which the sticky selector never hashes to: no gap.
    Map<String, List<Range>> ranges = Map.of("a", List.of(Range.of(1, 65535)));
    StickyRangeReport r = KeySharedPredictor.validateStickyRanges(ranges, keys(10_000));
    assertThat(r.gaps()).isEmpty();
    assertThat(r.gapSlots()).isZero();
    assertThat(r.coversAllSlots()).isTrue();
    assertThat(r.keysInGaps()).isZero();
    // and a declared slot 0 alone still leaves every key undelivered
    StickyRangeReport zero = KeySharedPredictor.validateStickyRanges(
        Map.of("a", List.of(Range.of(0, 0))), keys(1000));
    assertThat(zero.gaps()).containsExactly(Range.of(1, 65535));
    assertThat(zero.gapSlotShare()).isEqualTo(1.0);
    assertThat(zero.keysInGaps()).isEqualTo(1000);
  }

  @Test
  void reportLeadsWithTheShareOfKeysNobodyReceives() {
    // a report with half the keys in gaps must not start with "valid".
    StickyRangeReport r = KeySharedPredictor.validateStickyRanges(
        Map.of("a", List.of(Range.of(0, 32767))), keys(20_000));
    assertThat(r.gapShare()).isBetween(0.48, 0.52);
    String first = r.toString().lines().findFirst().orElseThrow();
    assertThat(first).startsWith("keys no consumer receives: ")
        .contains(String.format(java.util.Locale.ROOT, "%.3f %% of 20000 sample keys",
            100 * r.gapShare()))
        .contains("32768 of 65535");
    assertThat(r.toString()).doesNotStartWith("valid");
    assertThat(r.toString().lines().skip(1).findFirst()).contains("every consumer can subscribe");
  }
}
