/**
 * The base routers: {@code HashRouter} (a scheme and a placement) and {@code KeyFormatRouter}
 * (skips a key format's header); the layers composed over them live in the subpackages.
 */
package io.github.routingkit.router;
