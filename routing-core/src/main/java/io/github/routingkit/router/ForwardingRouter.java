package io.github.routingkit.router;

import io.github.routingkit.AbstractKeyRouter;
import io.github.routingkit.AvailablePartitions;
import io.github.routingkit.KeyRouter;
import io.github.routingkit.KeylessPolicy;

import java.util.Objects;

/**
 * A {@link KeyRouter} that hands every call to one wrapped router, its {@link #delegate()}: the base
 * of a router that changes one part of routing (which bytes of a key are routed, what a text key
 * means, what is counted) and takes the rest from the router it wraps, as Guava's
 * {@code ForwardingXxx} types do.
 *
 * <p><b>What is forwarded.</b> {@link #route} hands the key range and value to
 * {@code delegate().partition(key, offset, length, value, numPartitions)}; {@link #routeText} hands
 * the text to {@code delegate().partition(key, numPartitions)}. A subclass overrides these two to
 * change how a key is routed. Keyless messages ({@link #keylessPartition(int)},
 * {@link #keylessPartition(int, AvailablePartitions)}, {@link #keylessPolicy()}), whether the value
 * is read ({@link #needsValue()}) and the detector memory ({@link #claimedMemoryBytes()}) are always
 * the delegate's: those methods are final. The {@code partition} methods are
 * {@link AbstractKeyRouter}'s (a {@code null} key is keyless, a range is checked once), and
 * {@link #partitionOf} is {@link KeyRouter}'s default, which routes through them; a subclass that
 * must hand the whole message down (so the delegate can read a header) overrides it.
 *
 * <p><b>Thread-safety and cost.</b> Thread-safe as the delegate and the subclass's state are. The
 * forwarding methods allocate nothing and add one call each; serialization is the subclass's
 * (its fields and this delegate, or a serialization proxy).
 */
public abstract class ForwardingRouter extends AbstractKeyRouter {
  private static final long serialVersionUID = 1L;

  private final KeyRouter delegate;

  /**
   * Wraps {@code delegate}.
   *
   * @throws NullPointerException if {@code delegate} is null
   */
  protected ForwardingRouter(KeyRouter delegate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
  }

  /** Returns the router every call not overridden goes to; never null. */
  public final KeyRouter delegate() {
    return delegate;
  }

  /** Routes the key range and value with the delegate. */
  @Override
  protected int route(byte[] key, int offset, int length, byte[] value, int numPartitions) {
    return delegate.partition(key, offset, length, value, numPartitions);
  }

  /** Routes the text key with the delegate, as text. */
  @Override
  protected int routeText(CharSequence key, int numPartitions) {
    return delegate.partition(key, numPartitions);
  }

  /** Returns whether the delegate reads the value. */
  @Override
  public final boolean needsValue() {
    return delegate.needsValue();
  }

  /** Places a keyless message as the delegate does. */
  @Override
  public final int keylessPartition(int numPartitions) {
    return delegate.keylessPartition(numPartitions);
  }

  /** Places a keyless message among the available partitions as the delegate does. */
  @Override
  public final int keylessPartition(int numPartitions, AvailablePartitions available) {
    return delegate.keylessPartition(numPartitions, available);
  }

  /** Returns the delegate's keyless policy. */
  @Override
  public final KeylessPolicy keylessPolicy() {
    return delegate.keylessPolicy();
  }

  /** Returns the delegate's detector memory. */
  @Override
  public final long claimedMemoryBytes() {
    return delegate.claimedMemoryBytes();
  }
}
