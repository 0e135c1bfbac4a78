/**
 * Assertions for users' tests: {@code RoutingAssertions} and {@code AssignmentAssertions} are the
 * entry points ({@code RouterAssert}, {@code AssignorAssert}); {@code DistributionReport},
 * {@code ResizeReport} and {@code RolloutReport} measure a router on a sample of keys.
 */
package io.github.routingkit.testkit;
