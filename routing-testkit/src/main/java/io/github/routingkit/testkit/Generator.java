package io.github.routingkit.testkit;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * A source of test values drawn from a random generator: plain Java, so it feeds JUnit's
 * {@code @MethodSource}, a QuickTheories {@code Gen}, or any other property-testing library.
 * The same seed gives the same values on every JVM ({@link SplittableRandom} is specified
 * bit for bit).
 *
 * <pre>{@code
 * static Stream<String> keys() { return Keys.routerBreakers().stream(42).limit(1000); }
 * }</pre>
 *
 * <p>Implementations are stateless; the streams, iterators and suppliers they return are not
 * thread-safe (each owns its random generator).
 *
 * @param <T> the generated type
 */
@FunctionalInterface
public interface Generator<T> {

  /** Draws one value using {@code random}. */
  T next(SplittableRandom random);

  /** An infinite, sequential stream of values seeded with {@code seed}; limit it. */
  default Stream<T> stream(long seed) {
    return Stream.generate(supplier(seed));
  }

  /** An infinite iterator of values seeded with {@code seed}. */
  default Iterator<T> iterator(long seed) {
    return stream(seed).iterator();
  }

  /** A supplier of values seeded with {@code seed}. */
  default Supplier<T> supplier(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    return () -> next(random);
  }

  /**
   * Returns an unmodifiable list of the first {@code size} values seeded with {@code seed}.
   *
   * @throws IllegalArgumentException if {@code size < 0}
   */
  default List<T> sample(int size, long seed) {
    if (size < 0) {
      throw new IllegalArgumentException("size was " + size + ", must be >= 0");
    }
    Supplier<T> s = supplier(seed);
    List<T> out = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      out.add(s.get());
    }
    return Collections.unmodifiableList(out);
  }

  /** A generator of {@code f} applied to this one's values. */
  default <R> Generator<R> map(Function<? super T, ? extends R> f) {
    Objects.requireNonNull(f, "f");
    return random -> f.apply(next(random));
  }
}
