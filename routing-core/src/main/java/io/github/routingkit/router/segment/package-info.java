/**
 * The segment layer: {@code SegmentRouter} keeps each tenant's keys within its own range of
 * partitions.
 */
package io.github.routingkit.router.segment;
