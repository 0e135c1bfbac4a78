package io.github.routingkit;

/**
 * A {@code routing.*} property has a bad value. The message names the property, the value and the
 * rule, in the form {@code routing.scheme value was 'murmur', must be one of [...]}; the parts are
 * also available separately so adapters can translate the error (Kafka: {@code ConfigException}).
 */
public final class RoutingConfigException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String property;
  private final transient Object value;
  private final String rule;

  /**
   * Creates the exception.
   *
   * @param property the full property name, e.g. {@code routing.scheme}
   * @param value the offending value as given (may be null)
   * @param rule what the value must be, e.g. {@code must be one of [a, b]}
   */
  public RoutingConfigException(String property, Object value, String rule) {
    super(property + " value was '" + value + "', " + rule);
    this.property = property;
    this.value = value;
    this.rule = rule;
  }

  /** Returns the property name. */
  public String property() {
    return property;
  }

  /** Returns the offending value as given (may be null). */
  public Object value() {
    return value;
  }

  /** Returns the rule the value broke. */
  public String rule() {
    return rule;
  }
}
