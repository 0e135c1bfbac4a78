package io.github.routingkit.metrics;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The router and assignor metrics alive in this JVM, for bridges that are not handed an instance
 * (a Micrometer {@code MeterBinder} publishing every producer's and consumer's routing metrics).
 * An instance is added when its adapter is configured and removed when the adapter is closed.
 * Thread-safe.
 */
public final class RoutingMetricsRegistry {
  /** Told of instances as they come and go. */
  public interface Listener {
    /** A router instance started publishing. */
    void added(RouterMetrics metrics);

    /** An assignor instance started publishing. */
    void added(AssignorMetrics metrics);

    /** An instance stopped publishing ({@link RouterMetrics} or {@link AssignorMetrics}). */
    void removed(Object metrics);
  }

  private static final List<RouterMetrics> ROUTERS = new CopyOnWriteArrayList<>();
  private static final List<AssignorMetrics> ASSIGNORS = new CopyOnWriteArrayList<>();
  private static final List<Listener> LISTENERS = new CopyOnWriteArrayList<>();

  private RoutingMetricsRegistry() {}

  /** Returns the router instances publishing now. */
  public static List<RouterMetrics> routers() {
    return Collections.unmodifiableList(new ArrayList<>(ROUTERS));
  }

  /** Returns the assignor instances publishing now. */
  public static List<AssignorMetrics> assignors() {
    return Collections.unmodifiableList(new ArrayList<>(ASSIGNORS));
  }

  /**
   * Tells {@code listener} of every instance publishing now and of every later change, until
   * {@link #removeListener}.
   */
  public static synchronized void addListener(Listener listener) {
    LISTENERS.add(Objects.requireNonNull(listener, "listener"));
    ROUTERS.forEach(listener::added);
    ASSIGNORS.forEach(listener::added);
  }

  /** Stops telling {@code listener}. */
  public static synchronized void removeListener(Listener listener) {
    LISTENERS.remove(listener);
  }

  static synchronized void add(RouterMetrics metrics) {
    ROUTERS.add(metrics);
    LISTENERS.forEach(l -> l.added(metrics));
  }

  static synchronized void add(AssignorMetrics metrics) {
    ASSIGNORS.add(metrics);
    LISTENERS.forEach(l -> l.added(metrics));
  }

  static synchronized void remove(Object metrics) {
    if (ROUTERS.remove(metrics) | ASSIGNORS.remove(metrics)) {
      LISTENERS.forEach(l -> l.removed(metrics));
    }
  }
}
