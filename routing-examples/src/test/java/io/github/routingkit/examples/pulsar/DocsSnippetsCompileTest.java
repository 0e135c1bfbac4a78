package io.github.routingkit.examples.pulsar;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Every Java snippet of docs/pulsar.md, docs/rollout.md and docs/kafka.md compiles as shown: its {@code import} lines become the
 * compilation unit's imports, the rest the body of a method in a class that declares, as fields,
 * the variables the page says it assumes. Compiled with {@code javax.tools} against the test
 * classpath (the real routing-pulsar, routing-kafka, pulsar-client, pulsar-admin, kafka-clients
 * and kafka-streams jars). A block fenced {@code ```java <library>} needs a library the build
 * does not have (docs/kafka.md's spring-kafka line) and is not compiled.
 */
@Tag("slow")
class DocsSnippetsCompileTest {

  private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);

  /** The context docs/pulsar.md names for its snippets. */
  private static final String CONTEXT = """
      org.apache.pulsar.client.api.PulsarClient client;
      org.apache.pulsar.client.admin.PulsarAdmin admin;
      java.util.List<String> topics;
      java.util.List<String> sampleKeys;
      byte[] orderingKeyBytes;
      java.util.List<String> joinOrder;
      java.util.Map<String, java.util.List<org.apache.pulsar.client.api.Range>> rangesByConsumer;
      io.github.routingkit.pulsar.BundleLocator.Bundle hot;
      io.github.routingkit.switching.SwitchPlan plan;
      volatile boolean running;
      abstract void process(org.apache.pulsar.client.api.Message<String> message);
      """;

  static List<String> snippets(Path markdown) throws IOException {
    Matcher m = JAVA_BLOCK.matcher(Files.readString(markdown, StandardCharsets.UTF_8));
    List<String> snippets = new ArrayList<>();
    while (m.find()) {
      snippets.add(m.group(1));
    }
    return snippets;
  }

  /** The context docs/rollout.md names for its snippets. */
  private static final String ROLLOUT_CONTEXT = """
      java.util.Properties producerConfig;
      org.apache.kafka.clients.producer.KafkaProducer<String, String> producer;
      org.apache.kafka.clients.consumer.KafkaConsumer<String, String> consumer;
      org.apache.kafka.clients.consumer.ConsumerRebalanceListener myListener;
      volatile boolean running;
      abstract void process(org.apache.kafka.clients.consumer.ConsumerRecord<String, String> r);
      """;

  /** The context docs/kafka.md names for its snippets. */
  private static final String KAFKA_CONTEXT = """
      java.util.Map<String, Object> configs;
      org.apache.kafka.clients.producer.KafkaProducer<String, String> kafkaProducer;
      org.apache.kafka.common.serialization.Serializer<String> keySerializer;
      org.apache.kafka.common.serialization.Serializer<String> valueSerializer;
      org.apache.kafka.streams.kstream.KStream<String, String> stream;
      org.apache.kafka.streams.kstream.KTable<String, String> table;
      org.apache.kafka.streams.KafkaStreams streams;
      String key;
      """;

  static String compilationUnit(String className, String snippet) {
    return compilationUnit(className, snippet, CONTEXT);
  }

  static String compilationUnit(String className, String snippet, String context) {
    StringBuilder imports = new StringBuilder();
    StringBuilder body = new StringBuilder();
    for (String line : snippet.split("\n", -1)) {
      (line.startsWith("import ") ? imports : body).append(line).append('\n');
    }
    return imports + "\nabstract class " + className + " {\n" + context
        + "  void snippet() throws Exception {\n" + body + "  }\n}\n";
  }

  /** Returns the compiler's errors for the given sources, empty if they compile. */
  static List<String> compile(List<JavaFileObject> sources, Path out) throws IOException {
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    String classpath = System.getProperty("surefire.test.class.path",
        System.getProperty("java.class.path"));
    try (StandardJavaFileManager files = compiler.getStandardFileManager(diagnostics, null,
        StandardCharsets.UTF_8)) {
      boolean ok = compiler.getTask(new StringWriter(), files, diagnostics,
          List.of("-proc:none", "-classpath", classpath, "-d", out.toString()), null, sources)
          .call();
      List<String> errors = new ArrayList<>();
      diagnostics.getDiagnostics().stream()
          .filter(d -> d.getKind() == javax.tools.Diagnostic.Kind.ERROR)
          .forEach(d -> errors.add(d.getSource().getName() + ":" + d.getLineNumber() + ": "
              + d.getMessage(null)));
      if (!ok && errors.isEmpty()) {
        errors.add("compilation failed without diagnostics");
      }
      return errors;
    }
  }

  static JavaFileObject source(String className, String code) {
    return new SimpleJavaFileObject(URI.create("string:///" + className + ".java"),
        JavaFileObject.Kind.SOURCE) {
      @Override
      public CharSequence getCharContent(boolean ignoreEncodingErrors) {
        return code;
      }
    };
  }

  @Test
  void everyJavaSnippetOfPulsarMdCompiles() throws IOException {
    Path doc = Path.of("..", "docs", "pulsar.md");
    List<String> snippets = snippets(doc);
    assertThat(snippets).as("java snippets in %s", doc).hasSizeGreaterThanOrEqualTo(3);
    List<JavaFileObject> sources = new ArrayList<>();
    Set<String> units = new LinkedHashSet<>();
    for (int i = 0; i < snippets.size(); i++) {
      String name = "PulsarMdSnippet" + (i + 1);
      String unit = compilationUnit(name, snippets.get(i));
      units.add(unit);
      sources.add(source(name, unit));
    }
    Path out = Files.createTempDirectory("docs-snippets");
    List<String> errors = compile(sources, out);
    assertThat(errors).as("docs/pulsar.md snippets as compiled:%n%s", String.join("\n", units))
        .isEmpty();
  }

  @Test
  void everyJavaSnippetOfRolloutMdCompiles() throws IOException {
    Path doc = Path.of("..", "docs", "rollout.md");
    List<String> snippets = snippets(doc);
    assertThat(snippets).as("java snippets in %s", doc).hasSizeGreaterThanOrEqualTo(2);
    assertCompile(doc, snippets, "RolloutMdSnippet", ROLLOUT_CONTEXT);
  }

  @Test
  void everyJavaSnippetOfKafkaMdCompiles() throws IOException {
    Path doc = Path.of("..", "docs", "kafka.md");
    List<String> snippets = snippets(doc);
    assertThat(snippets).as("java snippets in %s", doc).hasSize(2);
    assertCompile(doc, snippets, "KafkaMdSnippet", KAFKA_CONTEXT);
  }

  /** Compiles each snippet as its own unit (named prefix1, prefix2, ...) and asserts no error. */
  private static void assertCompile(Path doc, List<String> snippets, String prefix, String context)
      throws IOException {
    List<JavaFileObject> sources = new ArrayList<>();
    Set<String> units = new LinkedHashSet<>();
    for (int i = 0; i < snippets.size(); i++) {
      String name = prefix + (i + 1);
      String unit = compilationUnit(name, snippets.get(i), context);
      units.add(unit);
      sources.add(source(name, unit));
    }
    List<String> errors = compile(sources, Files.createTempDirectory("docs-snippets"));
    assertThat(errors).as("%s snippets as compiled:%n%s", doc.getFileName(),
        String.join("\n", units)).isEmpty();
  }

  @Test
  void aSnippetThatDoesNotCompileIsReported() throws IOException {
    // the check can fail: a Range without its import, as docs/pulsar.md once showed it
    String unit = compilationUnit("Broken", "Range r = Range.of(0, 1);\n");
    List<String> errors = compile(List.of(source("Broken", unit)),
        Files.createTempDirectory("docs-snippets"));
    assertThat(errors).anySatisfy(e -> assertThat(e).contains("cannot find symbol"));
  }
}
