package io.github.routingkit.testing.badadapter;

/** An adapter that tests a router's type, for the package-graph test's self-check. */
public final class TypeTestingAdapter {
  private TypeTestingAdapter() {}

  /** Whether {@code router} is a hash router (what an adapter must not ask). */
  public static boolean isHash(Object router) {
    return router instanceof io.github.routingkit.router.HashRouter;
  }
}
