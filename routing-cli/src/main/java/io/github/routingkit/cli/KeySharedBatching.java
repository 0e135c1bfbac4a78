package io.github.routingkit.cli;

import io.github.routingkit.audit.AuditCause;
import io.github.routingkit.cli.LintFinding.Severity;
import java.util.List;

/**
 * RK021: a Pulsar producer that batches with the default batcher, for a topic read through a
 * Key_Shared subscription. The default batcher puts messages of several keys into one batch, and
 * the batch carries the key of its first message: the broker hands the whole batch to the
 * consumer that owns that key, so a key's other messages in it go to a consumer that does not own
 * the key, while its messages in other batches go to its owner. The two consumers process them at
 * once, in no order between them. The audit sees the pair on one partition, read by two consumers
 * of the subscription, no message redelivered, and names it {@link AuditCause#REDELIVERY} (a
 * message of a key reached a consumer other than its owner). Key-based batching (one key per
 * batch) or no batching keeps each key on its owner.
 *
 * <p>Sources: pulsar-client {@code Commands.initBatchMessageMetadata} (a batch takes its first
 * message's key), the broker's sticky-key dispatch per entry (docs/pulsar.md, "Sticky key"), and
 * the Pulsar client documentation for Key_Shared ("use key-based batching").
 *
 * <p>Settings read: Java {@code batchingEnabled} (loadConf, default true) and
 * {@code batcherBuilder} ({@code KEY_BASED} or {@code DEFAULT}: set in code by
 * {@code ProducerBuilder#batcherBuilder}, which loadConf does not take, so the file states the
 * application's own choice, as for {@code allowOutOfOrderDelivery}); Go {@code DisableBatching}
 * and {@code BatcherBuilderType} ({@code KeyBasedBatchBuilder}); C++ {@code batchingEnabled} and
 * {@code batchingType} ({@code KeyBasedBatching}).
 */
final class KeySharedBatching {
  private KeySharedBatching() {}

  static void check(List<ConfigLint.Producer> producers, List<ConfigLint.Consumer> consumers,
      ConfigLint.Needs needs, List<LintFinding> out) {
    ConfigLint.Consumer keyShared = null;
    for (ConfigLint.Consumer c : consumers) {
      if ("Key_Shared".equals(OrderLint.subscriptionType(c))) {
        keyShared = c;
        break;
      }
    }
    if (keyShared == null) {
      return;
    }
    for (ConfigLint.Producer p : producers) {
      LintFile f = p.file();
      String batchingKey;
      boolean batching;
      String batcherKey;
      String keyBased;
      switch (p.client()) {
        case PULSAR_JAVA -> {
          batchingKey = "batchingEnabled";
          batching = f.bool(batchingKey, true);
          batcherKey = "batcherBuilder";
          keyBased = "KEY_BASED";
        }
        case PULSAR_GO -> {
          batchingKey = "DisableBatching";
          batching = !f.bool(batchingKey, false);
          batcherKey = "BatcherBuilderType";
          keyBased = "KeyBasedBatchBuilder";
        }
        case PULSAR_CPP -> {
          batchingKey = "batchingEnabled";
          batching = f.bool(batchingKey, true);
          batcherKey = "batchingType";
          keyBased = "KeyBasedBatching";
        }
        default -> {
          continue;
        }
      }
      String batcher = f.get(batcherKey);
      if (!batching || keyBased.equals(batcher)) {
        continue;
      }
      String batchingText = batchingKey + "=" + (f.has(batchingKey) ? f.get(batchingKey)
          : (batchingKey.equals("DisableBatching") ? "false" : "true") + " (the default)");
      String batcherText = batcherKey + "=" + (batcher == null ? "the default batcher (not set)"
          : batcher);
      out.add(new LintFinding(LintRule.RK021, needs.keyOrder() ? Severity.ERROR
          : Severity.WARNING, f, f.line(batcherKey, batchingKey), batchingText + " with "
          + batcherText + ", and " + keyShared.file().name + " reads through Key_Shared: a"
          + " batch holds messages of several keys and the broker hands it to the consumer of its"
          + " first key, so a key's messages reach two consumers, processed in no order between"
          + " them (the audit names such pairs REDELIVERY)", p.client() == LintClient.PULSAR_JAVA
          ? "ProducerBuilder.batcherBuilder(BatcherBuilder.KEY_BASED) in code, and batcherBuilder="
          + "KEY_BASED in this file to say so; or batchingEnabled=false"
          : p.client() == LintClient.PULSAR_GO ? "BatcherBuilderType=KeyBasedBatchBuilder; or"
          + " DisableBatching=true" : "batchingType=KeyBasedBatching; or batchingEnabled=false"));
    }
  }
}
