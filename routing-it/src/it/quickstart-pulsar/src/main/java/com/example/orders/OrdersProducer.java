package com.example.orders;

import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.pulsar.PulsarRouting;
import java.util.Map;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.PulsarClientException;
import org.apache.pulsar.client.api.Schema;

/** The orders producer: keyed messages placed by RoutingKit on the partitioned topic. */
public final class OrdersProducer {
  /**
   * Murmur3_32: the hash on which Pulsar's Java, C++ and Go clients agree, so a producer in
   * another language puts a key on the same partition.
   */
  public static final RoutingSpec SPEC = RoutingSpec.parse(Map.of("routing.scheme", "pulsar-murmur3"));

  private OrdersProducer() {}

  /** Creates the producer; same as messageRoutingMode(CustomPartition) + messageRouter(...). */
  public static Producer<String> create(PulsarClient client) throws PulsarClientException {
    return PulsarRouting
        .customPartition(client.newProducer(Schema.STRING).topic("persistent://public/default/orders"), SPEC)
        .create();
  }
}
