package io.github.routingkit.switching;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.switching.MemberBarrier.Outcome;
import io.github.routingkit.switching.SwitchPlan.MarkerVerdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The member barrier step by step: k0 moves 0 -> 1, k1 stays on 0, k2 moves 1 -> 0 at marker step
 * 1 of generation "g".
 */
class MemberBarrierTest {
  private static final SwitchPlan PLAN = SwitchPlan.oneStep("g", 1,
      new TableRouter(new int[] {0, 0, 1}), new TableRouter(new int[] {1, 0, 0}), 2);
  private static final byte[] K0 = TableRouter.key(0);
  private static final byte[] K1 = TableRouter.key(1);
  private final List<String> out = new ArrayList<>();

  @Test
  void aMovedKeyWaitsUntilTheGroupSaysItsOldPartitionPassed() {
    MemberBarrier<String> b = new MemberBarrier<>(PLAN, 10, 10);
    assertThat(b.offer("k0#5", 1, 40, K0, out)).isEqualTo(Outcome.HELD);
    assertThat(b.offer("none", 1, 41, (byte[]) null, out)).isEqualTo(Outcome.DELIVERED);
    assertThat(out).containsExactly("none");
    assertThat(b.safeOffset(1)).as("never past a held record").isEqualTo(40);
    assertThat(b.awaited()).isEqualTo(Map.of(0, 1L));
    b.progress(0, 0, out);
    assertThat(b.held()).isEqualTo(1);
    b.progress(0, 1, out);
    assertThat(out).containsExactly("none", "k0#5");
    assertThat(b.safeOffset(1)).isEqualTo(42);
    assertThat(b.offer("k0#6", 1, 42, K0, out)).isEqualTo(Outcome.DELIVERED);
    assertThat(b.awaited()).isEmpty();
  }

  @Test
  void itsOwnMarkerOfTheOldPartitionReleasesToo() {
    MemberBarrier<String> b = new MemberBarrier<>(PLAN, 10, 10);
    b.offer("k0#5", 1, 0, K0, out);
    assertThat(b.offer("k1#0", 0, 7, K1, out)).isEqualTo(Outcome.DELIVERED);
    assertThat(b.offerMarker(new SwitchMarker("g", 1, 0), 0, 8, 0, out)).isEqualTo(Outcome.MARKER);
    assertThat(out).containsExactly("k1#0", "k0#5");
    assertThat(b.passedSteps(0)).isEqualTo(1);
    assertThat(b.safeOffset(0)).isEqualTo(9);
    assertThat(b.offerMarker(new SwitchMarker("g", 1, 0), 0, 9, 0, out)).as("a replayed marker")
        .isEqualTo(Outcome.MARKER);
    assertThat(b.offerMarker(new SwitchMarker("g", 1, 1), 1, 1, 0, out)).isEqualTo(Outcome.MARKER);
    assertThat(b.complete()).isTrue();
  }

  @Test
  void markersTheStepDoesNotOwnAreIgnoredAndCounted() {
    MemberBarrier<String> b = new MemberBarrier<>(PLAN.withSettleInstants(100), 10, 10);
    b.offer("k0#5", 1, 0, K0, out);
    assertThat(b.offerMarker(new SwitchMarker("older", 1, 0), 0, 1, 200, out)).isEqualTo(Outcome.IGNORED_MARKER);
    assertThat(b.offerMarker(new SwitchMarker("g", 2, 0), 0, 2, 200, out)).isEqualTo(Outcome.IGNORED_MARKER);
    assertThat(b.offerMarker(new SwitchMarker("g", 1, 1), 0, 3, 200, out)).isEqualTo(Outcome.IGNORED_MARKER);
    assertThat(b.offerMarker(new SwitchMarker("g", 1, 0), 0, 4, 99, out)).isEqualTo(Outcome.IGNORED_MARKER);
    assertThat(out).isEmpty();
    for (MarkerVerdict v : new MarkerVerdict[] {MarkerVerdict.OTHER_GENERATION,
        MarkerVerdict.UNKNOWN_STEP, MarkerVerdict.WRONG_PARTITION, MarkerVerdict.PREMATURE}) {
      assertThat(b.ignoredMarkers(v)).as(v.name()).isEqualTo(1);
    }
    assertThat(b.counts().ignoredMarkers()).isEqualTo(4);
    assertThat(b.passedSteps(0)).isZero();
    assertThat(b.offerMarker(new SwitchMarker("g", 1, 0), 0, 5, 100, out)).isEqualTo(Outcome.MARKER);
    assertThat(out).containsExactly("k0#5");
  }

  @Test
  void revocationDropsWaitingRecordsUncommitted() {
    MemberBarrier<String> b = new MemberBarrier<>(PLAN, 10, 10);
    b.offer("x", 1, 3, (byte[]) null, out);
    b.offer("k0#5", 1, 4, K0, out);
    assertThat(b.safeOffset(1)).isEqualTo(4);
    assertThat(b.revoked(1)).isEqualTo(1);
    assertThat(b.held()).isZero();
    assertThat(b.safeOffset(1)).isEqualTo(-1);
    assertThat(b.offer("k0#5", 1, 4, K0, out)).as("read again by the next owner").isEqualTo(Outcome.HELD);
  }

  @Test
  void beyondTheHoldRecordsAreSkippedAndReadAgainWithoutDuplicates() {
    MemberBarrier<String> b = new MemberBarrier<>(PLAN, 0, 10);
    assertThat(b.offer("k0#5", 1, 5, K0, out)).isEqualTo(Outcome.SKIPPED);
    assertThat(b.offer("x", 1, 6, (byte[]) null, out)).isEqualTo(Outcome.DELIVERED);
    assertThat(b.offer("k0#6", 1, 7, K0, out)).isEqualTo(Outcome.SKIPPED);
    assertThat(b.safeOffset(1)).isEqualTo(5);
    assertThat(b.skipped()).isEqualTo(2);
    assertThat(b.rereads()).isEmpty();
    b.progress(0, 1, out);
    assertThat(b.rereads()).isEqualTo(Map.of(1, 5L));
    b.sought(1, 5);
    assertThat(b.rereads()).isEmpty();
    assertThat(b.offer("k0#5", 1, 5, K0, out)).isEqualTo(Outcome.DELIVERED);
    assertThat(b.offer("x", 1, 6, (byte[]) null, out)).isEqualTo(Outcome.DROPPED);
    assertThat(b.offer("k0#6", 1, 7, K0, out)).isEqualTo(Outcome.DELIVERED);
    assertThat(out).containsExactly("x", "k0#5", "k0#6");
    assertThat(b.safeOffset(1)).isEqualTo(8);
  }

  @Test
  void behindASkippedRecordNothingIsHeld() {
    MemberBarrier<String> b = new MemberBarrier<>(PLAN, 1, 10);
    assertThat(b.offer("k0#4", 1, 1, K0, out)).isEqualTo(Outcome.HELD);
    assertThat(b.offer("k0#5", 1, 2, K0, out)).isEqualTo(Outcome.SKIPPED);
    b.progress(0, 1, out);
    assertThat(out).containsExactly("k0#4");
    assertThat(b.offer("k0#6", 1, 3, K0, out)).as("after the pass, behind the skipped k0#5")
        .isEqualTo(Outcome.SKIPPED);
    assertThat(b.rereads()).isEqualTo(Map.of(1, 2L));
    b.sought(1, 2);
    b.offer("k0#5", 1, 2, K0, out);
    b.offer("k0#6", 1, 3, K0, out);
    assertThat(out).containsExactly("k0#4", "k0#5", "k0#6");
  }

  @Test
  void aWaitThatEndsDuringAReReadStartedAfterItsFirstSkippedRecordKeepsTheKeysOrder() {
    // k0 moves 0 -> 2 and k1 moves 1 -> 2: two waits on partition 2
    SwitchPlan plan = SwitchPlan.oneStep("g", 1, new TableRouter(new int[] {0, 1}),
        new TableRouter(new int[] {2, 2}), 3);
    MemberBarrier<String> b = new MemberBarrier<>(plan, 0, 10);
    assertThat(b.offer("k0#1", 2, 0, K0, out)).isEqualTo(Outcome.SKIPPED);
    assertThat(b.offer("k1#1", 2, 1, K1, out)).isEqualTo(Outcome.SKIPPED);
    assertThat(b.offer("k0#2", 2, 2, K0, out)).isEqualTo(Outcome.SKIPPED);
    b.progress(1, 1, out);
    assertThat(b.rereads()).isEqualTo(Map.of(2, 1L));
    b.sought(2, 1);
    assertThat(b.offer("k1#1", 2, 1, K1, out)).isEqualTo(Outcome.DELIVERED);
    b.progress(0, 1, out);
    assertThat(b.offer("k0#2", 2, 2, K0, out)).as("k0#1 at offset 0 was not read again yet")
        .isEqualTo(Outcome.SKIPPED);
    assertThat(b.rereads()).isEqualTo(Map.of(2, 0L));
    b.sought(2, 0);
    assertThat(b.offer("k0#1", 2, 0, K0, out)).isEqualTo(Outcome.DELIVERED);
    assertThat(b.offer("k1#1", 2, 1, K1, out)).isEqualTo(Outcome.DROPPED);
    assertThat(b.offer("k0#2", 2, 2, K0, out)).isEqualTo(Outcome.DELIVERED);
    assertThat(out).containsExactly("k1#1", "k0#1", "k0#2");
    assertThat(b.skipped()).isZero();
    assertThat(b.safeOffset(2)).isEqualTo(3);
  }

  @Test
  void withHoldAndSkipListFullThePartitionIsRewoundAndResumedOnceThePartitionPassed() {
    MemberBarrier<String> b = new MemberBarrier<>(PLAN, 0, 0);
    assertThat(b.offer("x", 1, 2, (byte[]) null, out)).isEqualTo(Outcome.DELIVERED);
    assertThat(b.offer("k0#5", 1, 3, K0, out)).isEqualTo(Outcome.REWIND);
    assertThat(b.offer("y", 1, 4, (byte[]) null, out)).isEqualTo(Outcome.DROPPED);
    assertThat(b.rewoundAt(1)).isEqualTo(3);
    assertThat(b.safeOffset(1)).isEqualTo(3);
    assertThat(b.resumable()).isEmpty();
    assertThat(b.awaited()).isEqualTo(Map.of(0, 1L));
    b.progress(0, 1, out);
    assertThat(b.resumable()).containsExactly(1);
    b.resumed(1);
    assertThat(b.offer("k0#5", 1, 3, K0, out)).isEqualTo(Outcome.DELIVERED);
    assertThat(b.offer("y", 1, 4, (byte[]) null, out)).isEqualTo(Outcome.DELIVERED);
    assertThat(out).containsExactly("x", "k0#5", "y");
    assertThat(b.counts().rewinds()).isEqualTo(1);
  }

  @Test
  void oldRoutedRecordsAfterTheMarkerAreCountedAsLate() {
    MemberBarrier<String> b = new MemberBarrier<>(PLAN, 10, 10);
    b.offerMarker(new SwitchMarker("g", 1, 0), 0, 10, 0, out);
    assertThat(b.offer("k0#9", 0, 11, K0, out)).isEqualTo(Outcome.DELIVERED);
    assertThat(b.offer("k0#9", 5, 0, K0, out)).as("on a partition outside the plan")
        .isEqualTo(Outcome.DELIVERED);
    assertThat(b.counts().lateRecords()).isEqualTo(1);
    assertThat(b.counts().unplannedRecords()).isEqualTo(1);
  }
}
