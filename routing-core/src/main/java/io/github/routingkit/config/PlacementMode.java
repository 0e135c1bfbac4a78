package io.github.routingkit.config;

import io.github.routingkit.RoutingConfigException;
import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.placement.Placement;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * How {@value RoutingSpec#PLACEMENT} selects the placement: {@code native} and {@code modulo} name it
 * relative to the scheme, the others name a {@link Placement} by its {@link Placement#id()}.
 * One vocabulary, shared with the {@code routing} command's {@code --placement}.
 */
enum PlacementMode {
  NATIVE("native", null), MODULO("modulo", null),
  JUMP("jump", Placement.JUMP), JUMP_BACK("jump-back", Placement.JUMP_BACK),
  FLOOR_MOD("floor-mod", Placement.FLOOR_MOD),
  TO_POSITIVE("to-positive", Placement.KAFKA_TO_POSITIVE),
  UNSIGNED_MOD("unsigned-mod", Placement.UNSIGNED_MOD),
  ABS_REMAINDER("abs-remainder", Placement.ABS_REMAINDER);

  /**
   * The accepted values, for error messages:
   * {@code [native, modulo, jump, jump-back, floor-mod, to-positive, unsigned-mod, abs-remainder]}.
   */
  static final String IDS = Arrays.stream(values()).map(m -> m.id)
      .collect(Collectors.joining(", ", "[", "]"));
  /** The accepted values in order, for {@link RoutingSpec#placementValues()}. */
  static final List<String> ID_LIST =
      Arrays.stream(values()).map(m -> m.id).collect(Collectors.toUnmodifiableList());

  final String id;
  /** The placement this value always names, or null for the scheme-relative aliases. */
  private final Placement concrete;

  PlacementMode(String id, Placement concrete) {
    this.id = id;
    this.concrete = concrete;
  }

  Placement resolve(HashScheme scheme) {
    if (concrete != null) {
      return concrete;
    }
    return this == MODULO ? scheme.moduloPlacement() : scheme.nativePlacement();
  }

  /** The value with what it resolves to for {@code scheme}, for {@link RoutingSpec#describePlacement()}. */
  String describe(HashScheme scheme) {
    return concrete != null ? id : id + " (" + resolve(scheme).id() + " for " + scheme.id() + ")";
  }

  static PlacementMode parse(String property, String value, Object raw) {
    for (PlacementMode m : values()) {
      if (m.id.equals(value)) {
        return m;
      }
    }
    throw new RoutingConfigException(property, raw, "must be one of " + IDS);
  }
}
