package io.github.routingkit.testbrokers;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/** The threads a broker started, and waiting for them to end. */
final class Threads {
  private Threads() {}

  /** Returns the live threads of this JVM (an identity set). */
  static Set<Thread> live() {
    Set<Thread> out = Collections.newSetFromMap(new IdentityHashMap<>());
    out.addAll(Thread.getAllStackTraces().keySet());
    return out;
  }

  /**
   * Returns the non-daemon threads started since {@code before} (when {@code loader} is not null,
   * those whose context class loader is {@code loader} or none: Netty clears it on its global
   * executor's threads), that is, the ones that would keep the JVM from exiting.
   */
  static List<Thread> startedSince(Set<Thread> before, ClassLoader loader) {
    List<Thread> out = new ArrayList<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (!before.contains(t) && t.isAlive() && !t.isDaemon() && t != Thread.currentThread()
          && (loader == null || t.getContextClassLoader() == loader
              || t.getContextClassLoader() == null)) {
        out.add(t);
      }
    }
    return out;
  }

  /**
   * Waits up to {@code timeout} for the non-daemon threads started since {@code before} to end,
   * interrupting them half-way; returns those still alive (empty when all ended).
   */
  static List<Thread> awaitEnd(Set<Thread> before, ClassLoader loader, Duration timeout) {
    long start = System.nanoTime();
    boolean interrupted = false;
    while (true) {
      List<Thread> left = startedSince(before, loader);
      long elapsed = System.nanoTime() - start;
      if (left.isEmpty() || elapsed > timeout.toNanos()) {
        return left;
      }
      if (!interrupted && elapsed > timeout.toNanos() / 2) {
        left.forEach(Thread::interrupt);
        interrupted = true;
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return left;
      }
    }
  }

  static String names(List<Thread> threads) {
    return threads.stream().map(Thread::getName).collect(Collectors.joining(", ", "[", "]"));
  }
}
