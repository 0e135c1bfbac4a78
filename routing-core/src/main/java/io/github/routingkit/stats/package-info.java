/**
 * Distribution statistics for routing: how evenly a router spreads a key sample over partitions
 * ({@link io.github.routingkit.stats.LoadStatistics}), the &chi;&sup2; test of that spread
 * ({@link io.github.routingkit.stats.ChiSquared}) and what a perfect hash would reach for the same
 * number of keys ({@link io.github.routingkit.stats.PerfectHashBound}).
 *
 * <p>Everything here is a pure function of its arguments: no I/O, no logging, no shared state;
 * every type is immutable and safe from any thread.
 */
package io.github.routingkit.stats;
