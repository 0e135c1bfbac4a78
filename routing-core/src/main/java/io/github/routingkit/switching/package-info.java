/**
 * Switching routers without reordering a key: {@code SwitchPlan} (which keys move at which step),
 * {@code SwitchMarker} and the consumer-side {@code MemberBarrier}, which holds a moved key's
 * records until every partition passed the step.
 */
package io.github.routingkit.switching;
