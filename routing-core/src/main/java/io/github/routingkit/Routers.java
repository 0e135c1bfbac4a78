package io.github.routingkit;

import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.placement.Placement;
import io.github.routingkit.router.HashRouter;

/**
 * Static factories for the routers every user starts from: one per client's built-in keyed
 * routing, reproduced bit for bit, and the consistent placements for new topics. Layered routers
 * (segments, hot keys, versions) come from a {@link io.github.routingkit.config.RoutingSpec} or
 * their builders.
 *
 * <p>Every router returned is a new instance (with its own keyless counter), immutable apart from
 * that counter, thread-safe and serializable.
 *
 * @see io.github.routingkit.config.RoutingSpec#keyRouter()
 */
public final class Routers {
  private Routers() {}

  /**
   * Returns a router that hashes with {@code scheme}, places with {@code placement} and routes
   * keyless messages by {@code keyless}.
   *
   * @throws NullPointerException if any argument is null
   */
  public static HashRouter hash(HashScheme scheme, Placement placement, KeylessPolicy keyless) {
    return HashRouter.of(scheme, placement, keyless);
  }

  /**
   * Kafka's keyed default: {@code toPositive(murmur2(key)) % n}, bit-exact with kafka-clients 4.x
   * producing to a topic without {@code partitioner.class} (and with every client since 0.8.2 that
   * hashes keys with murmur2); keyless messages round-robin.
   *
   * @see HashScheme#KAFKA_MURMUR2
   */
  public static HashRouter kafkaDefault() {
    return HashRouter.of(HashScheme.KAFKA_MURMUR2, KeylessPolicy.ROUND_ROBIN);
  }

  /**
   * Pulsar's Java default: {@code signSafeMod(JavaStringHash(key), n)}, bit-exact with
   * pulsar-client's {@code RoundRobinPartition} routing mode under its default
   * {@code HashingScheme.JavaStringHash}; keyless messages round-robin.
   *
   * @see HashScheme#PULSAR_JAVA_STRING
   */
  public static HashRouter pulsarDefault() {
    return HashRouter.of(HashScheme.PULSAR_JAVA_STRING, KeylessPolicy.ROUND_ROBIN);
  }

  /**
   * Pulsar's Murmur3 routing: {@code signSafeMod(Murmur3_32(key), n)}, bit-exact with
   * pulsar-client's {@code RoundRobinPartition} mode under {@code HashingScheme.Murmur3_32Hash},
   * the scheme that also agrees with Pulsar's C++ and Go clients; keyless messages round-robin.
   *
   * @see HashScheme#PULSAR_MURMUR3
   */
  public static HashRouter pulsarMurmur3() {
    return HashRouter.of(HashScheme.PULSAR_MURMUR3, KeylessPolicy.ROUND_ROBIN);
  }

  /**
   * pulsar-client-cpp's default (and so the Python and Node.js clients'): {@code BoostHash} keyed
   * routing, {@code (boost::hash(key) & INT32_MAX) % n}, bit-exact for a client built with Boost
   * 1.82 or later (released C++ clients from 3.5, Python clients from 3.5); keyless messages as its
   * {@code UseSinglePartition} mode, the default before C++ client 4.0: one random partition per
   * router. From C++ client 4.0 the default mode is {@code RoundRobinDistribution}, whose keyless
   * messages move through the partitions per batch ({@link KeylessPolicy#STICKY} is the nearest);
   * keyed messages land alike in both. For clients built with older Boost, use
   * {@link #hash(HashScheme, Placement, KeylessPolicy)} with
   * {@link HashScheme#PULSAR_CPP_BOOST_PRE_1_81} or {@link HashScheme#PULSAR_CPP_BOOST_1_81}.
   *
   * @see HashScheme#PULSAR_CPP_BOOST_FROM_1_82
   */
  public static HashRouter pulsarCppDefault() {
    return HashRouter.of(HashScheme.PULSAR_CPP_BOOST_FROM_1_82, KeylessPolicy.SINGLE_PARTITION);
  }

  /**
   * librdkafka's default {@code consistent_random}: {@code crc32(key) % n} (unsigned); keyless
   * messages go to a random partition (librdkafka uses a sticky random partition per linger
   * window; see {@link HashScheme#LIBRDKAFKA_CRC32} for empty keys).
   */
  public static HashRouter librdkafkaDefault() {
    return HashRouter.of(HashScheme.LIBRDKAFKA_CRC32, KeylessPolicy.RANDOM);
  }

  /**
   * Sarama's default {@code NewHashPartitioner}: {@code |int32(fnv1a(key)) % n|}; nil keys go to a
   * random partition, as in Sarama.
   *
   * @see HashScheme#SARAMA_FNV1A
   */
  public static HashRouter saramaDefault() {
    return HashRouter.of(HashScheme.SARAMA_FNV1A, KeylessPolicy.RANDOM);
  }

  /**
   * Consistent placement for new topics: jump consistent hash of the key's XXH3 64-bit hash, so
   * growing a topic from n to m partitions moves only {@code (m - n) / m} of the keys, all to the new
   * partitions. Agrees with no client's built-in; keyless messages round-robin.
   *
   * @see Placement#JUMP
   */
  public static HashRouter consistent() {
    return HashRouter.of(HashScheme.XXH3_64, Placement.JUMP, KeylessPolicy.ROUND_ROBIN);
  }

  /**
   * Consistent placement in {@code O(1)} expected time: JumpBackHash of the key's XXH3 64-bit hash.
   * The same guarantees as {@link #consistent()} at a cost that does not grow with the partition
   * count, but a different mapping: switching a topic between the two moves almost every key. What
   * {@code routing.scheme=xxh3-64, routing.placement=jump-back} builds; agrees with no client's
   * built-in; keyless messages round-robin.
   *
   * @see Placement#JUMP_BACK
   */
  public static HashRouter consistentJumpBack() {
    return HashRouter.of(HashScheme.XXH3_64, Placement.JUMP_BACK, KeylessPolicy.ROUND_ROBIN);
  }
}
