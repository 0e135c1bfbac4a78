package io.github.routingkit.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Producer buffer sizing for {@code routing plan}: how much a producer must hold while a partition
 * cannot take writes (a Pulsar bundle move or broker reconnect, a Kafka leader change) and then
 * catch up. Every number names its formula.
 *
 * <p>Model, per producer instance at rate {@code r = peak / producers} over {@code n} partitions
 * with the hottest partition at {@code skew} × the mean:
 * <ul>
 *   <li>backlog {@code B = r × W} messages for an outage window of {@code W} seconds (all
 *       partitions stalled, the worst case); the hottest partition alone queues
 *       {@code r × skew / n × W};
 *   <li>drain time after the window: {@code W × peak / (n × partitionWrite − peak)}, the backlog
 *       over the spare capacity the headroom leaves;
 *   <li>Pulsar (client 4.x): {@code maxPendingMessages} is applied to each partition's internal
 *       producer (PartitionedProducerImpl takes {@code min(maxPendingMessages,
 *       maxPendingMessagesAcrossPartitions / n)}); its default is 0, no count bound, and the
 *       client-wide {@code memoryLimitBytes} (default 64 MiB) bounds the bytes; {@code sendTimeout}
 *       (default 30 s) fails a message that waited longer;
 *   <li>Kafka: {@code buffer.memory} (default 32 MiB) holds the backlog plus one {@code batch.size}
 *       (default 16,384) batch per partition being filled; {@code max.block.ms} (default 60 s)
 *       bounds how long {@code send()} blocks on a full buffer; {@code delivery.timeout.ms}
 *       (default 120 s) must cover the window and the drain, or records expire.
 * </ul>
 */
final class ProducerBufferPlan {
  static final long PULSAR_MEMORY_LIMIT_DEFAULT = 64L << 20;
  static final long PULSAR_SEND_TIMEOUT_MS_DEFAULT = 30_000;
  static final long KAFKA_BUFFER_MEMORY_DEFAULT = 32L << 20;
  static final long KAFKA_BATCH_SIZE_DEFAULT = 16_384;
  static final long KAFKA_MAX_BLOCK_MS_DEFAULT = 60_000;
  static final long KAFKA_DELIVERY_TIMEOUT_MS_DEFAULT = 120_000;

  /** One recommended setting: property, value, the formula with its numbers, and advice. */
  record Setting(String flavor, String property, long value, String formula, String note) {}

  private ProducerBufferPlan() {}

  /**
   * Computes the settings.
   *
   * @param peak peak produce rate of the topic, messages/s (&gt; 0)
   * @param partitionWrite rate one partition takes, messages/s (&gt; 0)
   * @param partitions the partition count (&gt;= 1)
   * @param skew the hottest partition's load over the mean (&gt;= 1)
   * @param producers producer instances sharing the peak (&gt;= 1)
   * @param messageBytes average message size in bytes (&gt; 0)
   * @param windowSeconds the outage window in seconds (&gt; 0)
   * @param flavor "kafka", "pulsar" or "both"
   */
  static List<Setting> compute(double peak, double partitionWrite, int partitions, double skew,
      int producers, double messageBytes, double windowSeconds, String flavor) {
    List<Setting> out = new ArrayList<>();
    double r = peak / producers;
    double backlog = r * windowSeconds;
    double spare = partitions * partitionWrite - peak;
    double drain = spare > 0 ? windowSeconds * peak / spare : Double.POSITIVE_INFINITY;
    String drainText = spare > 0
        ? f("drain = W x peak / (n x partition-write - peak) = %s x %s / (%d x %s - %s) = %.1f s",
            num(windowSeconds), num(peak), partitions, num(partitionWrite), num(peak), drain)
        : "drain: never (no spare capacity: n x partition-write <= peak)";
    long timeoutMs = Double.isInfinite(drain) ? Long.MAX_VALUE
        : (long) Math.ceil((windowSeconds + drain) * 1000);
    if (!flavor.equals("kafka")) {
      long perPartition = (long) Math.ceil(r * skew / partitions * windowSeconds - 1e-9);
      out.add(new Setting("pulsar", "maxPendingMessages", Math.max(1, perPartition),
          f("r x skew / n x W = %s x %.4f / %d x %s s (per partition producer)", num(r), skew,
              partitions, num(windowSeconds)),
          "the client applies it to each partition's producer; default 0 = no count limit"
              + " (only memoryLimitBytes bounds the queue)"));
      out.add(new Setting("pulsar", "maxPendingMessagesAcrossPartitions",
          (long) Math.ceil(backlog - 1e-9), f("r x W = %s msg/s x %s s", num(r),
              num(windowSeconds)), "if set, caps maxPendingMessages at this / n"));
      long mem = (long) Math.ceil(backlog * messageBytes - 1e-9);
      out.add(new Setting("pulsar", "memoryLimitBytes (client)", mem,
          f("r x W x message bytes = %s x %s x %s", num(r), num(windowSeconds),
              num(messageBytes)), mem > PULSAR_MEMORY_LIMIT_DEFAULT
              ? "above the 64 MiB default: raise it on the PulsarClient"
              : "within the 64 MiB default"));
      out.add(new Setting("pulsar", "blockIfQueueFull", 1, "send() should wait, not fail, while"
          + " the queue is full", "true: with false (the default) a full queue fails the send"
              + " (ProducerQueueIsFullError); true blocks the calling thread, sendAsync included"));
      out.add(new Setting("pulsar", "sendTimeout (ms)", Math.max(PULSAR_SEND_TIMEOUT_MS_DEFAULT,
          timeoutMs), "max(30,000 default, (W + drain) x 1000); " + drainText,
          "a message pending longer fails with a TimeoutException; 0 disables the timeout"));
    }
    if (!flavor.equals("pulsar")) {
      long buffer = (long) Math.ceil(backlog * messageBytes + partitions * KAFKA_BATCH_SIZE_DEFAULT
          - 1e-9);
      out.add(new Setting("kafka", "buffer.memory", Math.max(KAFKA_BUFFER_MEMORY_DEFAULT, buffer),
          f("max(33,554,432 default, r x W x message bytes + n x batch.size) = max(.., %s x %s x"
              + " %s + %d x 16,384)", num(r), num(windowSeconds), num(messageBytes), partitions),
          buffer > KAFKA_BUFFER_MEMORY_DEFAULT ? "above the 32 MiB default: raise it"
              : "the default holds the window's backlog"));
      out.add(new Setting("kafka", "max.block.ms", Math.max(KAFKA_MAX_BLOCK_MS_DEFAULT,
          (long) Math.ceil(windowSeconds * 1000)), "max(60,000 default, W x 1000)",
          "how long send() blocks on a full buffer or missing metadata before it throws"));
      out.add(new Setting("kafka", "delivery.timeout.ms", Math.max(
          KAFKA_DELIVERY_TIMEOUT_MS_DEFAULT, timeoutMs), "max(120,000 default, (W + drain) x"
              + " 1000); " + drainText, "a record not acknowledged in time expires (it must also"
              + " be >= linger.ms + request.timeout.ms)"));
    }
    return out;
  }

  /** The settings as plan's text section. */
  static String toText(List<Setting> settings, double windowSeconds, int producers) {
    StringBuilder sb = new StringBuilder();
    sb.append(f("%nproducer buffers for a %s s outage window (bundle move, reconnect, leader"
        + " change), per producer instance (%d sharing the peak):%n", num(windowSeconds),
        producers));
    for (Setting s : settings) {
      String value = s.property().equals("blockIfQueueFull") ? "true"
          : s.value() == Long.MAX_VALUE ? "never drains" : f("%,d", s.value());
      sb.append(f("  %-6s %-36s %14s  = %s%n         %s%n", s.flavor(), s.property(), value,
          s.formula(), s.note()));
    }
    return sb.toString();
  }

  private static String num(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? f("%,d", (long) v) : f("%,.2f", v);
  }

  private static String f(String fmt, Object... args) {
    return String.format(Locale.ROOT, fmt, args);
  }
}
