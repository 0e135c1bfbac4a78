/**
 * Micrometer: {@code RoutingMeterBinder} registers every routing metric of the JVM with a
 * {@code MeterRegistry}.
 */
package io.github.routingkit.micrometer;
