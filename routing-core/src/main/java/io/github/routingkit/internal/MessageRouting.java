package io.github.routingkit.internal;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.MessageView;

/** The message form of routing every router shares ({@link KeyRouter#partitionOf(Object, MessageView, int)}). */
public final class MessageRouting {
  private MessageRouting() {}

  /**
   * Routes a text key as {@code partition(CharSequence...)}, key bytes as
   * {@code partition(byte[]...)}, reading the value only if the router needs it; no key by the
   * keyless policy.
   */
  public static <M> int route(KeyRouter router, M message, MessageView<M> view, int numPartitions) {
    CharSequence text = view.keyText(message);
    if (text != null) {
      return router.needsValue()
          ? router.partition(text, view.value(message), numPartitions)
          : router.partition(text, numPartitions);
    }
    byte[] key = view.keyBytes(message);
    if (key == null) {
      return router.keylessPartition(numPartitions);
    }
    return router.needsValue()
        ? router.partition(key, view.value(message), numPartitions)
        : router.partition(key, numPartitions);
  }
}
