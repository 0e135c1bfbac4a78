package io.github.routingkit.examples.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every file a quick-start page shows is, byte for byte, the file of the user-style project that
 * routing-it builds and tests ({@code routing-it/src/it/quickstart-*}), with the versions the build
 * fills in: what a user copies from docs/quickstart-kafka.md or docs/quickstart-pulsar.md is what
 * the build proved to compile and pass. A page that shows a file the project lacks, or leaves one
 * out, fails too.
 */
class QuickstartDocsTest {
  private static final Pattern FILE_BLOCK =
      Pattern.compile("<!-- file: (\\S+) -->\\R[^\\n]*\\R\\R```\\w*\\R(.*?)```", Pattern.DOTALL);

  @ParameterizedTest
  @ValueSource(strings = {"kafka", "pulsar"})
  void thePageShowsExactlyTheProjectTheBuildTests(String client) throws IOException {
    Path page = Path.of("..", "docs", "quickstart-" + client + ".md");
    Path project = Path.of("..", "routing-it", "src", "it", "quickstart-" + client);
    Map<String, String> shown = new LinkedHashMap<>();
    Matcher m = FILE_BLOCK.matcher(Files.readString(page, StandardCharsets.UTF_8));
    while (m.find()) {
      shown.put(m.group(1), m.group(2));
    }
    Map<String, String> files = new LinkedHashMap<>();
    try (var walk = Files.walk(project)) {
      walk.filter(Files::isRegularFile).sorted().forEach(f -> files.put(
          project.relativize(f).toString().replace('\\', '/'), read(f)));
    }
    assertThat(shown.keySet()).as("files shown on " + page).containsExactlyInAnyOrderElementsOf(
        files.keySet());
    files.forEach((name, text) -> assertThat(shown.get(name)).as(name + " on " + page)
        .isEqualTo(filled(text)));
  }

  private static String read(Path f) {
    try {
      return Files.readString(f, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** The project file as invoker filters it: the build's versions in place of the tokens. */
  private static String filled(String text) {
    return text.replace("@project.version@", System.getProperty("routingkit.project.version"))
        .replace("@kafka.version@", System.getProperty("routingkit.kafka.version"))
        .replace("@pulsar.version@", System.getProperty("routingkit.pulsar.version"))
        .replace("@junit.version@", System.getProperty("routingkit.junit.version"));
  }
}
