package io.github.routingkit.switching;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.switching.GroupSimulation.Barrier;
import io.github.routingkit.switching.GroupSimulation.BarrierFactory;
import io.github.routingkit.switching.GroupSimulation.Rec;
import io.github.routingkit.switching.MemberBarrier.Outcome;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The member barrier alone, over random interleavings of a consumer group's life
 * ({@link GroupSimulation}): random plans (which keys move, from where to where, at which of up
 * to three canary steps), records routed after a step before its markers, stray markers, random
 * groupings of partitions over members, rebalances, crashes without commit, re-reads, and holds
 * of 0 to 1000 records. Fixed seeds ({@value #SEED} + case index) and a fixed case count; a
 * failure names its seed, a shrunk case and its last events.
 */
class MemberBarrierProperties {
  static final long SEED = 0x5717C4;
  static final int CASES = 1500;

  /** The first broken rule over the cases, shrunk, or null when every case keeps every rule. */
  static String firstFailure(BarrierFactory factory, int cases) {
    for (int i = 0; i < cases; i++) {
      long seed = SEED + i;
      String failure = new GroupSimulation(seed, 8, 16, 6, 4, factory).run();
      if (failure != null) {
        return shrink(seed, factory, new int[] {8, 16, 6, 4}, failure);
      }
    }
    return null;
  }

  /** Lowers the size caps one at a time while the same seed still fails. */
  private static String shrink(long seed, BarrierFactory factory, int[] caps, String failure) {
    boolean smaller = true;
    while (smaller) {
      smaller = false;
      for (int c = 0; c < caps.length; c++) {
        for (int to = 1; to < caps[c]; to++) {
          int[] tried = caps.clone();
          tried[c] = to;
          String f = new GroupSimulation(seed, tried[0], tried[1], tried[2], tried[3], factory).run();
          if (f != null) {
            caps = tried;
            failure = f;
            smaller = true;
            break;
          }
        }
      }
    }
    return failure;
  }

  @Test
  void everyRecordOnceInOrderAcrossMembersRebalancesCrashesAndReplays() {
    assertThat(firstFailure(GroupSimulation.REAL, CASES)).as("first failing case").isNull();
  }

  @Test
  void theCasesExerciseHoldsRewindsStrayMarkersAndReplays() {
    Map<Outcome, Integer> casesWith = new HashMap<>();
    long duplicates = 0;
    for (int i = 0; i < 300; i++) {
      Map<Outcome, Integer> seen = new HashMap<>();
      BarrierFactory counting = (plan, maxHeld, maxSkipped) -> counted(GroupSimulation.REAL.create(plan, maxHeld, maxSkipped), seen);
      GroupSimulation sim = new GroupSimulation(SEED + i, 8, 16, 6, 4, counting);
      assertThat(sim.run()).isNull();
      duplicates += sim.duplicates();
      seen.keySet().forEach(o -> casesWith.merge(o, 1, Integer::sum));
    }
    assertThat(casesWith).as("cases (of 300) with each outcome").containsKeys(Outcome.values());
    assertThat(casesWith.get(Outcome.HELD)).isGreaterThan(100);
    assertThat(casesWith.get(Outcome.REWIND)).isGreaterThan(30);
    assertThat(casesWith.get(Outcome.IGNORED_MARKER)).isGreaterThan(100);
    assertThat(duplicates).as("records handed over again after a rebalance, crash or re-read")
        .isPositive();
  }

  @Test
  void deliberatelyBrokenBarriersAreCaught() {
    Map<String, BarrierFactory> broken = new LinkedHashMap<>();
    broken.put("waits only for markers it reads itself (ignores the group's progress)",
        (plan, maxHeld, maxSkipped) -> new Forwarding(GroupSimulation.REAL.create(plan, maxHeld, maxSkipped)) {
          @Override
          public void progress(int partition, long steps, List<Rec> out) {}
        });
    broken.put("commits past held records",
        (plan, maxHeld, maxSkipped) -> new Forwarding(GroupSimulation.REAL.create(plan, maxHeld, maxSkipped)) {
          final Map<Integer, Long> read = new HashMap<>();

          @Override
          public Outcome offer(Rec r, int p, long o, byte[] key, List<Rec> out) {
            read.merge(p, o + 1, Math::max);
            return super.offer(r, p, o, key, out);
          }

          @Override
          public long safeOffset(int p) {
            return Math.max(super.safeOffset(p), read.getOrDefault(p, -1L));
          }

          @Override
          public int revoked(int p) {
            read.remove(p);
            return super.revoked(p);
          }
        });
    broken.put("accepts any marker (other generations, unknown steps, copies, premature ones)",
        (plan, maxHeld, maxSkipped) -> new Forwarding(GroupSimulation.REAL.create(plan, maxHeld, maxSkipped)) {
          @Override
          public Outcome offerMarker(SwitchMarker m, int p, long o, long ts, List<Rec> out) {
            int step = plan.stepIndex(m.step()) < 0 ? plan.stepNumber(0) : m.step();
            return super.offerMarker(new SwitchMarker(plan.generation(), step, p), p, o,
                Long.MAX_VALUE, out);
          }
        });
    broken.put("holds nothing",
        (plan, maxHeld, maxSkipped) -> new Forwarding(GroupSimulation.REAL.create(plan, maxHeld, maxSkipped)) {
          @Override
          public Outcome offer(Rec r, int p, long o, byte[] key, List<Rec> out) {
            return super.offer(r, p, o, null, out);
          }
        });
    broken.put("is the single-consumer SwitchBarrier, with per-poll commits past what it read",
        MemberBarrierProperties::singleConsumerBarrier);
    for (Map.Entry<String, BarrierFactory> e : broken.entrySet()) {
      assertThat(firstFailure(e.getValue(), CASES)).as("a barrier that %s", e.getKey())
          .isNotNull();
    }
  }

  /**
   * The deprecated {@code SwitchBarrier} (it waits for the markers its own member reads, accepts
   * any marker) in a loop that commits, after each poll, past every record it read, as the
   * consumer loops it was written for do.
   */
  @SuppressWarnings("deprecation")
  private static Barrier singleConsumerBarrier(SwitchPlan plan, int maxHeld, int maxSkipped) {
    io.github.routingkit.SwitchBarrier<Rec> old = new io.github.routingkit.SwitchBarrier<>(
        plan.oldRouter(), plan.newRouter(), plan.numPartitions(), (p, g, s) -> {});
    Map<Integer, Long> read = new HashMap<>();
    return new Barrier() {
      @Override
      public Outcome offer(Rec r, int p, long o, byte[] key, List<Rec> out) {
        read.merge(p, o + 1, Math::max);
        old.offer(r, p, key, null, 0, out);
        return Outcome.DELIVERED;
      }

      @Override
      public Outcome offerMarker(SwitchMarker m, int p, long o, long ts, List<Rec> out) {
        read.merge(p, o + 1, Math::max);
        old.offer(null, p, (byte[]) null, m.generation(), m.step(), out);
        return Outcome.MARKER;
      }

      @Override
      public void progress(int p, long steps, List<Rec> out) {}

      @Override
      public long passedSteps(int p) {
        return 0;
      }

      @Override
      public int revoked(int p) {
        read.remove(p);
        return 0;
      }

      @Override
      public long safeOffset(int p) {
        return read.getOrDefault(p, -1L);
      }

      @Override
      public int[] resumable() {
        return new int[0];
      }

      @Override
      public void resumed(int p) {}

      @Override
      public Map<Integer, Long> awaited() {
        return Map.of();
      }

      @Override
      public Map<Integer, Long> rereads() {
        return Map.of();
      }

      @Override
      public void sought(int p, long offset) {}
    };
  }

  private static Barrier counted(Barrier real, Map<Outcome, Integer> seen) {
    return new Forwarding(real) {
      @Override
      public Outcome offer(Rec r, int p, long o, byte[] key, List<Rec> out) {
        Outcome outcome = super.offer(r, p, o, key, out);
        seen.merge(outcome, 1, Integer::sum);
        return outcome;
      }

      @Override
      public Outcome offerMarker(SwitchMarker m, int p, long o, long ts, List<Rec> out) {
        Outcome outcome = super.offerMarker(m, p, o, ts, out);
        seen.merge(outcome, 1, Integer::sum);
        return outcome;
      }
    };
  }

  /** Forwards every call; broken variants override one. */
  private static class Forwarding implements Barrier {
    private final Barrier real;

    Forwarding(Barrier real) {
      this.real = real;
    }

    @Override
    public Outcome offer(Rec r, int p, long o, byte[] key, List<Rec> out) {
      return real.offer(r, p, o, key, out);
    }

    @Override
    public Outcome offerMarker(SwitchMarker m, int p, long o, long ts, List<Rec> out) {
      return real.offerMarker(m, p, o, ts, out);
    }

    @Override
    public void progress(int p, long steps, List<Rec> out) {
      real.progress(p, steps, out);
    }

    @Override
    public long passedSteps(int p) {
      return real.passedSteps(p);
    }

    @Override
    public int revoked(int p) {
      return real.revoked(p);
    }

    @Override
    public long safeOffset(int p) {
      return real.safeOffset(p);
    }

    @Override
    public int[] resumable() {
      return real.resumable();
    }

    @Override
    public void resumed(int p) {
      real.resumed(p);
    }

    @Override
    public Map<Integer, Long> awaited() {
      return real.awaited();
    }

    @Override
    public Map<Integer, Long> rereads() {
      return real.rereads();
    }

    @Override
    public void sought(int p, long offset) {
      real.sought(p, offset);
    }
  }
}
