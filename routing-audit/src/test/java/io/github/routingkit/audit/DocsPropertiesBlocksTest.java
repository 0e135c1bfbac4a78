package io.github.routingkit.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every {@code .properties} block a user may copy (README.md, docs/*.md, and the {@code <pre>}
 * blocks in the Javadoc of the Kafka audit interceptors) loads with {@link Properties#load} to
 * the values it shows: {@code #} starts a comment only at the start of a line, so a comment
 * after a value would become part of the value.
 */
class DocsPropertiesBlocksTest {
  private static final Pattern MD_BLOCK =
      Pattern.compile("```properties\\R(.*?)```", Pattern.DOTALL);
  private static final Pattern JAVADOC_BLOCK =
      Pattern.compile("<pre>\\{@code\\R(.*?)}</pre>", Pattern.DOTALL);
  private static final Path ROOT = Path.of("..");

  @Test
  void noPropertiesBlockHasACommentAfterAValue() throws IOException {
    List<String> blocks = new ArrayList<>();
    List<Path> docs = new ArrayList<>(List.of(ROOT.resolve("README.md")));
    try (Stream<Path> md = Files.list(ROOT.resolve("docs"))) {
      md.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
    }
    for (Path doc : docs) {
      blocks(MD_BLOCK, doc, blocks);
    }
    Path audit = ROOT.resolve(Path.of("routing-audit", "src", "main", "java", "io", "github",
        "routingkit", "audit"));
    blocks(JAVADOC_BLOCK, audit.resolve("KafkaAuditProducerInterceptor.java"), blocks);
    blocks(JAVADOC_BLOCK, audit.resolve("KafkaAuditConsumerInterceptor.java"), blocks);
    assertThat(blocks).as("properties blocks found").hasSizeGreaterThanOrEqualTo(6);
    for (String block : blocks) {
      Properties loaded = new Properties();
      loaded.load(new StringReader(block));
      for (String key : loaded.stringPropertyNames()) {
        assertThat(loaded.getProperty(key))
            .as("value of %s as Properties.load reads it from%n%s", key, block)
            .doesNotContain("#");
      }
    }
  }

  private static void blocks(Pattern pattern, Path file, List<String> into) throws IOException {
    String text = Files.readString(file);
    Matcher m = pattern.matcher(text);
    while (m.find()) {
      String block = m.group(1).replaceAll("(?m)^\\s*\\* ?", "");
      if (pattern == JAVADOC_BLOCK && !block.contains("=")) {
        continue;
      }
      into.add(block);
    }
  }
}
