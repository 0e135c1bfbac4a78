package io.github.routingkit.testkit;


import io.github.routingkit.KeyRouter;

/**
 * Entry point of the router assertions for JUnit 5 (or any test framework):
 *
 * <pre>{@code
 * import static io.github.routingkit.testkit.RoutingAssertions.assertThat;
 *
 * assertThat(router)
 *     .isDeterministic()
 *     .staysInRange(1000)
 *     .isThreadSafe()
 *     .survivesSerialization()
 *     .agreesWith(Routers.kafkaDefault())
 *     .isBalancedOn(myKeys, 24, 1.1);
 * }</pre>
 *
 * <p>Each failed check throws {@link org.opentest4j.AssertionFailedError} (an
 * {@link AssertionError}) saying what failed, with a concrete counter-example: the key, the
 * partition count and the partitions involved.
 */
public final class RoutingAssertions {
  private RoutingAssertions() {}

  /**
   * Starts assertions on {@code router}.
   *
   * @throws NullPointerException if {@code router} is null
   */
  public static RouterAssert assertThat(KeyRouter router) {
    return new RouterAssert(router);
  }
}
