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
 * a topic a shared broker already has with another partition count, a property the broker owns,
 * a node, rack or {@code minInsyncReplicas} value {@link EmbeddedKafkaBuilder} rejects, only one of
 * the SASL username and password)
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

  /**
   * The number of combined KRaft broker-and-controller nodes, 1 to
   * {@value EmbeddedKafkaBuilder#MAX_NODES}; default 1. With several, topics are replicated on
   * {@code min(nodes, 3)} of them (see {@link EmbeddedKafkaBuilder#nodes}).
   */
  int nodes() default 1;

  /**
   * {@code broker.rack} of each node in node-id order, one per node; default none (a cluster puts
   * node {@code n} in rack {@code rack-n}).
   */
  String[] racks() default {};

  /**
   * {@code min.insync.replicas} of the brokers, at least 1 and at most the replication factor; 0
   * (the default) means 1 on a single node and the replication factor minus 1 on a cluster.
   */
  int minInsyncReplicas() default 0;

  /**
   * With {@link #saslPassword}, makes the client listener SASL/PLAIN with this one user (see
   * {@link EmbeddedKafkaBuilder#saslPlain}); {@link EmbeddedKafka#clientProperties()} then carries
   * the client settings. Empty (the default): a PLAINTEXT listener.
   */
  String saslUsername() default "";

  /** The password of {@link #saslUsername}; set both or neither. */
  String saslPassword() default "";
}
