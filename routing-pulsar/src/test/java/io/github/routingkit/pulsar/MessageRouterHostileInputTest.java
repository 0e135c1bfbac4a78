package io.github.routingkit.pulsar;

import io.github.routingkit.property.Fuzz;
import io.github.routingkit.KeyRouter;
import io.github.routingkit.config.RoutingSpec;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.pulsar.client.api.HashingScheme;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.MessageRouter;
import org.apache.pulsar.client.api.TopicMetadata;
import org.apache.pulsar.client.impl.RoundRobinPartitionMessageRouterImpl;
import org.junit.jupiter.api.Test;

/**
 * Break-it: RoutingMessageRouter's default-spec fast line against hostile Message implementations
 * (hasKey/getKey disagreeing, null and empty keys, ordering keys only), odd partition counts and a
 * throwing TopicMetadata; compared with pulsar-client's RoundRobinPartitionMessageRouterImpl and
 * with the generic (MessageView) line of the same spec.
 */
class MessageRouterHostileInputTest {

  static Message<?> msg(boolean hasKey, String key, byte[] orderingKey) {
    return (Message<?>) Proxy.newProxyInstance(Message.class.getClassLoader(),
        new Class<?>[] {Message.class}, (p, m, a) -> switch (m.getName()) {
          case "hasKey" -> hasKey;
          case "getKey" -> key;
          case "hasOrderingKey" -> orderingKey != null;
          case "getOrderingKey" -> orderingKey;
          case "getData" -> new byte[] {1};
          case "getProperty" -> null;
          case "hasProperty" -> false;
          case "toString" -> "msg(" + hasKey + "," + key + ")";
          case "hashCode" -> System.identityHashCode(p);
          case "equals" -> p == a[0];
          default -> throw new UnsupportedOperationException(m.getName());
        });
  }

  static String outcome(MessageRouter r, Message<?> m, TopicMetadata t) {
    try {
      return "p" + r.choosePartition(m, t);
    } catch (RuntimeException e) {
      return e.getClass().getSimpleName();
    }
  }

  @Test
  void hostileMessagesAndCounts() {
    RoutingSpec spec = RoutingSpec.parse("routing.scheme=pulsar-java-string");
    RoutingMessageRouter ours = new RoutingMessageRouter(spec);
    KeyRouter generic = spec.keyRouter();
    MessageRouter pulsar = new RoundRobinPartitionMessageRouterImpl(HashingScheme.JavaStringHash, 0, false, 1);
    Random r = new Random(42);
    List<String> keys = new ArrayList<>(List.of("", " ", "\u0000", "\ud800", "\ud83d\ude00", "a".repeat(100_000)));
    for (int i = 0; i < 20_000; i++) {
      char[] c = new char[r.nextInt(12)];
      for (int j = 0; j < c.length; j++) {
        c[j] = (char) r.nextInt(0x10000);
      }
      keys.add(new String(c));
    }
    int[] counts = {1, 2, 3, 7, 1000, Integer.MAX_VALUE, 0, -1, Integer.MIN_VALUE};
    int cases = 0;
    List<String> diffs = new ArrayList<>();
    for (String k : keys) {
      for (int n : counts) {
        TopicMetadata t = () -> n;
        Message<?> m = msg(true, k, null);
        String o = outcome(ours, m, t);
        String p = outcome(pulsar, m, t);
        String g;
        try {
          g = "p" + generic.partitionOf(m, RoutingMessageRouter.MESSAGE, n);
        } catch (RuntimeException e) {
          g = e.getClass().getSimpleName();
        }
        cases++;
        if (n >= 1 && (!o.equals(p) || !o.equals(g))) {
          diffs.add("key " + k.length() + " chars n=" + n + ": ours " + o + " pulsar " + p + " generic " + g);
        }
        if (n >= 1 && !o.startsWith("p")) {
          diffs.add("threw for n=" + n + ": " + o);
        }
        if (n < 1 && o.startsWith("p")) {
          diffs.add("n=" + n + " gave " + o + " (pulsar " + p + ")");
        }
        if (n < 1 && cases < 50) {
          Fuzz.log("n=" + n + " ours " + o + " pulsar " + p + " generic " + g);
        }
      }
    }
    // hasKey/getKey disagreeing, ordering key only
    Message<?>[] odd = {msg(true, null, null), msg(false, "k", null), msg(false, null, new byte[] {1, 2}),
        msg(true, null, new byte[0]), msg(false, "", "ok".getBytes())};
    for (Message<?> m : odd) {
      for (int n : new int[] {1, 5, 0, -3}) {
        String o = outcome(ours, m, () -> n);
        String p = outcome(pulsar, m, () -> n);
        cases++;
        Fuzz.log("odd " + m + " n=" + n + ": ours " + o + " pulsar " + p);
        if (n >= 1 && (!o.startsWith("p") || Integer.parseInt(o.substring(1)) >= n)) {
          diffs.add(m + " n=" + n + " -> " + o);
        }
      }
    }
    // TopicMetadata throwing
    TopicMetadata boom = () -> {
      throw new IllegalStateException("metadata gone");
    };
    Fuzz.log("throwing metadata: ours keyed " + outcome(ours, msg(true, "k", null), boom)
        + ", keyless " + outcome(ours, msg(false, null, null), boom));
    Fuzz.log("router cases " + cases + ", problems " + diffs.size());
    if (!diffs.isEmpty()) {
      throw new AssertionError(diffs.size() + " problems, first: " + diffs.subList(0, Math.min(10, diffs.size())));
    }
  }
}
