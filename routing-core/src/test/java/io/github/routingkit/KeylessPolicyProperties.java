package io.github.routingkit;

import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.router.HashRouter;

import io.github.routingkit.property.Gen;
import io.github.routingkit.property.Property;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The keyless policies: round-robin stays balanced within one message per partition under 8
 * concurrent threads and keeps cycling without a skip or a repeat across 2^31, 2^32 (and stays in
 * range even at the 64-bit wrap); random stays in range and reaches every partition. Keyless
 * routing never changes keyed routing.
 */
class KeylessPolicyProperties {
  private static final int THREADS = 8;
  private static ExecutorService pool;

  @BeforeAll
  static void startPool() {
    pool = Executors.newFixedThreadPool(THREADS);
  }

  @AfterAll
  static void stopPool() throws InterruptedException {
    pool.shutdownNow();
    pool.awaitTermination(10, TimeUnit.SECONDS);
  }

  @Test
  void roundRobinIsBalancedWithinOneUnder8Threads() {
    Property.check(40, Gen.ints(1, 1000), Gen.ints(0, 3000), Gen.ints(0, THREADS - 1), (n, perThread, extraThreads) -> {
      KeyRouter router = Routers.kafkaDefault(); // round-robin keyless
      AtomicLongArray counts = new AtomicLongArray(n);
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        // threads 0..extraThreads-1 send one extra message: totals that are not multiples of n
        int messages = perThread + (t < extraThreads ? 1 : 0);
        done.add(pool.submit(() -> {
          start.await();
          for (int i = 0; i < messages; i++) {
            int p = router.keylessPartition(n);
            counts.incrementAndGet(p); // out of range throws here
            if ((i & 63) == 0) {
              router.partition(new byte[] {(byte) i}, n); // keyed calls interleaved
            }
          }
          return null;
        }));
      }
      start.countDown();
      for (Future<?> f : done) {
        f.get(30, TimeUnit.SECONDS);
      }
      long min = Long.MAX_VALUE;
      long max = Long.MIN_VALUE;
      long total = 0;
      for (int p = 0; p < n; p++) {
        min = Math.min(min, counts.get(p));
        max = Math.max(max, counts.get(p));
        total += counts.get(p);
      }
      assertThat(total).isEqualTo((long) THREADS * perThread + extraThreads);
      assertThat(max - min).as("max - min over %d partitions", n).isLessThanOrEqualTo(1);
    });
  }

  @Test
  void stickyFillsRunsOfSixtyFourAndBalancesEveryCycleUnder8Threads() {
    Property.check(30, Gen.ints(1, 200), Gen.ints(1, 3), (n, cycles) -> {
      KeyRouter router = HashRouter.of(HashScheme.KAFKA_MURMUR2, KeylessPolicy.STICKY);
      int run = KeylessPolicy.STICKY_RUN;
      long total = (long) cycles * run * n;
      AtomicLongArray counts = new AtomicLongArray(n);
      java.util.concurrent.atomic.AtomicLong left = new java.util.concurrent.atomic.AtomicLong(total);
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        done.add(pool.submit(() -> {
          start.await();
          while (left.getAndDecrement() > 0) {
            counts.incrementAndGet(router.keylessPartition(n));
          }
          return null;
        }));
      }
      start.countDown();
      for (Future<?> f : done) {
        f.get(30, TimeUnit.SECONDS);
      }
      // every ticket is taken exactly once, so whole cycles are exactly balanced
      for (int p = 0; p < n; p++) {
        assertThat(counts.get(p)).as("partition %d of %d", p, n).isEqualTo((long) cycles * run);
      }
    });
  }

  @Test
  void stickyMovesToTheNextPartitionAfterEachRun() {
    KeylessPolicy.RoundRobin sticky = (KeylessPolicy.RoundRobin) KeylessPolicy.STICKY.newChooser();
    int n = 5;
    for (int i = 0; i < 3 * KeylessPolicy.STICKY_RUN * n; i++) {
      assertThat(sticky.choose(n)).as("message %d", i).isEqualTo((i / KeylessPolicy.STICKY_RUN) % n);
    }
    assertThat(RoutingSpec.parse(java.util.Map.of(RoutingSpec.KEYLESS, "sticky")).keyless())
        .isEqualTo(KeylessPolicy.STICKY);
  }

  @Test
  void roundRobinCyclesAcrossTheIntBoundaries() {
    Property.check(200, Gen.ints(1, 1000), boundaries(), Gen.ints(0, 2000), (n, boundary, before) -> {
      KeylessPolicy.RoundRobin rr = (KeylessPolicy.RoundRobin) KeylessPolicy.ROUND_ROBIN.newChooser();
      rr.set(boundary - before);
      int previous = rr.choose(n);
      assertThat(previous).isBetween(0, n - 1);
      for (int i = 1; i < before + 2 * n + 2; i++) {
        int p = rr.choose(n);
        assertThat(p).as("step %d from %d", i, boundary - before).isEqualTo((previous + 1) % n);
        previous = p;
      }
    });
  }
  Gen<Long> boundaries() {
    return Gen.of(1L << 31, 1L << 32, 3L << 31, 1L << 33);
  }

  /** The documented limit: at the 64-bit wrap the cycle may jump, but stays in range. */
  @Test
  void roundRobinStaysInRangeAtTheLongWrap() {
    Property.check(100, Gen.ints(1, 10_000), n -> {
      KeylessPolicy.RoundRobin rr = (KeylessPolicy.RoundRobin) KeylessPolicy.ROUND_ROBIN.newChooser();
      rr.set(Long.MAX_VALUE - 5);
      for (int i = 0; i < 20; i++) {
        assertThat(rr.choose(n)).isBetween(0, n - 1);
      }
    });
  }

  @Test
  void freshRoundRobinStartsAtZeroAndCycles() {
    KeyRouter router = Routers.kafkaDefault();
    for (int i = 0; i < 25; i++) {
      assertThat(router.keylessPartition(7)).isEqualTo(i % 7);
    }
    assertThat(router.partition((byte[]) null, 7)).isEqualTo(25 % 7);
    assertThat(router.partition((CharSequence) null, 7)).isEqualTo(26 % 7);
  }

  @Test
  void randomKeylessIsInRange() {
    Property.check(200, Gen.ints(1, 10_000), n -> {
      KeyRouter router = HashRouter.of(HashScheme.KAFKA_MURMUR2, KeylessPolicy.RANDOM);
      for (int i = 0; i < 200; i++) {
        assertThat(router.keylessPartition(n)).isBetween(0, n - 1);
      }
    });
  }

  @Test
  void randomKeylessReachesEveryPartition() {
    KeyRouter router = HashRouter.of(HashScheme.PULSAR_MURMUR3, KeylessPolicy.RANDOM);
    int[] counts = new int[10];
    for (int i = 0; i < 20_000; i++) {
      counts[router.keylessPartition(10)]++;
    }
    // expected 2,000 each, standard deviation about 42: 1,600 is more than 9 deviations away;
    // Chernoff: P(any of 10 below 1,600) <= 10 * e^(-20,000 * D(0.08 || 0.1)) = 3e-20
    for (int c : counts) {
      assertThat(c).isGreaterThan(1600);
    }
  }

  @Test
  void keylessTrafficDoesNotMoveKeys() {
    Property.check(200, Gen.bytes(0, 255), Gen.ints(1, 1000), Gen.ints(0, 50), (key, n, keyless) -> {
      KeyRouter router = Routers.pulsarDefault();
      int before = router.partition(key, n);
      for (int i = 0; i < keyless; i++) {
        router.keylessPartition(n);
      }
      assertThat(router.partition(key, n)).isEqualTo(before);
    });
  }
}
