package io.github.routingkit.audit;

/**
 * Why a key's messages were seen out of send order, most frequent first, each named with the
 * routing layer at fault (write side: key to partition; service side: the broker; read side:
 * partition or key to consumer).
 */
public enum AuditCause {
  /**
   * Read side: a Shared subscription handed the key's messages to several consumers, which
   * process them concurrently. Key_Shared (or Failover / Exclusive) was probably meant.
   */
  WRONG_SUBSCRIPTION_TYPE("read side", "Shared subscription where Key_Shared was meant"),
  /**
   * Write side: one of the two messages was sent without a key, so it went to another partition
   * than the key's (keyless records are spread round-robin or sticky).
   */
  KEYLESS_SEND("write side", "keyless send path"),
  /**
   * Read side: the earlier message was delivered again after a later one: a crash or close with
   * unacknowledged messages, a negative ack or ack timeout, a Failover switch, or a Kafka
   * rebalance without committed offsets, landing the message on another consumer (or the same).
   */
  REDELIVERY("read side", "redelivery / replay (crash, nack, rebalance without committed offsets)"),
  /**
   * Write side: both messages on one partition, but the log holds them out of send order:
   * producer retries with several requests in flight and no idempotence, or sends of one key from
   * several threads.
   */
  PRODUCER_RETRY("write side", "producer retries reordered the log"),
  /**
   * Write side: both messages had the key but landed on different partitions: the partition
   * count or the router changed between them (modulo placement moves most keys on growth).
   */
  ROUTING_CHANGE("write side", "partition-count or router change moved the key"),
  /**
   * Service side: key, partition and consumer agree, no redelivery was reported and the log
   * order is the send order: only now is the broker worth suspecting (for Kafka, also a seek or
   * offset reset on that consumer, which the client does not report).
   */
  BROKER_SUSPECT("service side", "broker suspect: key, partition and consumer all agree");

  private final String layer;
  private final String description;

  AuditCause(String layer, String description) {
    this.layer = layer;
    this.description = description;
  }

  /** Returns the routing layer at fault: {@code write side}, {@code service side} or {@code read side}. */
  public String layer() {
    return layer;
  }

  /** Returns a one-line description. */
  public String description() {
    return description;
  }
}
