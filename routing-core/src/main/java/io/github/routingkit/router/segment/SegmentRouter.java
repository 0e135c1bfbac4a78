package io.github.routingkit.router.segment;

import io.github.routingkit.AbstractKeyRouter;
import io.github.routingkit.KeyRouter;
import io.github.routingkit.KeylessPolicy;
import io.github.routingkit.RoutingConfigException;

import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;

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

  private final transient SegmentDefinition definition;
  private final KeyRouter inner;
  private final transient SegmentLayouts layouts;
  private final transient TenantExtractor tenants;

  /** How many partition counts keep their layout cached. */
  public static final int MEMO_SIZE = 8;

  private SegmentRouter(SegmentDefinition definition, KeyRouter inner) {
    this.definition = Objects.requireNonNull(definition, "definition");
    this.inner = Objects.requireNonNull(inner, "inner");
    this.layouts = new SegmentLayouts(definition);
    this.tenants = new TenantExtractor(definition);
  }

  /**
   * Returns a segment router of {@code definition} whose keys are hashed within their range by
   * {@code inner}.
   *
   * @throws NullPointerException if an argument is null
   */
  public static SegmentRouter of(SegmentDefinition definition, KeyRouter inner) {
    return new SegmentRouter(definition, inner);
  }

  /** Returns a builder of a segment router whose keys are hashed within their range by {@code inner}. */
  public static Builder builder(KeyRouter inner) {
    return new Builder(Objects.requireNonNull(inner, "inner"));
  }

  /**
   * Builds a {@link SegmentRouter} from typed values (the {@code routing.segment.*} text notation
   * is read by {@link SegmentDefinition#parse}); a thin front of {@link SegmentDefinition.Builder}. Not
   * thread-safe.
   */
  public static final class Builder {
    private final KeyRouter inner;
    private final SegmentDefinition.Builder definition = SegmentDefinition.builder();

    private Builder(KeyRouter inner) {
      this.inner = inner;
    }

    /** The tenant is the key's bytes before the first {@code separator} (default {@code ":"}). */
    public Builder separator(String separator) {
      definition.separator(separator);
      return this;
    }

    /** The tenant is group 1 of {@code regex} found in the key's UTF-8 text. */
    public Builder regex(String regex) {
      definition.regex(regex);
      return this;
    }

    /**
     * Gives segment {@code name} the partitions {@code [from, to]} (inclusive).
     *
     * @throws IllegalArgumentException if {@code from < 0} or {@code to < from}
     * @see SegmentDefinition.Builder#range
     */
    public Builder range(String name, int from, int to) {
      definition.range(name, from, to);
      return this;
    }

    /**
     * Gives segment {@code name} the share {@code weight / sum of weights} of the partitions
     * ({@code "*"}: the shared range's share).
     *
     * @throws IllegalArgumentException if {@code weight} is not a positive finite number
     * @see SegmentDefinition.Builder#weight
     */
    public Builder weight(String name, double weight) {
      definition.weight(name, weight);
      return this;
    }

    /**
     * Reserves the share {@code weight / sum of weights} for the shared range only.
     *
     * @throws IllegalArgumentException if {@code weight} is not a positive finite number
     */
    public Builder sharedWeight(double weight) {
      definition.sharedWeight(weight);
      return this;
    }

    /**
     * Makes the named segments exclusive: their partitions take only their tenant's keys.
     *
     * @throws IllegalArgumentException if a name is given twice
     */
    public Builder exclusive(String... names) {
      definition.exclusive(names);
      return this;
    }

    /**
     * Builds the router.
     *
     * @throws IllegalArgumentException as {@link SegmentDefinition.Builder#build()}: both or
     *     neither of ranges and weights, a repeated segment, overlapping ranges, an unknown
     *     exclusive segment, a bad regex, or weights under which the shared range would always be
     *     empty
     */
    public SegmentRouter build() {
      return new SegmentRouter(definition.build(), inner);
    }
  }

  /**
   * Returns the layout for a partition count: segment name &rarr; its partitions, in specification
   * order, then {@code "*"} &rarr; the shared range. Diagnostic (allocates).
   *
   * @throws IllegalArgumentException if {@code numPartitions < 1}
   * @throws RoutingConfigException if the specification does not fit {@code numPartitions}
   */
  public Map<String, List<Integer>> layout(int numPartitions) {
    SegmentLayouts.Layout l = layouts.layoutFor(numPartitions);
    Map<String, List<Integer>> map = new LinkedHashMap<>();
    for (int i = 0; i < definition.names.length; i++) {
      map.put(definition.names[i], toList(l.segment[i]));
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
    return List.of(definition.names);
  }

  /** Returns whether the named segment is exclusive. */
  public boolean isExclusive(String segment) {
    int i = Arrays.asList(definition.names).indexOf(segment);
    return i >= 0 && definition.isExclusive[i];
  }

  /**
   * Returns the segment of a key ({@code null} for a key of no segment, which goes to the shared
   * range). Diagnostic.
   */
  public String segmentOf(byte[] key) {
    int i = tenants.segmentIndex(key, 0, key.length);
    return i < 0 ? null : definition.names[i];
  }

  @Override
  protected int route(byte[] key, int offset, int length, byte[] value, int numPartitions) {
    int[] range = rangeOf(key, offset, length, numPartitions);
    return range[inner.partition(key, offset, length, value, range.length)];
  }

  private int[] rangeOf(byte[] key, int offset, int length, int numPartitions) {
    SegmentLayouts.Layout l = layouts.layoutFor(numPartitions);
    int i = tenants.segmentIndex(key, offset, length);
    return i < 0 ? l.shared : l.segment[i];
  }

  /** Places a keyless message in the shared range, under the inner router's keyless policy. */
  @Override
  public int keylessPartition(int numPartitions) {
    int[] shared = layouts.layoutFor(numPartitions).shared;
    return shared[inner.keylessPartition(shared.length)];
  }

  @Override
  public KeylessPolicy keylessPolicy() {
    return inner.keylessPolicy();
  }

  @Override
  public long claimedMemoryBytes() {
    return inner.claimedMemoryBytes();
  }

  @Override
  public boolean needsValue() {
    return inner.needsValue();
  }

  /** Returns the definition: segments, ranges or weights, exclusivity, how the tenant is read. */
  public SegmentDefinition definition() {
    return definition;
  }

  /** Returns the router that hashes keys within their range. */
  public KeyRouter inner() {
    return inner;
  }

  @Override
  public String toString() {
    SegmentDefinition d = definition;
    return "SegmentRouter{" + (d.ranges != null ? "ranges=" + d.ranges : "weights=" + d.weights)
        + ", exclusive=" + d.exclusive + ", " + (d.regex != null ? "regex=" + d.regex
        : "separator=" + d.separator) + ", inner=" + inner + '}';
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
      SegmentDefinition d = r.definition;
      this.separator = d.regex == null ? d.separator : null;
      this.regex = d.regex;
      this.ranges = d.ranges;
      this.weights = d.weights;
      this.exclusive = d.exclusive;
      this.inner = r.inner;
    }

    private Object readResolve() throws InvalidObjectException {
      try {
        return new SegmentRouter(SegmentDefinition.parse(ranges, weights, exclusive, separator,
            regex), inner);
      } catch (RuntimeException e) {
        InvalidObjectException ex = new InvalidObjectException("corrupt SegmentRouter: "
            + e.getMessage());
        ex.initCause(e);
        throw ex;
      }
    }
  }
}
