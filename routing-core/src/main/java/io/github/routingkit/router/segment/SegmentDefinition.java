package io.github.routingkit.router.segment;

import io.github.routingkit.internal.Bytes;
import java.nio.charset.StandardCharsets;
import io.github.routingkit.RoutingConfigException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * What a {@link SegmentRouter} is configured with, checked: the segments in order with their
 * explicit range or weight, the {@code *} share, which segments are exclusive, and how the tenant
 * is read (separator or regex). Immutable; holds no partition-count-dependent state (see
 * {@link SegmentLayouts}). {@link Builder#build()} checks everything that can be checked without a
 * partition count, so a configuration can be validated without building a router.
 * {@link #parse} reads the {@code routing.segment.*} property notation into one. Building and
 * parsing take time linear in the number of segments, up to a sort of the ranges.
 */
public final class SegmentDefinition {
  /**
   * The {@code routing.segment.*} property names, for the notation's errors and the routing-time
   * errors of a segment that does not fit a count (the same strings as {@code RoutingSpec}'s
   * constants, which a test checks; this package does not depend on the config package).
   */
  static final String RANGES = "routing.segment.ranges";
  static final String WEIGHTS = "routing.segment.weights";
  static final String EXCLUSIVE = "routing.segment.exclusive";
  static final String SEPARATOR = "routing.segment.separator";
  static final String REGEX = "routing.segment.regex";

  final String separator;
  final String regex;
  /** The canonical notation of the ranges ({@code a:0-5,b:6}), null with weights. */
  final String ranges;
  /** The canonical notation of the weights ({@code a:3,b:1,*:2}), null with ranges. */
  final String weights;
  /** The exclusive segment names, comma-separated ("" for none). */
  final String exclusive;

  final byte[] separatorBytes;
  final Pattern pattern;
  final String[] names;
  final byte[][] nameBytes;
  final long[] nameWord; // Bytes.word of nameBytes[i]: its first 8 bytes
  final int[] from;
  final int[] to;
  final double[] weight;
  final double sharedWeight;
  final boolean[] isExclusive;

  private SegmentDefinition(Builder b) {
    boolean byRange = !b.ranges.isEmpty();
    boolean byWeight = !b.weights.isEmpty() || b.sharedWeight > 0;
    if (byRange == byWeight) {
      throw new IllegalArgumentException(byRange
          ? "a segment definition takes ranges or weights, not both"
          : "a segment definition needs at least one range or weight");
    }
    String separator = b.separator;
    if (separator != null && b.regex != null) {
      throw new IllegalArgumentException("the tenant is read by a separator or by a regex, not both");
    }
    if (b.regex == null && separator == null) {
      separator = ":";
    }
    if (separator != null && separator.isEmpty()) {
      throw new IllegalArgumentException("the separator must not be empty");
    }
    Pattern p = null;
    if (b.regex != null) {
      try {
        p = Pattern.compile(b.regex);
      } catch (PatternSyntaxException e) {
        throw new IllegalArgumentException("regex '" + b.regex
            + "' must be a Java regular expression: " + e.getDescription(), e);
      }
      if (p.matcher("").groupCount() < 1) {
        throw new IllegalArgumentException("regex '" + b.regex
            + "' must have a capturing group 1 that captures the tenant");
      }
    }
    List<String> nameList = new ArrayList<>();
    Map<String, Integer> index = new HashMap<>();
    for (Entry e : byRange ? b.ranges : b.weights) {
      if (e.name.isEmpty()) {
        throw new IllegalArgumentException("a segment name must not be empty");
      }
      if (separator != null && e.name.contains(separator)) {
        throw new IllegalArgumentException("segment '" + e.name + "' contains the separator '"
            + separator + "', so no key's tenant (the text before the first '" + separator
            + "') can ever match it");
      }
      if (index.putIfAbsent(e.name, nameList.size()) != null) {
        throw new IllegalArgumentException("segment '" + e.name + "' is listed twice");
      }
      nameList.add(e.name);
    }
    int k = nameList.size();
    this.separator = separator;
    this.regex = b.regex;
    this.separatorBytes = separator == null ? null : separator.getBytes(StandardCharsets.UTF_8);
    this.pattern = p;
    this.names = nameList.toArray(new String[0]);
    this.nameBytes = new byte[k][];
    this.nameWord = new long[k];
    this.from = new int[k];
    this.to = new int[k];
    this.weight = new double[k];
    this.isExclusive = new boolean[k];
    this.sharedWeight = b.sharedWeight;
    StringBuilder notation = new StringBuilder();
    double total = sharedWeight;
    for (int i = 0; i < k; i++) {
      Entry e = byRange ? b.ranges.get(i) : b.weights.get(i);
      nameBytes[i] = names[i].getBytes(StandardCharsets.UTF_8);
      nameWord[i] = Bytes.word(nameBytes[i], 0, nameBytes[i].length);
      from[i] = e.from;
      to[i] = e.to;
      weight[i] = e.weight;
      total += e.weight;
      notation.append(i == 0 ? "" : ",").append(names[i]).append(':').append(byRange
          ? (e.from == e.to ? String.valueOf(e.from) : e.from + "-" + e.to) : decimal(e.weight));
    }
    if (sharedWeight > 0) {
      notation.append(k == 0 ? "" : ",").append("*:").append(decimal(sharedWeight));
    }
    if (Double.isInfinite(total)) {
      throw new IllegalArgumentException("the weights must add up to a finite number, their sum"
          + " overflows a double");
    }
    this.ranges = byRange ? notation.toString() : null;
    this.weights = byRange ? null : notation.toString();
    if (byRange) {
      List<int[]> rangeList = new ArrayList<>(k);
      for (int i = 0; i < k; i++) {
        rangeList.add(new int[] {from[i], to[i]});
      }
      int[] overlap = SegmentNotation.overlappingPair(rangeList);
      if (overlap != null) {
        int i = overlap[0];
        int j = overlap[1];
        throw new IllegalArgumentException("segment '" + names[j] + "' range " + from[j] + "-"
            + to[j] + " overlaps segment '" + names[i] + "' range " + from[i] + "-" + to[i]);
      }
    }
    for (String name : b.exclusive) {
      Integer at = index.get(name);
      int i = at == null ? -1 : at;
      if (i < 0) {
        throw new IllegalArgumentException("exclusive segment '" + name + "' is not defined: the"
            + " segments are " + nameList);
      }
      isExclusive[i] = true;
    }
    this.exclusive = String.join(",", b.exclusive);
    if (!byRange && sharedWeight == 0 && k > 0 && allExclusive()) {
      throw new IllegalArgumentException("every segment is exclusive and no '*' share is set, so"
          + " the shared range for unknown tenants would be empty");
    }
  }

  /**
   * Parses and checks a definition in the {@code routing.segment.*} notation: exactly one of
   * {@code ranges} ({@code order:0-5,payment:6-8}, inclusive; {@code name:3} is one partition) and
   * {@code weights} ({@code order:3,payment:1,*:2}); {@code exclusive} segment names
   * (comma-separated) or null; at most one of {@code separator} (default {@code :}) and
   * {@code regex} (with a capturing group 1). Null means the property is not set. Time linear in
   * the number of entries, up to a sort of the ranges.
   *
   * @throws RoutingConfigException naming the {@code routing.segment.*} property, its value and
   *     the rule for a malformed or empty entry, a repeated segment, overlapping ranges, an unknown
   *     exclusive segment, both or neither of ranges and weights, a bad regex, or weights under
   *     which the shared range would always be empty
   */
  public static SegmentDefinition parse(String ranges, String weights, String exclusive,
      String separator, String regex) {
    return SegmentNotation.parse(ranges, weights, exclusive, separator, regex);
  }

  /** Returns a builder of a definition. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Builds a {@link SegmentDefinition}: either ranges ({@link #range}) or weights
   * ({@link #weight}, {@link #sharedWeight}), optionally exclusive segments, and at most one of a
   * separator (default {@code ":"}) and a regex. Segments keep the order they are added in. Not
   * thread-safe.
   */
  public static final class Builder {
    private final List<Entry> ranges = new ArrayList<>();
    private final List<Entry> weights = new ArrayList<>();
    private final Set<String> exclusive = new LinkedHashSet<>();
    private double sharedWeight;
    private String separator;
    private String regex;

    private Builder() {}

    /**
     * Gives segment {@code name} the partitions {@code [from, to]} (inclusive).
     *
     * @throws IllegalArgumentException if {@code from < 0} or {@code to < from}
     * @throws NullPointerException if {@code name} is null
     */
    public Builder range(String name, int from, int to) {
      Objects.requireNonNull(name, "name");
      if (from < 0 || to < from) {
        throw new IllegalArgumentException("segment '" + name + "' range " + from + "-" + to
            + " must be from-to with 0 <= from <= to");
      }
      ranges.add(new Entry(name, from, to, 0));
      return this;
    }

    /**
     * Gives segment {@code name} the share {@code weight / sum of weights} of every partition
     * count; {@code name} {@code "*"} is the same as {@link #sharedWeight}.
     *
     * @throws IllegalArgumentException if {@code weight} is not a positive finite number, or
     *     {@code "*"} is given twice
     * @throws NullPointerException if {@code name} is null
     */
    public Builder weight(String name, double weight) {
      Objects.requireNonNull(name, "name");
      if (name.equals("*")) {
        if (sharedWeight > 0) {
          throw new IllegalArgumentException("segment '*' is listed twice");
        }
        return sharedWeight(weight);
      }
      weights.add(new Entry(name, 0, 0, checkWeight(name, weight)));
      return this;
    }

    /**
     * Reserves the share {@code weight / sum of weights} for the shared range only (the
     * {@code *} entry of the notation).
     *
     * @throws IllegalArgumentException if {@code weight} is not a positive finite number
     */
    public Builder sharedWeight(double weight) {
      this.sharedWeight = checkWeight("*", weight);
      return this;
    }

    /**
     * Makes the named segments exclusive: their partitions take only their tenant's keys.
     *
     * @throws IllegalArgumentException if a name is given twice
     * @throws NullPointerException if a name is null
     */
    public Builder exclusive(String... names) {
      for (String n : names) {
        if (!exclusive.add(Objects.requireNonNull(n, "exclusive segment"))) {
          throw new IllegalArgumentException("exclusive segment '" + n + "' is listed twice");
        }
      }
      return this;
    }

    /** The tenant is the key's bytes before the first {@code separator} (default {@code ":"}). */
    public Builder separator(String separator) {
      this.separator = separator;
      return this;
    }

    /** The tenant is group 1 of {@code regex} found in the key's UTF-8 text. */
    public Builder regex(String regex) {
      this.regex = regex;
      return this;
    }

    /**
     * Builds the definition.
     *
     * @throws IllegalArgumentException for both or neither of ranges and weights, both a separator
     *     and a regex, an empty separator, a bad regex or one without group 1, an empty or
     *     repeated segment name or one containing the separator, overlapping ranges, weights whose
     *     sum overflows, an exclusive segment that is not defined, or weights under which the
     *     shared range would always be empty
     */
    public SegmentDefinition build() {
      return new SegmentDefinition(this);
    }

    private static double checkWeight(String name, double weight) {
      if (!(weight > 0) || Double.isInfinite(weight)) {
        throw new IllegalArgumentException("segment '" + name + "' weight " + weight
            + " must be a positive finite number");
      }
      return weight;
    }
  }

  private static final class Entry {
    private final String name;
    private final int from;
    private final int to;
    private final double weight;

    private Entry(String name, int from, int to, double weight) {
      this.name = name;
      this.from = from;
      this.to = to;
      this.weight = weight;
    }

    public String name() {
      return name;
    }

    public int from() {
      return from;
    }

    public int to() {
      return to;
    }

    public double weight() {
      return weight;
    }

    @Override
    public boolean equals(Object o) {
      if (this == o) {
        return true;
      }
      if (!(o instanceof Entry)) {
        return false;
      }
      Entry other = (Entry) o;
      return Objects.equals(name, other.name)
          && from == other.from
          && to == other.to
          && Double.compare(weight, other.weight) == 0;
    }

    @Override
    public int hashCode() {
      int h = 0;
      h = 31 * h + Objects.hashCode(name);
      h = 31 * h + Integer.hashCode(from);
      h = 31 * h + Integer.hashCode(to);
      h = 31 * h + Double.hashCode(weight);
      return h;
    }

    @Override
    public String toString() {
      return "Entry[name=" + name + ", from=" + from + ", to=" + to + ", weight=" + weight + "]";
    }
  }

  /** The shortest decimal that reads back as {@code w}: integers without a fraction. */
  private static String decimal(double w) {
    return w == Math.rint(w) && w < 1e15 ? Long.toString((long) w) : Double.toString(w);
  }

  private boolean allExclusive() {
    for (boolean b : isExclusive) {
      if (!b) {
        return false;
      }
    }
    return true;
  }

  /** Returns the segment names, in order. */
  public List<String> names() {
    return List.of(names);
  }

  /** Returns whether the segments are laid out by explicit ranges (else by weights). */
  public boolean hasRanges() {
    return ranges != null;
  }

  /** Returns the ranges in the property notation ({@code a:0-5,b:6}), or null with weights. */
  public String rangesNotation() {
    return ranges;
  }

  /** Returns the weights in the property notation ({@code a:3,b:1,*:2}), or null with ranges. */
  public String weightsNotation() {
    return weights;
  }

  /** Returns the exclusive segment names, in the order given. */
  public List<String> exclusiveNames() {
    List<String> list = new ArrayList<>();
    for (int i = 0; i < names.length; i++) {
      if (isExclusive[i]) {
        list.add(names[i]);
      }
    }
    return list;
  }

  /** Returns the separator, or null when the tenant is read by a regex. */
  public String separator() {
    return regex == null ? separator : null;
  }

  /** Returns the regex, or null when the tenant is read by a separator. */
  public String regex() {
    return regex;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof SegmentDefinition)) {
      return false;
    }
    SegmentDefinition d = (SegmentDefinition) o;
    return Objects.equals(d.separator, separator)
        && Objects.equals(d.regex, regex) && Objects.equals(d.ranges, ranges)
        && Objects.equals(d.weights, weights) && d.exclusive.equals(exclusive);
  }

  @Override
  public int hashCode() {
    return Objects.hash(separator, regex, ranges, weights, exclusive);
  }

  @Override
  public String toString() {
    return (ranges != null ? "ranges=" + ranges : "weights=" + weights) + ", exclusive=" + exclusive
        + ", " + (regex != null ? "regex=" + regex : "separator=" + separator);
  }
}
