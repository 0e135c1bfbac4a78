package io.github.routingkit.router.version;

import io.github.routingkit.AbstractKeyRouter;
import io.github.routingkit.KeyRouter;
import io.github.routingkit.MessageView;
import io.github.routingkit.KeylessPolicy;
import io.github.routingkit.internal.Bytes;
import io.github.routingkit.router.hotkey.HotKeyRouter;
import io.github.routingkit.internal.Partitions;

import java.io.IOException;
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

/**
 * Routes each message by one of several <em>generations</em> (a router plus the partition count it
 * was designed for), selected by a version carried with the message, so a topic can change its
 * routing (a new scheme, jump placement, more partitions) without moving the keys already written:
 * producers tag new keys with the new version; untagged messages keep the default generation.
 *
 * <h2>Where the version comes from</h2>
 * <ul>
 *   <li><b>Key prefix</b> ({@code routing.version.source=key-prefix}, the default): {@code v2|order-17}
 *       with separator {@code |}. The prefix counts only if it names a configured generation; the
 *       generation then routes the rest of the key ({@code order-17}), so {@code v1|order-17} and an
 *       untagged {@code order-17} land together when {@code v1} is the default. A key whose prefix
 *       names no generation (or that has no separator) is untagged and routed whole by the default
 *       generation. Works with every adapter; allocation-free for {@code byte[]} keys.</li>
 *   <li><b>Header / property</b> ({@code routing.version.source=header}): the version is the value of
 *       a message property ({@code routing.version.header}, default {@code routing-version}); the
 *       Pulsar adapter reads it from the message's properties. A missing property means the default
 *       generation; a value that names no generation throws {@link IllegalArgumentException}
 *       naming it (a typo must not silently route to the default). Kafka's {@code Partitioner}
 *       receives no headers, so with Kafka use the key prefix.</li>
 * </ul>
 *
 * <h2>Partition counts</h2>
 * A generation with a fixed count ({@code v1:kafka-murmur2:native:12}) routes over its first
 * {@code count} partitions even after the topic grows (its keys do not move); it needs the topic to
 * have at least that many partitions, else routing throws {@link IllegalStateException} naming the
 * generation and both counts (never an out-of-range partition). A generation with count {@code *}
 * follows the topic's count.
 *
 * <h2>What it gives up</h2>
 * Per-key ordering holds within a generation. A key written under two versions (during a dual-write
 * migration; the test kit's {@code MigrationPlan} measures what moves) lives on two partitions: consumers see two ordered streams
 * for it until the old one is drained.
 *
 * <p>Immutable, thread-safe (each generation's router is as thread-safe as it is) and
 * {@link Serializable} through its configuration.
 */
public final class VersionedRouter extends AbstractKeyRouter {
  private static final long serialVersionUID = 1L;


  /** Where a message's version is read from. */
  public enum Source {
    /** The key's prefix before the separator. */
    KEY_PREFIX("key-prefix"),
    /** A message header / property. */
    HEADER("header");

    private final String id;

    Source(String id) {
      this.id = id;
    }

    /** Returns the identifier used in {@code routing.version.source}. */
    public String id() {
      return id;
    }
  }

  /**
   * One routing generation: a version name, the router of its messages and the partition count it
   * routes over ({@code 0}: the topic's count).
   */
  public static final class Generation implements Serializable {
    private static final long serialVersionUID = 1L;
    private final String version;
    private final KeyRouter router;
    private final int partitions;

    /**
     * Checks the components.
     *
     * @param version the version name, non-empty, without the separator
     * @param router the router of the generation's messages
     * @param partitions the fixed partition count, or 0 to follow the topic
     * @throws NullPointerException if a component is null
     * @throws IllegalArgumentException for an empty version or a negative partition count
     */
    public Generation(String version, KeyRouter router, int partitions) {
      Objects.requireNonNull(version, "version");
      Objects.requireNonNull(router, "router");
      if (version.isEmpty()) {
        throw new IllegalArgumentException("a generation's version name must not be empty");
      }
      if (partitions < 0) {
        throw new IllegalArgumentException("generation '" + version + "' partition count was "
            + partitions + ", must be positive, or 0 for the topic's");
      }
      this.version = version;
      this.router = router;
      this.partitions = partitions;
    }

    /**
     * Returns the partition of {@code key} under this generation on a topic of
     * {@code topicPartitions} partitions.
     *
     * @throws IllegalStateException if the generation needs more partitions than the topic has
     */
    public int partition(byte[] key, int offset, int length, int topicPartitions) {
      return router.partition(key, offset, length, countFor(topicPartitions));
    }

    /**
     * Returns the partition count this generation routes over on a topic of
     * {@code topicPartitions}: its fixed count, or the topic's.
     *
     * @throws IllegalArgumentException if {@code topicPartitions < 1}
     * @throws IllegalStateException if the generation needs more partitions than the topic has
     */
    public int countFor(int topicPartitions) {
      Partitions.checkCount(topicPartitions);
      if (partitions == 0) {
        return topicPartitions;
      }
      if (partitions > topicPartitions) {
        throw new IllegalStateException("generation '" + version + "' routes over " + partitions
            + " partitions but the topic has " + topicPartitions);
      }
      return partitions;
    }

    /** Returns the version name, non-empty, without the separator. */
    public String version() {
      return version;
    }

    /** Returns the router of the generation's messages. */
    public KeyRouter router() {
      return router;
    }

    /** Returns the fixed partition count, or 0 to follow the topic. */
    public int partitions() {
      return partitions;
    }

    @Override
    public boolean equals(Object o) {
      if (this == o) {
        return true;
      }
      if (!(o instanceof Generation)) {
        return false;
      }
      Generation other = (Generation) o;
      return Objects.equals(version, other.version)
          && Objects.equals(router, other.router)
          && partitions == other.partitions;
    }

    @Override
    public int hashCode() {
      int h = 0;
      h = 31 * h + Objects.hashCode(version);
      h = 31 * h + Objects.hashCode(router);
      h = 31 * h + Integer.hashCode(partitions);
      return h;
    }

    @Override
    public String toString() {
      return "Generation[version=" + version + ", router=" + router + ", partitions=" + partitions
          + "]";
    }

    /** A deserialized generation passes the constructor's checks, as a new one does. */
    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      try {
        new Generation(version, router, partitions);
      } catch (RuntimeException e) {
        InvalidObjectException ex =
            new InvalidObjectException("corrupt generation: " + e.getMessage());
        ex.initCause(e);
        throw ex;
      }
    }
  }

  private final List<Generation> generations;
  private final String defaultVersion;
  private final Source source;
  private final String separator;
  private final String header;

  private final transient Generation[] gens;
  private final transient byte[][] versionBytes;
  private final transient byte[] separatorBytes;
  private final transient Generation defaultGeneration;
  private final transient boolean needsValue;
  private final transient long claimedMemory;

  /** Checks and builds; also the serialization proxy's way back, so it runs the same checks. */
  VersionedRouter(List<Generation> generations, String defaultVersion, Source source,
      String separator, String header) {
    this.generations = List.copyOf(generations);
    this.defaultVersion = Objects.requireNonNull(defaultVersion, "defaultVersion");
    this.source = Objects.requireNonNull(source, "source");
    this.separator = Objects.requireNonNull(separator, "separator");
    this.header = Objects.requireNonNull(header, "header");
    if (this.generations.isEmpty()) {
      throw new IllegalArgumentException("a versioned router needs at least one generation");
    }
    if (separator.isEmpty()) {
      throw new IllegalArgumentException("the version separator must not be empty");
    }
    if (header.isEmpty()) {
      throw new IllegalArgumentException("the version header name must not be empty");
    }
    this.gens = this.generations.toArray(new Generation[0]);
    this.versionBytes = new byte[gens.length][];
    Generation def = null;
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (int i = 0; i < gens.length; i++) {
      if (!seen.add(gens[i].version())) {
        throw new IllegalArgumentException("generation '" + gens[i].version()
            + "' is listed twice");
      }
      if (gens[i].version().contains(separator)) {
        throw new IllegalArgumentException("generation '" + gens[i].version()
            + "' must not contain the separator '" + separator + "'");
      }
      versionBytes[i] = gens[i].version().getBytes(StandardCharsets.UTF_8);
      if (gens[i].version().equals(defaultVersion)) {
        def = gens[i];
      }
    }
    if (def == null) {
      throw new IllegalArgumentException("the default version was '" + defaultVersion
          + "', must name one of the generations " + versions());
    }
    this.defaultGeneration = def;
    this.separatorBytes = separator.getBytes(StandardCharsets.UTF_8);
    boolean value = false;
    long claimed = 0;
    for (Generation g : gens) {
      value |= g.router().needsValue();
      claimed += g.router().claimedMemoryBytes();
    }
    this.needsValue = value;
    if (claimed > HotKeyRouter.MAX_MEMORY) {
      throw new IllegalArgumentException("the " + gens.length + " generations' hot-key detectors"
          + " would claim " + claimed + " bytes in all, must be at most " + HotKeyRouter.MAX_MEMORY
          + " bytes (64 MiB): give them less memory");
    }
    this.claimedMemory = claimed;
  }

  /** Returns a builder; defaults: source key-prefix, separator {@code |}, header {@code routing-version}. */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link VersionedRouter}. */
  public static final class Builder {
    private final List<Generation> generations = new ArrayList<>();
    private String defaultVersion;
    private Source source = Source.KEY_PREFIX;
    private String separator = "|";
    private String header = "routing-version";

    private Builder() {}

    /** Adds a generation ({@code partitions} 0: the topic's count). */
    public Builder generation(String version, KeyRouter router, int partitions) {
      generations.add(new Generation(version, router, partitions));
      return this;
    }

    /** The generation of untagged messages (required). */
    public Builder defaultVersion(String version) {
      this.defaultVersion = version;
      return this;
    }

    /** Where the version is read from (default key prefix). */
    public Builder source(Source source) {
      this.source = source;
      return this;
    }

    /** The separator after a key's version prefix (default {@code |}). */
    public Builder separator(String separator) {
      this.separator = separator;
      return this;
    }

    /** The header / property carrying the version (default {@code routing-version}). */
    public Builder header(String header) {
      this.header = header;
      return this;
    }

    /**
     * Builds the router.
     *
     * @throws IllegalArgumentException for no generations, a repeated version, a version
     *     containing the separator, an empty separator or header, a default version that names no
     *     generation, or generations whose hot-key detectors claim more than 64 MiB in all
     */
    public VersionedRouter build() {
      return new VersionedRouter(generations, defaultVersion == null ? "" : defaultVersion,
          source, separator, header);
    }
  }

  /** Returns the version names, in configuration order. */
  public List<String> versions() {
    List<String> names = new ArrayList<>();
    for (Generation g : generations) {
      names.add(g.version());
    }
    return names;
  }

  /** Returns the generations, in configuration order. */
  public List<Generation> generations() {
    return generations;
  }

  /**
   * Returns the named generation.
   *
   * @throws IllegalArgumentException if no generation has that version
   */
  public Generation generation(String version) {
    for (Generation g : gens) {
      if (g.version().equals(version)) {
        return g;
      }
    }
    throw new IllegalArgumentException("unknown routing version '" + version + "', the generations are "
        + versions());
  }

  /** Returns the default generation (untagged messages). */
  public Generation defaultGeneration() {
    return defaultGeneration;
  }

  /** Returns where versions are read from. */
  public Source source() {
    return source;
  }

  /** Returns the header / property name that carries the version with {@link Source#HEADER}. */
  public String header() {
    return header;
  }

  @Override
  protected int route(byte[] key, int offset, int length, byte[] value, int numPartitions) {
    Generation g = defaultGeneration;
    int from = offset;
    int len = length;
    if (source == Source.KEY_PREFIX) {
      int sep = indexOf(key, offset, length);
      if (sep >= 0) {
        for (int i = 0; i < gens.length; i++) {
          byte[] v = versionBytes[i];
          if (v.length == sep - offset && Arrays.equals(v, 0, v.length, key, offset, sep)) {
            g = gens[i];
            from = sep + separatorBytes.length;
            len = offset + length - from;
            break;
          }
        }
      }
    }
    int n = g.countFor(numPartitions);
    // the value is handed down only to a chain that reads it: no copy of the rest of the key
    return value != null && needsValue
        ? g.router().partition(key, from, len, value, n)
        : g.router().partition(key, from, len, n);
  }

  /**
   * With {@link Source#HEADER}, reads the version from the message's header {@link #header()} and
   * routes the whole key (a text key's UTF-8 encoding) by that generation; otherwise as every
   * router does.
   */
  @Override
  public <M> int partitionOf(M message, MessageView<M> view, int numPartitions) {
    if (source != Source.HEADER) {
      return defaultPartitionOf(message, view, numPartitions);
    }
    CharSequence text = view.keyText(message);
    byte[] key = text != null ? text.toString().getBytes(StandardCharsets.UTF_8)
        : view.keyBytes(message);
    return partition(view.header(message, header), key, needsValue ? view.value(message) : null,
        numPartitions);
  }

  /**
   * Routes a message whose version came in a header / property: {@code version} null means the
   * default generation. The whole key is routed (no prefix is stripped).
   *
   * @return a partition in {@code [0, numPartitions)}
   * @throws IllegalArgumentException if {@code version} is not null and names no generation
   * @throws IllegalStateException if the generation needs more partitions than the topic has
   */
  public int partition(String version, byte[] key, byte[] value, int numPartitions) {
    Generation g = version == null ? defaultGeneration : generation(version);
    int n = g.countFor(numPartitions);
    return key == null ? g.router().keylessPartition(n) : g.router().partition(key, value, n);
  }

  /**
   * The dual-write helper: the partition of the (untagged) {@code key} under every generation, in
   * configuration order, for producers that write a key to both the old and the new generation
   * during a migration. Generations that need more partitions than the topic has are left out.
   *
   * @return version &rarr; partition in {@code [0, numPartitions)}
   */
  public Map<String, Integer> partitionsByGeneration(byte[] key, int numPartitions) {
    Map<String, Integer> out = new LinkedHashMap<>();
    for (Generation g : gens) {
      if (g.partitions() <= numPartitions) {
        out.put(g.version(), g.partition(key, 0, key.length, numPartitions));
      }
    }
    return Collections.unmodifiableMap(out);
  }

  private int indexOf(byte[] key, int offset, int length) {
    return Bytes.indexOf(key, offset, length, separatorBytes);
  }

  /** Keyless messages follow the default generation's router and partition count. */
  @Override
  public int keylessPartition(int numPartitions) {
    return defaultGeneration.router().keylessPartition(defaultGeneration.countFor(numPartitions));
  }

  @Override
  public KeylessPolicy keylessPolicy() {
    return defaultGeneration.router().keylessPolicy();
  }

  @Override
  public long claimedMemoryBytes() {
    return claimedMemory;
  }

  @Override
  public boolean needsValue() {
    return needsValue;
  }

  @Override
  public String toString() {
    return "VersionedRouter{default=" + defaultVersion + ", source=" + source.id
        + (source == Source.KEY_PREFIX ? ", separator=" + separator : ", header=" + header)
        + ", generations=" + generations + '}';
  }

  private Object writeReplace() {
    return new VersionedRouterProxy(generations, defaultVersion, source, separator, header);
  }

  private void readObject(ObjectInputStream in) throws InvalidObjectException {
    throw new InvalidObjectException("VersionedRouter is deserialized through its proxy");
  }
}
