/**
 * Helpers shared by RoutingKit's own packages: argument checks and allocation-free byte searches.
 * Not API: public only because Java has no friend packages; may change in any release.
 */
package io.github.routingkit.internal;
