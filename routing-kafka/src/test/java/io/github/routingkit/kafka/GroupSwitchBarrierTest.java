package io.github.routingkit.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.Routers;
import io.github.routingkit.switching.SwitchPlan;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

/**
 * The Kafka adapter around the member barrier, on kafka-clients' {@code MockConsumer}: progress
 * travels from one member to another in committed-offset metadata, commits never pass a waiting
 * record, revocation commits and drops, skipped records are sought back, a full hold pauses the
 * partition, and hostile marker headers reach business code as ordinary records.
 */
class GroupSwitchBarrierTest {
  private static final String TOPIC = "orders";
  private static final int N = 12;
  private static final KeyRouter OLD = Routers.kafkaDefault();
  private static final KeyRouter NEW = Routers.consistent();
  private static final SwitchPlan PLAN = SwitchPlan.oneStep("g", 1, OLD, NEW, N);
  /** A key that moves: its old and new partitions. */
  private static final String KEY;
  private static final int Q;
  private static final int P;

  static {
    int i = 0;
    while (PLAN.moveOf(("key-" + i).getBytes(StandardCharsets.UTF_8)) == null) {
      i++;
    }
    KEY = "key-" + i;
    SwitchPlan.Move m = PLAN.moveOf(KEY.getBytes(StandardCharsets.UTF_8));
    Q = m.from();
    P = m.to();
  }

  private static TopicPartition tp(int p) {
    return new TopicPartition(TOPIC, p);
  }

  // The constructors below exist in every kafka-clients version the build tests (3.6 to 4.1);
  // 4.x deprecates them in favour of ones 3.x lacks.
  @SuppressWarnings("deprecation")
  private static MockConsumer<String, String> consumer(int... partitions) {
    MockConsumer<String, String> c = new MockConsumer<>(OffsetResetStrategy.EARLIEST);
    List<TopicPartition> tps = new ArrayList<>();
    Map<TopicPartition, Long> begin = new HashMap<>();
    for (int p : partitions) {
      tps.add(tp(p));
      begin.put(tp(p), 0L);
    }
    c.assign(tps);
    c.updateBeginningOffsets(begin);
    return c;
  }

  private static GroupSwitchBarrier<String, String> barrier(MockConsumer<String, String> c,
      int maxHeld, int maxSkipped) {
    return GroupSwitchBarrier.builder(c, TOPIC, PLAN).bounds(maxHeld, maxSkipped)
        .timing(Duration.ofNanos(1), Duration.ofSeconds(60)).build();
  }

  private static ConsumerRecord<String, String> record(int p, long offset, String key,
      String value) {
    return new ConsumerRecord<>(TOPIC, p, offset, key, value);
  }

  private static ConsumerRecord<String, String> marker(int p, long offset, String generation,
      String step, String partition) {
    RecordHeaders h = new RecordHeaders();
    if (generation != null) {
      h.add(SwitchMarkers.GENERATION_HEADER, generation.getBytes(StandardCharsets.UTF_8));
    }
    h.add(SwitchMarkers.STEP_HEADER, step == null ? null : step.getBytes(StandardCharsets.UTF_8));
    h.add(SwitchMarkers.PARTITION_HEADER, partition.getBytes(StandardCharsets.UTF_8));
    return new ConsumerRecord<>(TOPIC, p, offset, 0L, TimestampType.CREATE_TIME, -1, -1, null,
        null, h, Optional.empty());
  }

  @SafeVarargs
  @SuppressWarnings("deprecation")
  private static ConsumerRecords<String, String> poll(ConsumerRecord<String, String>... rs) {
    Map<TopicPartition, List<ConsumerRecord<String, String>>> m = new HashMap<>();
    for (ConsumerRecord<String, String> r : rs) {
      m.computeIfAbsent(new TopicPartition(r.topic(), r.partition()), x -> new ArrayList<>()).add(r);
    }
    return new ConsumerRecords<>(m);
  }

  @Test
  void progressTravelsInCommitMetadataFromTheOldPartitionsOwner() {
    MockConsumer<String, String> a = consumer(Q);
    // MockConsumer.committed answers only for assigned partitions (KafkaConsumer answers for any
    // partition of the group, as the broker tests use it): b is assigned q too, and reads none
    MockConsumer<String, String> b = consumer(P, Q);
    GroupSwitchBarrier<String, String> ofA = barrier(a, 100, 100);
    GroupSwitchBarrier<String, String> ofB = barrier(b, 100, 100);
    List<String> business = new ArrayList<>();
    ofB.forEach(poll(record(P, 0, "other", "x"), record(P, 1, KEY, "new")), r -> business.add(r.value()));
    assertThat(business).containsExactly("x");
    assertThat(ofB.offsetsToCommit()).isEqualTo(Map.of(tp(P), new OffsetAndMetadata(1, "")));
    ofA.forEach(poll(record(Q, 0, KEY, "old"), marker(Q, 1, "g", "1", Integer.toString(Q))),
        r -> business.add(r.value()));
    Map<TopicPartition, OffsetAndMetadata> fromA = ofA.offsetsToCommit();
    assertThat(fromA).isEqualTo(Map.of(tp(Q), new OffsetAndMetadata(2, "rk-switch/1 g 1")));
    b.commitSync(fromA); // what the group coordinator would answer b
    ofB.forEach(poll(), r -> business.add(r.value()));
    assertThat(business).containsExactly("x", "old", "new");
    assertThat(ofB.offsetsToCommit().get(tp(P)).offset()).isEqualTo(2);
  }

  @Test
  void revocationCommitsWhatIsSafeAndDropsWhatWaits() {
    MockConsumer<String, String> b = consumer(P);
    GroupSwitchBarrier<String, String> ofB = barrier(b, 100, 100);
    List<String> business = new ArrayList<>();
    ofB.forEach(poll(record(P, 0, "other", "x"), record(P, 1, KEY, "new"), record(P, 2, "other",
        "y")), r -> business.add(r.value()));
    assertThat(ofB.held()).isEqualTo(1);
    ofB.onPartitionsRevoked(List.of(tp(P)));
    assertThat(b.committed(Set.of(tp(P))).get(tp(P)).offset()).as("not past the held record")
        .isEqualTo(1);
    assertThat(ofB.held()).isZero();
    assertThat(business).containsExactly("x", "y");
  }

  @Test
  void anAbandonedBarrierCommitsNothingOnRevocation() {
    MockConsumer<String, String> b = consumer(P);
    GroupSwitchBarrier<String, String> ofB = barrier(b, 100, 100);
    ofB.forEach(poll(record(P, 0, "other", "x")), r -> {});
    ofB.abandon();
    ofB.onPartitionsRevoked(List.of(tp(P)));
    assertThat(b.committed(Set.of(tp(P))).get(tp(P))).isNull();
  }

  @Test
  void skippedRecordsAreSoughtBackAndAFullHoldPausesThePartition() {
    MockConsumer<String, String> b = consumer(P, Q); // Q: see above
    GroupSwitchBarrier<String, String> skipping = barrier(b, 0, 10);
    skipping.forEach(poll(record(P, 4, KEY, "new"), record(P, 5, "other", "x")), r -> {});
    assertThat(skipping.skipped()).isEqualTo(1);
    b.commitSync(Map.of(tp(Q), new OffsetAndMetadata(9, "rk-switch/1 g 1")));
    b.seek(tp(P), 6);
    skipping.forEach(poll(), r -> {});
    assertThat(b.position(tp(P))).as("sought back to the skipped record").isEqualTo(4);

    MockConsumer<String, String> c = consumer(P, Q);
    GroupSwitchBarrier<String, String> full = barrier(c, 0, 0);
    c.seek(tp(P), 8);
    full.forEach(poll(record(P, 7, KEY, "new"), record(P, 8, "other", "x")), r -> {});
    assertThat(c.paused()).containsExactly(tp(P));
    assertThat(c.position(tp(P))).isEqualTo(7);
    assertThat(full.offsetsToCommit().get(tp(P)).offset()).isEqualTo(7);
    c.commitSync(Map.of(tp(Q), new OffsetAndMetadata(9, "rk-switch/1 g 1")));
    full.forEach(poll(), r -> {});
    assertThat(c.paused()).isEmpty();
    assertThat(full.counts().rewinds()).isEqualTo(1);
  }

  @Test
  void onlyTheExactMarkerFormIsAMarkerAndNothingThrows() {
    MockConsumer<String, String> a = consumer(Q);
    GroupSwitchBarrier<String, String> ofA = barrier(a, 100, 100);
    List<ConsumerRecord<String, String>> business = new ArrayList<>();
    String q = Integer.toString(Q);
    RecordHeaders lookalike = new RecordHeaders();
    lookalike.add(SwitchMarkers.GENERATION_HEADER, "g".getBytes(StandardCharsets.UTF_8));
    ConsumerRecord<String, String> withValue = new ConsumerRecord<>(TOPIC, Q, 0, 0L,
        TimestampType.CREATE_TIME, -1, -1, "k", "a value", lookalike, Optional.empty());
    ofA.forEach(poll(withValue, marker(Q, 1, null, "1", q), marker(Q, 2, "g", null, q),
        marker(Q, 3, "g", "01", q), marker(Q, 4, "older", "1", q), marker(Q, 5, "g", "2", q),
        marker(Q, 6, "g", "1", Integer.toString(P))), business::add);
    assertThat(business).extracting(ConsumerRecord::offset).as("ordinary records")
        .containsExactly(0L, 1L, 2L, 3L);
    assertThat(ofA.counts().ignoredMarkers()).as("other generation, unknown step, wrong partition")
        .isEqualTo(3);
    assertThat(ofA.offsetsToCommit().get(tp(Q)).metadata()).isEmpty();
  }
}
