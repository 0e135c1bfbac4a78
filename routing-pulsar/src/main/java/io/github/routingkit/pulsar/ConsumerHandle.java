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
 */
public final class ConsumerHandle {
  private final String name;
  private final int joinNumber;

  /**
   * @param name the consumer name, as the broker sees {@code consumerName}
   * @param joinNumber the join that connected this instance, {@code >= 0}
   * @throws NullPointerException if {@code name} is null
   * @throws IllegalArgumentException if {@code joinNumber} is negative
   */
  public ConsumerHandle(String name, int joinNumber) {
    Objects.requireNonNull(name, "name");
    if (joinNumber < 0) {
      throw new IllegalArgumentException("joinNumber was " + joinNumber + ", must be >= 0");
    }
    this.name = name;
    this.joinNumber = joinNumber;
  }

  /** Returns the consumer name, as the broker sees {@code consumerName}. */
  public String name() {
    return name;
  }

  /** Returns the join that connected this instance, {@code >= 0}. */
  public int joinNumber() {
    return joinNumber;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof ConsumerHandle)) {
      return false;
    }
    ConsumerHandle other = (ConsumerHandle) o;
    return Objects.equals(name, other.name)
        && joinNumber == other.joinNumber;
  }

  @Override
  public int hashCode() {
    int h = 0;
    h = 31 * h + Objects.hashCode(name);
    h = 31 * h + Integer.hashCode(joinNumber);
    return h;
  }

  @Override
  public String toString() {
    return "ConsumerHandle[name=" + name + ", joinNumber=" + joinNumber + "]";
  }
}
