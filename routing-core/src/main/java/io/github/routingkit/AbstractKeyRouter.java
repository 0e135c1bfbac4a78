package io.github.routingkit;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Skeletal {@link KeyRouter}: it does the dispatch every router shares (a {@code null} key is a
 * keyless message, a key range is checked once, the text and message forms reduce to bytes) so
 * that an implementation writes only {@link #route}, its keyless placement
 * ({@link #keylessPartition(int)}, {@link #keylessPolicy()}) and, where it can do better than
 * encoding to UTF-8 first, {@link #routeText}.
 *
 * <p><b>Subclassing.</b> {@code route} receives a non-null key range already checked to lie within
 * the array, the message value or {@code null}, and the partition count as the caller gave it (the
 * implementation checks it, usually through its placement); it must return a partition in
 * {@code [0, numPartitions)} or throw. Implementations that choose by the value override
 * {@link #needsValue()}. The public {@code partition} methods are final: every router routes a key
 * the same way whichever form it arrives in.
 */
public abstract class AbstractKeyRouter implements KeyRouter {
  private static final long serialVersionUID = 1L;

  /** For subclasses. */
  protected AbstractKeyRouter() {}

  /**
   * Routes a non-null key: {@code length} bytes of {@code key} from {@code offset}, already checked
   * to lie within the array.
   *
   * @param value the message value, or {@code null} (unknown, or the message has none)
   * @return a partition in {@code [0, numPartitions)}
   * @throws IllegalArgumentException if {@code numPartitions < 1}
   */
  protected abstract int route(byte[] key, int offset, int length, byte[] value, int numPartitions);

  /**
   * Routes a non-null text key; by default its UTF-8 encoding ({@code getBytes(UTF_8)}, allocated
   * once). Override to hash the text without encoding it.
   *
   * @return a partition in {@code [0, numPartitions)}
   * @throws IllegalArgumentException if {@code numPartitions < 1}
   */
  protected int routeText(CharSequence key, int numPartitions) {
    byte[] bytes = key.toString().getBytes(StandardCharsets.UTF_8);
    return route(bytes, 0, bytes.length, null, numPartitions);
  }

  @Override
  public final int partition(byte[] key, int numPartitions) {
    if (key == null) {
      return keylessPartition(numPartitions);
    }
    return route(key, 0, key.length, null, numPartitions);
  }

  @Override
  public final int partition(byte[] key, int offset, int length, int numPartitions) {
    Objects.checkFromIndexSize(offset, length, key.length);
    return route(key, offset, length, null, numPartitions);
  }

  @Override
  public final int partition(CharSequence key, int numPartitions) {
    if (key == null) {
      return keylessPartition(numPartitions);
    }
    return routeText(key, numPartitions);
  }

  @Override
  public final int partition(byte[] key, byte[] value, int numPartitions) {
    if (key == null) {
      return keylessPartition(numPartitions);
    }
    return route(key, 0, key.length, value, numPartitions);
  }

  @Override
  public final int partition(byte[] key, int offset, int length, byte[] value, int numPartitions) {
    Objects.checkFromIndexSize(offset, length, key.length);
    return route(key, offset, length, value, numPartitions);
  }

  /**
   * The message form every router shares, {@link KeyRouter#partitionOf(Object, MessageView, int)}'s
   * default, for a subclass that overrides {@code partitionOf} for some messages only (a versioned
   * router reading its version from a header) and routes the others as every router does.
   *
   * @return a partition in {@code [0, numPartitions)}
   * @throws IllegalArgumentException if {@code numPartitions < 1}
   */
  protected final <M> int defaultPartitionOf(M message, MessageView<M> view, int numPartitions) {
    return KeyRouter.super.partitionOf(message, view, numPartitions);
  }
}
