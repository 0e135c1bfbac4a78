package io.github.routingkit.router.segment;

import io.github.routingkit.RoutingConfigException;
import io.github.routingkit.internal.Values;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Reads the {@code routing.segment.*} notation into a {@link SegmentDefinition}: ranges
 * ({@code order:0-5,payment:6-8}, inclusive; {@code name:3} is one partition) or weights
 * ({@code order:3,payment:1,*:2}), comma-separated exclusive segment names, a separator or a regex.
 * The one place that reads segment property text, reached through
 * {@link SegmentDefinition#parse}: used by the {@code routing.*} parser
 * ({@code io.github.routingkit.config}) and by {@link SegmentRouter}'s serialized form. Linear in
 * the number of entries (sets, and one sort for the range overlap check). Stateless and
 * thread-safe.
 */
final class SegmentNotation {
  private SegmentNotation() {}

  /**
   * Parses and checks a definition in the {@code routing.segment.*} notation: exactly one of
   * {@code ranges} and {@code weights}; {@code exclusive} segment names or null; at most one of
   * {@code separator} (default {@code :}) and {@code regex} (with a capturing group 1). Null
   * means the property is not set.
   *
   * @throws RoutingConfigException naming the {@code routing.segment.*} property, its value and
   *     the rule for a malformed or empty entry, a repeated segment, overlapping ranges, an unknown
   *     exclusive segment, both or neither of ranges and weights, a bad regex, or weights under
   *     which the shared range would always be empty
   */
  static SegmentDefinition parse(String ranges, String weights, String exclusive,
      String separator, String regex) {
    final String RANGES = SegmentDefinition.RANGES;
    final String WEIGHTS = SegmentDefinition.WEIGHTS;
    final String EXCLUSIVE = SegmentDefinition.EXCLUSIVE;
    final String SEPARATOR = SegmentDefinition.SEPARATOR;
    final String REGEX = SegmentDefinition.REGEX;
    if ((ranges == null) == (weights == null)) {
      throw new RoutingConfigException(ranges == null ? WEIGHTS : RANGES,
          ranges == null ? weights : ranges, "exactly one of " + RANGES + " and " + WEIGHTS
              + " must be set");
    }
    if (separator != null && regex != null) {
      throw new RoutingConfigException(REGEX, regex, "cannot be combined with " + SEPARATOR);
    }
    if (separator != null && separator.isEmpty()) {
      throw new RoutingConfigException(SEPARATOR, separator, "must not be empty");
    }
    if (regex != null) {
      Pattern p;
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
    String tenantSeparator = regex == null && separator == null ? ":" : separator;
    String property = ranges != null ? RANGES : WEIGHTS;
    String spec = ranges != null ? ranges : weights;
    if (Values.hasEmptyItem(spec)) {
      throw new RoutingConfigException(property, spec, "must be a comma-separated list of "
          + (ranges != null ? "name:from-to" : "name:weight") + " entries, none of them empty");
    }
    String exclusiveList = exclusive == null ? "" : exclusive;
    if (!exclusiveList.isEmpty() && Values.hasEmptyItem(exclusiveList)) {
      throw new RoutingConfigException(EXCLUSIVE, exclusive,
          "must be a comma-separated list of segment names, none of them empty");
    }
    SegmentDefinition.Builder b = SegmentDefinition.builder().separator(separator).regex(regex);
    List<String> nameList = new ArrayList<>();
    Set<String> nameSet = new HashSet<>();
    List<int[]> rangeList = new ArrayList<>();
    double shared = 0;
    double total = 0;
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
        total += shared;
        continue;
      }
      if (tenantSeparator != null && name.contains(tenantSeparator)) {
        throw new RoutingConfigException(property, spec, "segment '" + name + "' contains the"
            + " separator '" + tenantSeparator + "', so no key's tenant (the text before the first '"
            + tenantSeparator + "') can ever match it");
      }
      if (!nameSet.add(name)) {
        throw new RoutingConfigException(property, spec, "segment '" + name + "' is listed twice");
      }
      nameList.add(name);
      if (ranges != null) {
        rangeList.add(parseRange(spec, name, value));
      } else {
        double w = parseWeight(property, spec, name, value);
        total += w;
        b.weight(name, w);
      }
    }
    if (shared > 0) {
      b.sharedWeight(shared);
    }
    if (Double.isInfinite(total)) {
      throw new RoutingConfigException(WEIGHTS, weights, "the weights must add up to a finite"
          + " number, their sum overflows a double");
    }
    int[] overlap = overlappingPair(rangeList);
    if (overlap != null) {
      int[] ri = rangeList.get(overlap[0]);
      int[] rj = rangeList.get(overlap[1]);
      throw new RoutingConfigException(RANGES, spec, "segment '" + nameList.get(overlap[1])
          + "' range " + rj[0] + "-" + rj[1] + " overlaps segment '" + nameList.get(overlap[0])
          + "' range " + ri[0] + "-" + ri[1]);
    }
    for (int i = 0; i < rangeList.size(); i++) {
      b.range(nameList.get(i), rangeList.get(i)[0], rangeList.get(i)[1]);
    }
    Set<String> exclusiveNames = new LinkedHashSet<>();
    for (String name : exclusiveList.split(",")) {
      name = name.trim();
      if (name.isEmpty()) {
        continue;
      }
      if (!nameSet.contains(name)) {
        throw new RoutingConfigException(EXCLUSIVE, exclusive, "segment '" + name
            + "' is not defined in " + property + " " + nameList);
      }
      if (!exclusiveNames.add(name)) {
        throw new RoutingConfigException(EXCLUSIVE, exclusive, "segment '" + name
            + "' is listed twice");
      }
    }
    if (weights != null && shared == 0 && !nameList.isEmpty()
        && exclusiveNames.size() == nameList.size()) {
      throw new RoutingConfigException(EXCLUSIVE, exclusive, "every segment is exclusive and "
          + WEIGHTS + " reserves no '*' share, so the shared range for unknown tenants would be"
          + " empty");
    }
    b.exclusive(exclusiveNames.toArray(new String[0]));
    try {
      return b.build();
    } catch (IllegalArgumentException e) { // every rule is checked above; kept as a safety net
      throw new RoutingConfigException(property, spec, e.getMessage());
    }
  }

  private static int[] parseRange(String spec, String name, String value) {
    int dash = value.indexOf('-');
    String fromText = (dash < 0 ? value : value.substring(0, dash)).trim();
    String toText = dash < 0 ? fromText : value.substring(dash + 1).trim();
    int a = Values.parseInt(fromText, 0);
    int b = Values.parseInt(toText, 0);
    if (a < 0 || b < 0) {
      throw new RoutingConfigException(SegmentDefinition.RANGES, spec, "segment '" + name
          + "' range '" + value + "' must be from-to (partition numbers) or one partition number");
    }
    if (b < a) {
      throw new RoutingConfigException(SegmentDefinition.RANGES, spec, "segment '" + name
          + "' range " + value + " must be from-to with 0 <= from <= to");
    }
    return new int[] {a, b};
  }

  /**
   * Two overlapping ranges as indexes {i, j} with i &lt; j (j overlaps the earlier-listed i), or
   * null: the ranges sorted by their start, each compared with the furthest end before it.
   */
  static int[] overlappingPair(List<int[]> ranges) {
    Integer[] order = new Integer[ranges.size()];
    Arrays.setAll(order, i -> i);
    Arrays.sort(order, Comparator.comparingInt((Integer i) -> ranges.get(i)[0]).thenComparing(i -> i));
    int reach = -1; // the index among those seen whose range ends furthest
    for (int k : order) {
      if (reach >= 0 && ranges.get(k)[0] <= ranges.get(reach)[1]) {
        return new int[] {Math.min(reach, k), Math.max(reach, k)};
      }
      if (reach < 0 || ranges.get(k)[1] > ranges.get(reach)[1]) {
        reach = k;
      }
    }
    return null;
  }

  private static double parseWeight(String property, String spec, String name, String value) {
    double w = Values.parseDecimal(value);
    if (!(w > 0) || Double.isInfinite(w)) {
      throw new RoutingConfigException(property, spec, "segment '" + name + "' weight '" + value
          + "' must be a positive number" + Values.exponentHint(value));
    }
    return w;
  }
}
