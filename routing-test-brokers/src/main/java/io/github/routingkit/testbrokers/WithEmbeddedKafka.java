package io.github.routingkit.testbrokers;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs an {@link EmbeddedKafka} for a JUnit Jupiter test class and injects it into constructor,
 * lifecycle-method and test-method parameters of type {@link EmbeddedKafka}.
 *
 * <pre>{@code
 * @WithEmbeddedKafka(topics = "orders", partitions = 12, shared = true)
 * class OrdersTest {
 *   @Test
 *   void routes(EmbeddedKafka kafka) {
 *     Properties p = new Properties();
 *     p.put("bootstrap.servers", kafka.bootstrapServers());
 *     ...
 *   }
 * }
 * }</pre>
 *
 * <p>The broker starts before the first {@code @BeforeAll} method of the annotated class (or
 * when a parameter first asks for it) and, with {@code shared = false}, stops after the class's
 * last {@code @AfterAll} method; {@code @Nested} classes use their enclosing class's broker.
 * With {@code shared = true} one broker per distinct broker configuration ({@link #brokerProperties})
 * serves every class of the test run that asks for it and stops when the run ends (JUnit's root
 * {@code ExtensionContext.Store}); each class's {@link #topics} are created on first use.
 *
 * <p>Bad attributes (a {@code brokerProperties} entry without {@code =}, {@code partitions < 1},
 * a topic a shared broker already has with another partition count, a property the broker owns)
 * fail the class with JUnit's {@code ExtensionConfigurationException} naming the attribute, the
 * value and the rule. Requires JUnit Jupiter 5.10 or newer on the test class path.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(EmbeddedBrokersExtension.class)
public @interface WithEmbeddedKafka {
  /** Topics created once the broker runs, each with {@link #partitions} partitions. */
  String[] topics() default {};

  /** The partition count of each of {@link #topics}, at least 1; default 1. */
  int partitions() default 1;

  /**
   * Extra or overriding broker properties as {@code name=value} ({@code server.properties} names),
   * applied as {@link EmbeddedKafka#start(java.util.Map)} applies them.
   */
  String[] brokerProperties() default {};

  /**
   * Whether the broker is shared by every class of the test run with the same broker
   * configuration (true) or runs for this class only (false, the default).
   */
  boolean shared() default false;
}
