package io.github.routingkit.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class OrderingAuditTest {
  static AuditRecord rec(String key, long seq, int partition, String consumer, String sub,
      int redelivery, boolean keyed, String position) {
    return new AuditRecord(key, "p1", seq, 0, null, keyed, "orders", partition, consumer, sub,
        redelivery, position, 0);
  }

  static AuditCause cause(AuditRecord sentLater, AuditRecord sentEarlier) {
    AuditReport r = OrderingAudit.of(List.of(sentLater, sentEarlier));
    assertThat(r.pairs()).isEqualTo(1);
    assertThat(r.findings()).hasSize(1);
    return r.findings().get(0).cause();
  }

  @Test
  void sharedSubscriptionOnOnePartitionIsTheWrongSubscriptionType() {
    assertThat(cause(rec("k", 2, 0, "a", "Shared", 0, true, "1:2:-1"),
        rec("k", 1, 0, "b", "Shared", 0, true, "1:1:-1")))
        .isEqualTo(AuditCause.WRONG_SUBSCRIPTION_TYPE);
  }

  @Test
  void aKeylessMessageOnAnotherPartitionIsTheKeylessSendPath() {
    assertThat(cause(rec("k", 2, 3, "a", "kafka-group", -1, false, "7"),
        rec("k", 1, 1, "a", "kafka-group", -1, true, "4")))
        .isEqualTo(AuditCause.KEYLESS_SEND);
  }

  @Test
  void keyedMessagesOnTwoPartitionsAreARoutingChange() {
    assertThat(cause(rec("k", 2, 13, "a", "kafka-group", -1, true, "0"),
        rec("k", 1, 5, "a", "kafka-group", -1, true, "9")))
        .isEqualTo(AuditCause.ROUTING_CHANGE);
  }

  @Test
  void redeliveryCountOrAnOlderMessageOnAnotherConsumerIsRedelivery() {
    assertThat(cause(rec("k", 9, 0, "a", "Key_Shared", 0, true, "1:9:-1"),
        rec("k", 3, 0, "b", "Key_Shared", 1, true, "1:3:-1"))).isEqualTo(AuditCause.REDELIVERY);
    // Kafka reports no count: an older record reaching another member after a newer one is a replay
    assertThat(cause(rec("k", 9, 0, "a", "kafka-group", -1, true, "9"),
        rec("k", 3, 0, "b", "kafka-group", -1, true, "3"))).isEqualTo(AuditCause.REDELIVERY);
    // a redelivery wins even on the same consumer, and a key that changed partition meanwhile
    assertThat(cause(rec("k", 9, 0, "a", "Shared", 0, true, null),
        rec("k", 3, 0, "a", "Shared", 2, true, null))).isEqualTo(AuditCause.REDELIVERY);
    assertThat(cause(rec("k", 9, 1, "a", "Key_Shared", 0, true, null),
        rec("k", 3, 0, "b", "Key_Shared", 1, true, null))).isEqualTo(AuditCause.REDELIVERY);
  }

  @Test
  void aLogOutOfSendOrderIsAProducerRetry() {
    assertThat(cause(rec("k", 9, 0, "a", "kafka-group", -1, true, "100"),
        rec("k", 3, 0, "a", "kafka-group", -1, true, "101"))).isEqualTo(AuditCause.PRODUCER_RETRY);
  }

  @Test
  void onlyKeyPartitionAndConsumerAllAgreeingMakeTheBrokerSuspect() {
    assertThat(cause(rec("k", 9, 0, "a", "Key_Shared", 0, true, "1:9:-1"),
        rec("k", 3, 0, "a", "Key_Shared", 0, true, "1:3:-1")))
        .isEqualTo(AuditCause.BROKER_SUSPECT);
  }

  @Test
  void positionsOfDifferentShapesOrUnparsableAreUnknown() {
    assertThat(OrderingAudit.comparePositions("5", "1:2:3")).isZero();
    assertThat(OrderingAudit.comparePositions("x", "1")).isZero();
    assertThat(OrderingAudit.comparePositions("1:2:3:4", "1:2:3:4")).isZero();
    assertThat(OrderingAudit.comparePositions("1:3:-1", "1:2:5")).isPositive();
    assertThat(OrderingAudit.comparePositions(null, "1")).isZero();
  }

  @Test
  void keysTopicsAndProducersAreSeparateStreamsAndDuplicatesAreNotPairs() {
    List<AuditRecord> log = new ArrayList<>();
    log.add(rec("a", 5, 0, "c", "Shared", 0, true, null));
    log.add(rec("b", 1, 0, "c", "Shared", 0, true, null)); // another key: lower seq is fine
    log.add(new AuditRecord("a", "p2", 1, 0, null, true, "orders", 0, "c", "Shared", 0, null, 0));
    log.add(new AuditRecord("a", "p1", 1, 0, null, true, "other", 0, "c", "Shared", 0, null, 0));
    log.add(rec("a", 5, 0, "d", "Shared", 1, true, null)); // a duplicate of the latest
    AuditReport r = OrderingAudit.of(log);
    assertThat(r.pairs()).isZero();
    assertThat(r.duplicates()).isEqualTo(1);
    assertThat(r.keys()).isEqualTo(4);
    assertThat(r.clean()).isTrue();
    assertThat(r.toText(5)).contains("per-key order kept").doesNotContain("BROKEN");
  }

  /**
   * Seeded property: a log in send order never has findings; swapping two messages of one key
   * gives exactly one pair per later-seen message, on that key. Prints the seed on failure.
   */
  @Test
  void inOrderLogsAreCleanAndEverySwapIsFound() {
    for (long seed = 1; seed <= 200; seed++) {
      Random random = new Random(seed);
      int keys = 1 + random.nextInt(20);
      List<AuditRecord> log = new ArrayList<>();
      long[] seq = new long[keys];
      int n = 1 + random.nextInt(300);
      for (int i = 0; i < n; i++) {
        int k = random.nextInt(keys);
        seq[k] += 1 + random.nextInt(3);
        log.add(rec("key-" + k, seq[k], k % 4, "c" + (k % 3), "Key_Shared", 0, true,
            "1:" + i + ":-1"));
      }
      assertThat(OrderingAudit.of(log).pairs()).as("seed %d", seed).isZero();
      int i = random.nextInt(n);
      int j = -1;
      for (int x = i + 1; x < n; x++) {
        if (log.get(x).key().equals(log.get(i).key())) {
          j = x;
          break;
        }
      }
      if (j < 0) {
        continue;
      }
      AuditRecord first = log.get(i);
      log.set(i, log.get(j));
      log.set(j, first);
      AuditReport r = OrderingAudit.of(log);
      assertThat(r.pairs()).as("seed %d, swapped %d and %d", seed, i, j).isEqualTo(1);
      assertThat(r.findings().get(0).sentEarlier()).as("seed %d", seed).isEqualTo(first);
      assertThat(r.keysWithFindings()).isEqualTo(1);
    }
  }

  @Test
  void memoryIsBoundedByMaxKeysAndForgottenKeysAreCounted() {
    OrderingAudit audit = OrderingAudit.builder().maxKeys(10).maxFindings(2).build();
    for (int i = 0; i < 1000; i++) {
      audit.accept(rec("k" + i, 5, 0, "c", "Shared", 0, true, null));
    }
    for (int i = 990; i < 1000; i++) {
      audit.accept(rec("k" + i, 1, 0, "d", "Shared", 0, true, null));
    }
    AuditReport r = audit.report();
    assertThat(r.forgottenKeys()).isEqualTo(990);
    assertThat(r.pairs()).isEqualTo(10);
    assertThat(r.findings()).hasSize(2);
    assertThat(r.count(AuditCause.WRONG_SUBSCRIPTION_TYPE)).isEqualTo(10);
    assertThat(r.toText(1)).contains("990 keys forgotten", "first 1 of 10 pairs",
        "causes: [WRONG_SUBSCRIPTION_TYPE]");
  }

  @Test
  void badSettingsAndRecordsAreRefused() {
    assertThatThrownBy(() -> OrderingAudit.builder().maxKeys(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("max keys");
    assertThatThrownBy(() -> OrderingAudit.builder().maxFindings(-1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> rec("k", -1, 0, "c", "Shared", 0, true, null))
        .hasMessageContaining("sequence");
    assertThatThrownBy(() -> rec("k", 1, -2, "c", "Shared", 0, true, null))
        .hasMessageContaining("partition");
  }

  @Test
  void evidenceNamesBothSides() {
    AuditFinding f = new AuditFinding(AuditCause.KEYLESS_SEND,
        rec("k\n", 2, 3, "a", "Key_Shared", 0, false, null),
        rec("k\n", 1, 1, "b", "Key_Shared", 0, true, null));
    assertThat(f.evidence()).contains("'k?'", "seq 2 (partition 3, consumer a, Key_Shared",
        "sent WITHOUT key", "seen before seq 1 (partition 1, consumer b").doesNotContain("\n");
    assertThat(f.toString()).startsWith("KEYLESS_SEND (write side)");
  }
}
