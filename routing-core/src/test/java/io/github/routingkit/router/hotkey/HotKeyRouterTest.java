package io.github.routingkit.router.hotkey;

import io.github.routingkit.Routers;
import io.github.routingkit.RoutingConfigException;

import io.github.routingkit.KeyRouter;

import io.github.routingkit.config.RoutingSpec;

import io.github.routingkit.property.Gen;
import io.github.routingkit.property.Property;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The measurement: 1,000,000 messages whose keys follow Zipf(s = 1.2) over 100,000
 * distinct keys, 24 partitions.
 */
class HotKeyRouterTest {
  static final int N = 24;
  static final int DISTINCT = 100_000;
  static final int MESSAGES = 1_000_000;
  static byte[][] keys;
  static int[] stream; // rank - 1 of each message

  @BeforeAll
  static void zipf() {
    keys = new byte[DISTINCT][];
    double[] cdf = new double[DISTINCT];
    double sum = 0;
    for (int r = 1; r <= DISTINCT; r++) {
      keys[r - 1] = ("key-" + r).getBytes(UTF_8);
      sum += Math.pow(r, -1.2);
      cdf[r - 1] = sum;
    }
    Random random = new Random(20261129L);
    stream = new int[MESSAGES];
    for (int i = 0; i < MESSAGES; i++) {
      int idx = Arrays.binarySearch(cdf, random.nextDouble() * sum);
      stream[i] = idx >= 0 ? idx : Math.min(-idx - 1, DISTINCT - 1);
    }
  }

  static double maxOverMean(long[] counts) {
    long max = 0;
    long total = 0;
    for (long c : counts) {
      max = Math.max(max, c);
      total += c;
    }
    return max / ((double) total / counts.length);
  }

  @Test
  void plainMurmur2IsSkewed() {
    KeyRouter murmur = Routers.kafkaDefault();
    long[] counts = new long[N];
    for (int k : stream) {
      counts[murmur.partition(keys[k], N)]++;
    }
    double mm = maxOverMean(counts);
    System.out.printf("Zipf(1.2) 1e6 msgs / 1e5 keys / 24 partitions: murmur2 max/mean = %.3f%n", mm);
    assertThat(mm).isGreaterThan(4.5);
  }

  @Test
  void detectedHotKeysAreScatteredSingleThread() {
    routeStreamAndReport("1 thread", HashRouterBacked.detecting());
  }

  private static void routeStreamAndReport(String label, HotKeyRouter router) {
    long[] counts = new long[N];
    int[] masks = new int[DISTINCT];
    for (int k : stream) {
      int p = router.partition(keys[k], N);
      counts[p]++;
      masks[k] |= 1 << p;
    }
    report(label, router, counts, masks);
  }

  /**
   * Sampled detection (one message in 8 counted, the rest checked through the hot-set filter):
   * the same guarantees on the same stream. Deterministic: one thread, fixed sampler seed. Fails
   * if messages that are not counted skipped the hot-set check (hot keys would then stay on one
   * partition 7 times in 8).
   */
  @Test
  void sampledDetectionScattersHotKeysToo() {
    routeStreamAndReport("1 thread, sample 8", HotKeyRouter.builder(Routers.kafkaDefault())
        .detect(true).candidates(8).sample(8).build());
  }

  @Test
  void theDefaultWindowGrowsWithSampleAndShrinkingThreshold() {
    assertThat(HotKeyRouter.builder(Routers.kafkaDefault()).detect(true).build().toString())
        .contains("window=100000, sample=1");
    assertThat(HotKeyRouter.builder(Routers.kafkaDefault()).detect(true).sample(8).build()
        .toString()).contains("window=160000, sample=8");
    assertThat(HotKeyRouter.builder(Routers.kafkaDefault()).detect(true).threshold(0.001)
        .build().toString()).contains("window=200000, sample=1");
    assertThat(RoutingSpec.parse("routing.hotkey.detect=true, routing.hotkey.sample=16")
        .keyRouter().toString()).contains("window=320000, sample=16");
  }

  @Test
  void detectedHotKeysAreScatteredUnder8Threads() throws Exception {
    HotKeyRouter router = HashRouterBacked.detecting();
    AtomicIntegerArray masks = new AtomicIntegerArray(DISTINCT);
    long[][] perThread = new long[8][N];
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int thread = t;
        futures.add(pool.submit(() -> {
          // interleaved slices: every thread sees the same key mix
          for (int i = thread; i < MESSAGES; i += 8) {
            int k = stream[i];
            int p = router.partition(keys[k], N);
            perThread[thread][p]++;
            int bit = 1 << p;
            masks.accumulateAndGet(k, bit, (a, b) -> a | b);
          }
        }));
      }
      for (Future<?> f : futures) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    long[] counts = new long[N];
    int[] m = new int[DISTINCT];
    for (int t = 0; t < 8; t++) {
      for (int p = 0; p < N; p++) {
        counts[p] += perThread[t][p];
      }
    }
    for (int k = 0; k < DISTINCT; k++) {
      m[k] = masks.get(k);
    }
    // Under 8 threads the balance depends on scheduling (which messages the detector samples while
    // its lock is free, when each thread's load stripe sees the hot keys): 1.052 to 1.054 in 80
    // runs, idle or beside a 2-core CPU hog, but once 1.23 under load. Its exact 1.10 bound is
    // kept by the single-threaded test, which is deterministic; here the bound only says hot keys
    // were scattered at all (unscattered: 5.07).
    report("8 threads", router, counts, m, 2.0);
  }

  private static void report(String label, HotKeyRouter router, long[] counts, int[] masks) {
    report(label, router, counts, masks, 1.10); // deterministic: one thread, seeded stream
  }

  private static void report(String label, HotKeyRouter router, long[] counts, int[] masks,
      double maxOverMeanBound) {
    double mm = maxOverMean(counts);
    int spread = 0;
    int maxRankSpread = 0;
    for (int k = 0; k < DISTINCT; k++) {
      int c = Integer.bitCount(masks[k]);
      if (c > 1) {
        spread++;
        maxRankSpread = Math.max(maxRankSpread, k + 1);
        int allowed = 0;
        for (int p : router.candidates(keys[k], N)) {
          allowed |= 1 << p;
        }
        assertThat(masks[k] & ~allowed).as("key %d outside its candidates", k + 1).isZero();
        assertThat(c).isLessThanOrEqualTo(8);
      } else if (masks[k] != 0) {
        assertThat(Integer.numberOfTrailingZeros(masks[k]))
            .isEqualTo(Routers.kafkaDefault().partition(keys[k], N));
      }
    }
    System.out.printf("Zipf(1.2) %s: hot-key scatter (d=8, threshold 0.01, least-loaded) "
            + "max/mean = %.4f, %d keys on >1 partition (highest rank %d), %d detected hot now,"
            + " detector memory %d bytes%n", label, mm, spread, maxRankSpread,
        router.detectedHotKeys(), router.detectorMemoryBytes());
    assertThat(mm).isLessThanOrEqualTo(maxOverMeanBound);
    // only genuinely heavy keys were spread: share >= 1 % means rank <= 11 here (rank 12 has
    // 0.996 %); rank 16 has 0.70 %, and its count in a window of at least 50,000 sampled messages
    // would have to exceed its mean by about 8 standard deviations to look like 1 %
    assertThat(maxRankSpread).isLessThanOrEqualTo(15);
    assertThat(router.detectorMemoryBytes()).isLessThanOrEqualTo(64 * 1024);
  }

  /** Factory for the routers under test. */
  static final class HashRouterBacked {
    static HotKeyRouter detecting() {
      return HotKeyRouter.builder(Routers.kafkaDefault()).detect(true).candidates(8).build();
    }
  }

  @Test
  void configuredKeysWithValueHashArePure() {
    HotKeyRouter a = HotKeyRouter.builder(Routers.kafkaDefault()).hotKeys(List.of("key-1"))
        .choice(HotKeyRouter.Choice.VALUE_HASH).candidates(4).build();
    HotKeyRouter b = HotKeyRouter.builder(Routers.kafkaDefault()).hotKeys(List.of("key-1"))
        .choice(HotKeyRouter.Choice.VALUE_HASH).candidates(4).build();
    assertThat(a.isPure()).isTrue();
    int mask = 0;
    for (int i = 0; i < 1000; i++) {
      byte[] v = ("value-" + i).getBytes(UTF_8);
      int p = a.partition(keys[0], v, N);
      assertThat(b.partition(keys[0], v, N)).isEqualTo(p);
      assertThat(a.partition(keys[0], v, N)).isEqualTo(p);
      mask |= 1 << p;
      // not hot: exactly the inner partition whatever the value
      assertThat(a.partition(keys[5], v, N)).isEqualTo(Routers.kafkaDefault().partition(keys[5], N));
    }
    assertThat(Integer.bitCount(mask)).isEqualTo(4);
    int[] c = a.candidates(keys[0], N);
    assertThat(c[0]).isEqualTo(Routers.kafkaDefault().partition(keys[0], N));
    assertThat(Arrays.stream(c).distinct().count()).isEqualTo(4);
  }

  @Test
  void roundRobinCyclesThroughAllCandidates() {
    HotKeyRouter r = HotKeyRouter.builder(Routers.kafkaDefault()).hotKeys(List.of("key-1"))
        .choice(HotKeyRouter.Choice.ROUND_ROBIN).candidates(HotKeyRouter.ALL).build();
    int mask = 0;
    for (int i = 0; i < N; i++) {
      mask |= 1 << r.partition(keys[0], N);
    }
    assertThat(mask).isEqualTo((1 << N) - 1);
  }

  @Test
  void candidatesAreDistinctAndInRange() {
    Property.check(200, Gen.bytes(0, 255), Gen.ints(1, 300), Gen.ints(2, 300), (key, n, d) -> {
      HotKeyRouter r = HotKeyRouter.builder(Routers.kafkaDefault()).candidates(d).build();
      int[] c = r.candidates(key, n);
      assertThat(c).hasSize(Math.min(d, n));
      assertThat(Arrays.stream(c).distinct().count()).isEqualTo(c.length);
      assertThat(Arrays.stream(c).allMatch(p -> p >= 0 && p < n)).isTrue();
    });
  }

  /** Code callers get the option's name, value and rule, not a property they never wrote. */
  @Test
  void badSettingsFailNamingTheOption() {
    assertThatThrownBy(() -> HotKeyRouter.builder(Routers.kafkaDefault()).threshold(0).build())
        .isInstanceOf(IllegalArgumentException.class).isNotInstanceOf(RoutingConfigException.class)
        .hasMessage("threshold was 0.0, must be a share in (0, 1]");
    assertThatThrownBy(() -> HotKeyRouter.builder(Routers.kafkaDefault()).candidates(1).build())
        .hasMessageStartingWith("candidates was 1, must be at least 2");
    assertThatThrownBy(() -> HotKeyRouter.builder(Routers.kafkaDefault()).detect(true)
        .memoryBytes(100).build()).hasMessageStartingWith("memory was 100, must be at least");
    assertThatThrownBy(() -> HotKeyRouter.builder(Routers.kafkaDefault()).detect(true)
        .sample(6).build()).hasMessage("sample was 6, must be a power of two from 1 to 1024");
  }

  /** The same mistakes as properties name the property, the value as written and the rule. */
  @Test
  void badPropertiesFailNamingTheProperty() {
    assertThatThrownBy(() -> RoutingSpec.parse("routing.hotkey.keys=k, routing.hotkey.threshold=0"))
        .hasMessageContaining("routing.hotkey.threshold");
    assertThatThrownBy(() -> RoutingSpec.parse("routing.hotkey.keys=k, routing.hotkey.candidates=1"))
        .hasMessageContaining("routing.hotkey.candidates");
    assertThatThrownBy(() -> RoutingSpec.parse("routing.hotkey.detect=true, routing.hotkey.memory=100"))
        .hasMessageContaining("routing.hotkey.memory");
    assertThatThrownBy(() -> RoutingSpec.parse("routing.hotkey.detect=true, routing.hotkey.sample=6"))
        .hasMessage("routing.hotkey.sample value was '6', must be a power of two from 1 to 1024");
  }

  @Test
  void sketchFindsTheHeavyHittersAndForgetsThem() {
    HeavyHitterSketch s = new HeavyHitterSketch(64, 10_000, 0.05);
    Random random = new Random(1);
    for (int i = 0; i < 50_000; i++) {
      s.offer(i % 10 == 0 ? 42L : random.nextLong()); // 42 has a 10 % share
    }
    assertThat(s.hot()).containsExactly(42L);
    for (int i = 0; i < 100_000; i++) {
      s.offer(random.nextLong());
    }
    assertThat(s.hot()).isEmpty();
    assertThat(HeavyHitterSketch.capacityFor(65536)).isEqualTo(1024);
    assertThat(HeavyHitterSketch.footprint(1024)).isLessThanOrEqualTo(65536);
  }
}
