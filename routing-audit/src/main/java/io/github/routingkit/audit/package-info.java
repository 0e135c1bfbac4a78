/**
 * The per-key ordering audit. Producer interceptors stamp each message with its producer, a
 * per-key sequence number and the routing generation ({@link io.github.routingkit.audit.AuditStamp});
 * consumer interceptors record each stamped message they deliver, with its partition, consumer
 * and subscription type, through an {@link io.github.routingkit.audit.AuditRecorder}; and
 * {@link io.github.routingkit.audit.OrderingAudit} reads those records back, finds every pair of
 * one key's messages delivered out of order and names the cause and the routing layer at fault
 * ({@link io.github.routingkit.audit.AuditCause}). The interceptors run inside production clients:
 * this package needs only the client library it intercepts (kafka-clients or pulsar-client,
 * brought by the application), never the test kit.
 */
package io.github.routingkit.audit;
