/**
 * Real brokers inside the current JVM, for integration tests: {@link
 * io.github.routingkit.testbrokers.EmbeddedKafka} (one combined KRaft node, kafka_2.13 4.1.1, or
 * up to five with racks and an optional SASL/PLAIN listener through {@link
 * io.github.routingkit.testbrokers.EmbeddedKafkaBuilder}) and {@link
 * io.github.routingkit.testbrokers.EmbeddedPulsar} (a Pulsar 4.2.4 standalone).
 *
 * <p>Both start on free loopback ports with their data in a new temporary directory (under the
 * directory named by the system property {@code routingkit.testbrokers.dir}, default
 * {@code java.io.tmpdir}), take extra or overriding broker settings as a {@code Map}, are {@link
 * java.lang.AutoCloseable} (closing stops the broker and deletes its data) and can run side by side
 * in one JVM. They depend on nothing else in RoutingKit. A broker that cannot start throws (an
 * {@link java.lang.IllegalArgumentException} for a bad setting, an {@link
 * java.lang.IllegalStateException} naming the cause otherwise) after stopping what it had started,
 * waiting for its threads and deleting its directory.
 *
 * <p>Logging is the user's: both brokers log through SLF4J 2 to whatever binding the test class
 * path has (none: SLF4J's no-operation logger). This artifact ships no binding and no logging
 * configuration. Jersey's, OpenTelemetry's and Caffeine's java.util.logging notices are kept at
 * SEVERE unless their level is set.
 *
 * <p>Typical start times on a 2-core machine shared with other builds: Kafka 5-15 s, Pulsar 6-30 s.
 */
package io.github.routingkit.testbrokers;
