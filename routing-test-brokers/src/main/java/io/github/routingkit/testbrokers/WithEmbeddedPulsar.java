package io.github.routingkit.testbrokers;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs an {@link EmbeddedPulsar} standalone for a JUnit Jupiter test class and injects it into
 * constructor, lifecycle-method and test-method parameters of type {@link EmbeddedPulsar}.
 *
 * <pre>{@code
 * @WithEmbeddedPulsar(topics = "persistent://public/default/orders", partitions = 6)
 * class OrdersTest {
 *   @Test
 *   void routes(EmbeddedPulsar pulsar) throws Exception {
 *     try (PulsarClient client =
 *         PulsarClient.builder().serviceUrl(pulsar.brokerServiceUrl()).build()) {
 *       ...
 *     }
 *   }
 * }
 * }</pre>
 *
 * <p>Lifecycle, sharing ({@link #shared}) and error reporting are those of {@link
 * WithEmbeddedKafka}: one standalone per class by default, one per distinct broker configuration
 * for the whole test run with {@code shared = true}; {@link #topics} are partitioned topics
 * created on first use. A class can carry both annotations and receive both brokers. Requires
 * JUnit Jupiter 5.10 or newer on the test class path.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(EmbeddedBrokersExtension.class)
public @interface WithEmbeddedPulsar {
  /**
   * Partitioned topics created once the standalone runs, each with {@link #partitions}
   * partitions: full names ({@code persistent://tenant/namespace/name}) or short names, which
   * Pulsar places in {@code public/default}.
   */
  String[] topics() default {};

  /** The partition count of each of {@link #topics}, at least 1; default 1. */
  int partitions() default 1;

  /**
   * Extra or overriding {@code broker.conf} settings as {@code name=value}, applied as {@link
   * EmbeddedPulsar#start(java.util.Map)} applies them.
   */
  String[] brokerProperties() default {};

  /**
   * Whether the standalone is shared by every class of the test run with the same broker
   * configuration (true) or runs for this class only (false, the default).
   */
  boolean shared() default false;
}
