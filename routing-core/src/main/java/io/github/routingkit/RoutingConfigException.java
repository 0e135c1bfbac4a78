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
    super(render(property) + " value was '" + render(value) + "', " + rule);
    this.property = property;
    this.value = value;
    this.rule = rule;
  }

  /** The longest value shown in the message; longer values are cut in the middle. */
  static final int MAX_SHOWN = 200;

  /**
   * The value as shown in the message: invisible or confusable characters (control and format
   * characters such as a zero-width space or BOM, non-ASCII spaces such as a no-break space,
   * unpaired surrogates) as Java-style unicode escapes (a backslash, {@code u}, four hex digits),
   * so a no-break space after {@code kafka-murmur2} cannot make the bad value read as a valid
   * one; cut to {@value #MAX_SHOWN} characters.
   */
  static String render(Object value) {
    String s = String.valueOf(value);
    if (s.length() > MAX_SHOWN) {
      s = s.substring(0, MAX_SHOWN / 2) + "...(" + s.length() + " chars)..."
          + s.substring(s.length() - MAX_SHOWN / 2);
    }
    StringBuilder sb = null;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      int type = Character.getType(c);
      boolean unpaired = Character.isSurrogate(c)
          && !(Character.isHighSurrogate(c) && i + 1 < s.length()
              && Character.isLowSurrogate(s.charAt(i + 1)))
          && !(Character.isLowSurrogate(c) && i > 0 && Character.isHighSurrogate(s.charAt(i - 1)));
      boolean hidden = type == Character.CONTROL || type == Character.FORMAT
          || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR
          || (type == Character.SPACE_SEPARATOR && c != ' ') || unpaired;
      if (hidden && sb == null) {
        sb = new StringBuilder(s.length() + 16).append(s, 0, i);
      }
      if (sb != null) {
        if (hidden) {
          sb.append(String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
        } else {
          sb.append(c);
        }
      }
    }
    return sb == null ? s : sb.toString();
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
