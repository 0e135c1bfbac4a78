package io.github.routingkit.examples.pulsar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import io.github.routingkit.pulsar.ConsumerHandle;
import io.github.routingkit.pulsar.KeySharedPredictor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pulsar.broker.service.ConsistentHashingStickyKeyConsumerSelector;
import org.apache.pulsar.broker.service.Consumer;
import org.apache.pulsar.broker.service.HashRangeAutoSplitStickyKeyConsumerSelector;
import org.apache.pulsar.broker.service.HashRangeExclusiveStickyKeyConsumerSelector;
import org.apache.pulsar.broker.service.StickyKeyConsumerSelector;
import org.apache.pulsar.client.api.Range;
import org.apache.pulsar.common.api.proto.KeySharedMeta;
import org.apache.pulsar.common.api.proto.KeySharedMode;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Differential test: {@link KeySharedPredictor} against pulsar-broker 4.2.4's own selector
 * classes, driven with mocked consumers through seeded random join/leave histories in which many
 * instances share a name and any instance may leave (the predictor is told which by its
 * {@link ConsumerHandle}). After every step every slot is compared, and the reported hash ranges.
 */
@Tag("slow")
class KeySharedSelectorDifferentialTest {

  /** Few names, so that most joins add another instance of a name already connected. */
  private static final String[] NAMES = {"svc", "svc", "svc", "worker", "ключ", "x"};

  private static final AtomicLong SLOT_CHECKS = new AtomicLong();

  @AfterAll
  static void report() {
    System.out.println("KeySharedSelectorDifferentialTest: " + SLOT_CHECKS.get()
        + " slot checks against the broker's selectors, all equal");
  }

  private static Consumer consumer(String name, KeySharedMeta meta) {
    Consumer c = mock(Consumer.class);
    when(c.consumerName()).thenReturn(name);
    if (meta != null) {
      when(c.getKeySharedMeta()).thenReturn(meta);
    }
    return c;
  }

  /** Replays the same random history on the broker's selector and on the predictor. */
  private static void run(long seed, String mode, int points, int steps) {
    Random random = new Random(seed);
    StickyKeyConsumerSelector broker;
    KeySharedPredictor predictor;
    switch (mode) {
      case "ch" -> {
        broker = new ConsistentHashingStickyKeyConsumerSelector(points);
        predictor = KeySharedPredictor.consistentHashing(List.of(), points);
      }
      case "classic" -> {
        broker = new ConsistentHashingStickyKeyConsumerSelector(points, false,
            Integer.MAX_VALUE - 1);
        predictor = KeySharedPredictor.consistentHashingClassic(List.of(), points);
      }
      case "sticky" -> {
        broker = new HashRangeExclusiveStickyKeyConsumerSelector();
        predictor = KeySharedPredictor.sticky(Map.of());
      }
      default -> {
        broker = new HashRangeAutoSplitStickyKeyConsumerSelector();
        predictor = KeySharedPredictor.autoSplit(List.of());
      }
    }
    List<Consumer> connected = new ArrayList<>(); // join order, as predictor.handles()
    List<BitSet> blocksOf = new ArrayList<>(); // sticky: the 1024-slot blocks each one holds
    BitSet usedBlocks = new BitSet(64);
    for (int step = 0; step < steps; step++) {
      boolean join = connected.isEmpty() || random.nextInt(3) != 0;
      if (join && mode.equals("sticky") && usedBlocks.cardinality() > 60) {
        join = false;
      }
      if (join) {
        String name = NAMES[random.nextInt(NAMES.length)];
        if (mode.equals("sticky")) {
          // one to three ranges, each inside a free 1024-slot block, sometimes the whole block
          KeySharedMeta meta = new KeySharedMeta().setKeySharedMode(KeySharedMode.STICKY);
          List<Range> ranges = new ArrayList<>();
          BitSet mine = new BitSet(64);
          int count = 1 + random.nextInt(3);
          for (int r = 0; r < count; r++) {
            int block = usedBlocks.nextClearBit(random.nextInt(64));
            if (block >= 64) {
              block = usedBlocks.nextClearBit(0);
            }
            usedBlocks.set(block);
            mine.set(block);
            int start = block * 1024 + (random.nextBoolean() ? 0 : random.nextInt(1024));
            int end = random.nextBoolean() ? block * 1024 + 1023
                : start + random.nextInt(block * 1024 + 1024 - start);
            meta.addHashRange().setStart(start).setEnd(end);
            ranges.add(Range.of(start, end));
          }
          Consumer c = consumer(name, meta);
          broker.addConsumer(c).join();
          connected.add(c);
          blocksOf.add(mine);
          predictor = predictor.join(name, ranges);
        } else {
          Consumer c = consumer(name, null);
          broker.addConsumer(c).join();
          connected.add(c);
          blocksOf.add(null);
          predictor = predictor.join(name);
        }
        assertThat(predictor.lastJoined().name()).isEqualTo(name);
      } else {
        // any instance may leave, not only the earliest of its name
        int index = random.nextInt(connected.size());
        ConsumerHandle handle = predictor.handles().get(index);
        broker.removeConsumer(connected.remove(index));
        BitSet freed = blocksOf.remove(index);
        if (freed != null) {
          usedBlocks.andNot(freed);
        }
        predictor = predictor.leave(handle);
      }
      compare(broker, predictor, connected, mode, random);
    }
  }

  private static void compare(StickyKeyConsumerSelector broker, KeySharedPredictor predictor,
      List<Consumer> connected, String mode, Random random) {
    assertThat(predictor.consumers())
        .containsExactlyElementsOf(connected.stream().map(Consumer::consumerName).toList());
    if (mode.equals("classic")) {
      for (int i = 0; i < 20_000; i++) {
        int slot = 1 + random.nextInt(Integer.MAX_VALUE - 1);
        assertOwner(broker, predictor, connected, slot);
      }
    } else {
      for (int slot = 0; slot < 65536; slot++) {
        assertOwner(broker, predictor, connected, slot);
      }
    }
    Map<Consumer, List<Range>> reported = broker.getConsumerKeyHashRanges();
    for (int i = 0; i < connected.size(); i++) {
      List<Range> expected = reported.getOrDefault(connected.get(i), List.of()).stream()
          .sorted().toList();
      assertThat(predictor.hashRanges(i)).as("hash ranges of %s in %s", i, mode)
          .containsExactlyElementsOf(expected);
    }
    for (int i = 0; i < 200; i++) {
      byte[] key = ("key-" + random.nextInt()).getBytes(StandardCharsets.UTF_8);
      assertThat(predictor.slot(key)).isEqualTo(broker.makeStickyKeyHash(key));
    }
  }

  private static void assertOwner(StickyKeyConsumerSelector broker, KeySharedPredictor predictor,
      List<Consumer> connected, int slot) {
    SLOT_CHECKS.incrementAndGet();
    Consumer expected = broker.select(slot);
    int index = predictor.ownerIndexOfSlot(slot);
    if (expected == null) {
      assertThat(index).as("slot %d", slot).isEqualTo(-1);
    } else {
      assertThat(index).as("slot %d", slot).isNotNegative();
      assertThat(connected.get(index)).as("slot %d", slot).isSameAs(expected);
    }
  }

  @Test
  void consistentHashingDefaultPointsWithSharedNames() {
    run(1, "ch", 100, 40);
    run(11, "ch", 100, 40);
  }

  @Test
  void consistentHashingWithRingCollisions() {
    // 1500 points per consumer over 65535 slots: hundreds of colliding points per join
    run(2, "ch", 1500, 25);
    run(3, "ch", 1, 60);
  }

  @Test
  void consistentHashingClassicDispatcher() {
    run(4, "classic", 100, 20);
  }

  @Test
  void autoSplitJoinAndLeaveHistories() {
    run(5, "as", 0, 60);
    run(6, "as", 0, 60);
  }

  @Test
  void stickyRangesWithSharedNames() {
    run(7, "sticky", 0, 60);
    run(8, "sticky", 0, 60);
  }
}
