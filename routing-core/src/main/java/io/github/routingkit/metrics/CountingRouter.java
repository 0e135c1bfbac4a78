package io.github.routingkit.metrics;

import io.github.routingkit.AvailablePartitions;
import io.github.routingkit.KeyRouter;
import io.github.routingkit.KeylessPolicy;
import io.github.routingkit.MessageView;
import java.util.concurrent.atomic.LongAdder;

/**
 * Routes exactly as its inner router and counts the keyed messages it routes: the canary's new
 * router, so the metrics know how many records it took without hashing any key again. Every
 * public entry point delegates to the inner router once, so each message counts once. Serializes
 * as its inner router (the count is not kept).
 */
final class CountingRouter implements KeyRouter {
  private static final long serialVersionUID = 1L;

  private final KeyRouter inner;
  private final transient LongAdder routed;

  CountingRouter(KeyRouter inner, LongAdder routed) {
    this.inner = inner;
    this.routed = routed;
  }

  @Override
  public int partition(byte[] key, int numPartitions) {
    if (key != null) {
      routed.increment();
    }
    return inner.partition(key, numPartitions);
  }

  @Override
  public int partition(byte[] key, int offset, int length, int numPartitions) {
    routed.increment();
    return inner.partition(key, offset, length, numPartitions);
  }

  @Override
  public int partition(CharSequence key, int numPartitions) {
    if (key != null) {
      routed.increment();
    }
    return inner.partition(key, numPartitions);
  }

  @Override
  public int partition(byte[] key, byte[] value, int numPartitions) {
    if (key != null) {
      routed.increment();
    }
    return inner.partition(key, value, numPartitions);
  }

  @Override
  public int partition(byte[] key, int offset, int length, byte[] value, int numPartitions) {
    routed.increment();
    return inner.partition(key, offset, length, value, numPartitions);
  }

  @Override
  public int partition(CharSequence key, byte[] value, int numPartitions) {
    if (key != null) {
      routed.increment();
    }
    return inner.partition(key, value, numPartitions);
  }

  @Override
  public <M> int partitionOf(M message, MessageView<M> view, int numPartitions) {
    if (view.keyText(message) != null || view.keyBytes(message) != null) {
      routed.increment();
    }
    return inner.partitionOf(message, view, numPartitions);
  }

  @Override
  public boolean needsValue() {
    return inner.needsValue();
  }

  @Override
  public int keylessPartition(int numPartitions) {
    return inner.keylessPartition(numPartitions);
  }

  @Override
  public int keylessPartition(int numPartitions, AvailablePartitions available) {
    return inner.keylessPartition(numPartitions, available);
  }

  @Override
  public KeylessPolicy keylessPolicy() {
    return inner.keylessPolicy();
  }

  @Override
  public long claimedMemoryBytes() {
    return inner.claimedMemoryBytes();
  }

  /** The router it counts for. */
  KeyRouter inner() {
    return inner;
  }

  @Override
  public String toString() {
    return inner.toString();
  }

  private Object writeReplace() {
    return inner;
  }
}
