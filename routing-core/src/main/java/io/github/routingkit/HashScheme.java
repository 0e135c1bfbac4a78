package io.github.routingkit;

import java.util.Arrays;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A named, bit-exact 32-bit key hash, each one identical to a client's built-in so that a
 * RoutingKit producer and that client agree on where a key lives. The output of every scheme is
 * stable across RoutingKit releases: changing it would move keys.
 *
 * <p>Hashing a {@code byte[]} never allocates. {@link #hash(CharSequence)} hashes the UTF-8
 * encoding of the text (never the platform charset) without materializing it, except where a
 * scheme is defined on UTF-16 text ({@link #PULSAR_JAVA_STRING}).
 *
 * <p>Thread-safety: stateless, safe from any thread.
 */
public enum HashScheme {

  /**
   * MurmurHash2, 32-bit, seed {@code 0x9747b28c}, unmasked (may be negative): bit-exact with
   * kafka-clients {@code Utils#murmur2} since 0.8.2, and with librdkafka's {@code murmur2}
   * partitioners. Native placement: {@link Placement#KAFKA_TO_POSITIVE}.
   */
  KAFKA_MURMUR2("kafka-murmur2", Placement.KAFKA_TO_POSITIVE) {
    @Override
    public int hash(byte[] key, int offset, int length) {
      checkRange(key, offset, length);
      return Murmur2.hash(key, offset, length);
    }

    @Override
    public int hash(CharSequence key) {
      return Murmur2.hash(key);
    }
  },

  /**
   * {@code String#hashCode() & Integer.MAX_VALUE}: bit-exact with pulsar-client's
   * {@code JavaStringHash} (the Java client's default {@code HashingScheme}) since 2.0. Defined on
   * the UTF-16 text of the key: byte keys are decoded as UTF-8 first (ill-formed input as
   * {@code new String(bytes, UTF_8)} decodes it), so a String with unpaired surrogates does not hash
   * like its UTF-8 bytes. Result in {@code [0, 2^31)}. Native placement: {@link Placement#FLOOR_MOD}.
   */
  PULSAR_JAVA_STRING("pulsar-java-string", Placement.FLOOR_MOD) {
    @Override
    public int hash(byte[] key, int offset, int length) {
      checkRange(key, offset, length);
      return JavaStringHash.hashUtf8(key, offset, length) & Integer.MAX_VALUE;
    }

    @Override
    public int hash(CharSequence key) {
      return JavaStringHash.hash(key) & Integer.MAX_VALUE;
    }
  },

  /**
   * MurmurHash3 x86_32, seed 0, of the UTF-8 bytes, then {@code & Integer.MAX_VALUE}: bit-exact
   * with pulsar-client's {@code Murmur3Hash32} ({@code HashingScheme.Murmur3_32Hash}), the one
   * scheme on which Pulsar's Java, C++ and Go clients agree. Result in {@code [0, 2^31)}. Native
   * placement: {@link Placement#FLOOR_MOD}.
   */
  PULSAR_MURMUR3("pulsar-murmur3", Placement.FLOOR_MOD) {
    @Override
    public int hash(byte[] key, int offset, int length) {
      checkRange(key, offset, length);
      return Murmur3.hash(key, offset, length) & Integer.MAX_VALUE;
    }

    @Override
    public int hash(CharSequence key) {
      return Murmur3.hash(key) & Integer.MAX_VALUE;
    }
  };

  private final String id;
  private final Placement nativePlacement;

  HashScheme(String id, Placement nativePlacement) {
    this.id = id;
    this.nativePlacement = nativePlacement;
  }

  /**
   * Hashes {@code length} bytes of {@code key} from {@code offset}.
   *
   * @return the scheme's 32-bit hash, exactly as the client computes it
   * @throws NullPointerException if {@code key} is null
   * @throws IndexOutOfBoundsException if the range is not within {@code key}
   */
  public abstract int hash(byte[] key, int offset, int length);

  /**
   * Hashes all of {@code key}.
   *
   * @throws NullPointerException if {@code key} is null
   */
  public int hash(byte[] key) {
    return hash(key, 0, key.length);
  }

  /**
   * Hashes the UTF-8 encoding of {@code key} (for {@link #PULSAR_JAVA_STRING}: its UTF-16 text).
   *
   * @throws NullPointerException if {@code key} is null
   */
  public abstract int hash(CharSequence key);

  /** Returns the placement the client that defines this scheme applies to its hash. */
  public Placement nativePlacement() {
    return nativePlacement;
  }

  /** Returns the identifier used in {@code routing.scheme}, e.g. {@code kafka-murmur2}. */
  public String id() {
    return id;
  }

  /**
   * Returns the scheme with the given {@link #id()}.
   *
   * @throws IllegalArgumentException if no scheme has that identifier
   */
  public static HashScheme fromId(String id) {
    for (HashScheme scheme : values()) {
      if (scheme.id.equals(id)) {
        return scheme;
      }
    }
    throw new IllegalArgumentException(
        "unknown hash scheme '" + id + "', must be one of " + ids());
  }

  /** Returns the identifiers of all schemes, in declaration order, e.g. for error messages. */
  public static String ids() {
    return Arrays.stream(values()).map(HashScheme::id).collect(Collectors.joining(", ", "[", "]"));
  }

  private static void checkRange(byte[] key, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, key.length);
  }
}
