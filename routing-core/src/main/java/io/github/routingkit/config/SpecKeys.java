package io.github.routingkit.config;

import io.github.routingkit.config.RoutingProperty.Layer;
import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;

/**
 * Decides which {@code routing.*} names a spec knows, from the {@link RoutingProperty} catalogue:
 * the layer properties, the canary's (its share and the new spec's
 * {@value RoutingSpec#CANARY_NEXT_PREFIX} copy of every {@link RoutingProperty#isCopiedIntoCanary()
 * copied} key), and with scheme, keyless and placement all of them. Immutable sorted sets.
 */
final class SpecKeys {
  private SpecKeys() {}

  /** {@value RoutingSpec#CANARY_SHARE} and the new spec's keys. */
  static final Set<String> CANARY;
  /** The layer properties: every known property but scheme, keyless and placement. */
  static final Set<String> LAYERS;
  /** Every {@code routing.*} property ({@link RoutingSpec#knownProperties()}). */
  static final Set<String> ALL;

  static {
    Set<String> canary = new TreeSet<>(RoutingProperty.keys(Layer.CANARY));
    canary.addAll(RoutingProperty.canaryNextKeys());
    CANARY = Collections.unmodifiableSet(canary);
    Set<String> all = new TreeSet<>();
    for (Layer layer : Layer.values()) {
      if (layer != Layer.ASSIGNOR) { // read by the Kafka assignors, skipped by the spec
        all.addAll(RoutingProperty.keys(layer));
      }
    }
    all.addAll(CANARY);
    ALL = Collections.unmodifiableSet(all);
    Set<String> layers = new TreeSet<>(all);
    layers.removeAll(RoutingProperty.keys(Layer.HASH));
    LAYERS = Collections.unmodifiableSet(layers);
  }
}
