package io.github.routingkit.testbrokers;

/**
 * SIGINT and SIGTERM handlers for {@link EmbeddedBrokers}: they replace the JVM's default (run the
 * shutdown hooks and exit), so the brokers close in order before the data directories go.
 */
final class Signals {
  private Signals() {}

  /**
   * Runs {@code action} on SIGINT or SIGTERM instead of exiting. Where the JVM offers no signal
   * API ({@code jdk.unsupported} absent) the default stays and the shutdown hook closes the
   * brokers.
   */
  static void onInterruptOrTerminate(Runnable action) {
    for (String name : new String[] {"INT", "TERM"}) {
      try {
        sun.misc.Signal.handle(new sun.misc.Signal(name), s -> action.run());
      } catch (IllegalArgumentException | LinkageError e) {
        // the signal is reserved or unknown here: the JVM's default handling stays
      }
    }
  }
}
