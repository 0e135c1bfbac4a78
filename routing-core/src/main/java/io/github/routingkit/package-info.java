/**
 * RoutingKit's core types: {@code KeyRouter} (a key and a partition count in, a partition out),
 * {@code KeylessPolicy}, {@code KeyFormat} and {@code RoutingConfigException}. Pure Java, no
 * client dependency; the Kafka and Pulsar adapters build their routers from a
 * {@code config.RoutingSpec}.
 */
package io.github.routingkit;
