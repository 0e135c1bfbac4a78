package io.github.routingkit;

import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.util.Objects;

/**
 * Routes a key by a {@link HashScheme} followed by a {@link Placement}: partition =
 * {@code placement.place64(scheme.hash64(key), n)} (for the 32-bit schemes and the modulo
 * placements exactly {@code placement.place(scheme.hash(key), n)}). The presets reproduce the
 * clients' built-in keyed routing bit for bit.
 *
 * <p>Immutable apart from the keyless policy's counter, thread-safe and {@link Serializable}
 * (through a serialization proxy, so a deserialized router is rebuilt through the same checks as a
 * new one and starts a fresh keyless counter). Keyed routing of a {@code byte[]} allocates nothing.
 */
public final class HashRouter implements KeyRouter {
  private static final long serialVersionUID = 1L;

  private final HashScheme scheme;
  private final Placement placement;
  private final KeylessPolicy keylessPolicy;
  private final transient KeylessPolicy.Chooser keyless;

  private HashRouter(HashScheme scheme, Placement placement, KeylessPolicy keylessPolicy) {
    this.scheme = Objects.requireNonNull(scheme, "scheme");
    this.placement = Objects.requireNonNull(placement, "placement");
    this.keylessPolicy = Objects.requireNonNull(keylessPolicy, "keylessPolicy");
    this.keyless = keylessPolicy.newChooser();
  }

  /**
   * Returns a router that hashes with {@code scheme}, places with {@code placement} and routes
   * keyless messages by {@code keylessPolicy}.
   *
   * @throws NullPointerException if any argument is null
   */
  public static HashRouter of(HashScheme scheme, Placement placement, KeylessPolicy keylessPolicy) {
    return new HashRouter(scheme, placement, keylessPolicy);
  }

  /**
   * Returns a router with the scheme's native placement ({@link HashScheme#nativePlacement()}).
   *
   * @throws NullPointerException if any argument is null
   */
  public static HashRouter of(HashScheme scheme, KeylessPolicy keylessPolicy) {
    return new HashRouter(scheme, scheme.nativePlacement(), keylessPolicy);
  }

  /**
   * Kafka's keyed default: {@code toPositive(murmur2(key)) % n}, bit-exact with kafka-clients 4.x
   * producing to a topic without {@code partitioner.class} (and with every client since 0.8.2 that
   * hashes keys with murmur2); keyless messages round-robin.
   */
  public static HashRouter kafkaDefault() {
    return of(HashScheme.KAFKA_MURMUR2, KeylessPolicy.ROUND_ROBIN);
  }

  /**
   * Pulsar's Java default: {@code signSafeMod(JavaStringHash(key), n)}, bit-exact with
   * pulsar-client's {@code RoundRobinPartition} routing mode under its default
   * {@code HashingScheme.JavaStringHash}; keyless messages round-robin.
   */
  public static HashRouter pulsarDefault() {
    return of(HashScheme.PULSAR_JAVA_STRING, KeylessPolicy.ROUND_ROBIN);
  }

  /**
   * {@code signSafeMod(Murmur3_32(key), n)}: bit-exact with pulsar-client's {@code RoundRobinPartition}
   * mode under {@code HashingScheme.Murmur3_32Hash}, the scheme that also agrees with Pulsar's C++
   * and Go clients; keyless messages round-robin.
   */
  public static HashRouter pulsarMurmur3() {
    return of(HashScheme.PULSAR_MURMUR3, KeylessPolicy.ROUND_ROBIN);
  }

  /**
   * librdkafka's default {@code consistent_random}: {@code crc32(key) % n} (unsigned); keyless
   * messages go to a random partition (librdkafka uses a sticky random partition per linger
   * window; see {@link HashScheme#LIBRDKAFKA_CRC32} for empty keys).
   */
  public static HashRouter librdkafkaDefault() {
    return of(HashScheme.LIBRDKAFKA_CRC32, KeylessPolicy.RANDOM);
  }

  /**
   * Sarama's default {@code NewHashPartitioner}: {@code |int32(fnv1a(key)) % n|}; nil keys go to a
   * random partition, as in Sarama.
   */
  public static HashRouter saramaDefault() {
    return of(HashScheme.SARAMA_FNV1A, KeylessPolicy.RANDOM);
  }

  /**
   * Consistent placement for new topics: jump consistent hash of the key's XXH3 64-bit hash, so
   * growing a topic from n to m partitions moves only {@code (m - n) / m} of the keys, all to the new
   * partitions. Agrees with no client's built-in; keyless messages round-robin.
   */
  public static HashRouter consistent() {
    return of(HashScheme.XXH3_64, Placement.JUMP, KeylessPolicy.ROUND_ROBIN);
  }

  /**
   * Consistent placement in {@code O(1)} expected time: JumpBackHash ({@link Placement#JUMP_BACK})
   * of the key's XXH3 64-bit hash. The same guarantees as {@link #consistent()} (n to m partitions
   * moves only {@code (m - n) / m} of the keys, all to the new partitions) at a cost that does not
   * grow with the partition count, but a different mapping: switching a topic between the two
   * moves almost every key. Equal to hash4j's {@code jumpBackHash(splitMix64_V1())} of the XXH3-64
   * hash; agrees with no client's built-in; keyless messages round-robin. What
   * {@code routing.scheme=xxh3-64, routing.placement=jump-back} builds.
   */
  public static HashRouter consistentJumpBack() {
    return of(HashScheme.XXH3_64, Placement.JUMP_BACK, KeylessPolicy.ROUND_ROBIN);
  }

  @Override
  public int partition(byte[] key, int numPartitions) {
    if (key == null) {
      return keylessPartition(numPartitions);
    }
    return placement.place64(scheme.hash64(key, 0, key.length), numPartitions);
  }

  @Override
  public int partition(byte[] key, int offset, int length, int numPartitions) {
    return placement.place64(scheme.hash64(key, offset, length), numPartitions);
  }

  @Override
  public int partition(CharSequence key, int numPartitions) {
    if (key == null) {
      return keylessPartition(numPartitions);
    }
    return placement.place64(scheme.hash64(key), numPartitions);
  }

  @Override
  public int keylessPartition(int numPartitions) {
    return keyless.choose(Partitions.checkCount(numPartitions));
  }

  @Override
  public KeylessPolicy keylessPolicy() {
    return keylessPolicy;
  }

  /** Returns the hash scheme. */
  public HashScheme scheme() {
    return scheme;
  }

  /** Returns the placement. */
  public Placement placement() {
    return placement;
  }

  /** Two hash routers are equal when they route every key alike: same scheme, placement, policy. */
  @Override
  public boolean equals(Object o) {
    return o instanceof HashRouter
        && ((HashRouter) o).scheme == scheme
        && ((HashRouter) o).placement == placement
        && ((HashRouter) o).keylessPolicy == keylessPolicy;
  }

  @Override
  public int hashCode() {
    return Objects.hash(scheme, placement, keylessPolicy);
  }

  @Override
  public String toString() {
    return "HashRouter{scheme=" + scheme.id() + ", placement=" + placement.id()
        + ", keyless=" + keylessPolicy.id() + '}';
  }

  private Object writeReplace() {
    return new Proxy(this);
  }

  private void readObject(ObjectInputStream in) throws InvalidObjectException {
    throw new InvalidObjectException("HashRouter is deserialized through its proxy");
  }

  /** Serialized form: the three names; rebuilt through {@link #of}. */
  private static final class Proxy implements Serializable {
    private static final long serialVersionUID = 1L;
    private final String scheme;
    private final String placement;
    private final String keyless;

    Proxy(HashRouter router) {
      this.scheme = router.scheme.name();
      this.placement = router.placement.name();
      this.keyless = router.keylessPolicy.name();
    }

    private Object readResolve() throws InvalidObjectException {
      try {
        return of(HashScheme.valueOf(scheme), Placement.valueOf(placement),
            KeylessPolicy.valueOf(keyless));
      } catch (IllegalArgumentException | NullPointerException e) {
        InvalidObjectException ex = new InvalidObjectException("corrupt HashRouter: " + e.getMessage());
        ex.initCause(e);
        throw ex;
      }
    }
  }
}
