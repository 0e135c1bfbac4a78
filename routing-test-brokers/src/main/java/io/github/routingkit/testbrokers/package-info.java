/**
 * Real brokers inside the current JVM, for the demo and for integration tests: {@link
 * io.github.routingkit.testbrokers.EmbeddedKafka} (one combined KRaft node, kafka_2.13 4.1.1)
 * and {@link io.github.routingkit.testbrokers.EmbeddedPulsar} (a Pulsar 4.2.4 standalone).
 *
 * <p>Both start on free loopback ports with their data in a new temporary directory, take extra or
 * overriding broker settings as a {@code Map}, are {@link java.lang.AutoCloseable} (closing stops
 * the broker and deletes its data) and can run side by side in one JVM. They depend on nothing else
 * in RoutingKit. Logging goes through SLF4J to Log4j 2; the {@code log4j2.xml} of this module keeps
 * it at ERROR (raise it with {@code -Droutingkit.log.level=WARN}).
 *
 * <p>Typical start times on a 2-core machine shared with other builds: Kafka 5-15 s, Pulsar 6-30 s.
 */
package io.github.routingkit.testbrokers;
