package io.github.routingkit.examples.pulsar;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pulsar.client.api.Consumer;
import org.apache.pulsar.client.api.KeySharedPolicy;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.Schema;
import org.apache.pulsar.client.api.SubscriptionType;

/** Sends keyed messages through a real Key_Shared subscription and records who got which key. */
final class KeySharedRun {
  private KeySharedRun() {}

  /**
   * Deterministic keys of the shapes that matter: sequential ids, random hex ids, non-ASCII text.
   */
  static List<String> keys(int n) {
    Random random = new Random(42);
    List<String> keys = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      switch (i % 3) {
        case 0 -> keys.add("order-" + i);
        case 1 -> keys.add(Long.toHexString(random.nextLong()) + "-" + i);
        default -> keys.add("ключ-město-" + i);
      }
    }
    return keys;
  }

  /**
   * Subscribes the consumers one after the other (the join order), sends every key once with no
   * batching, and waits until all arrived.
   *
   * @param policies consumer name to its policy, in join order
   * @return consumer name to the keys it received, in join order
   */
  static Map<String, Set<String>> deliver(String serviceUrl, String topic,
      Map<String, KeySharedPolicy> policies, List<String> keys) throws Exception {
    return deliver(serviceUrl, topic, policies, keys, keys.size(), 200);
  }

  /**
   * As above, waiting until {@code expected} keys arrived, then {@code settleMillis} more for keys
   * that should not arrive.
   */
  static Map<String, Set<String>> deliver(String serviceUrl, String topic,
      Map<String, KeySharedPolicy> policies, List<String> keys, int expected, long settleMillis)
      throws Exception {
    Map<String, Set<String>> received = new LinkedHashMap<>();
    AtomicInteger total = new AtomicInteger();
    AtomicInteger duplicates = new AtomicInteger();
    List<Consumer<String>> consumers = new ArrayList<>();
    try (PulsarClient client = PulsarClient.builder().serviceUrl(serviceUrl).build()) {
      for (Map.Entry<String, KeySharedPolicy> e : policies.entrySet()) {
        Set<String> mine = ConcurrentHashMap.newKeySet();
        received.put(e.getKey(), mine);
        consumers.add(client.newConsumer(Schema.STRING)
            .topic(topic)
            .subscriptionName("key-shared")
            .subscriptionType(SubscriptionType.Key_Shared)
            .keySharedPolicy(e.getValue())
            .consumerName(e.getKey())
            .messageListener((c, msg) -> {
              if (!mine.add(msg.getKey())) {
                duplicates.incrementAndGet();
              }
              total.incrementAndGet();
              c.acknowledgeAsync(msg);
            })
            .subscribe());
      }
      try (Producer<String> producer = client.newProducer(Schema.STRING)
          .topic(topic)
          .enableBatching(false)
          .blockIfQueueFull(true)
          .create()) {
        List<CompletableFuture<?>> sends = new ArrayList<>(keys.size());
        for (String key : keys) {
          sends.add(producer.newMessage().key(key).value(key).sendAsync());
        }
        CompletableFuture.allOf(sends.toArray(new CompletableFuture<?>[0])).get(120, TimeUnit.SECONDS);
      }
      // a generous deadline polled every 50 ms, so a slow machine only makes the test slower
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (total.get() < expected && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      if (total.get() < expected) {
        throw new AssertionError("only " + total.get() + " of " + expected
            + " expected deliveries arrived within 120 s");
      }
      Thread.sleep(settleMillis); // let any stray or unexpected delivery show up
      for (Consumer<String> c : consumers) {
        c.close();
      }
    }
    if (duplicates.get() > 0) {
      throw new AssertionError(duplicates.get() + " keys were delivered twice to one consumer");
    }
    return received;
  }
}
