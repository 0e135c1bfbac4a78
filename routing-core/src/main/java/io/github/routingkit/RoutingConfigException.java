package io.github.routingkit;

/**
 * A {@code routing.*} property has a bad value. The message names the property, the value and the
 * rule, in the form {@code routing.scheme value was 'murmur', must be one of [...]} (for a
 * required property that was not given, {@code routing.version.default is not set, ...}); the parts are
 * also available separately so adapters can translate the error (Kafka: {@code ConfigException}).
 */
public final class RoutingConfigException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String property;
  private final transient Object value;
  private final String rule;
  private final transient java.util.List<RoutingConfigException> problems;
  private final boolean notSet;

  /**
   * Creates the exception.
   *
   * @param property the full property name, e.g. {@code routing.scheme}
   * @param value the offending value as given (may be null)
   * @param rule what the value must be, e.g. {@code must be one of [a, b]}
   */
  public RoutingConfigException(String property, Object value, String rule) {
    this(property, value, rule, false);
  }

  private RoutingConfigException(String property, Object value, String rule, boolean notSet) {
    super(message(property, value, rule, notSet));
    this.property = property;
    this.value = value;
    this.rule = rule;
    this.notSet = notSet;
    this.problems = java.util.List.of(this);
  }

  private RoutingConfigException(RoutingConfigException first, String rule,
      java.util.List<RoutingConfigException> problems) {
    super(message(first.property, first.value, rule, first.notSet));
    this.property = first.property;
    this.value = first.value;
    this.rule = rule;
    this.notSet = first.notSet;
    this.problems = java.util.List.copyOf(problems);
  }

  /**
   * Returns the exception for a required property that was not given at all: the message reads
   * {@code routing.version.default is not set, <rule>} (a value given as {@code null} still reads
   * {@code value was 'null'}); {@link #value()} is null.
   *
   * @param property the full property name
   * @param rule when and how it must be set
   */
  public static RoutingConfigException notSet(String property, String rule) {
    return new RoutingConfigException(property, null, rule, true);
  }

  /**
   * Returns one exception reporting every problem of a configuration at once: the first problem's
   * property and value, and a rule that is the first one's followed by every other problem's
   * message ({@code "... (and 2 more problems: routing.x value was 'y', ...; ...)"}), so adapters
   * that translate property, value and rule (Kafka's {@code ConfigException}) show them all.
   *
   * @throws IllegalArgumentException if {@code problems} is empty
   */
  public static RoutingConfigException of(java.util.List<RoutingConfigException> problems) {
    if (problems.isEmpty()) {
      throw new IllegalArgumentException("no problems");
    }
    RoutingConfigException first = problems.get(0);
    if (problems.size() == 1) {
      return first;
    }
    StringBuilder rule = new StringBuilder(first.rule).append(" (and ")
        .append(problems.size() - 1).append(problems.size() == 2 ? " more problem: " : " more problems: ");
    for (int i = 1; i < problems.size(); i++) {
      rule.append(i > 1 ? "; " : "").append(problems.get(i).getMessage());
    }
    RoutingConfigException all = new RoutingConfigException(first, rule.append(')').toString(),
        problems);
    for (int i = 1; i < problems.size(); i++) {
      all.addSuppressed(problems.get(i));
    }
    return all;
  }

  /**
   * Returns every problem this exception reports, in the order found: just this one, unless it was
   * made by {@link #of} from several. Empty after deserialization.
   */
  public java.util.List<RoutingConfigException> problems() {
    return problems == null ? java.util.List.of() : problems;
  }

  /** "P value was 'V', rule", or "P is not set, rule" for a property that was not given. */
  private static String message(String property, Object value, String rule, boolean notSet) {
    return render(property) + (notSet ? " is not set, " : " value was '" + render(value) + "', ")
        + rule;
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
