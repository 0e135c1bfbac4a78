package io.github.routingkit.router.segment;

import io.github.routingkit.RoutingConfigException;
import io.github.routingkit.internal.Bytes;
import io.github.routingkit.internal.Values;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * What a {@link SegmentRouter} is configured with, parsed and checked: the segments in order with
 * their explicit range or weight, the {@code *} share, which segments are exclusive, and how the
 * tenant is read (separator or regex). Immutable; holds no partition-count-dependent state (see
 * {@link SegmentLayouts}). {@link #of} checks everything that can be checked without a
 * partition count, so a configuration can be validated without building a router.
 */
public final class SegmentDefinition {
  /** Property names used in error messages. */
  static final String RANGES = "routing.segment.ranges";
  static final String WEIGHTS = "routing.segment.weights";
  static final String EXCLUSIVE = "routing.segment.exclusive";
  static final String SEPARATOR = "routing.segment.separator";
  static final String REGEX = "routing.segment.regex";

  final String separator;
  final String regex;
  final String ranges;
  final String weights;
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

  /**
   * Parses and checks a definition in the {@code routing.segment.*} notation: exactly one of
   * {@code ranges} ({@code order:0-5,payment:6-8}) and {@code weights}
   * ({@code order:3,payment:1,*:2}); {@code exclusive} segment names or null; at most one of
   * {@code separator} (default {@code :}) and {@code regex} (with a capturing group 1).
   *
   * @throws RoutingConfigException naming the property, the value and the rule for a malformed or
   *     empty entry, a repeated segment, overlapping ranges, an unknown exclusive segment, both or
   *     neither of ranges and weights, a bad regex, or weights under which the shared range would
   *     always be empty
   */
  public static SegmentDefinition of(String ranges, String weights, String exclusive,
      String separator, String regex) {
    return new SegmentDefinition(separator, regex, ranges, weights, exclusive);
  }

  SegmentDefinition(String separator, String regex, String ranges, String weights,
      String exclusive) {
    if ((ranges == null) == (weights == null)) {
      throw new RoutingConfigException(ranges == null ? WEIGHTS : RANGES,
          ranges == null ? weights : ranges, "exactly one of " + RANGES + " and " + WEIGHTS
              + " must be set");
    }
    if (separator != null && regex != null) {
      throw new RoutingConfigException(REGEX, regex, "cannot be combined with " + SEPARATOR);
    }
    if (regex == null && separator == null) {
      separator = ":";
    }
    if (separator != null && separator.isEmpty()) {
      throw new RoutingConfigException(SEPARATOR, separator, "must not be empty");
    }
    this.separator = separator;
    this.regex = regex;
    this.ranges = ranges;
    this.weights = weights;
    this.exclusive = exclusive == null ? "" : exclusive;
    this.separatorBytes = separator == null ? null : separator.getBytes(StandardCharsets.UTF_8);
    Pattern p = null;
    if (regex != null) {
      try {
        p = Pattern.compile(regex);
      } catch (PatternSyntaxException e) {
        throw new RoutingConfigException(REGEX, regex, "must be a Java regular expression: "
            + e.getDescription());
      }
      if (p.matcher("").groupCount() < 1) {
        throw new RoutingConfigException(REGEX, regex,
            "must have a capturing group 1 that captures the tenant");
      }
    }
    this.pattern = p;

    String property = ranges != null ? RANGES : WEIGHTS;
    String spec = ranges != null ? ranges : weights;
    if (Values.hasEmptyItem(spec)) {
      throw new RoutingConfigException(property, spec, "must be a comma-separated list of "
          + (ranges != null ? "name:from-to" : "name:weight") + " entries, none of them empty");
    }
    if (exclusive != null && !exclusive.isEmpty() && Values.hasEmptyItem(exclusive)) {
      throw new RoutingConfigException(EXCLUSIVE, exclusive,
          "must be a comma-separated list of segment names, none of them empty");
    }
    List<String> nameList = new ArrayList<>();
    List<int[]> rangeList = new ArrayList<>();
    List<Double> weightList = new ArrayList<>();
    double shared = 0;
    for (String item : spec.split(",")) {
      item = item.trim();
      String[] nv = Values.nameValue(item);
      if (nv == null) {
        throw new RoutingConfigException(property, spec, "entry '" + item + "' must be written "
            + (ranges != null ? "name:from-to or name:partition" : "name:weight"));
      }
      String name = nv[0];
      String value = nv[1];
      if (weights != null && name.equals("*")) {
        if (shared > 0) {
          throw new RoutingConfigException(property, spec, "segment '*' is listed twice");
        }
        shared = parseWeight(property, spec, "*", value);
        continue;
      }
      if (separator != null && name.contains(separator)) {
        throw new RoutingConfigException(property, spec, "segment '" + name + "' contains the"
            + " separator '" + separator + "', so no key's tenant (the text before the first '"
            + separator + "') can ever match it");
      }
      if (nameList.contains(name)) {
        throw new RoutingConfigException(property, spec, "segment '" + name + "' is listed twice");
      }
      nameList.add(name);
      if (ranges != null) {
        rangeList.add(parseRange(spec, name, value));
      } else {
        weightList.add(parseWeight(property, spec, name, value));
      }
    }
    int k = nameList.size();
    this.names = nameList.toArray(new String[0]);
    this.nameBytes = new byte[k][];
    this.nameWord = new long[k];
    this.from = new int[k];
    this.to = new int[k];
    this.weight = new double[k];
    this.isExclusive = new boolean[k];
    for (int i = 0; i < k; i++) {
      nameBytes[i] = names[i].getBytes(StandardCharsets.UTF_8);
      nameWord[i] = Bytes.word(nameBytes[i], 0, nameBytes[i].length);
      if (ranges != null) {
        from[i] = rangeList.get(i)[0];
        to[i] = rangeList.get(i)[1];
      } else {
        weight[i] = weightList.get(i);
      }
    }
    this.sharedWeight = shared;
    double total = shared;
    for (double w : weight) {
      total += w;
    }
    if (Double.isInfinite(total)) {
      throw new RoutingConfigException(WEIGHTS, weights, "the weights must add up to a finite"
          + " number, their sum overflows a double");
    }
    if (ranges != null) {
      for (int i = 0; i < k; i++) {
        for (int j = i + 1; j < k; j++) {
          if (from[i] <= to[j] && from[j] <= to[i]) {
            throw new RoutingConfigException(RANGES, spec, "segment '" + names[j] + "' range "
                + from[j] + "-" + to[j] + " overlaps segment '" + names[i] + "' range " + from[i]
                + "-" + to[i]);
          }
        }
      }
    }
    for (String name : this.exclusive.split(",")) {
      name = name.trim();
      if (name.isEmpty()) {
        continue;
      }
      int i = nameList.indexOf(name);
      if (i < 0) {
        throw new RoutingConfigException(EXCLUSIVE, exclusive, "segment '" + name
            + "' is not defined in " + property + " " + nameList);
      }
      if (isExclusive[i]) {
        throw new RoutingConfigException(EXCLUSIVE, exclusive, "segment '" + name
            + "' is listed twice");
      }
      isExclusive[i] = true;
    }
    if (weights != null && shared == 0 && k > 0 && allExclusive()) {
      throw new RoutingConfigException(EXCLUSIVE, exclusive, "every segment is exclusive and "
          + WEIGHTS + " reserves no '*' share, so the shared range for unknown tenants would be"
          + " empty");
    }
  }

  private boolean allExclusive() {
    for (boolean b : isExclusive) {
      if (!b) {
        return false;
      }
    }
    return true;
  }


  private static int[] parseRange(String spec, String name, String value) {
    int dash = value.indexOf('-');
    String fromText = (dash < 0 ? value : value.substring(0, dash)).trim();
    String toText = dash < 0 ? fromText : value.substring(dash + 1).trim();
    int a = Values.parseInt(fromText, 0);
    int b = Values.parseInt(toText, 0);
    if (a < 0 || b < 0) {
      throw new RoutingConfigException(RANGES, spec, "segment '" + name + "' range '" + value
          + "' must be from-to (partition numbers) or one partition number");
    }
    if (b < a) {
      throw new RoutingConfigException(RANGES, spec, "segment '" + name + "' range " + value
          + " must be from-to with 0 <= from <= to");
    }
    return new int[] {a, b};
  }

  private static double parseWeight(String property, String spec, String name, String value) {
    double w = Values.parseDecimal(value);
    if (!(w > 0) || Double.isInfinite(w)) {
      throw new RoutingConfigException(property, spec, "segment '" + name + "' weight '" + value
          + "' must be a positive number");
    }
    return w;
  }

  List<String> exclusiveNames() {
    List<String> list = new ArrayList<>();
    for (int i = 0; i < names.length; i++) {
      if (isExclusive[i]) {
        list.add(names[i]);
      }
    }
    return list;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SegmentDefinition d && java.util.Objects.equals(d.separator, separator)
        && java.util.Objects.equals(d.regex, regex) && java.util.Objects.equals(d.ranges, ranges)
        && java.util.Objects.equals(d.weights, weights) && d.exclusive.equals(exclusive);
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(separator, regex, ranges, weights, exclusive);
  }
}
