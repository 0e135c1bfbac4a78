package io.github.routingkit.pulsar;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.switching.SwitchPlan;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.pulsar.client.api.Consumer;
import org.apache.pulsar.client.api.ConsumerEventListener;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.MessageId;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.Schema;
import org.apache.pulsar.client.impl.MessageIdImpl;
import org.junit.jupiter.api.Test;

/**
 * A consumer that loses a Failover partition and gets it back, with the listener's news coming
 * after the messages dispatched around them (as the client's listener executor delivers them on
 * a busy machine): every message of the partition is handed over once, in order. The broker is
 * played by hand: it dispatches a regained partition from its first unacknowledged message, and
 * {@code redeliverUnacknowledgedMessages()} dispatches every unacknowledged message again.
 */
class FailoverSwitchBarrierRegainTest {
  private static final String TOPIC = "persistent://public/default/regain";

  private final List<Message<String>> log = new ArrayList<>();
  private final List<MessageId> acked = new ArrayList<>();
  private int redeliveries;

  @Test
  void copiesDispatchedBeforeTheNewsOfARegainAreReadAgain() throws Exception {
    for (int i = 0; i < 6; i++) {
      log.add(message(0, i));
    }
    KeyRouter router = RoutingSpec.parse(Map.of()).keyRouter();
    SwitchPlan plan = SwitchPlan.oneStep("g1", 1, router, router, 2);
    List<String> handed = new ArrayList<>();
    try (FailoverSwitchBarrier<String> barrier = FailoverSwitchBarrier
        .builder(stub(PulsarClient.class), TOPIC, "orders", plan).build(Schema.STRING)) {
      Consumer<String> consumer = consumer();
      ConsumerEventListener events = barrier.eventListener();
      events.becameActive(consumer, 0);
      barrier.forEach(consumer, log.subList(0, 2), m -> handed.add(m.getValue()));
      events.becameInactive(consumer, 0);
      barrier.forEach(consumer, log.subList(2, 3), m -> handed.add(m.getValue())); // buffered
      // the partition comes back: the broker dispatches from m2, before the listener tells
      barrier.forEach(consumer, log.subList(2, 4), m -> handed.add(m.getValue()));
      events.becameActive(consumer, 0);
      barrier.forEach(consumer, log.subList(4, 5), m -> handed.add(m.getValue()));
      int asked = 0;
      while (redeliveries > asked) {
        asked = redeliveries;
        barrier.forEach(consumer, unacked(5), m -> handed.add(m.getValue()));
      }
      barrier.forEach(consumer, log.subList(5, 6), m -> handed.add(m.getValue()));
    }
    assertThat(handed).containsExactly("0", "1", "2", "3", "4", "5");
    assertThat(acked).hasSize(6).doesNotHaveDuplicates();
  }

  /** The unacknowledged messages of the log before {@code end}, in order. */
  private List<Message<String>> unacked(int end) {
    List<Message<String>> out = new ArrayList<>();
    for (Message<String> m : log.subList(0, end)) {
      if (!acked.contains(m.getMessageId())) {
        out.add(m);
      }
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private Consumer<String> consumer() {
    return (Consumer<String>) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {Consumer.class}, (proxy, method, args) -> {
          switch (method.getName()) {
            case "acknowledgeAsync":
              acked.add(((Message<?>) args[0]).getMessageId());
              return CompletableFuture.completedFuture(null);
            case "redeliverUnacknowledgedMessages":
              redeliveries++;
              return null;
            case "hashCode":
              return System.identityHashCode(proxy);
            case "equals":
              return proxy == args[0];
            default:
              return stubResult(method.getReturnType());
          }
        });
  }

  @SuppressWarnings("unchecked")
  private static Message<String> message(int partition, int index) {
    MessageId id = new MessageIdImpl(7, index, partition);
    String value = Integer.toString(index);
    return (Message<String>) Proxy.newProxyInstance(FailoverSwitchBarrierRegainTest.class
        .getClassLoader(), new Class<?>[] {Message.class}, (proxy, method, args) -> {
          switch (method.getName()) {
            case "getTopicName":
              return TOPIC + "-partition-" + partition;
            case "getMessageId":
              return id;
            case "hasKey":
              return true;
            case "getKey":
              return "key-" + index;
            case "getValue":
              return value;
            case "getData":
              return value.getBytes(StandardCharsets.UTF_8);
            case "getProperties":
              return Map.of();
            case "toString":
              return "m" + index;
            default:
              return stubResult(method.getReturnType());
          }
        });
  }

  /** A client whose builders chain and whose producers, readers and consumers do nothing. */
  @SuppressWarnings("unchecked")
  private static <T> T stub(Class<T> type) {
    return (T) Proxy.newProxyInstance(FailoverSwitchBarrierRegainTest.class.getClassLoader(),
        new Class<?>[] {type}, (proxy, method, args) -> {
          switch (method.getName()) {
            case "hashCode":
              return System.identityHashCode(proxy);
            case "equals":
              return proxy == args[0];
            case "toString":
              return "stub " + type.getSimpleName();
            default:
              return type.equals(method.getReturnType()) ? proxy
                  : stubResult(method.getReturnType());
          }
        });
  }

  private static Object stubResult(Class<?> type) {
    if (type == CompletableFuture.class) {
      return CompletableFuture.completedFuture(null);
    }
    if (type.isInterface()) {
      return stub(type);
    }
    if (type == boolean.class) {
      return false;
    }
    if (type == long.class) {
      return 0L;
    }
    if (type == int.class) {
      return 0;
    }
    return null;
  }
}
