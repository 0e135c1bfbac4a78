package io.github.routingkit.pulsar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.routingkit.pulsar.BundleLocator.Bundle;
import io.github.routingkit.pulsar.BundleLocator.SplitAlgorithm;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class BundleLocatorTest {

  @Test
  void equalBundlesMatchTheBrokersBoundaries() {
    assertThat(BundleLocator.equalBundles(4).boundaries()).containsExactly(
        "0x00000000", "0x40000000", "0x80000000", "0xc0000000", "0xffffffff");
    assertThat(BundleLocator.equalBundles(1).boundaries())
        .containsExactly("0x00000000", "0xffffffff");
    // 2^32 / 3 = 0x55555555 (integer division), the last boundary is always 0xffffffff
    assertThat(BundleLocator.equalBundles(3).boundaries())
        .containsExactly("0x00000000", "0x55555555", "0xaaaaaaaa", "0xffffffff");
    assertThat(BundleLocator.equalBundles(16).bundle(15).range())
        .isEqualTo("0xf0000000_0xffffffff");
    assertThat(BundleLocator.equalBundles(4))
        .isEqualTo(BundleLocator.ofBoundaries(BundleLocator.equalBundles(4).boundaries()));
  }

  @Test
  void topicHashIsCrc32OfTheFullName() {
    java.util.zip.CRC32 crc = new java.util.zip.CRC32();
    crc.update("persistent://t/ns/orders-partition-3".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    assertThat(BundleLocator.topicHash("t/ns/orders-partition-3")).isEqualTo(crc.getValue());
    assertThat(BundleLocator.topicHash("orders"))
        .isEqualTo(BundleLocator.topicHash("persistent://public/default/orders"));
    assertThat(BundleLocator.topicHash("t/ns/orders"))
        .isEqualTo(BundleLocator.topicHash("persistent://t/ns/orders"));
    assertThat(BundleLocator.topicHash("non-persistent://t/ns/orders"))
        .isNotEqualTo(BundleLocator.topicHash("persistent://t/ns/orders"));
    assertThat(BundleLocator.partitionName("t/ns/orders", 7))
        .isEqualTo("persistent://t/ns/orders-partition-7");
  }

  @Test
  void partitionsOfOneTopicSpreadOverBundles() {
    BundleLocator four = BundleLocator.equalBundles(4);
    Map<Bundle, List<String>> perBundle = four.topicsPerBundle(IntStream.range(0, 64)
        .mapToObj(i -> BundleLocator.partitionName("tenant/ns/orders", i))
        .collect(Collectors.toList()));
    assertThat(perBundle).hasSize(4);
    assertThat(perBundle.values().stream().mapToInt(List::size).sum()).isEqualTo(64);
    assertThat(perBundle.values()).allSatisfy(l -> assertThat(l).isNotEmpty());
    perBundle.forEach((b, topics) -> topics.forEach(
        t -> assertThat(b.contains(BundleLocator.topicHash(t))).isTrue()));
  }

  @Test
  void bundleEdgesAreHalfOpenExceptTheLast() {
    BundleLocator four = BundleLocator.equalBundles(4);
    assertThat(four.bundleOfHash(0).index()).isZero();
    assertThat(four.bundleOfHash(0x3fffffffL).index()).isZero();
    assertThat(four.bundleOfHash(0x40000000L).index()).isEqualTo(1);
    assertThat(four.bundleOfHash(0xffffffffL).index()).isEqualTo(3);
    assertThat(four.bundle(3).upperInclusive()).isTrue();
    assertThat(four.bundle(3).size()).isEqualTo(0x40000000L);
    assertThat(four.bundle(0).size()).isEqualTo(0x40000000L);
  }

  @Test
  void rangeEquallyDivideSplitsInTheMiddle() {
    BundleLocator four = BundleLocator.equalBundles(4);
    assertThat(four.splitPosition(four.bundle(0), SplitAlgorithm.RANGE_EQUALLY_DIVIDE, List.of()))
        .hasValue(0x20000000L);
    // the last bundle: 0xc0000000 + (0xffffffff - 0xc0000000) / 2
    assertThat(four.splitPosition(four.bundle(3), SplitAlgorithm.RANGE_EQUALLY_DIVIDE, List.of()))
        .hasValue(0xdfffffffL);
    BundleLocator five = four.split(four.bundle(0), 0x20000000L);
    assertThat(five.boundaries()).containsExactly(
        "0x00000000", "0x20000000", "0x40000000", "0x80000000", "0xc0000000", "0xffffffff");
    BundleLocator tiny = BundleLocator.ofBoundaries(0, 1, 0xffffffffL);
    assertThat(tiny.splitPosition(tiny.bundle(0), SplitAlgorithm.RANGE_EQUALLY_DIVIDE, List.of()))
        .isEmpty();
  }

  @Test
  void topicCountEquallyDivideSplitsBetweenTheMiddleTopics() {
    BundleLocator one = BundleLocator.equalBundles(1);
    List<String> topics = IntStream.range(0, 10).mapToObj(i -> "t/ns/topic-" + i)
        .collect(Collectors.toList());
    long[] h = topics.stream().mapToLong(BundleLocator::topicHash).sorted().toArray();
    OptionalLong pos = one.splitPosition(one.bundle(0), SplitAlgorithm.TOPIC_COUNT_EQUALLY_DIVIDE,
        topics);
    assertThat(pos).hasValue(h[4] + (h[5] - h[4]) / 2);
    BundleLocator two = one.split(one.bundle(0), pos.getAsLong());
    assertThat(two.topicsPerBundle(topics).values()).allSatisfy(l -> assertThat(l).hasSize(5));
    assertThat(one.splitPosition(one.bundle(0), SplitAlgorithm.TOPIC_COUNT_EQUALLY_DIVIDE,
        topics.subList(0, 1))).isEmpty();
    // topics outside the bundle do not count
    BundleLocator four = BundleLocator.equalBundles(4);
    Bundle b = four.bundleOf(topics.get(0));
    List<String> inB = four.topicsPerBundle(topics).get(b);
    assertThat(four.splitPosition(b, SplitAlgorithm.TOPIC_COUNT_EQUALLY_DIVIDE, topics))
        .isEqualTo(four.splitPosition(b, SplitAlgorithm.TOPIC_COUNT_EQUALLY_DIVIDE, inB));
  }

  @Test
  void badInputFailsWithTheValueAndTheRule() {
    assertThatThrownBy(() -> BundleLocator.equalBundles(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("numBundles value was 0, must be in [1, 1048576]");
    assertThatThrownBy(() -> BundleLocator.ofBoundaries(List.of("0x00000000", "0xzz")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bundle boundary 1 value was '0xzz'");
    assertThatThrownBy(() -> BundleLocator.ofBoundaries(List.of("0x00000000")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 2 boundaries");
    assertThatThrownBy(() -> BundleLocator.ofBoundaries(
            List.of("0x00000000", "0x80000000", "0x40000000", "0xffffffff")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bundle boundary 2 value was 0x40000000, must be greater than");
    assertThatThrownBy(() -> BundleLocator.ofBoundaries(List.of("0x00000000", "0x80000000")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must start at 0x00000000 and end at 0xffffffff");
    assertThatThrownBy(() -> BundleLocator.ofBoundaries(0, 0x100000000L))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must be in [0x00000000, 0xffffffff]");
    assertThatThrownBy(() -> BundleLocator.topicHash("a/b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("topic value was 'a/b'");
    assertThatThrownBy(() -> BundleLocator.topicHash("http://t/ns/x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("domain must be persistent or non-persistent");
    assertThatThrownBy(() -> BundleLocator.topicHash("persistent://t/ns/ "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must not be blank");
    assertThatThrownBy(() -> BundleLocator.partitionName("x", -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("partition value was -1, must be >= 0");
    BundleLocator four = BundleLocator.equalBundles(4);
    assertThatThrownBy(() -> four.split(four.bundle(1), 0x40000000L))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("strictly inside bundle 0x40000000_0x80000000");
    assertThatThrownBy(() -> four.splitPosition(BundleLocator.equalBundles(2).bundle(0),
            SplitAlgorithm.RANGE_EQUALLY_DIVIDE, List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is not one of");
    assertThatThrownBy(() -> four.bundleOfHash(-1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void algorithmNamesAreTheBrokers() {
    assertThat(SplitAlgorithm.RANGE_EQUALLY_DIVIDE.brokerName()).isEqualTo("range_equally_divide");
    assertThat(SplitAlgorithm.TOPIC_COUNT_EQUALLY_DIVIDE.brokerName())
        .isEqualTo("topic_count_equally_divide");
  }

  @Test
  void equalBundlesAboveTheDocumentedBoundAreRejectedClearly() {
    // counts above the cap are refused up front (no NegativeArraySizeException, no out-of-memory).
    for (int n : new int[] {Integer.MAX_VALUE, 100_000_000, BundleLocator.MAX_EQUAL_BUNDLES + 1}) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> BundleLocator.equalBundles(n))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("numBundles value was " + n)
          .hasMessageContaining("must be in [1, 1048576]");
    }
    BundleLocator most = BundleLocator.equalBundles(BundleLocator.MAX_EQUAL_BUNDLES);
    org.assertj.core.api.Assertions.assertThat(most.bundleCount()).isEqualTo(1 << 20);
    org.assertj.core.api.Assertions.assertThat(most.bundleOfHash(0xffffffffL).index())
        .isEqualTo((1 << 20) - 1);
  }
}
