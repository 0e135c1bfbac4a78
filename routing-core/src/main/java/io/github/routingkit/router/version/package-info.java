/**
 * The version layer: {@code VersionedRouter} routes each message by the routing generation it
 * names (key prefix or header).
 */
package io.github.routingkit.router.version;
