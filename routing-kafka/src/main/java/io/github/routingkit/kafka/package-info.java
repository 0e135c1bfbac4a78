/**
 * The Kafka adapter: {@code RoutingPartitioner} (the producer's {@code partitioner.class}),
 * {@code RoutingProducer.wrap}, the consumer assignors {@code RoutingAssignor} (classic) and
 * {@code RoutingGroupAssignor} (KIP-848), and {@code GroupSwitchBarrier} for switching routers
 * without reordering a key. Configured with {@code routing.*} properties in the client's configs.
 */
package io.github.routingkit.kafka;
