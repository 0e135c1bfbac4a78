package io.github.routingkit.testing;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Assumptions;

/** The JVM's per-thread allocation counter, for the zero-allocation checks (not benchmarks). */
public final class AllocationCounter {
  private AllocationCounter() {}

  /** The JVM's per-thread allocation counter; the calling test is skipped where there is none. */
  public static com.sun.management.ThreadMXBean allocationCounter() {
    java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
    Assumptions.assumeTrue(bean instanceof com.sun.management.ThreadMXBean);
    com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) bean;
    Assumptions.assumeTrue(mx.isThreadAllocatedMemorySupported());
    return mx;
  }
}
