package io.github.routingkit.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Minimal reproductions of what HostileSpecFuzzTest found. */
class SpecQuotedValueRoundTripTest {

  /**
   * A single-valued property whose value has blanks before a comma that the string form has to
   * quote: SpecText.parse trimmed the first piece of the quoted value ("\"a " became "\"a"), so
   * parse(toString()) read "(a,b.c=)" instead of "(a ,b.c=)".
   */
  @Test
  void quotedValueKeepsBlanksBeforeAComma() {
    RoutingSpec s = RoutingSpec.parse(Map.of("routing.segment.ranges", "x:0-3",
        "routing.segment.regex", "(a ,b.c=)"));
    assertThat(s.toString()).contains("\"(a ,b.c=)\"");
    assertThat(RoutingSpec.parse(s.toString())).isEqualTo(s);
    RoutingSpec sep = RoutingSpec.parse(Map.of("routing.segment.ranges", "x:0-3",
        "routing.segment.separator", "spaced  ,x, routing.b=c"));
    assertThat(RoutingSpec.parse(sep.toString())).isEqualTo(sep);
  }
}
