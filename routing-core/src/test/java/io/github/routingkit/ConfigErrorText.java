package io.github.routingkit;

/**
 * Test bridge to {@link RoutingConfigException}'s package-private rendering, so the config tests
 * (in {@code io.github.routingkit.config}) can check how a property and a value are shown.
 */
public final class ConfigErrorText {
  private ConfigErrorText() {}

  /** {@code RoutingConfigException.render(value)}: invisible characters escaped, huge values cut. */
  public static String render(Object value) {
    return RoutingConfigException.render(value);
  }
}
