package io.github.routingkit.pulsar;

import io.github.routingkit.config.RoutingSpec;
import org.apache.pulsar.client.api.MessageRoutingMode;
import org.apache.pulsar.client.api.ProducerBuilder;

/** One-call configuration of Pulsar producers with RoutingKit. */
public final class PulsarRouting {
  private PulsarRouting() {}

  /**
   * Sets {@code messageRoutingMode(CustomPartition)} and a {@link RoutingMessageRouter} for
   * {@code spec} on the builder. The builder's {@code hashingScheme} is then not used.
   *
   * @return the same builder, for chaining
   * @throws NullPointerException if an argument is null
   */
  public static <T> ProducerBuilder<T> customPartition(ProducerBuilder<T> builder, RoutingSpec spec) {
    return builder
        .messageRoutingMode(MessageRoutingMode.CustomPartition)
        .messageRouter(new RoutingMessageRouter(spec));
  }
}
