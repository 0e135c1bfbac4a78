package io.github.routingkit.config;

import static io.github.routingkit.config.RoutingSpec.*;

import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;

/**
 * Decides which {@code routing.*} names a spec knows: the layer properties, the canary's (its
 * share and the new spec's {@value RoutingSpec#CANARY_NEXT_PREFIX} copy of every plain key but
 * keyless), and with scheme, keyless and placement all of them. Immutable sorted sets.
 */
final class SpecKeys {
  private SpecKeys() {}

  private static final Set<String> PLAIN_LAYERS = Set.of(SEGMENT_RANGES, SEGMENT_WEIGHTS,
      SEGMENT_EXCLUSIVE, SEGMENT_SEPARATOR, SEGMENT_REGEX, HOTKEY_KEYS, HOTKEY_DETECT,
      HOTKEY_THRESHOLD, HOTKEY_MEMORY, HOTKEY_WINDOW, HOTKEY_SAMPLE, HOTKEY_CANDIDATES,
      HOTKEY_CHOICE,
      VERSION_GENERATIONS, VERSION_DEFAULT, VERSION_SOURCE, VERSION_SEPARATOR, VERSION_HEADER);
  /** {@value RoutingSpec#CANARY_SHARE} and the new spec's keys: each plain key but keyless. */
  static final Set<String> CANARY;
  /** The layer properties: every known property but scheme, keyless and placement. */
  static final Set<String> LAYERS;
  /** Every {@code routing.*} property ({@link RoutingSpec#knownProperties()}). */
  static final Set<String> ALL;

  static {
    Set<String> canary = new TreeSet<>();
    canary.add(CANARY_SHARE);
    for (String k : PLAIN_LAYERS) {
      canary.add(CANARY_NEXT_PREFIX + k.substring(PREFIX.length()));
    }
    canary.add(CANARY_NEXT_PREFIX + SCHEME.substring(PREFIX.length()));
    canary.add(CANARY_NEXT_PREFIX + PLACEMENT.substring(PREFIX.length()));
    CANARY = Collections.unmodifiableSet(canary);
    Set<String> layers = new TreeSet<>(PLAIN_LAYERS);
    layers.addAll(CANARY);
    LAYERS = Collections.unmodifiableSet(layers);
    Set<String> keys = new TreeSet<>(LAYERS);
    keys.add(SCHEME);
    keys.add(KEYLESS);
    keys.add(PLACEMENT);
    ALL = Collections.unmodifiableSet(keys);
  }
}
