/**
 * The canary layer: {@code CanaryRouter} sends a share of the keys through a new spec,
 * {@code CanarySchedule} raises that share fleet-wide at given instants.
 */
package io.github.routingkit.router.canary;
