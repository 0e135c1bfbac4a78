package io.github.routingkit.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.config.RoutingProperty.Layer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md's property tables are the {@link RoutingProperty} catalogue rendered: each
 * table between {@code <!-- routing-properties LAYER ... -->} and {@code <!-- /routing-properties
 * -->} must equal {@link RoutingProperty#markdownTable(Layer)}, and every layer has its table.
 * With {@code -Drouting.docs.update=true} the test rewrites the tables from the catalogue first.
 */
class ConfigurationDocTest {
  static final Path DOC = Path.of("..", "docs", "configuration.md");
  private static final Pattern BLOCK = Pattern.compile(
      "(<!-- routing-properties (\\w+):[^\\n]*-->\\n)(.*?)(<!-- /routing-properties -->)",
      Pattern.DOTALL);

  /** The doc with every marked table replaced by the catalogue's rendering. */
  static String rendered(String doc) {
    Matcher m = BLOCK.matcher(doc);
    StringBuilder sb = new StringBuilder();
    while (m.find()) {
      String table = RoutingProperty.markdownTable(Layer.valueOf(m.group(2)));
      m.appendReplacement(sb, Matcher.quoteReplacement(m.group(1) + table + m.group(4)));
    }
    m.appendTail(sb);
    return sb.toString();
  }

  @Test
  void everyTableInTheDocIsTheCatalogueRendered() throws IOException {
    String doc = Files.readString(DOC, StandardCharsets.UTF_8);
    if (Boolean.getBoolean("routing.docs.update")) {
      doc = rendered(doc);
      Files.writeString(DOC, doc, StandardCharsets.UTF_8);
    }
    assertThat(doc)
        .as("docs/configuration.md differs from the RoutingProperty catalogue; run ./mvnw -q -pl"
            + " routing-core test -Dtest=ConfigurationDocTest -Drouting.docs.update=true")
        .isEqualTo(rendered(doc));
  }

  @Test
  void everyLayerHasExactlyOneTable() throws IOException {
    Matcher m = BLOCK.matcher(Files.readString(DOC, StandardCharsets.UTF_8));
    Set<Layer> seen = EnumSet.noneOf(Layer.class);
    while (m.find()) {
      assertThat(seen.add(Layer.valueOf(m.group(2)))).as("second table of " + m.group(2)).isTrue();
    }
    assertThat(seen).containsExactlyInAnyOrder(Layer.values());
  }

  @Test
  void aChangedCatalogueRowIsCaught() {
    String doc = "x\n<!-- routing-properties HOTKEY: generated -->\n"
        + RoutingProperty.markdownTable(Layer.HOTKEY) + "<!-- /routing-properties -->\n";
    assertThat(rendered(doc)).isEqualTo(doc);
    String drifted = doc.replace("`0.01`", "`0.02`");
    assertThat(rendered(drifted)).isNotEqualTo(drifted);
  }

  @Test
  void theSpecKnowsEveryCatalogueKeyButTheAssignorsAndNoOther() {
    Set<String> expected = new java.util.TreeSet<>();
    for (RoutingProperty p : RoutingProperty.values()) {
      if (p.layer() != Layer.ASSIGNOR && !p.isPrefix()) {
        expected.add(p.key());
      }
    }
    expected.addAll(RoutingProperty.canaryNextKeys());
    assertThat(RoutingSpec.knownProperties()).containsExactlyElementsOf(expected);
    assertThat(RoutingSpec.knownProperties()).contains("routing.canary.next.hotkey.keys",
        "routing.canary.next.scheme").doesNotContain("routing.canary.next.keyless",
        "routing.canary.next.canary.share", "routing.assignor.weight");
  }
}
