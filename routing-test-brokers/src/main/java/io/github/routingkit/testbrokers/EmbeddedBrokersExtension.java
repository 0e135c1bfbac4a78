package io.github.routingkit.testbrokers;

import java.lang.annotation.Annotation;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The JUnit Jupiter extension behind {@link WithEmbeddedKafka} and {@link WithEmbeddedPulsar}:
 * starts the brokers the test class asks for, creates its topics and resolves parameters of type
 * {@link EmbeddedKafka} and {@link EmbeddedPulsar}.
 *
 * <p>Register it through the annotations (they carry {@code @ExtendWith}); registered alone with
 * {@code @ExtendWith} it starts nothing. A broker for one class lives in the store of the
 * annotated class's {@code ExtensionContext} (so {@code @Nested} classes reuse it) and is closed
 * when that context closes; a shared broker lives in the root context's store, keyed by its
 * broker configuration, and is closed when the test run ends. Thread-safe: classes running in
 * parallel that share a broker start it once and create each topic once.
 */
public final class EmbeddedBrokersExtension implements BeforeAllCallback, ParameterResolver {
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(EmbeddedBrokersExtension.class);

  /** Creates the extension; JUnit does this for the annotations. */
  public EmbeddedBrokersExtension() {}

  @Override
  public void beforeAll(ExtensionContext context) {
    kafka(context);
    pulsar(context);
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    Class<?> testClass = context.getRequiredTestClass();
    return type == EmbeddedKafka.class && find(testClass, WithEmbeddedKafka.class).isPresent()
        || type == EmbeddedPulsar.class && find(testClass, WithEmbeddedPulsar.class).isPresent();
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return (type == EmbeddedKafka.class ? kafka(context) : pulsar(context)).orElseThrow();
  }

  private static Optional<EmbeddedKafka> kafka(ExtensionContext context) {
    return find(context.getRequiredTestClass(), WithEmbeddedKafka.class).map(found -> {
      WithEmbeddedKafka a = found.annotation();
      Settings s = Settings.of("@WithEmbeddedKafka", a.topics(), a.partitions(),
          a.brokerProperties(), a.shared());
      EmbeddedKafkaBuilder builder = builder(a, found.declaringClass());
      Running<EmbeddedKafka> running = running(context, found.declaringClass(),
          "kafka " + builder.describe() + " " + s.brokerProperties(), s,
          props -> builder.brokerProperties(props).start());
      running.createTopics(s, EmbeddedKafka::createTopic);
      return running.broker;
    });
  }

  private static Optional<EmbeddedPulsar> pulsar(ExtensionContext context) {
    return find(context.getRequiredTestClass(), WithEmbeddedPulsar.class).map(found -> {
      WithEmbeddedPulsar a = found.annotation();
      Settings s = Settings.of("@WithEmbeddedPulsar", a.topics(), a.partitions(),
          a.brokerProperties(), a.shared());
      Running<EmbeddedPulsar> running = running(context, found.declaringClass(),
          "pulsar " + s.brokerProperties(), s, EmbeddedPulsar::start);
      running.createTopics(s, EmbeddedPulsar::createPartitionedTopic);
      return running.broker;
    });
  }

  /** Returns the running broker for these settings, starting it on first use. */
  @SuppressWarnings("unchecked")
  private static <B extends AutoCloseable> Running<B> running(ExtensionContext context,
      Class<?> declaringClass, String kind, Settings settings,
      Function<Map<String, String>, B> start) {
    ExtensionContext owner = settings.shared() ? context.getRoot() : owner(context, declaringClass);
    String key = settings.shared() ? kind : kind.substring(0, kind.indexOf(' '));
    return (Running<B>) owner.getStore(NAMESPACE).getOrComputeIfAbsent(key, k -> {
      try {
        return new Running<>(start.apply(settings.brokerProperties()), settings.annotation());
      } catch (IllegalArgumentException e) {
        throw new ExtensionConfigurationException(settings.annotation() + " on "
            + declaringClass.getName() + " (brokerProperties " + settings.brokerProperties()
            + ") rejected: " + e.getMessage(), e);
      }
    }, Running.class);
  }

  /** The cluster settings of the annotation beyond its broker properties, checked. */
  private static EmbeddedKafkaBuilder builder(WithEmbeddedKafka a, Class<?> declaringClass) {
    try {
      EmbeddedKafkaBuilder b = EmbeddedKafka.builder().nodes(a.nodes());
      if (a.racks().length > 0) {
        b.racks(a.racks());
      }
      if (a.minInsyncReplicas() != 0) {
        b.minInsyncReplicas(a.minInsyncReplicas());
      }
      if (a.saslUsername().isEmpty() != a.saslPassword().isEmpty()) {
        throw new IllegalArgumentException("saslUsername and saslPassword: set both or neither");
      }
      if (!a.saslUsername().isEmpty()) {
        b.saslPlain(a.saslUsername(), a.saslPassword());
      }
      return b;
    } catch (IllegalArgumentException e) {
      throw new ExtensionConfigurationException("@WithEmbeddedKafka on "
          + declaringClass.getName() + ": " + e.getMessage(), e);
    }
  }

  /** The highest context whose test class is the annotated class (its class-level context). */
  private static ExtensionContext owner(ExtensionContext context, Class<?> declaringClass) {
    ExtensionContext owner = context;
    for (Optional<ExtensionContext> c = Optional.of(context); c.isPresent();
        c = c.get().getParent()) {
      if (c.get().getTestClass().orElse(null) == declaringClass) {
        owner = c.get();
      }
    }
    return owner;
  }

  /** Finds the annotation on the class (or a superclass) or else on an enclosing class. */
  private static <A extends Annotation> Optional<Found<A>> find(Class<?> testClass, Class<A> type) {
    for (Class<?> c = testClass; c != null; c = c.getEnclosingClass()) {
      Optional<A> a = AnnotationSupport.findAnnotation(c, type);
      if (a.isPresent()) {
        return Optional.of(new Found<>(a.get(), c));
      }
    }
    return Optional.empty();
  }

  private record Found<A>(A annotation, Class<?> declaringClass) {}

  /** The attributes both annotations have, checked. */
  private record Settings(String annotation, String[] topics, int partitions,
      Map<String, String> brokerProperties, boolean shared) {
    static Settings of(String annotation, String[] topics, int partitions, String[] properties,
        boolean shared) {
      if (partitions < 1) {
        throw new ExtensionConfigurationException(
            annotation + ": partitions must be at least 1, was " + partitions);
      }
      Map<String, String> map = new TreeMap<>();
      for (String entry : properties) {
        int eq = entry.indexOf('=');
        if (eq <= 0) {
          throw new ExtensionConfigurationException(annotation + ": brokerProperties entry \""
              + entry + "\" is not name=value");
        }
        map.put(entry.substring(0, eq).trim(), entry.substring(eq + 1).trim());
      }
      for (String topic : topics) {
        if (topic.isBlank()) {
          throw new ExtensionConfigurationException(annotation + ": a topic name is blank");
        }
      }
      return new Settings(annotation, topics, partitions, map, shared);
    }
  }

  /** A started broker in a store, with the topics made through the extension. */
  @SuppressWarnings("deprecation") // CloseableResource: closed by JUnit 5.10-5.12 too
  private static final class Running<B extends AutoCloseable>
      implements ExtensionContext.Store.CloseableResource, AutoCloseable {
    final B broker;
    final String annotation;
    private final Map<String, Integer> topics = new LinkedHashMap<>();
    private boolean closed;

    Running(B broker, String annotation) {
      this.broker = broker;
      this.annotation = annotation;
    }

    synchronized void createTopics(Settings s, TopicCreator<B> creator) {
      for (String topic : s.topics()) {
        Integer had = topics.get(topic);
        if (had == null) {
          creator.create(broker, topic, s.partitions());
          topics.put(topic, s.partitions());
        } else if (had != s.partitions()) {
          throw new ExtensionConfigurationException(annotation + ": topic " + topic
              + " has " + had + " partitions on the shared broker, this class asks for "
              + s.partitions() + " (a shared broker keeps one partition count per topic)");
        }
      }
    }

    @Override
    public synchronized void close() throws Exception {
      if (!closed) {
        closed = true;
        broker.close();
      }
    }
  }

  @FunctionalInterface
  private interface TopicCreator<B> {
    void create(B broker, String topic, int partitions);
  }
}
