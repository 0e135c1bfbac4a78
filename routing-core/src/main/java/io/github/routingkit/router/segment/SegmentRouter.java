package io.github.routingkit.router.segment;

import io.github.routingkit.AbstractKeyRouter;
import io.github.routingkit.KeyRouter;
import io.github.routingkit.KeylessPolicy;
import io.github.routingkit.RoutingConfigException;
import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.internal.Bytes;
import io.github.routingkit.internal.Partitions;

import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Routes tenants (business lines, customers) to their own partition ranges: the tenant is read from
 * the key, its segment names a set of partitions, and the inner router hashes the key within that
 * set. Keys of a tenant without a segment, and keys without a tenant, go to the <em>shared
 * range</em>.
 *
 * <h2>Tenant</h2>
 * Either the bytes before the first occurrence of a separator ({@code "order:17"} with separator
 * {@code ":"} &rarr; {@code order}; no separator &rarr; no tenant), or group 1 of a regular
 * expression found in the key's UTF-8 text ({@link Matcher#find()}; no match &rarr; no tenant).
 * The separator form allocates nothing per {@code byte[]} key; the regex form decodes the key and
 * allocates.
 *
 * <h2>Ranges</h2>
 * <ul>
 *   <li><b>Explicit</b>: {@code order:0-5,payment:6-8} (inclusive; {@code name:3} is one
 *       partition). Ranges may not overlap (checked when built). A range beyond the topic's
 *       partition count is detected only when a message for a topic with that count is routed
 *       (the count is not known earlier): {@link #partition} then throws
 *       {@link RoutingConfigException} naming the segment, its range and the count, for every key
 *       &mdash; never an out-of-range partition. Check a count up front with {@link #layout(int)}.</li>
 *   <li><b>Weights</b>: {@code order:3,payment:1,*:2} &mdash; for each partition count {@code n}
 *       every segment (and {@code *}, a share reserved for the shared range only) gets
 *       {@code n * w / sum(w)} partitions rounded by the largest-remainder method, laid out
 *       contiguously in the order given: every partition belongs to exactly one entry (none is left
 *       unused) and each entry's count is within one partition of its exact share. A segment whose
 *       share rounds to 0 partitions (n smaller than the number of segments) is an error at routing
 *       time, as above.</li>
 * </ul>
 *
 * <h2>Isolation</h2>
 * An <em>exclusive</em> segment's partitions receive only that tenant's keys. The shared range is
 * every partition not in an exclusive segment: the partitions of non-exclusive segments, of
 * {@code *}, and those no range names (so no partition is left unused). If exclusive segments cover
 * every partition, the shared range is empty: with weights and no {@code *} that is an error when
 * built; with explicit ranges it is an error at routing time for that count. Keyless messages go to
 * the shared range (under the inner router's keyless policy), so they never reach an exclusive
 * segment either.
 *
 * <h2>What it gives up</h2>
 * Per-key ordering is kept (a key always maps to one partition for a given count and layout). A
 * tenant's throughput is capped by its range; a hot tenant cannot spill over. Changing the
 * partition count re-lays weighted segments and moves most keys; changing the specification moves
 * the keys of every segment whose range changes.
 *
 * <p>Immutable (the layouts of up to {@value #MEMO_SIZE} partition counts are cached, each a pure
 * function of the configuration; the one computed longest ago is dropped first), thread-safe and
 * {@link Serializable} through its configuration. A layout is computed the first time a partition
 * count is seen, or again after {@value #MEMO_SIZE} other counts were computed since; otherwise routing a
 * {@code byte[]} key with the separator form allocates nothing beyond what the inner router does,
 * also when one producer alternates between topics of different partition counts.
 */
public final class SegmentRouter extends AbstractKeyRouter {
  private static final long serialVersionUID = 1L;

  /** Property names used in error messages (and by {@link RoutingSpec}). */
  static final String RANGES = "routing.segment.ranges";
  static final String WEIGHTS = "routing.segment.weights";
  static final String EXCLUSIVE = "routing.segment.exclusive";
  static final String SEPARATOR = "routing.segment.separator";
  static final String REGEX = "routing.segment.regex";

  private final String separator;
  private final String regex;
  private final String ranges;
  private final String weights;
  private final String exclusive;
  private final KeyRouter inner;

  private final transient byte[] separatorBytes;
  private final transient Pattern pattern;
  private final transient String[] names;
  private final transient byte[][] nameBytes;
  private final transient long[] nameWord; // Bytes.word of nameBytes[i]: its first 8 bytes
  private final transient int[] from;
  private final transient int[] to;
  private final transient double[] weight;
  private final transient double sharedWeight;
  private final transient boolean[] isExclusive;
  /** Layouts by recency, most recent first; replaced as a whole (copy on write), never mutated. */
  private transient volatile Layout[] memo = new Layout[0];

  /** How many partition counts keep their layout cached. */
  public static final int MEMO_SIZE = 8;

  private SegmentRouter(String separator, String regex, String ranges, String weights,
      String exclusive, KeyRouter inner) {
    this.inner = Objects.requireNonNull(inner, "inner");
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
    List<String> nameList = new ArrayList<>();
    List<int[]> rangeList = new ArrayList<>();
    List<Double> weightList = new ArrayList<>();
    double shared = 0;
    for (String item : spec.split(",")) {
      item = item.trim();
      int colon = item.lastIndexOf(':');
      if (colon <= 0 || colon == item.length() - 1) {
        throw new RoutingConfigException(property, spec, "entry '" + item + "' must be written "
            + (ranges != null ? "name:from-to or name:partition" : "name:weight"));
      }
      String name = item.substring(0, colon).trim();
      String value = item.substring(colon + 1).trim();
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

  /** Partition numbers: ASCII digits only (no sign, no other script's digits). */
  private static final Pattern PARTITION_NUMBER = Pattern.compile("[0-9]+");
  /** Weights: plain decimals (no hex, no {@code d}/{@code f} suffix, no NaN or Infinity). */
  private static final Pattern DECIMAL =
      Pattern.compile("[0-9]+(\\.[0-9]*)?([eE][+-]?[0-9]+)?|\\.[0-9]+([eE][+-]?[0-9]+)?");

  private static int[] parseRange(String spec, String name, String value) {
    int dash = value.indexOf('-');
    try {
      String fromText = (dash < 0 ? value : value.substring(0, dash)).trim();
      String toText = dash < 0 ? fromText : value.substring(dash + 1).trim();
      if (!PARTITION_NUMBER.matcher(fromText).matches()
          || !PARTITION_NUMBER.matcher(toText).matches()) {
        throw new NumberFormatException(); // Integer.parseInt would take '+3' and non-ASCII digits
      }
      int a = Integer.parseInt((dash < 0 ? value : value.substring(0, dash)).trim());
      int b = dash < 0 ? a : Integer.parseInt(value.substring(dash + 1).trim());
      if (a < 0 || b < a) {
        throw new RoutingConfigException(RANGES, spec, "segment '" + name + "' range " + value
            + " must be from-to with 0 <= from <= to");
      }
      return new int[] {a, b};
    } catch (NumberFormatException e) {
      throw new RoutingConfigException(RANGES, spec, "segment '" + name + "' range '" + value
          + "' must be from-to (partition numbers) or one partition number");
    }
  }

  private static double parseWeight(String property, String spec, String name, String value) {
    double w;
    try {
      // Double.parseDouble would also take 0x1p3, 1d, NaN and Infinity
      w = DECIMAL.matcher(value).matches() ? Double.parseDouble(value) : Double.NaN;
    } catch (NumberFormatException e) {
      w = Double.NaN;
    }
    if (!(w > 0) || Double.isInfinite(w)) {
      throw new RoutingConfigException(property, spec, "segment '" + name + "' weight '" + value
          + "' must be a positive number");
    }
    return w;
  }

  /** Returns a builder of a segment router whose keys are hashed within their range by {@code inner}. */
  public static Builder builder(KeyRouter inner) {
    return new Builder(Objects.requireNonNull(inner, "inner"));
  }

  /** Builds a {@link SegmentRouter}; each setter takes the {@code routing.segment.*} syntax. */
  public static final class Builder {
    private final KeyRouter inner;
    private String separator;
    private String regex;
    private String ranges;
    private String weights;
    private String exclusive;

    private Builder(KeyRouter inner) {
      this.inner = inner;
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

    /** Explicit ranges, e.g. {@code order:0-5,payment:6-8}. */
    public Builder ranges(String ranges) {
      this.ranges = ranges;
      return this;
    }

    /** Weights, e.g. {@code order:3,payment:1,*:2}. */
    public Builder weights(String weights) {
      this.weights = weights;
      return this;
    }

    /** Comma-separated names of the exclusive segments. */
    public Builder exclusive(String exclusive) {
      this.exclusive = exclusive;
      return this;
    }

    /**
     * Builds the router.
     *
     * @throws RoutingConfigException naming the property, the value and the rule (and the segment)
     *     for a malformed entry, a repeated segment, overlapping ranges, an unknown exclusive
     *     segment, both or neither of ranges and weights, a bad regex, or weights under which the
     *     shared range would always be empty
     */
    public SegmentRouter build() {
      return new SegmentRouter(separator, regex, ranges, weights, exclusive, inner);
    }
  }

  /** The partitions of each segment and of the shared range for one partition count. */
  private static final class Layout {
    final int numPartitions;
    final int[][] segment;
    final int[] shared;

    Layout(int numPartitions, int[][] segment, int[] shared) {
      this.numPartitions = numPartitions;
      this.segment = segment;
      this.shared = shared;
    }
  }

  private Layout layoutFor(int numPartitions) {
    Layout[] cached = memo;
    for (Layout l : cached) {
      if (l.numPartitions == numPartitions) {
        return l;
      }
    }
    Layout l = computeLayout(Partitions.checkTableCount(numPartitions, "SegmentRouter"));
    // Racing threads may each publish; the loser's layout is equal, so losing it costs nothing.
    Layout[] next = new Layout[Math.min(cached.length + 1, MEMO_SIZE)];
    next[0] = l;
    System.arraycopy(cached, 0, next, 1, next.length - 1);
    memo = next;
    return l;
  }

  private Layout computeLayout(int n) {
    int k = names.length;
    int[][] seg = new int[k][];
    boolean[] reserved = new boolean[n];
    if (ranges != null) {
      for (int i = 0; i < k; i++) {
        if (to[i] >= n) {
          throw new RoutingConfigException(RANGES, ranges, "segment '" + names[i] + "' range "
              + from[i] + "-" + to[i] + " exceeds the topic's " + n + " partitions [0, " + (n - 1)
              + "]");
        }
        seg[i] = rangeArray(from[i], to[i]);
      }
    } else {
      double total = sharedWeight;
      for (double w : weight) {
        total += w;
      }
      int entries = k + (sharedWeight > 0 ? 1 : 0);
      int[] count = new int[entries];
      double[] rest = new double[entries];
      int assigned = 0;
      for (int i = 0; i < entries; i++) {
        // share first: n * 1e308 would overflow to Infinity (an int count of 2^31-1)
        double exact = n * ((i < k ? weight[i] : sharedWeight) / total);
        count[i] = (int) Math.floor(exact);
        rest[i] = exact - count[i];
        assigned += count[i];
      }
      for (int left = n - assigned; left > 0; left--) {
        int best = 0;
        for (int i = 1; i < entries; i++) {
          if (rest[i] > rest[best]) {
            best = i;
          }
        }
        count[best]++;
        rest[best] = -1;
      }
      int next = 0;
      for (int i = 0; i < k; i++) {
        if (count[i] == 0) {
          throw new RoutingConfigException(WEIGHTS, weights, "segment '" + names[i]
              + "' gets 0 of the topic's " + n + " partitions (its share is "
              + String.format(java.util.Locale.ROOT, "%.2f", n * (weight[i] / total))
              + "); use more partitions or fewer segments");
        }
        seg[i] = rangeArray(next, next + count[i] - 1);
        next += count[i];
      }
    }
    for (int i = 0; i < k; i++) {
      if (isExclusive[i]) {
        for (int p : seg[i]) {
          reserved[p] = true;
        }
      }
    }
    int sharedCount = 0;
    for (boolean r : reserved) {
      sharedCount += r ? 0 : 1;
    }
    if (sharedCount == 0) {
      throw new RoutingConfigException(ranges != null ? RANGES : EXCLUSIVE,
          ranges != null ? ranges : exclusive, "the exclusive segments " + exclusiveNames()
              + " cover all " + n + " partitions, so the shared range for unknown tenants is empty");
    }
    int[] shared = new int[sharedCount];
    for (int p = 0, j = 0; p < n; p++) {
      if (!reserved[p]) {
        shared[j++] = p;
      }
    }
    return new Layout(n, seg, shared);
  }

  private List<String> exclusiveNames() {
    List<String> list = new ArrayList<>();
    for (int i = 0; i < names.length; i++) {
      if (isExclusive[i]) {
        list.add(names[i]);
      }
    }
    return list;
  }

  private static int[] rangeArray(int a, int b) {
    int[] r = new int[b - a + 1];
    for (int i = 0; i < r.length; i++) {
      r[i] = a + i;
    }
    return r;
  }

  /**
   * Returns the layout for a partition count: segment name &rarr; its partitions, in specification
   * order, then {@code "*"} &rarr; the shared range. Diagnostic (allocates).
   *
   * @throws IllegalArgumentException if {@code numPartitions < 1}
   * @throws RoutingConfigException if the specification does not fit {@code numPartitions}
   */
  public Map<String, List<Integer>> layout(int numPartitions) {
    Layout l = layoutFor(numPartitions);
    Map<String, List<Integer>> map = new LinkedHashMap<>();
    for (int i = 0; i < names.length; i++) {
      map.put(names[i], toList(l.segment[i]));
    }
    map.put("*", toList(l.shared));
    return Collections.unmodifiableMap(map);
  }

  private static List<Integer> toList(int[] a) {
    List<Integer> list = new ArrayList<>(a.length);
    for (int x : a) {
      list.add(x);
    }
    return Collections.unmodifiableList(list);
  }

  /** Returns the segment names, in specification order. */
  public List<String> segments() {
    return List.of(names);
  }

  /** Returns whether the named segment is exclusive. */
  public boolean isExclusive(String segment) {
    int i = Arrays.asList(names).indexOf(segment);
    return i >= 0 && isExclusive[i];
  }

  /**
   * Returns the segment of a key ({@code null} for a key of no segment, which goes to the shared
   * range). Diagnostic.
   */
  public String segmentOf(byte[] key) {
    int i = segmentIndex(key, 0, key.length);
    return i < 0 ? null : names[i];
  }

  private int segmentIndex(byte[] key, int offset, int length) {
    if (pattern != null) {
      String text = new String(key, offset, length, StandardCharsets.UTF_8);
      Matcher m = pattern.matcher(new BudgetedText(text));
      boolean found;
      try {
        found = m.find();
      } catch (BudgetedText.Exhausted e) {
        throw new RoutingConfigException(REGEX, regex, "needed more than "
            + BudgetedText.budget(text) + " steps on a key of " + text.length() + " chars"
            + " (catastrophic backtracking); use a regex without nested or ambiguous repetition");
      }
      if (!found || m.group(1) == null) {
        return -1;
      }
      String tenant = m.group(1);
      for (int i = 0; i < names.length; i++) {
        if (names[i].equals(tenant)) {
          return i;
        }
      }
      return -1;
    }
    int end = Bytes.indexOf(key, offset, length, separatorBytes);
    if (end < 0) {
      return -1;
    }
    // one word compare per name; bytes past the 8th are compared only for a long name that matches
    long w = Bytes.word(key, offset, end);
    int len = end - offset;
    for (int i = 0; i < nameBytes.length; i++) {
      byte[] name = nameBytes[i];
      if (nameWord[i] == w && name.length == len
          && (len <= 8 || Arrays.equals(name, 8, len, key, offset + 8, end))) {
        return i;
      }
    }
    return -1;
  }

  /**
   * The key text seen by the regex, counting character reads so that a catastrophically
   * backtracking regex fails the message instead of hanging the sending thread.
   */
  private static final class BudgetedText implements CharSequence {
    private final String text;
    private long left;

    BudgetedText(String text) {
      this.text = text;
      this.left = budget(text);
    }

    static long budget(String text) {
      return 1_000_000L + 64L * text.length();
    }

    @Override
    public char charAt(int index) {
      if (--left < 0) {
        throw new Exhausted();
      }
      return text.charAt(index);
    }

    @Override
    public int length() {
      return text.length();
    }

    @Override
    public CharSequence subSequence(int start, int end) {
      return text.substring(start, end);
    }

    @Override
    public String toString() {
      return text;
    }

    static final class Exhausted extends RuntimeException {
      private static final long serialVersionUID = 1L;

      Exhausted() {
        super(null, null, false, false);
      }
    }
  }

  @Override
  protected int route(byte[] key, int offset, int length, byte[] value, int numPartitions) {
    int[] range = rangeOf(key, offset, length, numPartitions);
    return range[inner.partition(key, offset, length, value, range.length)];
  }

  private int[] rangeOf(byte[] key, int offset, int length, int numPartitions) {
    Layout l = layoutFor(numPartitions);
    int i = segmentIndex(key, offset, length);
    return i < 0 ? l.shared : l.segment[i];
  }

  /** Places a keyless message in the shared range, under the inner router's keyless policy. */
  @Override
  public int keylessPartition(int numPartitions) {
    int[] shared = layoutFor(numPartitions).shared;
    return shared[inner.keylessPartition(shared.length)];
  }

  @Override
  public KeylessPolicy keylessPolicy() {
    return inner.keylessPolicy();
  }

  @Override
  public boolean needsValue() {
    return inner.needsValue();
  }

  /** Returns the router that hashes keys within their range. */
  public KeyRouter inner() {
    return inner;
  }

  @Override
  public String toString() {
    return "SegmentRouter{" + (ranges != null ? "ranges=" + ranges : "weights=" + weights)
        + ", exclusive=" + exclusive + ", " + (regex != null ? "regex=" + regex
        : "separator=" + separator) + ", inner=" + inner + '}';
  }

  private Object writeReplace() {
    return new Proxy(this);
  }

  private void readObject(ObjectInputStream in) throws InvalidObjectException {
    throw new InvalidObjectException("SegmentRouter is deserialized through its proxy");
  }

  /** Serialized form: the specification strings and the inner router; rebuilt and re-checked. */
  private static final class Proxy implements Serializable {
    private static final long serialVersionUID = 1L;
    private final String separator;
    private final String regex;
    private final String ranges;
    private final String weights;
    private final String exclusive;
    private final KeyRouter inner;

    Proxy(SegmentRouter r) {
      this.separator = r.regex == null ? r.separator : null;
      this.regex = r.regex;
      this.ranges = r.ranges;
      this.weights = r.weights;
      this.exclusive = r.exclusive;
      this.inner = r.inner;
    }

    private Object readResolve() throws InvalidObjectException {
      try {
        return new SegmentRouter(separator, regex, ranges, weights, exclusive, inner);
      } catch (RuntimeException e) {
        InvalidObjectException ex = new InvalidObjectException("corrupt SegmentRouter: "
            + e.getMessage());
        ex.initCause(e);
        throw ex;
      }
    }
  }
}
