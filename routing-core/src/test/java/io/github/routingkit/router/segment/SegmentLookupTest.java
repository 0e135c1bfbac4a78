package io.github.routingkit.router.segment;


import io.github.routingkit.Routers;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The tenant lookup compares the first 8 bytes as one word: names that share a prefix, are
 * prefixes of each other, or are longer than a word must still be told apart exactly.
 */
class SegmentLookupTest {
  private final SegmentRouter router = SegmentRouter.builder(Routers.kafkaDefault())
      .ranges("customer-alpha:0-1,customer-beta:2-3,customer:4,cust:5,ab:6,abc:7,x:8,"
          + "\u00fcber:9,customer-alphabet:10")
      .build();

  private String segment(String key) {
    return router.segmentOf(key.getBytes(UTF_8));
  }

  @Test
  void namesSharingAWordPrefixAreDistinct() {
    assertThat(segment("customer-alpha:1")).isEqualTo("customer-alpha");
    assertThat(segment("customer-beta:1")).isEqualTo("customer-beta");
    assertThat(segment("customer-alphabet:1")).isEqualTo("customer-alphabet");
    assertThat(segment("customer-alphx:1")).isNull();
    assertThat(segment("customer-alph:1")).isNull();
    assertThat(segment("customer:1")).isEqualTo("customer");
    assertThat(segment("cust:1")).isEqualTo("cust");
    assertThat(segment("custo:1")).isNull();
    assertThat(segment("ab:1")).isEqualTo("ab");
    assertThat(segment("abc:1")).isEqualTo("abc");
    assertThat(segment("a:1")).isNull();
    assertThat(segment("\u00fcber:1")).isEqualTo("\u00fcber");
  }

  @Test
  void shortKeysNearTheEndOfTheArray() {
    assertThat(segment("x:")).isEqualTo("x");
    assertThat(segment("x")).isNull();
    assertThat(segment(":")).isNull();
    assertThat(segment("ab:")).isEqualTo("ab");
    byte[] padded = "zzzzab:k".getBytes(UTF_8); // tenant "ab" in the middle of a range
    assertThat(router.partition(padded, 4, 4, 12))
        .isEqualTo(router.partition("ab:k".getBytes(UTF_8), 12)).isEqualTo(6);
  }
}
