package io.github.routingkit.router.hotkey;

import io.github.routingkit.Routers;
import io.github.routingkit.testing.TestSerialization;
import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.router.HashRouter;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import static io.github.routingkit.testing.Concurrency.onEightThreads;

/**
 * Bad and extreme input for sampled hot-key detection: window and threshold bounds, serialization,
 * the sampled filter at array ends, concurrent routing, empty and long keys, huge counts. Deterministic: seeded Random, a single thread where the outcome depends on order
 * (the sampler is seeded); the 8-thread tests assert properties that hold under any interleaving.
 */
class SampledDetectionEdgeTest {

  /**
   * Regression: the window bound was compared as doubles, and (double) window rounds above 2^53,
   * so a window one message short of a bound near 2^61 was accepted (the summary then halved its
   * counts to below the warm-up after every window).
   */
  @Test
  void windowOneShortOfALargeBoundIsRejected() {
    double t = 1e-13;
    int s = 1024;
    long min = (long) (2 * Math.ceil(100 / t) * s);
    assertThat((double) (min - 1)).isEqualTo((double) min); // the rounding the old check fell for
    assertThatThrownBy(() -> HotKeyRouter.builder(Routers.kafkaDefault()).detect(true)
        .threshold(t).sample(s).window(min - 1).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("window was " + (min - 1)
            + ", must be at least 200 * sample / threshold = " + min + " messages");
    assertThat(HotKeyRouter.builder(Routers.kafkaDefault()).detect(true)
        .threshold(t).sample(s).window(min).build().toString()).contains("window=" + min);
  }

  /** A bound of exactly 2^63 fits no long: the default window must not pass it as Long.MAX_VALUE. */
  @Test
  void defaultWindowOfExactly2To63IsReported() {
    double t = 100 / 0x1p62;
    assertThat(2 * Math.ceil(100 / t)).isEqualTo(0x1p63);
    assertThatThrownBy(() -> HotKeyRouter.builder(Routers.kafkaDefault()).detect(true)
        .threshold(t).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("window was 100000, must be at least 200 / threshold"
            + " = 2^63 or more messages");
  }

  /**
   * Regression: a threshold below 2^-31 (allowed with a long enough window) overflowed the hot-set
   * size, (int) ceil(1 / t) + 1, to a negative array size: NegativeArraySizeException at build.
   */
  @Test
  void tinyThresholdWithLongWindowBuildsAndRoutes() {
    for (int s : new int[] {1, 8, 1024}) {
      HotKeyRouter r = HotKeyRouter.builder(Routers.kafkaDefault()).detect(true)
          .threshold(1e-10).window(Long.MAX_VALUE).sample(s).build();
      byte[] k = "k".getBytes(UTF_8);
      for (int i = 0; i < 5000; i++) {
        assertThat(r.partition(k, 7)).isEqualTo(Routers.kafkaDefault().partition(k, 7));
      }
    }
    RoutingSpec spec = RoutingSpec.parse("routing.hotkey.detect=true, routing.hotkey.sample=1024,"
        + " routing.hotkey.threshold=0.0000000001, routing.hotkey.window=9223372036854775807");
    assertThat(spec.keyRouter().partition("k", 7)).isBetween(0, 6);
  }




  @Test
  void serializationSampled() throws Exception {
    for (int s : new int[] {2, 8, 1024}) {
      HotKeyRouter r = HotKeyRouter.builder(Routers.consistentJumpBack()).detect(true).sample(s)
          .hotKeys(List.of("a", "", "ü")).choice(HotKeyRouter.Choice.VALUE_HASH).build();
      HotKeyRouter c = TestSerialization.roundTrip(r);
      assertThat(c.toString()).isEqualTo(r.toString());
      for (String k : List.of("a", "", "ü", "b")) {
        byte[] kb = k.getBytes(UTF_8);
        assertThat(c.isHot(kb)).isEqualTo(r.isHot(kb));
        for (int n = 1; n < 40; n++) {
          assertThat(c.partition(kb, "v".getBytes(UTF_8), n)).isEqualTo(r.partition(kb, "v".getBytes(UTF_8), n));
        }
      }
    }
  }

  /** Detect a hot key from a plain array, then route it embedded at every offset in larger arrays. */
  @Test
  void sampledFilterAtArrayEnds() {
    Random rnd = new Random(7);
    for (int len = 0; len <= 20; len++) {
      byte[] hot = new byte[len];
      rnd.nextBytes(hot);
      HotKeyRouter r = HotKeyRouter.builder(Routers.kafkaDefault()).detect(true).sample(8)
          .threshold(0.2).window(100_000).build();
      // one hot key among many cold ones
      for (int i = 0; i < 60_000; i++) {
        if (i % 2 == 0) {
          r.partition(hot, 10);
        } else {
          byte[] c = new byte[8];
          rnd.nextBytes(c);
          r.partition(c, 10);
        }
      }
      assertThat(r.isHot(hot)).as("len %d", len).isTrue();
      int[] cand = r.candidates(hot, 10);
      Set<Integer> cs = new HashSet<>();
      for (int c : cand) cs.add(c);
      for (int pad = 0; pad <= 17; pad++) {
        for (int before = 0; before <= pad; before++) {
          byte[] arr = new byte[len + pad];
          rnd.nextBytes(arr);
          System.arraycopy(hot, 0, arr, before, len);
          Set<Integer> seen = new HashSet<>();
          for (int i = 0; i < 200; i++) {
            int p = r.partition(arr, before, len, 10);
            assertThat(cs).as("len %d pad %d before %d", len, pad, before).contains(p);
            seen.add(p);
          }
          assertThat(seen.size()).as("spread len %d pad %d before %d", len, pad, before).isGreaterThan(1);
        }
      }
    }
  }



  /**
   * 8 threads, sampled detection, configured and detected hot keys, 9 partition counts: hot keys
   * land on their candidates, cold keys (each about 1e-6 of the traffic, never hot) on the inner
   * router's partition. "detected-hot" is a quarter of 2.4M messages against a 5 % threshold.
   */
  @Test
  void concurrentSampled() throws Exception {
    HashRouter inner = Routers.consistentJumpBack();
    HotKeyRouter r = HotKeyRouter.builder(inner).detect(true).sample(16).threshold(0.05)
        .hotKeys(List.of("conf")).candidates(4).build();
    byte[] hotD = "detected-hot".getBytes(UTF_8);
    byte[] conf = "conf".getBytes(UTF_8);
    int[] ns = {1, 2, 3, 5, 12, 64, 65, 129, 1000};
    String failure = onEightThreads(t -> {
      Random rnd = new Random(t);
      for (int i = 0; i < 300_000; i++) {
        int n = ns[(i / 7 + t) % ns.length];
        byte[] k;
        if (i % 4 == 0) {
          k = hotD;
        } else if (i % 8 == 1) {
          k = conf;
        } else {
          k = ("cold-" + rnd.nextInt(1_000_000)).getBytes(UTF_8);
        }
        int p = r.partition(k, n);
        if (k == hotD || k == conf) {
          boolean candidate = false;
          for (int x : r.candidates(k, n)) {
            candidate |= x == p;
          }
          if (!candidate) {
            return "not a candidate " + new String(k, UTF_8) + " n=" + n + " p=" + p;
          }
        } else if (p != inner.partition(k, n)) {
          return "cold moved " + new String(k, UTF_8) + " n=" + n;
        }
      }
      return null;
    });
    assertThat(failure).isNull();
    assertThat(r.isHot(hotD)).isTrue();
  }



  /** Configured keys of length 0 and 20, sampled or not, whole or at an offset: only candidates, spread. */
  @Test
  void configuredEmptyAndLongKeysStayOnCandidates() {
    for (int s : new int[] {1, 2, 1024}) {
      HotKeyRouter r = HotKeyRouter.builder(Routers.consistentJumpBack()).detect(true).sample(s)
          .hotKeys(List.of("", "abcdefghijklmnopqrst")).build();
      for (String k : List.of("", "abcdefghijklmnopqrst")) {
        byte[] kb = k.getBytes(UTF_8);
        byte[] arr = new byte[kb.length + 3];
        System.arraycopy(kb, 0, arr, 3, kb.length);
        for (int n : new int[] {1, 2, 3, 1000, 1 << 20}) {
          Set<Integer> c = new HashSet<>();
          for (int x : r.candidates(kb, n)) c.add(x);
          Set<Integer> seen = new HashSet<>();
          for (int i = 0; i < 100; i++) {
            seen.add(r.partition(kb, n));
            seen.add(r.partition(arr, 3, kb.length, n));
          }
          assertThat(c).containsAll(seen);
          if (n > 1) assertThat(seen.size()).as(k + " " + n + " " + s).isGreaterThan(1);
        }
      }
    }
  }

  /** candidates() ran out of memory for candidates=all at Integer.MAX_VALUE partitions. */
  @Test
  void candidatesRejectCountsAHotKeyCannotBeRoutedOver() {
    HotKeyRouter router = HotKeyRouter.builder(Routers.kafkaDefault())
        .hotKeys(java.util.List.of("k")).candidates(HotKeyRouter.ALL).build();
    byte[] key = "k".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> router.candidates(key, Integer.MAX_VALUE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("numPartitions was 2147483647");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> router.partition(key, Integer.MAX_VALUE))
        .isInstanceOf(IllegalArgumentException.class);
    org.assertj.core.api.Assertions.assertThat(router.candidates(key, 1 << 20)).hasSize(1 << 20);
  }
}
