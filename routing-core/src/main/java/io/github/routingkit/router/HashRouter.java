package io.github.routingkit.router;

import io.github.routingkit.AbstractKeyRouter;
import io.github.routingkit.AvailablePartitions;
import io.github.routingkit.KeylessPolicy;
import io.github.routingkit.MessageView;
import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.internal.Partitions;
import io.github.routingkit.placement.Placement;

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
public final class HashRouter extends AbstractKeyRouter {
  private static final long serialVersionUID = 1L;

  private final HashScheme scheme;
  private final Placement placement;
  private final KeylessPolicy keylessPolicy;
  private final transient KeylessPolicy.Chooser keyless;
  /** Which client's built-in keyed path this router is: {@link #NONE}, {@link #KAFKA} or {@link #PULSAR}. */
  private final transient int builtIn;

  /*
   * The two client defaults are routed in one named line each (kafkaDefaultPartition,
   * pulsarDefaultPartition; the Pulsar adapter calls the latter too), without the scheme's and the
   * placement's dispatch, as kafka-clients' BuiltInPartitioner and pulsar-client's router write
   * them: kafka-murmur2 + to-positive is toPositive(murmur2(key)) % n, and pulsar-java-string +
   * floor-mod on a String key is (key.hashCode() & MAX) % n, the String's cached hash, the very
   * value pulsar-client's JavaStringHash reads (floorMod of a non-negative hash is its remainder).
   * Every other combination goes through placement.place64(scheme.hash64(key), n). Both paths give
   * the same partition; the differential tests check the one-liners against the clients.
   */
  private static final int NONE = 0;
  private static final int KAFKA = 1;
  private static final int PULSAR = 2;

  private HashRouter(HashScheme scheme, Placement placement, KeylessPolicy keylessPolicy) {
    this.scheme = Objects.requireNonNull(scheme, "scheme");
    this.placement = Objects.requireNonNull(placement, "placement");
    this.keylessPolicy = Objects.requireNonNull(keylessPolicy, "keylessPolicy");
    this.keyless = keylessPolicy.newChooser();
    this.builtIn = scheme == HashScheme.KAFKA_MURMUR2 && placement == Placement.KAFKA_TO_POSITIVE
        ? KAFKA
        : isPulsarDefault(scheme, placement) ? PULSAR
        : NONE;
  }

  /**
   * Returns the partition kafka-clients' built-in partitioner gives a keyed record
   * ({@code BuiltInPartitioner.partitionForKey}): {@code toPositive(murmur2(key)) % numPartitions},
   * the {@link HashScheme#KAFKA_MURMUR2} scheme with the {@link Placement#KAFKA_TO_POSITIVE}
   * placement. Allocation-free.
   *
   * @return a partition in {@code [0, numPartitions)}
   * @throws IllegalArgumentException if {@code numPartitions < 1}
   * @throws NullPointerException if {@code key} is null
   */
  public static int kafkaDefaultPartition(byte[] key, int offset, int length, int numPartitions) {
    return (HashScheme.KAFKA_MURMUR2.hash(key, offset, length) & Integer.MAX_VALUE)
        % Partitions.checkCount(numPartitions);
  }

  /**
   * Returns the partition pulsar-client's default keyed routing gives a message with key
   * {@code key} ({@code HashingScheme.JavaStringHash} and {@code signSafeMod}):
   * {@code (key.hashCode() & Integer.MAX_VALUE) % numPartitions}, which is the
   * {@link HashScheme#PULSAR_JAVA_STRING} scheme with the {@link Placement#FLOOR_MOD} placement
   * (floorMod of a non-negative hash is its remainder). Reads the String's cached hash, the value
   * pulsar-client hashes; allocation-free.
   *
   * @return a partition in {@code [0, numPartitions)}
   * @throws IllegalArgumentException if {@code numPartitions < 1}
   * @throws NullPointerException if {@code key} is null
   */
  public static int pulsarDefaultPartition(String key, int numPartitions) {
    return (key.hashCode() & Integer.MAX_VALUE) % Partitions.checkCount(numPartitions);
  }

  /**
   * Returns whether {@code scheme} and {@code placement} are pulsar-client's default keyed routing,
   * whose partition {@link #pulsarDefaultPartition} gives for a String key.
   */
  public static boolean isPulsarDefault(HashScheme scheme, Placement placement) {
    return scheme == HashScheme.PULSAR_JAVA_STRING && placement == Placement.FLOOR_MOD;
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

  @Override
  protected int route(byte[] key, int offset, int length, byte[] value, int numPartitions) {
    if (builtIn == KAFKA) {
      return kafkaDefaultPartition(key, offset, length, numPartitions);
    }
    return placement.place64(scheme.hash64(key, offset, length), numPartitions);
  }

  /** Hashes the text as the scheme defines it (the murmur schemes without encoding short keys). */
  @Override
  protected int routeText(CharSequence key, int numPartitions) {
    if (builtIn == PULSAR && key instanceof String) {
      return pulsarDefaultPartition((String) key, numPartitions);
    }
    return placement.place64(scheme.hash64(key), numPartitions);
  }

  /**
   * The message form without the generic dispatch: a hash router never reads the value or a
   * header, so it goes straight from the key to the hash (for a String key under
   * {@link HashScheme#PULSAR_JAVA_STRING}, the String's cached {@code hashCode()}).
   */
  @Override
  public <M> int partitionOf(M message, MessageView<M> view, int numPartitions) {
    CharSequence text = view.keyText(message);
    if (text != null) {
      return routeText(text, numPartitions);
    }
    byte[] key = view.keyBytes(message);
    return key == null
        ? keylessPartition(numPartitions)
        : route(key, 0, key.length, null, numPartitions);
  }

  /** Picks among the available partitions directly: the policy's choice over {@code available}. */
  @Override
  public int keylessPartition(int numPartitions, AvailablePartitions available) {
    int count = available.count();
    return count == 0 ? keylessPartition(numPartitions) : available.get(keylessPartition(count));
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
