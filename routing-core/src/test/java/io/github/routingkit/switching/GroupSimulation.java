package io.github.routingkit.switching;

import io.github.routingkit.switching.MemberBarrier.Outcome;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;

/**
 * A consumer group in memory, driven by one seed: producers route keys through a canary plan
 * (table routers, so every grouping of moves occurs), write markers after each step, and stray
 * markers (another generation, an unknown step, a wrong partition, premature) into random
 * partitions; members, each with its own barrier, read their partitions in random order,
 * commit safe offsets with their progress claims, learn other partitions' claims from the
 * commits, and go through random rebalances (a generated grouping of partitions over members),
 * crashes without commit, and replays (a partition re-read from an earlier offset). After the
 * production, a quiet drain. {@link #run} returns the first broken rule, or null.
 *
 * <p>Rules: every record is handed to business code at least once; per key, each record's first
 * delivery comes after the first delivery of every earlier record of the key; a record is
 * handed over at most once per (partition, ownership epoch), so every duplicate is a replay after
 * a rebalance, crash or re-read; every commit covers only records already handed over; markers
 * never reach business code.
 */
final class GroupSimulation {
  /** The barrier's surface the simulation drives; broken variants wrap the real one. */
  interface Barrier {
    Outcome offer(Rec r, int partition, long offset, byte[] key, List<Rec> out);

    Outcome offerMarker(SwitchMarker m, int partition, long offset, long timestamp, List<Rec> out);

    void progress(int partition, long steps, List<Rec> out);

    long passedSteps(int partition);

    int revoked(int partition);

    long safeOffset(int partition);

    int[] resumable();

    void resumed(int partition);

    Map<Integer, Long> awaited();

    Map<Integer, Long> rereads();

    void sought(int partition, long offset);
  }

  /** Makes a member's barrier. */
  interface BarrierFactory {
    Barrier create(SwitchPlan plan, int maxHeld, int maxSkipped);
  }

  /** The real barrier. */
  static final BarrierFactory REAL = (plan, maxHeld, maxSkipped) -> {
    MemberBarrier<Rec> b = new MemberBarrier<>(plan, maxHeld, maxSkipped);
    return new Barrier() {
      @Override
      public Outcome offer(Rec r, int p, long o, byte[] key, List<Rec> out) {
        return b.offer(r, p, o, key, out);
      }

      @Override
      public Outcome offerMarker(SwitchMarker m, int p, long o, long ts, List<Rec> out) {
        return b.offerMarker(m, p, o, ts, out);
      }

      @Override
      public void progress(int p, long steps, List<Rec> out) {
        b.progress(p, steps, out);
      }

      @Override
      public long passedSteps(int p) {
        return b.passedSteps(p);
      }

      @Override
      public int revoked(int p) {
        return b.revoked(p);
      }

      @Override
      public long safeOffset(int p) {
        return b.safeOffset(p);
      }

      @Override
      public int[] resumable() {
        return b.resumable();
      }

      @Override
      public void resumed(int p) {
        b.resumed(p);
      }

      @Override
      public Map<Integer, Long> awaited() {
        return b.awaited();
      }

      @Override
      public Map<Integer, Long> rereads() {
        return b.rereads();
      }

      @Override
      public void sought(int p, long offset) {
        b.sought(p, offset);
      }
    };
  };

  /** A record as the barrier carries it. */
  record Rec(int partition, long offset, int key, int seq) {}

  private record Entry(SwitchMarker marker, long timestamp, int key, int seq) {}

  private final class Member {
    final int id;
    Barrier barrier;
    final Set<Integer> owned = new TreeSet<>();
    final Map<Integer, Long> position = new HashMap<>();
    final Map<Integer, Long> epoch = new HashMap<>();
    final Set<Integer> paused = new HashSet<>();

    Member(int id) {
      this.id = id;
      this.barrier = factory.create(plan, maxHeld, maxSkipped);
    }
  }


  private record Event(int partition, Entry entry) {}

  final long seed;
  final int partitions;
  final int keys;
  final int perKey;
  final int steps;
  final int members;
  final int maxHeld;
  final int maxSkipped;
  private final BarrierFactory factory;
  private final SplittableRandom rnd;
  private final int[] oldTable;
  private final int[] newTable;
  private final SwitchPlan plan;
  private final List<List<Entry>> log = new ArrayList<>();
  private final List<Event> timeline = new ArrayList<>();
  private final Set<Long> deliveredOnce = new HashSet<>();
  private final Set<List<Long>> deliveredInEpoch = new HashSet<>();
  private final int[] firstDelivered;
  private final long[] committed;
  private final long[] committedSteps;
  private final Deque<String> trace = new ArrayDeque<>();
  private final List<Member> group = new ArrayList<>();
  private final List<Rec> out = new ArrayList<>();
  private long epochs;
  private long duplicates;
  private String broken;

  /**
   * One case. Sizes are drawn from the seed and capped by the {@code max*} arguments (which a
   * shrink lowers); everything else follows from the seed.
   */
  GroupSimulation(long seed, int maxPartitions, int maxKeys, int maxPerKey, int maxMembers,
      BarrierFactory factory) {
    this.seed = seed;
    this.factory = factory;
    this.rnd = new SplittableRandom(seed);
    this.partitions = 1 + rnd.nextInt(maxPartitions);
    this.keys = 1 + rnd.nextInt(maxKeys);
    this.perKey = 1 + rnd.nextInt(maxPerKey);
    this.steps = 1 + rnd.nextInt(3);
    this.members = 1 + rnd.nextInt(maxMembers);
    int[] holds = {0, 1, 2, 5, 1000};
    this.maxHeld = holds[rnd.nextInt(holds.length)];
    int[] skips = {0, 1, 3, 1000};
    this.maxSkipped = skips[rnd.nextInt(skips.length)];
    this.oldTable = new int[keys];
    this.newTable = new int[keys];
    for (int k = 0; k < keys; k++) {
      oldTable[k] = rnd.nextInt(partitions);
      newTable[k] = rnd.nextInt(partitions);
    }
    double start = rnd.nextInt(3) == 0 ? 0 : rnd.nextDouble() * 0.3;
    double[] shares = new double[steps];
    double at = start;
    for (int s = 0; s < steps; s++) {
      at = s == steps - 1 && rnd.nextBoolean() ? 1 : at + (1 - at) * (0.1 + 0.8 * rnd.nextDouble());
      shares[s] = at;
    }
    SwitchPlan base = SwitchPlan.canary("sim-gen", new TableRouter(oldTable),
        new TableRouter(newTable), start, shares, partitions);
    this.firstDelivered = new int[keys];
    this.committed = new long[partitions];
    this.committedSteps = new long[partitions];
    for (int p = 0; p < partitions; p++) {
      log.add(new ArrayList<>());
    }
    this.plan = base.withSettleInstants(buildTimeline(base));
  }

  /**
   * The production order: each key's records in sequence, randomly interleaved; step {@code s}
   * switches at a random point and its markers follow at a later one (so records routed after
   * the switch may precede the markers); stray markers anywhere. Returns the settle instants
   * (the real markers' timestamps).
   */
  private long[] buildTimeline(SwitchPlan base) {
    int total = keys * perKey;
    List<Integer> order = new ArrayList<>();
    for (int k = 0; k < keys; k++) {
      for (int i = 0; i < perKey; i++) {
        order.add(k);
      }
    }
    for (int i = order.size() - 1; i > 0; i--) {
      int j = rnd.nextInt(i + 1);
      Integer t = order.get(i);
      order.set(i, order.get(j));
      order.set(j, t);
    }
    int[] switchAt = new int[steps];
    int[] markAt = new int[steps];
    for (int s = 0; s < steps; s++) {
      switchAt[s] = rnd.nextInt(total + 1);
      markAt[s] = switchAt[s] + rnd.nextInt(total - switchAt[s] + 1);
    }
    long[] settle = new long[steps];
    int[] next = new int[keys];
    for (int t = 0; t <= total; t++) {
      for (int s = 0; s < steps; s++) {
        if (markAt[s] == t) {
          settle[s] = timeline.size();
          for (int p = 0; p < partitions; p++) {
            timeline.add(new Event(p, new Entry(new SwitchMarker("sim-gen", s + 1, p),
                settle[s], -1, -1)));
          }
        }
      }
      if (rnd.nextInt(6) == 0) {
        timeline.add(stray());
      }
      if (t == total) {
        break;
      }
      int k = order.get(t);
      long move = base.move(TableRouter.key(k));
      int partition = move == 0 ? oldTable[k]
          : t < switchAt[SwitchPlan.step(move)] ? SwitchPlan.from(move) : SwitchPlan.to(move);
      timeline.add(new Event(partition, new Entry(null, timeline.size(), k, next[k]++)));
    }
    return settle;
  }

  /** A marker the plan must ignore, in a random partition. */
  private Event stray() {
    int p = rnd.nextInt(partitions);
    int step = 1 + rnd.nextInt(steps);
    int other = partitions == 1 ? 1 : (p + 1 + rnd.nextInt(partitions - 1)) % partitions;
    return switch (rnd.nextInt(4)) {
      case 0 -> new Event(p, new Entry(new SwitchMarker("older-gen", step, p), timeline.size(), -1, -1));
      case 1 -> new Event(p, new Entry(new SwitchMarker("sim-gen", steps + 1 + rnd.nextInt(3), p),
          timeline.size(), -1, -1));
      case 2 -> new Event(p, new Entry(new SwitchMarker("sim-gen", step, other), timeline.size(), -1, -1));
      default -> new Event(p, new Entry(new SwitchMarker("sim-gen", step, p), -1, -1, -1));
    };
  }

  /** Runs the case; returns the first broken rule with its context, or null. */
  String run() {
    for (int i = 0; i < members; i++) {
      group.add(new Member(i));
    }
    rebalance(-1);
    int appended = 0;
    while (broken == null && appended < timeline.size()) {
      for (int n = rnd.nextInt(4); n > 0 && appended < timeline.size(); n--) {
        Event e = timeline.get(appended++);
        log.get(e.partition()).add(e.entry());
      }
      act();
    }
    drain();
    // with room for every record, every record is delivered; with less, a switch may be stuck,
    // but what was not delivered was never committed past (checked at every commit)
    boolean room = maxHeld + maxSkipped >= keys * perKey;
    for (int p = 0; p < partitions && broken == null && room; p++) {
      for (int o = 0; o < log.get(p).size(); o++) {
        Entry e = log.get(p).get(o);
        if (e.marker() == null && !deliveredOnce.contains(id(e.key(), e.seq()))) {
          fail("k" + e.key() + "#" + e.seq() + " (partition " + p + " offset " + o
              + ") never reached business code");
          break;
        }
      }
    }
    return broken == null ? null : describe();
  }

  long duplicates() {
    return duplicates;
  }

  private void act() {
    Member m = group.get(rnd.nextInt(group.size()));
    int r = rnd.nextInt(100);
    if (r < 55) {
      poll(m, 1 + rnd.nextInt(4));
    } else if (r < 70) {
      commit(m, m.owned);
    } else if (r < 82) {
      check(m);
    } else if (r < 90) {
      rebalance(-1);
    } else if (r < 95) {
      crash(m);
    } else {
      replay(m);
    }
  }

  /**
   * One poll: up to {@code max} entries from each of up to three open partitions, interleaved as
   * a client's fetch returns them; then seeks and resumes.
   */
  private boolean poll(Member m, int max) {
    List<Integer> open = new ArrayList<>();
    for (int p : m.owned) {
      if (!m.paused.contains(p)) {
        open.add(p);
      }
    }
    if (open.isEmpty()) {
      return false;
    }
    List<Integer> batch = new ArrayList<>();
    for (int n = 1 + rnd.nextInt(3); n > 0 && !open.isEmpty(); n--) {
      batch.add(open.remove(rnd.nextInt(open.size())));
    }
    Map<Integer, Long> start = new HashMap<>();
    for (int p : batch) {
      start.put(p, m.position.get(p));
    }
    Set<Integer> stopped = new HashSet<>();
    for (int i = 0; i < max && broken == null; i++) {
      for (int p : batch) {
        if (!stopped.contains(p) && !offerNext(m, p)) {
          stopped.add(p);
        }
      }
    }
    resume(m);
    boolean moved = false;
    for (int p : batch) {
      moved |= !m.owned.contains(p) || m.position.get(p).longValue() != start.get(p);
    }
    return moved;
  }

  /** Offers the next entry of {@code p}; false at the end of the log or on a rewind. */
  private boolean offerNext(Member m, int p) {
    long pos = m.position.get(p);
    List<Entry> entries = log.get(p);
    if (pos >= entries.size()) {
      return false;
    }
    Entry e = entries.get((int) pos);
    out.clear();
    Outcome o = e.marker() != null
        ? m.barrier.offerMarker(e.marker(), p, pos, e.timestamp(), out)
        : m.barrier.offer(new Rec(p, pos, e.key(), e.seq()), p, pos, TableRouter.key(e.key()), out);
    note("m" + m.id + " reads p" + p + "@" + pos + " "
        + (e.marker() != null ? e.marker() : "k" + e.key() + "#" + e.seq()) + " -> " + o
        + (out.isEmpty() ? "" : " delivers " + out));
    deliver(m, out);
    if (o == Outcome.REWIND) {
      m.paused.add(p);
      return false;
    }
    m.position.put(p, pos + 1);
    return true;
  }

  /** Reads up to {@code max} entries of {@code p} alone; whether anything was read. */
  private boolean read(Member m, int p, int max) {
    long start = m.position.get(p);
    for (int i = 0; i < max && broken == null && offerNext(m, p); i++) {
      // next
    }
    resume(m);
    return m.owned.contains(p) && m.position.get(p) != start;
  }

  /** Seeks back to what the barrier wants read again, and resumes what it lets go. */
  private void resume(Member m) {
    for (Map.Entry<Integer, Long> e : m.barrier.rereads().entrySet()) {
      int q = e.getKey();
      if (m.owned.contains(q) && e.getValue() < m.position.get(q)) {
        m.position.put(q, e.getValue());
        m.barrier.sought(q, e.getValue());
        note("m" + m.id + " re-reads p" + q + " from " + e.getValue());
      }
    }
    for (int q : m.barrier.resumable()) {
      if (m.paused.remove(q)) {
        m.barrier.resumed(q);
        note("m" + m.id + " resumes p" + q);
      }
    }
  }

  private void deliver(Member m, List<Rec> records) {
    for (Rec r : records) {
      Long epoch = m.epoch.get(r.partition());
      if (epoch == null) {
        fail("m" + m.id + " handed over " + r + " of a partition it does not own");
        return;
      }
      long id = id(r.key(), r.seq());
      if (deliveredOnce.add(id)) {
        if (firstDelivered[r.key()] != r.seq()) {
          fail("k" + r.key() + "#" + r.seq() + " reached business code before k" + r.key() + "#"
              + firstDelivered[r.key()]);
          return;
        }
        firstDelivered[r.key()]++;
      } else {
        duplicates++;
      }
      if (!deliveredInEpoch.add(List.of(id, r.partition() + 0L, epoch))) {
        fail("k" + r.key() + "#" + r.seq() + " handed over twice by m" + m.id
            + " in one ownership of partition " + r.partition());
        return;
      }
    }
  }

  private void commit(Member m, Set<Integer> which) {
    for (int p : which) {
      long safe = m.barrier.safeOffset(p);
      if (safe < 0) {
        continue;
      }
      List<Entry> entries = log.get(p);
      for (int o = 0; o < safe && o < entries.size(); o++) {
        Entry e = entries.get(o);
        if (e.marker() == null && !deliveredOnce.contains(id(e.key(), e.seq()))) {
          fail("m" + m.id + " commits partition " + p + " at " + safe + " past k" + e.key() + "#"
              + e.seq() + " at offset " + o + ", never handed over");
          return;
        }
      }
      committed[p] = safe;
      committedSteps[p] = m.barrier.passedSteps(p);
      note("m" + m.id + " commits p" + p + "=" + safe + " steps " + committedSteps[p]);
    }
  }

  private void check(Member m) {
    for (int q : m.barrier.awaited().keySet()) {
      out.clear();
      m.barrier.progress(q, committedSteps[q], out);
      if (!out.isEmpty()) {
        note("m" + m.id + " learns p" + q + " passed " + committedSteps[q] + ", delivers " + out);
      }
      deliver(m, out);
    }
    resume(m);
  }

  /** A new grouping of partitions over members; {@code crashed} (or -1) commits nothing. */
  private void rebalance(int crashed) {
    int[] owner = new int[partitions];
    for (int p = 0; p < partitions; p++) {
      owner[p] = rnd.nextInt(group.size());
    }
    note("rebalance " + Arrays.toString(owner));
    for (Member m : group) {
      Set<Integer> revoked = new TreeSet<>();
      for (int p : m.owned) {
        if (owner[p] != m.id) {
          revoked.add(p);
        }
      }
      if (m.id != crashed) {
        commit(m, revoked);
      }
      for (int p : revoked) {
        m.barrier.revoked(p);
        m.owned.remove(p);
        m.paused.remove(p);
        m.position.remove(p);
        m.epoch.remove(p);
      }
    }
    for (int p = 0; p < partitions; p++) {
      Member m = group.get(owner[p]);
      if (m.owned.add(p)) {
        m.position.put(p, committed[p]);
        m.epoch.put(p, ++epochs);
        out.clear();
        m.barrier.progress(p, committedSteps[p], out);
        deliver(m, out);
      }
    }
  }

  private void crash(Member m) {
    note("m" + m.id + " crashes");
    m.owned.clear();
    m.paused.clear();
    m.position.clear();
    m.epoch.clear();
    m.barrier = factory.create(plan, maxHeld, maxSkipped);
    rebalance(m.id);
  }

  private void replay(Member m) {
    if (m.owned.isEmpty()) {
      return;
    }
    List<Integer> owned = new ArrayList<>(m.owned);
    int p = owned.get(rnd.nextInt(owned.size()));
    // a re-read starts at or below what is safe to commit (a seek past a waiting record skips it)
    // and below the position: it reads at least one entry again, as a redelivery does, so the
    // member goes on publishing what the partition passed (a barrier with no state for a
    // partition has no offset to publish it with)
    long safe = m.barrier.safeOffset(p);
    long pos = m.position.get(p);
    if (pos == 0) {
      return;
    }
    long back = rnd.nextLong(safe < 0 ? pos : Math.min(safe + 1, pos));
    note("m" + m.id + " replays p" + p + " from " + back);
    m.barrier.revoked(p);
    m.paused.remove(p);
    m.position.put(p, back);
    m.epoch.put(p, ++epochs);
    out.clear();
    m.barrier.progress(p, committedSteps[p], out);
    deliver(m, out);
  }

  /** Everyone reads to the end, commits and learns, until nothing changes. */
  private void drain() {
    int quiet = 0;
    for (int round = 0; round < 10_000 && quiet < 3 && broken == null; round++) {
      boolean moved = false;
      for (Member m : group) {
        for (int p : new ArrayList<>(m.owned)) {
          if (!m.paused.contains(p)) {
            moved |= read(m, p, Integer.MAX_VALUE);
          }
        }
        int before = deliveredOnce.size();
        commit(m, m.owned);
        check(m);
        resume(m);
        moved |= deliveredOnce.size() != before;
      }
      quiet = moved ? 0 : quiet + 1;
    }
  }

  private static long id(int key, int seq) {
    return (long) key << 32 | seq;
  }

  private void note(String event) {
    trace.addLast(event);
    if (trace.size() > 40) {
      trace.removeFirst();
    }
  }

  private void fail(String rule) {
    if (broken == null) {
      broken = rule;
    }
  }

  private String describe() {
    StringBuilder moves = new StringBuilder();
    for (int k = 0; k < keys; k++) {
      SwitchPlan.Move mv = plan.moveOf(TableRouter.key(k));
      moves.append(" k").append(k).append(mv == null ? ":stays@" + oldTable[k]
          : ":step" + mv.step() + " " + mv.from() + "->" + mv.to());
    }
    return broken + "\n  case: seed " + seed + ", " + partitions + " partitions, " + keys
        + " keys x " + perKey + ", " + steps + " steps, " + members + " members, maxHeld "
        + maxHeld + ", maxSkipped " + maxSkipped + "\n  moves:" + moves + "\n  last events:\n    " + String.join("\n    ", trace);
  }
}
