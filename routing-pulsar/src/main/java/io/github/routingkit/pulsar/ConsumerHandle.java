package io.github.routingkit.pulsar;

import java.util.Objects;

/**
 * One connected consumer instance of a {@link KeySharedPredictor}: the consumer name plus the
 * number of the join that connected it. Many instances may share a name (every instance of a
 * service often sets the same {@code consumerName}); the broker tells them apart by their
 * connection, this model by {@link #joinNumber()}. Pass a handle to
 * {@link KeySharedPredictor#leave(ConsumerHandle)} to say which instance left.
 *
 * <p>A predictor numbers its joins 0, 1, 2, … in the order they happen (the factories' consumers
 * first, then each {@link KeySharedPredictor#join}); predictors derived from one another share the
 * numbering, so a handle stays valid across {@code join}/{@code leave} until its instance leaves.
 *
 * @param name the consumer name, as the broker sees {@code consumerName}
 * @param joinNumber the join that connected this instance, {@code >= 0}
 */
public record ConsumerHandle(String name, int joinNumber) {
  /**
   * @throws NullPointerException if {@code name} is null
   * @throws IllegalArgumentException if {@code joinNumber} is negative
   */
  public ConsumerHandle {
    Objects.requireNonNull(name, "name");
    if (joinNumber < 0) {
      throw new IllegalArgumentException("joinNumber was " + joinNumber + ", must be >= 0");
    }
  }
}
