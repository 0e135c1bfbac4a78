/**
 * Kafka Streams: {@code RoutingStreamPartitioner} routes a topology's records with a
 * {@code RoutingSpec}, as {@code RoutingPartitioner} does for a producer.
 */
package io.github.routingkit.kafka.streams;
