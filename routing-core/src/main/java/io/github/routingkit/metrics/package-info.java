/**
 * What the adapters publish about their routing decisions, kept apart from the routers: striped
 * per-partition counters ({@link io.github.routingkit.metrics.TopicMetrics}), the skew of the
 * recent records with the test kit's verdicts, the hot keys the detectors see, the canary's share
 * and step, the spec's fingerprint ({@link io.github.routingkit.metrics.RouterMetrics}), and the
 * assignors' rebalances ({@link io.github.routingkit.metrics.AssignorMetrics}). Every metric is an
 * entry of the {@link io.github.routingkit.metrics.RoutingMetric} catalogue, from which the Kafka
 * (JMX), OpenTelemetry and Micrometer bridges take their names.
 *
 * <p>Pure bookkeeping: no I/O, no logging, no clock of its own (the adapters pass one); recording
 * allocates nothing once a topic is known.
 */
package io.github.routingkit.metrics;
