package io.github.routingkit.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/metrics.md's reference table is the {@link RoutingMetric} catalogue rendered; with
 * {@code -Drouting.docs.update=true} the test rewrites it first. Names are unique in every
 * ecosystem.
 */
class MetricsDocTest {
  static final Path DOC = Path.of("..", "docs", "metrics.md");
  private static final Pattern BLOCK = Pattern.compile(
      "(<!-- routing-metrics:[^\\n]*-->\\n)(.*?)(<!-- /routing-metrics -->)", Pattern.DOTALL);

  static String rendered(String doc) {
    Matcher m = BLOCK.matcher(doc);
    assertThat(m.find()).as("docs/metrics.md has its routing-metrics block").isTrue();
    return m.replaceFirst(Matcher.quoteReplacement(m.group(1) + RoutingMetric.markdownTable()
        + m.group(3)));
  }

  @Test
  void theReferenceTableIsTheCatalogueRendered() throws IOException {
    String doc = Files.readString(DOC, StandardCharsets.UTF_8);
    if (Boolean.getBoolean("routing.docs.update")) {
      doc = rendered(doc);
      Files.writeString(DOC, doc, StandardCharsets.UTF_8);
    }
    assertThat(doc)
        .as("docs/metrics.md differs from the RoutingMetric catalogue; run ./mvnw -q -pl"
            + " routing-core test -Dtest=MetricsDocTest -Drouting.docs.update=true")
        .isEqualTo(rendered(doc));
  }

  @Test
  void namesAreUniqueInEveryEcosystem() {
    Set<String> kafka = new HashSet<>();
    Set<String> otel = new HashSet<>();
    Set<String> prometheus = new HashSet<>();
    for (RoutingMetric m : RoutingMetric.values()) {
      assertThat(kafka.add(m.kafkaGroup() + "/" + m.kafkaName())).as(m.name()).isTrue();
      assertThat(otel.add(m.otelName())).as(m.name()).isTrue();
      assertThat(prometheus.add(m.prometheusName())).as(m.name()).isTrue();
      assertThat(m.query()).as(m.name()).contains("routingkit_");
      assertThat(m.kind() == RoutingMetric.Kind.STATE_SET).isEqualTo(!m.states().isEmpty());
    }
  }
}
