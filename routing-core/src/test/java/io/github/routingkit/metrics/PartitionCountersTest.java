package io.github.routingkit.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** Exact counts from many threads: owned rows, the shared row, growth and taking over dead rows. */
class PartitionCountersTest {

  /** More threads than rows: some share a row, so both the owned and the shared path count. */
  @Test
  void countsExactlyFromFortyThreads() throws InterruptedException {
    PartitionCounters c = new PartitionCounters(24);
    int threads = 40;
    int perThread = 50_000;
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> all = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int seed = t;
      Thread th = new Thread(() -> {
        await(start);
        for (int i = 0; i < perThread; i++) {
          int p = (i * 7 + seed) % 24;
          if (i % 5 == 0) {
            c.keyless(p);
          } else {
            c.keyed(p);
          }
        }
      });
      th.start();
      all.add(th);
    }
    start.countDown();
    for (Thread th : all) {
      th.join();
    }
    long[] expectedKeyed = new long[24];
    long[] expectedKeyless = new long[24];
    for (int t = 0; t < threads; t++) {
      for (int i = 0; i < perThread; i++) {
        int p = (i * 7 + t) % 24;
        if (i % 5 == 0) {
          expectedKeyless[p]++;
        } else {
          expectedKeyed[p]++;
        }
      }
    }
    long[] keyed = new long[24];
    long[] keyless = new long[24];
    c.sumInto(0, keyed);
    c.sumInto(1, keyless);
    assertThat(keyed).containsExactly(expectedKeyed);
    assertThat(keyless).containsExactly(expectedKeyless);
    for (int p = 0; p < 24; p++) {
      assertThat(c.count(0, p)).isEqualTo(expectedKeyed[p]);
      assertThat(c.count(1, p)).isEqualTo(expectedKeyless[p]);
    }
  }

  /**
   * Two threads on the same row (thread ids 32 apart) hammering one partition: only one owns the
   * row, the other must add to the shared row, or increments are lost.
   */
  @Test
  void twoThreadsOfOneRowLoseNothing() throws InterruptedException {
    PartitionCounters c = new PartitionCounters(1);
    int perThread = 2_000_000;
    CountDownLatch start = new CountDownLatch(1);
    Runnable work = () -> {
      await(start);
      for (int i = 0; i < perThread; i++) {
        c.keyed(0);
      }
    };
    Thread a = new Thread(work);
    Thread b = new Thread(work);
    List<Thread> spare = new ArrayList<>();
    while ((b.getId() & (PartitionCounters.MAX_ROWS - 1)) != (a.getId() & (PartitionCounters.MAX_ROWS - 1))) {
      spare.add(b);
      b = new Thread(work);
    }
    a.start();
    b.start();
    start.countDown();
    a.join();
    b.join();
    assertThat(c.count(0, 0)).isEqualTo(2L * perThread);
  }

  /** A topic that grows while threads count keeps every increment (old tables are still summed). */
  @Test
  void growthLosesNoIncrement() throws InterruptedException {
    PartitionCounters c = new PartitionCounters(4);
    List<Thread> all = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      Thread th = new Thread(() -> {
        for (int i = 0; i < 40_000; i++) {
          c.keyed(i % (4 + i / 10_000 * 8)); // 4, then 12, 20, 28 partitions
        }
      });
      th.start();
      all.add(th);
    }
    for (Thread th : all) {
      th.join();
    }
    long total = 0;
    for (int p = 0; p < 28; p++) {
      total += c.count(0, p);
    }
    assertThat(total).isEqualTo(8 * 40_000);
    assertThat(c.partitions()).isGreaterThanOrEqualTo(28);
  }

  /** A thread that takes over a dead owner's row continues from its counts. */
  @Test
  void aDeadOwnersRowIsTakenOverWithItsCounts() throws InterruptedException {
    PartitionCounters c = new PartitionCounters(2);
    for (int round = 0; round < 40; round++) { // threads come and go; rows outlive their owners
      Thread th = new Thread(() -> {
        for (int i = 0; i < 3_000; i++) {
          c.keyed(i & 1);
        }
      });
      th.start();
      th.join();
    }
    assertThat(c.count(0, 0) + c.count(0, 1)).isEqualTo(40 * 3_000);
  }

  @Test
  void outOfRangePartitionsAreNotCountedPerPartition() {
    PartitionCounters c = new PartitionCounters(3);
    c.keyed(-1);
    c.keyed(PartitionCounters.MAX_PARTITIONS);
    assertThat(c.untracked()).isEqualTo(1);
    assertThat(c.count(0, 0)).isZero();
    assertThat(c.partitions()).isEqualTo(3);
  }

  @Test
  void memoryIsBoundedForHugeTopics() {
    assertThat(new PartitionCounters(24).memoryBytes()).isLessThan(20_000);
    assertThat(new PartitionCounters(1 << 20).memoryBytes())
        .isLessThan(3L * 8 * (1 << 21) + 100_000);
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
