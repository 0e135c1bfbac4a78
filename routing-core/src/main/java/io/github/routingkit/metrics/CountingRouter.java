package io.github.routingkit.metrics;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.MessageView;
import io.github.routingkit.router.ForwardingRouter;
import java.util.concurrent.atomic.LongAdder;

/**
 * Routes exactly as its inner router and counts the keyed messages it routes: the canary's new
 * router, so the metrics know how many records it took without hashing any key again. Every
 * public entry point delegates to the inner router once, so each message counts once. Serializes
 * as its inner router (the count is not kept).
 */
final class CountingRouter extends ForwardingRouter {
  private static final long serialVersionUID = 1L;

  private final transient LongAdder routed;

  CountingRouter(KeyRouter inner, LongAdder routed) {
    super(inner);
    this.routed = routed;
  }

  @Override
  protected int route(byte[] key, int offset, int length, byte[] value, int numPartitions) {
    routed.increment();
    return delegate().partition(key, offset, length, value, numPartitions);
  }

  @Override
  protected int routeText(CharSequence key, int numPartitions) {
    routed.increment();
    return delegate().partition(key, numPartitions);
  }

  @Override
  public int partition(CharSequence key, byte[] value, int numPartitions) {
    if (key != null) {
      routed.increment();
    }
    return delegate().partition(key, value, numPartitions);
  }

  @Override
  public <M> int partitionOf(M message, MessageView<M> view, int numPartitions) {
    if (view.keyText(message) != null || view.keyBytes(message) != null) {
      routed.increment();
    }
    return delegate().partitionOf(message, view, numPartitions);
  }

  @Override
  public String toString() {
    return delegate().toString();
  }

  private Object writeReplace() {
    return delegate();
  }
}
