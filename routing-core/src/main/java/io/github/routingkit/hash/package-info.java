/**
 * The hash schemes, bit-exact with the clients they name: {@code HashScheme} lists them (Kafka's
 * murmur2, Pulsar's JavaStringHash and Murmur3, librdkafka's CRC-32 and FNV-1a, XXH3 and others),
 * each hashing {@code byte[]} and String keys.
 */
package io.github.routingkit.hash;
