/**
 * The Pulsar adapter: {@code PulsarRouting.customPartition} sets a producer's
 * {@code RoutingMessageRouter} from a {@code RoutingSpec}; {@code KeySharedPredictor} predicts
 * which Key_Shared consumer gets a key, {@code BundleLocator} which bundle a topic falls in, and
 * {@code FailoverSwitchBarrier} switches routers without reordering a key.
 */
package io.github.routingkit.pulsar;
