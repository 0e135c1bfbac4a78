/**
 * The routing configuration: {@code RoutingSpec} reads the {@code routing.*} properties (every key
 * is an entry of the {@code RoutingProperty} catalogue, which docs/configuration.md renders),
 * validates them at parse time and builds the {@code KeyRouter}.
 */
package io.github.routingkit.config;
