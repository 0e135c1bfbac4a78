package io.github.routingkit.config;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.KeylessPolicy;
import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.placement.Placement;
import io.github.routingkit.router.HashRouter;
import io.github.routingkit.router.KeyFormatRouter;
import io.github.routingkit.router.canary.CanaryRouter;
import io.github.routingkit.router.hotkey.HotKeyRouter;
import io.github.routingkit.router.segment.SegmentRouter;
import io.github.routingkit.router.version.VersionedRouter;

/**
 * Decides which router a checked spec builds: key format &rarr; canary &rarr; version &rarr;
 * segment &rarr; hot key &rarr; scheme/placement, the order {@link RoutingSpec}'s class comment
 * gives, each layer left out when it is not configured, one segment/hot-key chain per generation.
 * Every call builds new routers.
 */
final class RouterChain {
  private RouterChain() {}

  /** The spec's router, for {@link RoutingSpec#keyRouter()}. */
  static KeyRouter of(HashScheme scheme, Placement placement, KeylessPolicy keyless,
      LayerCheck.Layers typed) {
    KeyRouter base = typed.generations() != null ? versioned(keyless, typed)
        : chain(scheme, placement, keyless, typed);
    if (typed.canaryNext() != null) {
      base = CanaryRouter.of(base, typed.canaryNext().keyRouter(), typed.canaryShare());
    }
    return KeyFormatRouter.of(typed.keyFormat(), base);
  }

  /** Builds segment &rarr; hot key &rarr; hash for one scheme and placement. */
  private static KeyRouter chain(HashScheme s, Placement p, KeylessPolicy keyless,
      LayerCheck.Layers typed) {
    KeyRouter router = HashRouter.of(s, p, keyless);
    if (typed.hotKeys() != null) {
      router = HotKeyRouter.of(typed.hotKeys(), router);
    }
    if (typed.segments() != null) {
      router = SegmentRouter.of(typed.segments(), router);
    }
    return router;
  }

  private static VersionedRouter versioned(KeylessPolicy keyless, LayerCheck.Layers typed) {
    VersionedRouter.Builder b = VersionedRouter.builder();
    for (LayerCheck.Generation g : typed.generations()) {
      b.generation(g.name(), chain(g.scheme(), g.placement().resolve(g.scheme()), keyless, typed),
          g.count());
    }
    return b.defaultVersion(typed.defaultVersion())
        .source(typed.source())
        .separator(typed.separator()).header(typed.header()).build();
  }
}
