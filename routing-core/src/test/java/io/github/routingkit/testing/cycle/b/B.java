package io.github.routingkit.testing.cycle.b;

/** The other half of a deliberate package cycle, for the package-graph test's self-check. */
public final class B {
  /** Uses A (not a compile-time constant, so the reference stays in the bytecode). */
  public static final int ONE = Integer.parseInt("1");

  public static int a() {
    return io.github.routingkit.testing.cycle.a.A.b();
  }
}
