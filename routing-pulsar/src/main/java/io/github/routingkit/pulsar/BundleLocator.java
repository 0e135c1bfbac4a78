package io.github.routingkit.pulsar;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.zip.CRC32;

/**
 * Predicts the namespace bundle of a Pulsar topic: the service-side routing layer. A namespace's
 * hash space {@code [0x00000000, 0xffffffff]} is cut into bundles; a bundle is the unit a broker
 * owns, so topics in one bundle are served by the same broker and move together. We predict, we do
 * not decide: which broker owns a bundle is the load manager's choice.
 *
 * <h2>What the broker does (Pulsar 4.x, read from the 4.2.4 sources)</h2>
 * <ul>
 *   <li><b>Topic hash</b> ({@code ConsistentHashingTopicBundleAssigner}, the default
 *       {@code topicBundleAssignmentStrategy}): CRC32 (IEEE, as {@code java.util.zip.CRC32}) of the
 *       UTF-8 bytes of the full topic name, e.g. {@code persistent://tenant/ns/orders-partition-7},
 *       as an unsigned 32-bit value. Each partition of a partitioned topic is hashed with its
 *       {@code -partition-N} suffix, so partitions spread over bundles. Short names are completed
 *       as {@code TopicName} does: {@code orders} is {@code persistent://public/default/orders},
 *       {@code tenant/ns/orders} is {@code persistent://tenant/ns/orders}.
 *   <li><b>Bundles</b> ({@code NamespaceBundles}): boundaries {@code b0 < b1 < ... < bn} make
 *       bundles {@code [b(i), b(i+1))}, the last one closed: {@code [b(n-1), b(n)]}. The admin API
 *       lists the boundaries as {@code "0x%08x"} strings ({@code BundlesData.boundaries}) and names a
 *       bundle {@code "0x00000000_0x40000000"}.
 *   <li><b>N equal bundles</b> ({@code PoliciesUtil.getBundles}, used for {@code
 *       defaultNumberOfNamespaceBundles}, default 4, and {@code namespaces create --bundles N}):
 *       {@code seg = 2^32 / N} (integer division), boundaries {@code 0, seg, 2*seg, ...}, and
 *       {@code 0xffffffff} as the last.
 *   <li><b>Splits</b> ({@code NamespaceBundleSplitAlgorithm}): {@code range_equally_divide} (the
 *       default {@code defaultNamespaceBundleSplitAlgorithm}) splits at {@code lower + (upper -
 *       lower) / 2}; {@code topic_count_equally_divide} sorts the hashes of the bundle's topics and
 *       splits midway between the two middle ones, {@code h[m-1] + (h[m] - h[m-1]) / 2} with
 *       {@code m = count / 2} (index {@code max(m-1, 0)} for the first), and does not split a bundle
 *       with fewer than 2 topics. A bundle whose range is not larger than 1 cannot be split.
 * </ul>
 *
 * <p>A locator holds one namespace's boundaries; it does not check that topics belong to that
 * namespace. Instances are immutable and thread-safe.
 */
public final class BundleLocator {

  /** The lowest boundary: {@code 0x00000000}. */
  public static final long FIRST_BOUNDARY = 0x00000000L;

  /** The highest boundary (inclusive): {@code 0xffffffff}. */
  public static final long LAST_BOUNDARY = 0xffffffffL;

  /**
   * The most bundles {@link #equalBundles(int)} builds: 1,048,576 (2^20), 8 MB of boundaries. The
   * broker accepts up to 2^32 in {@code namespaces create --bundles}, but real namespaces stay far
   * below (the load manager's {@code loadBalancerNamespaceMaximumBundles} defaults to 128); a
   * locator of 2^31 bundles would need 16 GB.
   */
  public static final int MAX_EQUAL_BUNDLES = 1 << 20;

  /** The broker's default {@code defaultNumberOfNamespaceBundles}: 4. */
  public static final int DEFAULT_BUNDLES = 4;

  /** The broker's bundle split algorithms that depend only on topic names. */
  public enum SplitAlgorithm {
    /** {@code range_equally_divide}: the middle of the bundle's hash range. */
    RANGE_EQUALLY_DIVIDE("range_equally_divide"),
    /** {@code topic_count_equally_divide}: half of the bundle's topics on each side. */
    TOPIC_COUNT_EQUALLY_DIVIDE("topic_count_equally_divide");

    private final String brokerName;

    SplitAlgorithm(String brokerName) {
      this.brokerName = brokerName;
    }

    /** Returns the name used in broker config and the admin API, e.g. {@code range_equally_divide}. */
    public String brokerName() {
      return brokerName;
    }
  }

  /**
   * One bundle: the hash range {@code [lower, upper)}, or {@code [lower, upper]} for the last
   * bundle of the namespace.
   */
  public static final class Bundle {
    private final int index;
    private final long lower;
    private final long upper;
    private final boolean upperInclusive;

    /**
     * Creates the value.
     *
     * @param index position in the namespace's bundle list, from 0
     * @param lower the lowest hash in the bundle
     * @param upper the upper boundary
     * @param upperInclusive whether {@code upper} is in the bundle (the last bundle only)
     */
    public Bundle(int index, long lower, long upper, boolean upperInclusive) {
      this.index = index;
      this.lower = lower;
      this.upper = upper;
      this.upperInclusive = upperInclusive;
    }

    /** Returns the bundle's name as the admin API gives it, e.g. {@code 0x00000000_0x40000000}. */
    public String range() {
      return hex(lower) + "_" + hex(upper);
    }

    /** Returns true if the unsigned 32-bit {@code hash} is in this bundle. */
    public boolean contains(long hash) {
      return hash >= lower && (upperInclusive ? hash <= upper : hash < upper);
    }

    /** Returns the number of hash values in the bundle. */
    public long size() {
      return upper - lower + (upperInclusive ? 1 : 0);
    }

    @Override
    public String toString() {
      return range();
    }

    /** Returns position in the namespace's bundle list, from 0. */
    public int index() {
      return index;
    }

    /** Returns the lowest hash in the bundle. */
    public long lower() {
      return lower;
    }

    /** Returns the upper boundary. */
    public long upper() {
      return upper;
    }

    /** Returns whether {@code upper} is in the bundle (the last bundle only). */
    public boolean upperInclusive() {
      return upperInclusive;
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof Bundle)) {
        return false;
      }
      Bundle other = (Bundle) o;
      return index == other.index && lower == other.lower && upper == other.upper
          && upperInclusive == other.upperInclusive;
    }

    @Override
    public int hashCode() {
      int h = 0;
      h = 31 * h + Integer.hashCode(index);
      h = 31 * h + Long.hashCode(lower);
      h = 31 * h + Long.hashCode(upper);
      h = 31 * h + Boolean.hashCode(upperInclusive);
      return h;
    }
  }

  private final long[] boundaries;

  private BundleLocator(long[] boundaries) {
    this.boundaries = boundaries;
  }

  /**
   * Returns the locator for {@code n} equal bundles, exactly as the broker creates them.
   *
   * @param n number of bundles, in [1, {@value #MAX_EQUAL_BUNDLES}]
   * @throws IllegalArgumentException if {@code n} is outside [1, {@value #MAX_EQUAL_BUNDLES}]
   */
  public static BundleLocator equalBundles(int n) {
    if (n < 1 || n > MAX_EQUAL_BUNDLES) {
      throw new IllegalArgumentException("numBundles value was " + n + ", must be in [1, "
          + MAX_EQUAL_BUNDLES + "] (the most bundles a locator holds, 8 MB of boundaries)");
    }
    long seg = (1L << 32) / n;
    long[] b = new long[n + 1];
    for (int i = 0; i < n; i++) {
      b[i] = i * seg;
    }
    b[n] = LAST_BOUNDARY;
    return new BundleLocator(b);
  }

  /**
   * Returns the locator for boundaries as the admin API lists them ({@code
   * admin.namespaces().getBundles(ns).getBoundaries()}): {@code "0x00000000"}, ..., {@code
   * "0xffffffff"}. Each string is parsed with {@code Long.decode} as the broker does, so decimal
   * works too.
   *
   * @throws IllegalArgumentException if there are fewer than 2 boundaries, one does not parse or is
   *     outside {@code [0x00000000, 0xffffffff]}, they are not strictly increasing, or they do not
   *     start at {@code 0x00000000} and end at {@code 0xffffffff}; the message names the boundary
   * @throws NullPointerException if the list or an element is null
   */
  public static BundleLocator ofBoundaries(List<String> boundaries) {
    Objects.requireNonNull(boundaries, "boundaries");
    long[] b = new long[boundaries.size()];
    for (int i = 0; i < b.length; i++) {
      String s = Objects.requireNonNull(boundaries.get(i), "boundary " + i);
      try {
        b[i] = Long.decode(s.trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "bundle boundary " + i + " value was '" + s + "', must be a hex number like 0x40000000",
            e);
      }
    }
    return ofBoundaries(b);
  }

  /**
   * Returns the locator for numeric boundaries.
   *
   * @throws IllegalArgumentException as {@link #ofBoundaries(List)}
   */
  public static BundleLocator ofBoundaries(long... boundaries) {
    long[] b = boundaries.clone();
    if (b.length < 2) {
      throw new IllegalArgumentException("bundle boundaries value was " + Arrays.toString(b)
          + ", must have at least 2 boundaries (0x00000000 and 0xffffffff)");
    }
    for (int i = 0; i < b.length; i++) {
      if (b[i] < FIRST_BOUNDARY || b[i] > LAST_BOUNDARY) {
        throw new IllegalArgumentException("bundle boundary " + i + " value was " + b[i]
            + ", must be in [0x00000000, 0xffffffff]");
      }
      if (i > 0 && b[i] <= b[i - 1]) {
        throw new IllegalArgumentException("bundle boundary " + i + " value was " + hex(b[i])
            + ", must be greater than the previous boundary " + hex(b[i - 1]));
      }
    }
    if (b[0] != FIRST_BOUNDARY || b[b.length - 1] != LAST_BOUNDARY) {
      throw new IllegalArgumentException("bundle boundaries value was " + hexList(b)
          + ", must start at 0x00000000 and end at 0xffffffff");
    }
    return new BundleLocator(b);
  }

  /** Returns the boundaries as the admin API lists them: {@code "0x%08x"} strings. */
  public List<String> boundaries() {
    return hexList(boundaries);
  }

  /** Returns the number of bundles, at least 1. */
  public int bundleCount() {
    return boundaries.length - 1;
  }

  /** Returns all bundles in hash order. */
  public List<Bundle> bundles() {
    List<Bundle> list = new ArrayList<>(bundleCount());
    for (int i = 0; i < bundleCount(); i++) {
      list.add(bundle(i));
    }
    return List.copyOf(list);
  }

  /**
   * Returns the bundle at {@code index}.
   *
   * @throws IndexOutOfBoundsException if {@code index} is not in {@code [0, bundleCount())}
   */
  public Bundle bundle(int index) {
    Objects.checkIndex(index, bundleCount());
    return new Bundle(index, boundaries[index], boundaries[index + 1], index == bundleCount() - 1);
  }

  /**
   * Returns the full topic name the broker hashes: {@code orders} becomes {@code
   * persistent://public/default/orders}, {@code t/ns/orders} becomes {@code
   * persistent://t/ns/orders}, a name with {@code ://} is kept as it is.
   *
   * @throws IllegalArgumentException if the name is blank, has a number of {@code /}-separated parts
   *     the broker rejects (short names: 1 or 3; full names: {@code domain://tenant/ns/topic}), or
   *     an unknown domain (only {@code persistent} and {@code non-persistent})
   * @throws NullPointerException if {@code topic} is null
   */
  public static String fullTopicName(String topic) {
    Objects.requireNonNull(topic, "topic");
    int sep = topic.indexOf("://");
    if (sep < 0) {
      String[] parts = topic.split("/", -1);
      if (parts.length == 1) {
        checkLocalName(topic, parts[0]);
        return "persistent://public/default/" + topic;
      }
      if (parts.length == 3) {
        checkLocalName(topic, parts[2]);
        return "persistent://" + topic;
      }
      throw new IllegalArgumentException("topic value was '" + topic
          + "', must be <topic>, <tenant>/<namespace>/<topic> or <domain>://<tenant>/<namespace>/<topic>");
    }
    String domain = topic.substring(0, sep);
    if (!domain.equals("persistent") && !domain.equals("non-persistent")) {
      throw new IllegalArgumentException("topic value was '" + topic
          + "', domain must be persistent or non-persistent");
    }
    String[] parts = topic.substring(sep + 3).split("/", -1);
    if (parts.length != 3) {
      throw new IllegalArgumentException("topic value was '" + topic
          + "', must be <domain>://<tenant>/<namespace>/<topic>");
    }
    checkLocalName(topic, parts[2]);
    return topic;
  }

  private static void checkLocalName(String topic, String localName) {
    if (localName.isBlank()) {
      throw new IllegalArgumentException("topic value was '" + topic + "', topic name must not be blank");
    }
  }

  /**
   * Returns the name of partition {@code partition} of a partitioned topic:
   * {@code fullTopicName(topic) + "-partition-" + partition}.
   *
   * @throws IllegalArgumentException if {@code partition < 0} or the topic name is bad
   */
  public static String partitionName(String topic, int partition) {
    if (partition < 0) {
      throw new IllegalArgumentException("partition value was " + partition + ", must be >= 0");
    }
    return fullTopicName(topic) + "-partition-" + partition;
  }

  /**
   * Returns the bundle hash of a topic: CRC32 of the UTF-8 bytes of its full name, unsigned, in
   * {@code [0, 0xffffffff]}.
   *
   * @throws IllegalArgumentException if the topic name is bad (see {@link #fullTopicName})
   */
  public static long topicHash(String topic) {
    CRC32 crc = new CRC32();
    crc.update(fullTopicName(topic).getBytes(StandardCharsets.UTF_8));
    return crc.getValue();
  }

  /**
   * Returns the bundle a topic (or a single partition, given by its {@code -partition-N} name)
   * belongs to. A hash equal to {@code 0xffffffff} belongs to the last bundle.
   *
   * @throws IllegalArgumentException if the topic name is bad (see {@link #fullTopicName})
   */
  public Bundle bundleOf(String topic) {
    return bundleOfHash(topicHash(topic));
  }

  /**
   * Returns the bundle of partition {@code partition} of a partitioned topic.
   *
   * @throws IllegalArgumentException if {@code partition < 0} or the topic name is bad
   */
  public Bundle bundleOf(String topic, int partition) {
    return bundleOf(partitionName(topic, partition));
  }

  /**
   * Returns the bundle that holds an unsigned 32-bit hash.
   *
   * @throws IllegalArgumentException if {@code hash} is not in {@code [0, 0xffffffff]}
   */
  public Bundle bundleOfHash(long hash) {
    if (hash < FIRST_BOUNDARY || hash > LAST_BOUNDARY) {
      throw new IllegalArgumentException(
          "hash value was " + hash + ", must be in [0x00000000, 0xffffffff]");
    }
    int i = Arrays.binarySearch(boundaries, hash);
    int index = i >= 0 ? i : -(i + 2);
    return bundle(Math.min(index, bundleCount() - 1));
  }

  /**
   * Groups topics by bundle, every bundle present (possibly with an empty list), in hash order;
   * topics keep their input order within a bundle.
   *
   * @throws IllegalArgumentException if a topic name is bad
   * @throws NullPointerException if the collection or a topic is null
   */
  public Map<Bundle, List<String>> topicsPerBundle(Collection<String> topics) {
    Map<Bundle, List<String>> result = new LinkedHashMap<>();
    for (Bundle b : bundles()) {
      result.put(b, new ArrayList<>());
    }
    for (String topic : topics) {
      result.get(bundleOf(topic)).add(topic);
    }
    result.replaceAll((b, list) -> List.copyOf(list));
    return java.util.Collections.unmodifiableMap(result);
  }

  /**
   * Returns where the broker would split {@code bundle} with {@code algorithm}. For
   * {@link SplitAlgorithm#TOPIC_COUNT_EQUALLY_DIVIDE} only the given topics that fall into the
   * bundle count (pass all of the namespace's topics and partitions, as full or short names); for
   * {@link SplitAlgorithm#RANGE_EQUALLY_DIVIDE} topics are ignored.
   *
   * @return the split boundary, or empty when the broker would not split: fewer than 2 of the
   *     topics in the bundle (topic count), or a bundle whose range is not larger than 1
   * @throws IllegalArgumentException if {@code bundle} is not one of this locator's bundles, or a
   *     topic name is bad
   * @throws NullPointerException if an argument or a topic is null
   */
  public OptionalLong splitPosition(
      Bundle bundle, SplitAlgorithm algorithm, Collection<String> topics) {
    checkOwn(bundle);
    Objects.requireNonNull(algorithm, "algorithm");
    Objects.requireNonNull(topics, "topics");
    if (bundle.upper() - bundle.lower() <= 1) {
      return OptionalLong.empty();
    }
    switch (algorithm) {
      case RANGE_EQUALLY_DIVIDE:
        return OptionalLong.of(bundle.lower() + (bundle.upper() - bundle.lower()) / 2);
      default:
        long[] hashes = topics.stream().mapToLong(BundleLocator::topicHash)
            .filter(bundle::contains).sorted().toArray();
        if (hashes.length <= 1) {
          return OptionalLong.empty();
        }
        long start = hashes[Math.max(hashes.length / 2 - 1, 0)];
        long end = hashes[hashes.length / 2];
        return OptionalLong.of(start + (end - start) / 2);
    }
  }

  /**
   * Returns the locator after splitting {@code bundle} at {@code position}, as the broker does
   * after a split.
   *
   * @throws IllegalArgumentException if {@code bundle} is not one of this locator's bundles or
   *     {@code position} is not strictly inside it
   */
  public BundleLocator split(Bundle bundle, long position) {
    checkOwn(bundle);
    if (position <= bundle.lower() || position >= bundle.upper()) {
      throw new IllegalArgumentException("split position value was " + hex(position)
          + ", must be strictly inside bundle " + bundle.range());
    }
    long[] b = new long[boundaries.length + 1];
    System.arraycopy(boundaries, 0, b, 0, bundle.index() + 1);
    b[bundle.index() + 1] = position;
    System.arraycopy(boundaries, bundle.index() + 1, b, bundle.index() + 2,
        boundaries.length - bundle.index() - 1);
    return new BundleLocator(b);
  }

  private void checkOwn(Bundle bundle) {
    Objects.requireNonNull(bundle, "bundle");
    if (bundle.index() < 0 || bundle.index() >= bundleCount()
        || !bundle.equals(bundle(bundle.index()))) {
      throw new IllegalArgumentException("bundle " + bundle.range() + " is not one of "
          + boundaries());
    }
  }

  static String hex(long v) {
    return String.format(Locale.ROOT, "0x%08x", v);
  }

  private static List<String> hexList(long[] b) {
    List<String> list = new ArrayList<>(b.length);
    for (long v : b) {
      list.add(hex(v));
    }
    return List.copyOf(list);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof BundleLocator && Arrays.equals(boundaries, ((BundleLocator) o).boundaries);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(boundaries);
  }

  @Override
  public String toString() {
    return "BundleLocator" + boundaries();
  }
}
