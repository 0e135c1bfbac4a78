package io.github.routingkit.pulsar;

import io.github.routingkit.property.Gen;
import io.github.routingkit.property.Property;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.pulsar.BundleLocator.Bundle;
import io.github.routingkit.pulsar.BundleLocator.SplitAlgorithm;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.pulsar.client.api.KeySharedPolicy;
import org.apache.pulsar.client.api.Range;

/** Properties of the read side (Key_Shared) and the service side (bundles). */
class RoutingPulsarReadProperties {

  @Test
  void everyKeyHasAConnectedOwnerUnderTheHashingSelectors() {
    Property.check(200, Gen.strings(0, 12).list(1, 8), Gen.strings(0, 255).list(0, 30), Gen.ints(1, 150), (consumers, keys, points) -> {
      for (KeySharedPredictor p : List.of(
          KeySharedPredictor.consistentHashing(consumers, points),
          KeySharedPredictor.autoSplit(consumers))) {
        for (String key : keys) {
          int slot = p.slot(key);
          assertThat(slot).isBetween(1, 65535);
          int owner = p.ownerIndex(key);
          assertThat(owner).isBetween(0, consumers.size() - 1);
          assertThat(p.consumerOf(key)).contains(consumers.get(owner));
        }
      }
    });
  }

  @Test
  void leavingMovesOnlyTheLeaversKeysUnderConsistentHashing() {
    Property.check(100, Gen.strings(1, 8).uniqueList(2, 6), Gen.ints(0, 5), Gen.strings(0, 255).list(1, 50), (consumers, leaverIndex, keys) -> {
      String leaver = consumers.get(leaverIndex % consumers.size());
      KeySharedPredictor before = KeySharedPredictor.consistentHashing(consumers);
      KeySharedPredictor after = before.leave(leaver);
      for (String key : keys) {
        String owner = before.consumerOf(key).orElseThrow();
        if (!owner.equals(leaver)) {
          assertThat(after.consumerOf(key)).contains(owner);
        } else {
          assertThat(after.consumerOf(key)).isPresent().get().isNotEqualTo(leaver);
        }
      }
    });
  }

  @Test
  void autoSplitRangesAreContiguousAndSizedByPowersOfTwo() {
    Property.check(100, Gen.ints(1, 40), n -> {
      List<String> consumers = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        consumers.add("c" + i);
      }
      KeySharedPredictor p = KeySharedPredictor.autoSplit(consumers);
      long covered = 0;
      for (int i = 0; i < n; i++) {
        List<Range> ranges = p.hashRanges(i);
        assertThat(ranges).hasSize(1);
        covered += width(ranges.get(0));
      }
      // slots 0..65535 plus the top range's upper bound 65536, which the broker reports too
      assertThat(covered).isEqualTo(65537);
      // each range (lower, upper] is 65536 / 2^k wide; slot 0 sits below the lowest range
      for (int i = 0; i < n; i++) {
        Range r = p.hashRanges(i).get(0);
        int size = width(r) - (r.getStart() == 0 ? 1 : 0);
        assertThat(Integer.bitCount(size)).as("%s owns %s", consumers.get(i), r).isEqualTo(1);
      }
    });
  }
  Gen<List<Range>> rangeLists() {
    Gen<Range> range = Gen.combine(
            Gen.ints(-3, 65540), Gen.ints(0, 70000), (start, len) -> Range.of(start, start + len % 30000));
    return range.list(0, 5);
  }

  @Test
  void validityMatchesTheRealClientValidationAndTheSelectorBuild() {
    Property.check(300, rangeLists(), ranges -> {
      boolean clientAccepts;
      try {
        KeySharedPolicy.stickyHashRange().ranges(ranges).validate();
        clientAccepts = true;
      } catch (IllegalArgumentException e) {
        clientAccepts = false;
      }
      StickyRangeReport report =
          KeySharedPredictor.validateStickyRanges(Map.of("x", ranges), List.of());
      assertThat(report.isValid()).isEqualTo(clientAccepts);
      boolean builds;
      try {
        KeySharedPredictor.sticky(Map.of("x", ranges));
        builds = true;
      } catch (IllegalArgumentException e) {
        builds = false;
      }
      assertThat(builds).isEqualTo(clientAccepts);
    });
  }

  @Test
  void gapSlotsAreExactlyTheSlotsNobodyReceives() {
    Property.check(200, Gen.ints(0, 65535), Gen.ints(0, 65535), Gen.strings(0, 255).list(0, 40), (a, b, keys) -> {
      int lo = Math.min(a, b);
      int hi = Math.max(a, b);
      Map<String, List<Range>> ranges = new LinkedHashMap<>();
      ranges.put("low", List.of(Range.of(0, lo)));
      if (hi > lo + 1) {
        ranges.put("high", List.of(Range.of(hi, 65535)));
      }
      KeySharedPredictor p = KeySharedPredictor.sticky(ranges);
      StickyRangeReport r = KeySharedPredictor.validateStickyRanges(ranges, keys);
      long nobody = keys.stream().filter(k -> p.consumerOf(k).isEmpty()).count();
      assertThat(r.keysInGaps()).isEqualTo(nobody);
      assertThat(p.shareOf(keys).unassigned()).isEqualTo(nobody);
      int gapSlots = 0;
      for (int s = 0; s < 65536; s++) {
        if (p.ownerIndexOfSlot(s) < 0) {
          gapSlots++;
        }
      }
      assertThat(r.gapSlots()).isEqualTo(gapSlots);
    });
  }

  @Test
  void everyHashIsInExactlyOneBundle() {
    Property.check(300, Gen.ints(1, 300), Gen.longs(0, 0xffffffffL), (n, hash) -> {
      BundleLocator loc = BundleLocator.equalBundles(n);
      Bundle b = loc.bundleOfHash(hash);
      assertThat(b.contains(hash)).isTrue();
      assertThat(loc.bundles().stream().filter(x -> x.contains(hash)).count()).isEqualTo(1);
      // a random hash almost never sits on a boundary: check the bundle's own ends too
      for (long edge : new long[] {b.lower(), Math.min(b.upper(), 0xffffffffL)}) {
        assertThat(loc.bundles().stream().filter(x -> x.contains(edge)).count()).as("hash %s", edge)
            .isEqualTo(1);
      }
      assertThat(loc.bundles().stream().mapToLong(Bundle::size).sum()).isEqualTo(1L << 32);
    });
  }

  @Test
  void splitsLandStrictlyInsideAndTopicCountHalvesTheTopics() {
    Property.check(200, Gen.ints(1, 16), Gen.strings(1, 10).uniqueList(2, 60), (n, names) -> {
      BundleLocator loc = BundleLocator.equalBundles(n);
      // distinct() because "a/" and "a_" name the same topic: duplicate hashes at the middle could
      // put fewer than size / 2 - 1 on the lower side. Left: a CRC-32 collision of three of the 60
      // names at the middle, below C(60, 3) / 2^64 = 2e-15 per try. Names are taken through UTF-8
      // first: a lone surrogate encodes as '?', so "\ud800", "\ud801" and "?" name one topic.
      List<String> topics = names.stream()
          .map(s -> new String(("t/ns/topic-" + s.replace('/', '_')).getBytes(StandardCharsets.UTF_8),
              StandardCharsets.UTF_8))
          .distinct().toList();
      for (Bundle b : loc.bundles()) {
        OptionalLong mid = loc.splitPosition(b, SplitAlgorithm.RANGE_EQUALLY_DIVIDE, topics);
        assertThat(mid).isPresent();
        assertThat(mid.getAsLong()).isGreaterThan(b.lower()).isLessThan(b.upper());
        List<String> inside = loc.topicsPerBundle(topics).get(b);
        OptionalLong byCount = loc.splitPosition(b, SplitAlgorithm.TOPIC_COUNT_EQUALLY_DIVIDE, topics);
        assertThat(byCount.isPresent()).isEqualTo(inside.size() >= 2);
        if (byCount.isPresent() && byCount.getAsLong() > b.lower()) {
          BundleLocator after = loc.split(b, byCount.getAsLong());
          long left = inside.stream()
              .filter(t -> after.bundleOf(t).index() == b.index()).count();
          // at most half stay on the lower side; exactly half unless two middle hashes are adjacent
          assertThat(left).isBetween((long) inside.size() / 2 - 1, (long) inside.size() / 2);
        }
      }
    });
  }

  /** Slots in the inclusive range; {@code Range.size()} exists only from pulsar-client 4.0. */
  private static int width(Range r) {
    return r.getEnd() - r.getStart() + 1;
  }
}
