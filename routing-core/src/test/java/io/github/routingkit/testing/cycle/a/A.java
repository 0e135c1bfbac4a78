package io.github.routingkit.testing.cycle.a;

/** Half of a deliberate package cycle, for the package-graph test's self-check. */
public final class A {
  /** Uses B. */
  public static int b() {
    return io.github.routingkit.testing.cycle.b.B.ONE;
  }

  public static final int ONE = 1;
}
