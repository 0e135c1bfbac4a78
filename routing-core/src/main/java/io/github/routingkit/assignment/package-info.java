/**
 * The consumer-side assignment policy behind the Kafka assignors: {@code AssignmentPolicy}
 * takes a group (members, subscriptions, owned partitions, racks) and returns a
 * {@code RebalanceResult}; the group's {@code GroupShape} picks the path (equal subscriptions with
 * or without racks, or the general path).
 */
package io.github.routingkit.assignment;
