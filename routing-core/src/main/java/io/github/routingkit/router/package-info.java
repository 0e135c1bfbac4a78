/**
 * The base routers: {@code HashRouter} (a scheme and a placement) and {@code KeyFormatRouter}
 * (skips a key format's header), and {@code ForwardingRouter}, the base of a router that wraps one
 * router; the layers composed over them live in the subpackages.
 */
package io.github.routingkit.router;
