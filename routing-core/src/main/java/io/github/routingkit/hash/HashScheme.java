package io.github.routingkit.hash;

import io.github.routingkit.placement.Placement;

import java.util.Arrays;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A named, bit-exact key hash, each one identical to a client's built-in so that a RoutingKit
 * producer and that client agree on where a key lives (see {@code docs/compatibility.md} for the
 * table client &rarr; default &rarr; scheme), plus {@link #XXH3_64} for new, consistent placements.
 * The output of every scheme is stable across RoutingKit releases: changing it would move keys.
 *
 * <p>Hashing a {@code byte[]} never allocates. {@link #hash(CharSequence)} hashes the UTF-8
 * encoding of the text (never the platform charset), except where a scheme is defined on UTF-16
 * text ({@link #PULSAR_JAVA_STRING}: a String's own cached {@code hashCode()}). The murmur schemes
 * hash Strings of up to 36 chars straight from the chars without allocating, and encode longer
 * ones once with {@code getBytes(UTF_8)} (faster on the JDK than any char loop; the allocation the
 * clients make anyway); the FNV-1a schemes, {@link #KAFKAJS_LEGACY} and
 * {@link #PULSAR_GO_JAVA_STRING} encode on the fly at every length without allocating;
 * {@link #LIBRDKAFKA_CRC32} and {@link #XXH3_64} encode text keys first (see
 * {@code docs/performance.md}).
 *
 * <p>Thread-safety: stateless, safe from any thread.
 */
public enum HashScheme {

  /**
   * MurmurHash2, 32-bit, seed {@code 0x9747b28c}, unmasked (may be negative): bit-exact with
   * kafka-clients {@code Utils#murmur2} since 0.8.2, and with librdkafka's {@code murmur2}
   * partitioners. Native placement: {@link Placement#KAFKA_TO_POSITIVE}.
   */
  KAFKA_MURMUR2("kafka-murmur2", Placement.KAFKA_TO_POSITIVE,
      Murmur2::hash,
      Murmur2::hash),

  /**
   * {@code String#hashCode() & Integer.MAX_VALUE}: bit-exact with pulsar-client's
   * {@code JavaStringHash} (the Java client's default {@code HashingScheme}) since 2.0. Defined on
   * the UTF-16 text of the key: byte keys are decoded as UTF-8 first (ill-formed input as
   * {@code new String(bytes, UTF_8)} decodes it), so a String with unpaired surrogates does not hash
   * like its UTF-8 bytes. Result in {@code [0, 2^31)}. Native placement: {@link Placement#FLOOR_MOD}.
   */
  PULSAR_JAVA_STRING("pulsar-java-string", Placement.FLOOR_MOD,
      (key, offset, length) -> JavaStringHash.hashUtf8(key, offset, length) & Integer.MAX_VALUE,
      key -> JavaStringHash.hash(key) & Integer.MAX_VALUE),

  /**
   * MurmurHash3 x86_32, seed 0, of the UTF-8 bytes, then {@code & Integer.MAX_VALUE}: bit-exact
   * with pulsar-client's {@code Murmur3Hash32} ({@code HashingScheme.Murmur3_32Hash}), the one
   * scheme on which Pulsar's Java, C++ and Go clients agree. Result in {@code [0, 2^31)}. Native
   * placement: {@link Placement#FLOOR_MOD}.
   */
  PULSAR_MURMUR3("pulsar-murmur3", Placement.FLOOR_MOD,
      (key, offset, length) -> Murmur3.hash(key, offset, length) & Integer.MAX_VALUE,
      key -> Murmur3.hash(key) & Integer.MAX_VALUE),

  /**
   * CRC-32 (zlib / {@link java.util.zip.CRC32}) of the key bytes, as an unsigned 32-bit value in
   * the bits of an {@code int}: librdkafka's {@code rd_crc32}, used by its {@code consistent} and
   * {@code consistent_random} (the default) partitioners, which place it with
   * {@code rd_crc32(key, keylen) % partition_cnt} in unsigned arithmetic (source:
   * {@code src/rdkafka_msg.c}, {@code src/rdcrc32.h}). Native placement:
   * {@link Placement#UNSIGNED_MOD}. Also the default of clients built on librdkafka
   * (confluent-kafka-python, -go before 2.0's pure-Go option, -dotnet, node-rdkafka, php-rdkafka).
   *
   * <p>Empty keys: {@code consistent} hashes them (CRC-32 of nothing is 0, so partition 0);
   * {@code consistent_random} treats an empty key like a missing one and picks a sticky random
   * partition. This scheme hashes an empty key like {@code consistent}; to mimic
   * {@code consistent_random}, send empty keys as keyless. Null keys are keyless in both. Hashing a
   * {@code byte[]} allocates nothing once compiled (the JDK's intrinsic {@code CRC32}, one per call,
   * which C2's escape analysis removes; interpreted code allocates it); text allocates its UTF-8
   * encoding.
   */
  LIBRDKAFKA_CRC32("librdkafka-crc32", Placement.UNSIGNED_MOD,
      Crc32Hash::hash,
      Crc32Hash::hash),

  /**
   * librdkafka's {@code rd_fnv1a}: FNV-1a 32 of the key bytes, negated when negative (so
   * {@code Integer.MIN_VALUE} stays {@code 0x80000000}), read as unsigned, behind its {@code fnv1a}
   * and {@code fnv1a_random} partitioners ({@code rd_fnv1a(key, keylen) % partition_cnt}; source:
   * {@code src/rdfnv1a.c}, {@code src/rdkafka_msg.c}). Native placement
   * {@link Placement#UNSIGNED_MOD}. It puts every key on the same partition as
   * {@link #SARAMA_FNV1A} (librdkafka wrote it to match Sarama's default), including the
   * {@code MIN_VALUE} hash: {@code 2^31 mod n} in both. Empty keys hash like any other; null keys are
   * keyless ({@code fnv1a_random} sends them to a random partition).
   */
  LIBRDKAFKA_FNV1A("librdkafka-fnv1a", Placement.UNSIGNED_MOD,
      (key, offset, length) -> Fnv1a.librdkafka(Fnv1a.hash(key, offset, length)),
      key -> Fnv1a.librdkafka(Fnv1a.hash(key))),

  /**
   * FNV-1a 32 of the key bytes as Go's {@code hash/fnv.New32a().Sum32()} computes it, reinterpreted
   * as {@code int32} (may be negative): Sarama's default {@code NewHashPartitioner}, which places it
   * with {@code int32(hash) % numPartitions}, negated if negative (source: {@code partitioner.go} of
   * IBM/sarama). Native placement: {@link Placement#ABS_REMAINDER}. Sarama sends nil keys to a
   * random partition; an empty (non-nil) key is hashed. Allocation-free, also for text.
   */
  SARAMA_FNV1A("sarama-fnv1a", Placement.ABS_REMAINDER,
      Fnv1a::hash,
      Fnv1a::hash),

  /**
   * The same FNV-1a 32 hash as {@link #SARAMA_FNV1A}, placed the way Sarama's
   * {@code NewReferenceHashPartitioner} (and the {@code WithAbsFirst()} option) does:
   * {@code (int32(hash) & 0x7fffffff) % numPartitions}, like the Java client's {@code toPositive}.
   * Native placement: {@link Placement#KAFKA_TO_POSITIVE}. The two Sarama variants disagree on
   * about half of the keys with a negative hash.
   */
  SARAMA_FNV1A_REFERENCE("sarama-fnv1a-reference", Placement.KAFKA_TO_POSITIVE,
      Fnv1a::hash,
      Fnv1a::hash),

  /**
   * pulsar-client-go's default {@code JavaStringHash}: {@code h = 31 * h + b} over the key's UTF-8
   * bytes, unsigned and unmasked, placed with {@code hash % numPartitions} in {@code uint32}
   * arithmetic (source: {@code pulsar/internal/hash.go}, {@code pulsar/default_router.go} of
   * apache/pulsar-client-go). Native placement: {@link Placement#UNSIGNED_MOD}. It agrees with the
   * Java client's {@link #PULSAR_JAVA_STRING} only for ASCII keys whose hash is non-negative. The
   * Go router treats an empty key as no key (round-robin); this scheme hashes it (to 0).
   * Allocation-free, also for text.
   */
  PULSAR_GO_JAVA_STRING("pulsar-go-java-string", Placement.UNSIGNED_MOD,
      JavaStringHash::hashBytes,
      JavaStringHash::hashUtf8Bytes),

  /**
   * The murmur2 of KafkaJS's {@code LegacyPartitioner}, the default partitioner of KafkaJS 0.x and
   * 1.x and {@code Partitioners.LegacyPartitioner} in 2.x (2.0.0 &ndash; 2.2.4), bit for bit: its
   * multiplications are JavaScript doubles and its block loop reads a zero-padded extra block, so
   * it puts most keys on other partitions than {@link #KAFKA_MURMUR2} (details and source:
   * {@code KafkaJsLegacyMurmur2}). Placed like the Java client, {@code (hash & 0x7fffffff) % n}:
   * native placement {@link Placement#KAFKA_TO_POSITIVE}. KafkaJS hashes a {@code Buffer} key's
   * bytes and any other key's {@code Buffer.from(String(key))} (UTF-8); this scheme hashes the key
   * bytes and, for text, its UTF-8 encoding, which equals Node's for well-formed UTF-16 (an
   * unpaired surrogate is {@code '?'} in Java, U+FFFD in Node). Null keys are keyless (KafkaJS:
   * round-robin from a random start); an empty key is hashed, as in KafkaJS. Proven on the
   * cross-client vectors (routing-core's {@code CrossClientVectorsTest}). Allocation-free, also for
   * text.
   */
  KAFKAJS_LEGACY("kafkajs-legacy", Placement.KAFKA_TO_POSITIVE,
      KafkaJsLegacyMurmur2::hash,
      KafkaJsLegacyMurmur2::hash),

  /**
   * pulsar-client-cpp's {@code HashingScheme::BoostHash} (the C++ client's default, and so the
   * Python and Node.js clients' unless they set {@code hashing_scheme}) as built with Boost 1.56
   * &ndash; 1.80 where {@code char} is signed (x86-64 Linux and macOS, Windows, Apple arm64):
   * {@code boost::hash<std::string>} of the key's bytes, 64-bit, then {@code & INT32_MAX}. Result in
   * {@code [0, 2^31)}; the client places it with {@code hash % numPartitions}, native placement
   * {@link Placement#FLOOR_MOD}. Released C++ clients 3.0 &ndash; 3.4 were built with Boost 1.80.
   * Proven against {@code boost::hash} of Debian's libboost1.74-dev (cross-client vectors,
   * {@code compat/pulsar-cpp}). Text hashes its UTF-8 bytes, as the Python and Node.js clients pass
   * a str key; it is encoded first (allocates).
   */
  PULSAR_CPP_BOOST_PRE_1_81("pulsar-cpp-boost-pre-1.81", Placement.FLOOR_MOD,
      (key, offset, length) ->
          BoostStringHash.low31(BoostStringHash.pre181(key, offset, length, true)),
      key -> {
        byte[] b = BoostStringHash.utf8(key);
        return BoostStringHash.low31(BoostStringHash.pre181(b, 0, b.length, true));
      }),

  /**
   * {@link #PULSAR_CPP_BOOST_PRE_1_81} where {@code char} is unsigned (Linux on aarch64, ppc64le,
   * s390x): the same Boost 1.56 &ndash; 1.80 hash without sign extension of the bytes from
   * {@code 0x80}, so the two differ only for keys with a non-ASCII byte. Proven against
   * libboost1.74-dev compiled with {@code -funsigned-char}.
   */
  PULSAR_CPP_BOOST_PRE_1_81_UNSIGNED_CHAR("pulsar-cpp-boost-pre-1.81-unsigned-char",
      Placement.FLOOR_MOD,
      (key, offset, length) ->
          BoostStringHash.low31(BoostStringHash.pre181(key, offset, length, false)),
      key -> {
        byte[] b = BoostStringHash.utf8(key);
        return BoostStringHash.low31(BoostStringHash.pre181(b, 0, b.length, false));
      }),

  /**
   * pulsar-client-cpp's {@code BoostHash} as built with Boost 1.81 (for example against Debian 12's
   * libboost1.81-dev), whose rewritten string hash differs from every other release's: 64-bit
   * {@code boost::hash<std::string>}, then {@code & INT32_MAX}, independent of the signedness of
   * {@code char}. Native placement {@link Placement#FLOOR_MOD}. Proven against libboost1.81-dev.
   * Text is encoded to UTF-8 first (allocates).
   */
  PULSAR_CPP_BOOST_1_81("pulsar-cpp-boost-1.81", Placement.FLOOR_MOD,
      (key, offset, length) -> BoostStringHash.low31(BoostStringHash.boost181(key, offset, length)),
      key -> {
        byte[] b = BoostStringHash.utf8(key);
        return BoostStringHash.low31(BoostStringHash.boost181(b, 0, b.length));
      }),

  /**
   * pulsar-client-cpp's {@code BoostHash} as built with Boost 1.82 or later (its released builds
   * from 3.5, with Boost 1.83, and from 4.0, with 1.88 and 1.90): 64-bit
   * {@code boost::hash<std::string>} (mulxp1_hash), then {@code & INT32_MAX}, independent of the
   * signedness of {@code char}. Native placement {@link Placement#FLOOR_MOD}. Proven against
   * Debian's libboost1.83-dev (and, once, 1.88 and 1.90: identical). Text is encoded to UTF-8 first
   * (allocates).
   */
  PULSAR_CPP_BOOST_FROM_1_82("pulsar-cpp-boost-from-1.82", Placement.FLOOR_MOD,
      (key, offset, length) -> BoostStringHash.low31(BoostStringHash.from182(key, offset, length)),
      key -> {
        byte[] b = BoostStringHash.utf8(key);
        return BoostStringHash.low31(BoostStringHash.from182(b, 0, b.length));
      }),

  /**
   * XXH3 64-bit, seed 0, of the key bytes ({@code XXH3_64bits}, via zero-allocation-hashing's
   * {@code LongHashFunction.xx3()}), for new placements that need not agree with any client.
   * {@link #hash64} is the full 64-bit hash; {@link #hash} its low 32 bits. Native placement:
   * {@link Placement#JUMP} (consistent under partition growth). Hashing a {@code byte[]} allocates
   * nothing; text allocates its UTF-8 encoding. Stable: zero-allocation-hashing implements the
   * frozen XXH3 v0.8 output.
   */
  XXH3_64("xxh3-64", Placement.JUMP,
      (key, offset, length) -> (int) Xxh3.hash(key, offset, length),
      key -> (int) Xxh3.hash(key)) {
    @Override
    public long hash64(byte[] key, int offset, int length) {
      Objects.checkFromIndexSize(offset, length, key.length);
      return Xxh3.hash(key, offset, length);
    }

    @Override
    public long hash64(CharSequence key) {
      return Xxh3.hash(key);
    }
  };

  /*
   * Each constant names its algorithm's two forms, bytes and text; the range check, the 64-bit
   * widening and the lookups are written once here. The algorithms themselves are package-private
   * classes (Murmur2, Murmur3, JavaStringHash, Fnv1a, Crc32Hash, KafkaJsLegacyMurmur2, Xxh3); those
   * that hash text without encoding it first share one front-end, Utf8. Only XXH3_64, the one
   * 64-bit scheme, adds a body.
   */

  /** An algorithm's byte form: the 32-bit hash of {@code length} bytes from {@code offset}. */
  @FunctionalInterface
  private interface BytesHash {
    int hash(byte[] key, int offset, int length);
  }

  /** An algorithm's text form: the 32-bit hash of the text as the scheme defines it. */
  @FunctionalInterface
  private interface TextHash {
    int hash(CharSequence key);
  }

  private final String id;
  private final Placement nativePlacement;
  private final BytesHash bytes;
  private final TextHash text;

  HashScheme(String id, Placement nativePlacement, BytesHash bytes, TextHash text) {
    this.id = id;
    this.nativePlacement = nativePlacement;
    this.bytes = bytes;
    this.text = text;
  }

  /**
   * Hashes {@code length} bytes of {@code key} from {@code offset}.
   *
   * @return the scheme's 32-bit hash, exactly as the client computes it
   * @throws NullPointerException if {@code key} is null
   * @throws IndexOutOfBoundsException if the range is not within {@code key}
   */
  public final int hash(byte[] key, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, key.length);
    return bytes.hash(key, offset, length);
  }

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
  public final int hash(CharSequence key) {
    return text.hash(key);
  }

  /**
   * Returns the 64-bit hash of {@code length} bytes of {@code key} from {@code offset}: for the
   * 32-bit schemes the 32-bit hash read as unsigned ({@code hash(...) & 0xFFFFFFFFL}), for
   * {@link #XXH3_64} the full 64-bit hash. What {@link Placement#place64} consumes.
   *
   * @throws NullPointerException if {@code key} is null
   * @throws IndexOutOfBoundsException if the range is not within {@code key}
   */
  public long hash64(byte[] key, int offset, int length) {
    return hash(key, offset, length) & 0xFFFFFFFFL;
  }

  /**
   * Returns the 64-bit hash of the UTF-8 encoding of {@code key}, as {@link #hash64(byte[], int, int)}.
   *
   * @throws NullPointerException if {@code key} is null
   */
  public long hash64(CharSequence key) {
    return hash(key) & 0xFFFFFFFFL;
  }

  /**
   * Returns the modulo placement of this scheme: its native placement, or for a scheme whose native
   * placement is {@link Placement#JUMP}, {@link Placement#UNSIGNED_MOD}. What
   * {@code routing.placement=modulo} selects.
   */
  public Placement moduloPlacement() {
    return nativePlacement == Placement.JUMP ? Placement.UNSIGNED_MOD : nativePlacement;
  }

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
}
