package io.github.routingkit.examples.pulsar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import io.github.routingkit.pulsar.KeySharedPredictor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.pulsar.broker.service.ConsistentHashingStickyKeyConsumerSelector;
import org.apache.pulsar.broker.service.Consumer;
import org.apache.pulsar.broker.service.HashRangeAutoSplitStickyKeyConsumerSelector;
import org.apache.pulsar.broker.service.StickyKeyConsumerSelector;
import org.junit.jupiter.api.Test;

/**
 * Differential test: {@link KeySharedPredictor} against the broker's own selector classes from
 * pulsar-broker 4.2.4, driven with mocked consumers through random join/leave histories, with
 * duplicate names and with enough points to force ring collisions. Every slot is compared.
 */
class KeySharedSelectorDifferentialTest {

  private static final String[] NAMES = {"a", "b", "c", "consumer-1", "consumer-2", "ключ", "x"};

  private static Consumer consumer(String name) {
    Consumer c = mock(Consumer.class);
    when(c.consumerName()).thenReturn(name);
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
      default -> {
        broker = new HashRangeAutoSplitStickyKeyConsumerSelector();
        predictor = KeySharedPredictor.autoSplit(List.of());
      }
    }
    List<Consumer> connected = new ArrayList<>(); // join order, as predictor.consumers()
    for (int step = 0; step < steps; step++) {
      boolean join = connected.isEmpty() || random.nextInt(3) != 0;
      if (join) {
        String name = NAMES[random.nextInt(NAMES.length)];
        Consumer c = consumer(name);
        assertThat(broker.addConsumer(c).join()).isNotNull();
        connected.add(c);
        predictor = predictor.join(name);
      } else {
        // the predictor's leave(name) removes the earliest-joined consumer of that name
        String name = connected.get(random.nextInt(connected.size())).consumerName();
        Consumer c = connected.stream().filter(x -> x.consumerName().equals(name)).findFirst()
            .orElseThrow();
        broker.removeConsumer(c);
        connected.remove(c);
        predictor = predictor.leave(name);
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
    for (int i = 0; i < 200; i++) {
      byte[] key = ("key-" + random.nextInt()).getBytes(StandardCharsets.UTF_8);
      assertThat(predictor.slot(key)).isEqualTo(broker.makeStickyKeyHash(key));
    }
  }

  private static void assertOwner(StickyKeyConsumerSelector broker, KeySharedPredictor predictor,
      List<Consumer> connected, int slot) {
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
  void consistentHashingDefaultPoints() {
    run(1, "ch", 100, 25);
  }

  @Test
  void consistentHashingWithRingCollisions() {
    // 1500 points per consumer over 65535 slots: hundreds of colliding points per join
    run(2, "ch", 1500, 20);
    run(3, "ch", 1, 40);
  }

  @Test
  void consistentHashingClassicDispatcher() {
    run(4, "classic", 100, 15);
  }

  @Test
  void autoSplitJoinAndLeaveHistories() {
    run(5, "as", 0, 40);
    run(6, "as", 0, 40);
  }
}
