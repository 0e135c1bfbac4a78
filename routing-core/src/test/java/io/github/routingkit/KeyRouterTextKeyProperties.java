package io.github.routingkit;

import io.github.routingkit.router.hotkey.HotKeyRouter;
import io.github.routingkit.router.segment.SegmentRouter;
import io.github.routingkit.router.version.VersionedRouter;

import io.github.routingkit.property.Gen;
import io.github.routingkit.property.Property;
import org.junit.jupiter.api.Test;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

/**
 * Text keys route exactly like their {@code getBytes(UTF_8)} through the schemes that encode text
 * and the composed routers: ASCII, 2-, 3- and 4-byte characters, unpaired surrogates (which the JDK
 * encodes as {@code '?'}) and the separators themselves.
 */
class KeyRouterTextKeyProperties {
  Gen<String> texts() {
    Gen<Character> chars = Gen.of('a', 'z', '0', ':', '|', '?', '\u007f', '\u0080',
        '\u00fc', '\u07ff', '\u0800', '\u20ac', '\uffff', '\ud83d', '\ude00', '\udbff', '\udc00');
    return chars.list(0, 40).map(cs -> {
      StringBuilder sb = new StringBuilder();
      cs.forEach(sb::append);
      return sb.toString();
    });
  }

  private static final List<KeyRouter> ROUTERS = List.of(
      Routers.librdkafkaDefault(), Routers.consistent(),
      SegmentRouter.builder(Routers.consistent()).range("a", 0, 2).range("\u00fc", 3, 4).range("?", 5, 5).build(),
      SegmentRouter.builder(Routers.librdkafkaDefault()).separator("?").weight("a", 1).sharedWeight(1)
          .build(),
      VersionedRouter.builder().generation("a", Routers.kafkaDefault(), 0)
          .generation("z\u20ac", Routers.consistent(), 0).defaultVersion("a").build(),
      HotKeyRouter.builder(Routers.consistent()).hotKeys(List.of("a", "\u00fc:z", "?"))
          .choice(HotKeyRouter.Choice.VALUE_HASH).build());

  @Test
  void textKeysRouteLikeTheirUtf8Bytes() {
    Property.check(1000, texts(), Gen.ints(6, 50), (s, n) -> {
      byte[] bytes = s.getBytes(UTF_8);
      for (KeyRouter r : ROUTERS) {
        assertThat(r.partition(s, n)).as("%s", r).isEqualTo(r.partition(bytes, n));
        assertThat(r.partition(new StringBuilder(s), n)).as("%s", r).isEqualTo(r.partition(bytes, n));
      }
    });
  }
}
