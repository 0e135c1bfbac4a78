package io.github.routingkit.examples;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The books of a switch run: every record sent and acknowledged, every record handed to business
 * code in the order it happened group-wide (one lock), by whom and in which ownership of its
 * partition. {@link #result()} counts what a switch must keep: produced = delivered (at least once),
 * lost, per-key order across members (a record's first delivery must come after the first
 * delivery of every earlier record of its key), and duplicates, each of which must come in a
 * later ownership of its partition than the record's earlier deliveries (a replay after a
 * rebalance, crash or restart), never twice in one.
 */
public final class SwitchRunCheck {
  /** What a run measured. */
  public record Result(int sent, int acked, int failed, int delivered, int lost, int outOfOrder,
      int duplicates, int duplicatesInOneOwnership, int markersDelivered, int keys,
      Map<Integer, Integer> lostByPartition, List<String> examples, List<String> threadFailures) {
    public boolean clean() {
      return sent == acked && failed == 0 && lost == 0 && outOfOrder == 0
          && duplicatesInOneOwnership == 0 && markersDelivered == 0 && threadFailures.isEmpty();
    }

    @Override
    public String toString() {
      return "sent " + sent + ", acked " + acked + ", failed " + failed + ", delivered (distinct) "
          + delivered + ", lost " + lost + (lost == 0 ? "" : " (by partition " + lostByPartition
          + ")") + ", out of per-key order " + outOfOrder
          + ", duplicates " + duplicates + " (in one ownership " + duplicatesInOneOwnership
          + "), markers handed over " + markersDelivered + ", keys " + keys
          + (examples.isEmpty() ? "" : ", e.g. " + examples)
          + (threadFailures.isEmpty() ? "" : ", failed threads " + threadFailures);
    }
  }

  private record Delivery(String key, int seq, int partition, long offset, long epoch,
      String member, long nanos) {}

  private final Set<String> sent = ConcurrentHashMap.newKeySet();
  private final Set<String> acked = ConcurrentHashMap.newKeySet();
  private final Map<String, Integer> ackedOn = new ConcurrentHashMap<>();
  private final long startNanos = System.nanoTime();
  private final List<String> failures = new ArrayList<>();
  private final List<String> threadFailures = new ArrayList<>();
  private final List<Delivery> deliveries = new ArrayList<>();
  private final Set<String> deliveredOnce = new HashSet<>();
  private int markersDelivered;
  private volatile long lastDelivery = System.nanoTime();

  public void sent(String key, int seq) {
    sent.add(key + "#" + seq);
  }

  public void acked(String key, int seq) {
    acked.add(key + "#" + seq);
  }

  /** A record acknowledged by the broker, stored in {@code partition}. */
  public void acked(String key, int seq, int partition) {
    ackedOn.put(key + "#" + seq, partition);
    acked(key, seq);
  }

  public synchronized void failed(String key, int seq, Exception e) {
    failures.add(key + "#" + seq + ": " + e);
  }

  public synchronized void threadFailed(String thread, Throwable e) {
    threadFailures.add(thread + ": " + e);
  }

  /** Business code: one record handed over (value = its per-key sequence number). */
  public synchronized void delivered(String key, String value, int partition, long offset, long epoch,
      String member) {
    lastDelivery = System.nanoTime();
    if (value == null || value.isEmpty()) { // a Kafka marker's null value, a Pulsar marker's ""
      markersDelivered++;
      return;
    }
    deliveries.add(new Delivery(key, Integer.parseInt(value), partition, offset, epoch, member,
        lastDelivery));
    deliveredOnce.add(key + "#" + value);
  }

  public synchronized int deliveredDistinct() {
    return deliveredOnce.size();
  }

  /** Whether every acknowledged record was handed over. */
  public synchronized boolean allDelivered() {
    return deliveredOnce.containsAll(acked);
  }

  /**
   * Waits until every acknowledged record was handed over, or nothing was handed over for
   * {@code quietMillis}, or for at most 10 minutes while records keep coming (then the caller's
   * assertions report what is missing).
   */
  public void awaitDelivered(long quietMillis) throws InterruptedException {
    long end = System.nanoTime() + 600_000_000_000L;
    while (!allDelivered() && System.nanoTime() - lastDelivery < quietMillis * 1_000_000
        && System.nanoTime() - end < 0) {
      Thread.sleep(200);
    }
  }

  /** Every delivery of {@code key}, in order: seq, partition, epoch, member, ms since start. */
  public synchronized List<String> trace(String key) {
    List<String> out = new ArrayList<>();
    for (Delivery d : deliveries) {
      if (d.key().equals(key)) {
        out.add(d.seq() + " p" + d.partition() + " e" + d.epoch() + " " + d.member() + " +"
            + (d.nanos() - startNanos) / 1_000_000);
      }
    }
    return out;
  }

  /** The acknowledged records never handed over, counted by partition (-1: not recorded). */
  public synchronized Map<Integer, Integer> missingByPartition() {
    Map<Integer, Integer> out = new java.util.TreeMap<>();
    for (String id : acked) {
      if (!deliveredOnce.contains(id)) {
        out.merge(ackedOn.getOrDefault(id, -1), 1, Integer::sum);
      }
    }
    return out;
  }

  public synchronized Result result() {
    Map<String, Integer> contiguous = new HashMap<>();
    Map<String, TreeSet<Integer>> ahead = new HashMap<>();
    Map<String, Set<Long>> epochsOf = new HashMap<>();
    Set<String> seen = new HashSet<>();
    Set<String> keys = new HashSet<>();
    List<String> examples = new ArrayList<>();
    int outOfOrder = 0;
    int duplicates = 0;
    int sameOwnership = 0;
    for (Delivery d : deliveries) {
      String id = d.key() + "#" + d.seq();
      keys.add(d.key());
      Set<Long> epochs = epochsOf.computeIfAbsent(id, x -> new HashSet<>());
      if (!seen.add(id)) {
        duplicates++;
        if (epochs.contains(d.epoch())) {
          sameOwnership++;
          if (examples.size() < 5) {
            examples.add(id + " twice by " + d.member() + " in one ownership of p" + d.partition());
          }
        }
        epochs.add(d.epoch());
        continue;
      }
      epochs.add(d.epoch());
      int next = contiguous.getOrDefault(d.key(), 0);
      TreeSet<Integer> later = ahead.computeIfAbsent(d.key(), x -> new TreeSet<>());
      if (d.seq() == next) {
        next++;
        while (later.remove(next)) {
          next++;
        }
        contiguous.put(d.key(), next);
      } else {
        outOfOrder++;
        later.add(d.seq());
        if (examples.size() < 5) {
          examples.add(id + " (p" + d.partition() + "@" + d.offset() + " by " + d.member()
              + " e" + d.epoch() + ") before " + d.key() + "#" + next);
        }
      }
    }
    for (int i = 0; i < Math.min(2, failures.size()); i++) {
      examples.add("send failed: " + failures.get(i));
    }
    int lost = 0;
    for (String id : acked) {
      if (!seen.contains(id)) {
        lost++;
        if (examples.size() < 5) {
          examples.add(id + " never handed over");
        }
      }
    }
    return new Result(sent.size(), acked.size(), failures.size(), seen.size(), lost, outOfOrder,
        duplicates, sameOwnership, markersDelivered, keys.size(), missingByPartition(), examples,
        List.copyOf(threadFailures));
  }
}
