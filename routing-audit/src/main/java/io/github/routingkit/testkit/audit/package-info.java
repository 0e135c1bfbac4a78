/**
 * Deprecated names of the Kafka audit interceptors, kept for configs that name them in
 * {@code interceptor.classes}; use {@link io.github.routingkit.audit}.
 */
package io.github.routingkit.testkit.audit;
