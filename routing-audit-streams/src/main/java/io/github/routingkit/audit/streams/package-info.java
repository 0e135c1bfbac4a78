/**
 * The per-key ordering audit as a Kafka Streams application. The consumer interceptors of
 * {@code routing-audit} ship their records to a topic ({@code KafkaTopicAuditRecorder});
 * {@link io.github.routingkit.audit.streams.ContinuousAudit} builds the topology that applies the
 * batch audit's own rules ({@code KeyStreamState}) to them per key stream, in state stores
 * partitioned by key, writes every out-of-order pair with its cause and evidence to a topic and
 * keeps running totals per cause ({@link io.github.routingkit.audit.streams.AuditTotals}) as
 * metrics. {@code routing audit --follow} runs it.
 */
package io.github.routingkit.audit.streams;
