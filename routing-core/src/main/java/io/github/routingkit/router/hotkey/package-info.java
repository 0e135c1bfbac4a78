/**
 * The hot-key layer: {@code HotKeyRouter} spreads configured or detected hot keys over several
 * candidate partitions.
 */
package io.github.routingkit.router.hotkey;
