package io.github.routingkit.assignment;

/**
 * How the group hands partitions over during a rebalance.
 *
 * <p>Mirrors Kafka's {@code ConsumerPartitionAssignor.RebalanceProtocol} (KIP-429) without
 * depending on it.
 */
public enum RebalanceMode {
  /**
   * Every member gives up all its partitions before the rebalance, so a partition can go to its new
   * owner at once.
   */
  EAGER,
  /**
   * Members keep their partitions during the rebalance. A partition that another member still owns
   * is never given to a new owner in the same rebalance: it is left out (the owner revokes it) and
   * handed over in the follow-up rebalance.
   */
  COOPERATIVE
}
