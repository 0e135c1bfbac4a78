package io.github.routingkit.assignment;

import io.github.routingkit.property.Fuzz;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Fuzzer for {@link AssignmentPolicy}: hostile group states (out-of-range and foreign
 * claims, one partition claimed by many members at assorted generations, duplicate instance ids,
 * empty and unknown subscriptions, zero-partition topics, odd racks, many topics with non-equal
 * subscriptions) against the documented guarantees. Seeded; a failure names its seed. Runs a fixed
 * number of seeds per property ({@link Fuzz}), or {@code -Dfuzz.seed=} for one case.
 */
class HostileGroupStateFuzzTest {

  static void fuzz(String name, int cases, Fuzz.Case c) {
    Fuzz.run(name, cases, c);
  }

  // ---------------------------------------------------------------- generator

  static final String[] RACKS = {"r1", "r2", "", " ", "rack-\u00e9", "\ud83d\ude00", "r1 "};

  record Hostile(List<GroupMember> members, List<AssignableTopic> topics) {}

  static Hostile hostile(long seed) {
    Random r = new Random(seed);
    int shape = r.nextInt(4);
    int topicCount = shape == 3 ? 10 + r.nextInt(60) : 1 + r.nextInt(8);
    List<AssignableTopic> topics = new ArrayList<>();
    boolean racks = r.nextInt(3) == 0;
    for (int t = 0; t < topicCount; t++) {
      int n = switch (r.nextInt(6)) {
        case 0 -> 0;
        case 1 -> 1;
        case 2 -> 200 + r.nextInt(800);
        default -> r.nextInt(40);
      };
      List<Set<String>> rr = new ArrayList<>();
      if (racks && n > 0) {
        for (int p = 0; p < n; p++) {
          Set<String> s = new HashSet<>();
          for (int k = r.nextInt(3); k > 0; k--) {
            s.add(RACKS[r.nextInt(RACKS.length)]);
          }
          rr.add(s);
        }
      }
      int w = r.nextInt(5) == 0 ? 1 + r.nextInt(r.nextBoolean() ? 3 : 1000) : 1;
      topics.add(new AssignableTopic("t" + t + (r.nextInt(10) == 0 ? "\u00e9" : ""), n, rr, w));
    }
    List<String> names = new ArrayList<>();
    topics.forEach(t -> names.add(t.name()));
    int memberCount = 1 + r.nextInt(shape == 2 ? 150 : 30);
    List<GroupMember> members = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    Set<String> shared = new HashSet<>(names);
    boolean weighted = r.nextInt(3) == 0;
    for (int i = 0; i < memberCount; i++) {
      String id;
      do {
        id = switch (r.nextInt(5)) {
          case 0 -> "";
          case 1 -> "m" + r.nextInt(1000);
          case 2 -> "\u00e9" + r.nextInt(100);
          default -> "member-" + Long.toHexString(r.nextLong());
        };
      } while (!ids.add(id));
      Set<String> subs;
      switch (shape == 0 ? 0 : r.nextInt(5)) {
        case 0 -> subs = shared;
        case 1 -> subs = Set.of(); // empty subscription
        case 2 -> subs = Set.of("unknown-" + r.nextInt(3)); // only unknown topics
        default -> {
          subs = new HashSet<>();
          for (String nm : names) {
            if (r.nextInt(3) == 0) {
              subs.add(nm);
            }
          }
          if (r.nextBoolean()) {
            subs.add("unknown-x");
          }
        }
      }
      String inst = switch (r.nextInt(4)) {
        case 0 -> null;
        case 1 -> "inst-" + r.nextInt(4); // duplicates on purpose
        default -> "inst-" + i;
      };
      String rack = r.nextInt(3) == 0 ? null : RACKS[r.nextInt(RACKS.length)];
      int weight = weighted ? 1 + (r.nextInt(4) == 0 ? r.nextInt(GroupMember.MAX_WEIGHT) : r.nextInt(5)) : 1;
      int gen = switch (r.nextInt(6)) {
        case 0 -> -1;
        case 1 -> Integer.MIN_VALUE;
        case 2 -> Integer.MAX_VALUE - r.nextInt(3);
        default -> r.nextInt(5);
      };
      List<PartitionRef> owned = new ArrayList<>();
      int claims = r.nextInt(4) == 0 ? 0 : r.nextInt(60);
      for (int k = 0; k < claims; k++) {
        int kind = r.nextInt(10);
        if (kind == 0) {
          owned.add(new PartitionRef("unknown-" + r.nextInt(3), r.nextInt(5)));
        } else {
          AssignableTopic t = topics.get(r.nextInt(topics.size()));
          int p = kind == 1 ? t.partitions() + r.nextInt(3)
              : kind == 2 ? Integer.MAX_VALUE : r.nextInt(Math.max(1, t.partitions()));
          owned.add(new PartitionRef(t.name(), p));
          if (r.nextInt(8) == 0) {
            owned.add(new PartitionRef(t.name(), p)); // listed twice
          }
        }
      }
      if (r.nextBoolean()) {
        Collections.shuffle(owned, r); // unsorted claims
      }
      members.add(new GroupMember(id, inst, rack, weight, subs, owned, gen));
    }
    return new Hostile(members, topics);
  }

  // ---------------------------------------------------------------- checks

  static Map<String, AssignableTopic> byName(List<AssignableTopic> topics) {
    Map<String, AssignableTopic> m = new HashMap<>();
    topics.forEach(t -> m.put(t.name(), t));
    return m;
  }

  /** Valid: each partition of a subscribed topic exactly once (or pending), in range, to a subscriber. */
  static void valid(Hostile h, RebalanceResult a) {
    Map<String, AssignableTopic> tn = byName(h.topics());
    Set<String> subscribed = new HashSet<>();
    h.members().forEach(m -> subscribed.addAll(m.topics()));
    Set<PartitionRef> seen = new HashSet<>();
    for (GroupMember m : h.members()) {
      for (PartitionRef p : a.partitionsOf(m.memberId())) {
        AssignableTopic t = tn.get(p.topic());
        check(t != null, p + " of an unknown topic");
        check(p.partition() < t.partitions(), p + " out of range");
        check(m.topics().contains(p.topic()), p + " to non-subscriber " + m.memberId());
        check(seen.add(p), p + " assigned twice");
      }
    }
    check(a.memberIds().size() == h.members().size(), "member count");
    for (PartitionRef p : a.pendingRevocation()) {
      check(seen.add(p), p + " pending and assigned");
    }
    long expected = h.topics().stream().filter(t -> subscribed.contains(t.name()))
        .mapToLong(AssignableTopic::partitions).sum();
    check(seen.size() == expected, seen.size() + " assigned+pending, expected " + expected);
  }

  /**
   * The balance AssignmentPolicy documents: with equal weights Kafka's rule (no member could take
   * a partition of load c from one holding more than c above it, L_j - L_i <= c); with unequal
   * weights no member could take one and still be below the giver per weight,
   * (L_i + c) * w_j >= (L_j - c) * w_i. (The stronger "loads per weight get no closer",
   * (2*L_i + c) * w_j >= (2*L_j - c) * w_i, is not guaranteed: a sticky keep within quota can
   * break it, see AssignmentPolicyLimitsTest.)
   */
  static void balanced(Hostile h, RebalanceResult a) {
    Map<String, AssignableTopic> tn = byName(h.topics());
    Map<String, Long> load = new HashMap<>();
    Map<String, Set<String>> holds = new HashMap<>();
    for (GroupMember m : h.members()) {
      long l = 0;
      Set<String> ts = new HashSet<>();
      for (PartitionRef p : a.partitionsOf(m.memberId())) {
        l += tn.get(p.topic()).weight();
        ts.add(p.topic());
      }
      load.put(m.memberId(), l);
      holds.put(m.memberId(), ts);
    }
    for (GroupMember j : h.members()) {
      for (String t : holds.get(j.memberId())) {
        long c = tn.get(t).weight();
        for (GroupMember i : h.members()) {
          if (i == j || !i.topics().contains(t)) {
            continue;
          }
          long li = load.get(i.memberId());
          long lj = load.get(j.memberId());
          check(i.weight() == j.weight() ? lj - li <= c : (li + c) * j.weight() >= (lj - c) * i.weight(),
              i.memberId() + " (L=" + li + ",w=" + i.weight() + ") could take " + t + " (c=" + c
                  + ") from " + j.memberId() + " (L=" + lj + ",w=" + j.weight() + ")");
        }
      }
    }
  }

  /** The winning claimant of each claimed partition, per the documented rules (null: none). */
  static Map<PartitionRef, String> winners(Hostile h) {
    Map<String, AssignableTopic> tn = byName(h.topics());
    Map<PartitionRef, String> win = new HashMap<>();
    Map<PartitionRef, Long> best = new HashMap<>();
    for (GroupMember m : h.members()) {
      long g2 = m.generation() < -1 ? 1 : Math.min(Integer.MAX_VALUE, (long) m.generation() + 2);
      for (PartitionRef p : new LinkedHashSet<>(m.ownedPartitions())) {
        AssignableTopic t = tn.get(p.topic());
        if (t == null || p.partition() >= t.partitions() || !m.topics().contains(p.topic())) {
          continue;
        }
        long b = best.getOrDefault(p, 0L);
        if (g2 > b) {
          best.put(p, g2);
          win.put(p, m.memberId());
        } else if (g2 == b) {
          win.put(p, null);
        }
      }
    }
    return win;
  }

  static Set<PartitionRef> claimedAtAll(Hostile h) {
    Map<String, AssignableTopic> tn = byName(h.topics());
    Set<PartitionRef> c = new HashSet<>();
    for (GroupMember m : h.members()) {
      for (PartitionRef p : m.ownedPartitions()) {
        AssignableTopic t = tn.get(p.topic());
        if (t != null && p.partition() < t.partitions()) {
          c.add(p);
        }
      }
    }
    return c;
  }

  static void check(boolean ok, String what) {
    if (!ok) {
      throw new AssertionError(what);
    }
  }

  static Hostile shuffled(Hostile h, long seed) {
    Random r = new Random(seed ^ 0x5DEECE66DL);
    List<GroupMember> m = new ArrayList<>(h.members());
    List<AssignableTopic> t = new ArrayList<>(h.topics());
    Collections.shuffle(m, r);
    Collections.shuffle(t, r);
    // fresh set instances, so the identity-keyed sharing differs too
    m.replaceAll(x -> new GroupMember(x.memberId(), x.groupInstanceId(), x.rackId(), x.weight(),
        new TreeSet<>(x.topics()), x.ownedPartitions(), x.generation()));
    return new Hostile(m, t);
  }

  static Hostile after(Hostile h, RebalanceResult a, int gen) {
    List<GroupMember> next = new ArrayList<>();
    for (GroupMember m : h.members()) {
      next.add(m.withOwned(a.partitionsOf(m.memberId()), gen));
    }
    return new Hostile(next, h.topics());
  }

  // ---------------------------------------------------------------- properties

  /** Runs one named check; a failure is counted by category (first seed kept), not thrown. */
  static void tally(Map<String, String> firstSeed, Map<String, Integer> counts, String category,
      long seed, Runnable check) {
    try {
      check.run();
    } catch (AssertionError e) {
      counts.merge(category, 1, Integer::sum);
      firstSeed.putIfAbsent(category, seed + ": " + e.getMessage());
    }
  }

  /** Roughly: the group goes to EqualSubscriptions (one known-topic set, one topic weight). */
  static boolean equalPath(Hostile h) {
    Map<String, AssignableTopic> tn = byName(h.topics());
    Set<Set<String>> sets = new HashSet<>();
    Set<Integer> weights = new HashSet<>();
    for (GroupMember m : h.members()) {
      Set<String> known = new TreeSet<>();
      for (String t : m.topics()) {
        if (tn.containsKey(t)) {
          known.add(t);
          weights.add(tn.get(t).weight());
        }
      }
      if (!known.isEmpty()) {
        sets.add(known);
      }
    }
    return sets.size() <= 1 && weights.size() <= 1;
  }

  static boolean weighted(Hostile h) {
    return h.members().stream().anyMatch(m -> m.weight() != h.members().get(0).weight());
  }

  @Test
  void hostileEagerIsValidBalancedDeterministic() {
    Map<String, String> first = new java.util.TreeMap<>();
    Map<String, Integer> counts = new java.util.TreeMap<>();
    int[] n = {0};
    fuzz("eager valid+balanced+deterministic", 300, seed -> {
      n[0]++;
      Hostile h = hostile(seed);
      RebalanceResult a = AssignmentPolicy.assign(h.members(), h.topics(), RebalanceMode.EAGER);
      tally(first, counts, "valid", seed, () -> {
        valid(h, a);
        check(a.pendingRevocation().isEmpty(), "eager with pending");
      });
      tally(first, counts, (weighted(h) ? "balance (member weights differ" : "balance (equal weights")
          + (equalPath(h) ? ", equal subscriptions)" : ", mixed)"), seed, () -> balanced(h, a));
      Hostile s = shuffled(h, seed);
      RebalanceResult b = AssignmentPolicy.assign(s.members(), s.topics(), RebalanceMode.EAGER);
      tally(first, counts, "deterministic", seed, () -> {
        check(a.equals(b), "member/topic order changed the result");
        for (String id : a.memberIds()) {
          check(a.keptCountOf(id) == b.keptCountOf(id), "kept count differs by order for " + id);
        }
      });
      // kept = assigned partitions whose (documented) winning claim is this member's
      tally(first, counts, "keptCountOf", seed, () -> {
        Map<PartitionRef, String> win = winners(h);
        for (String id : a.memberIds()) {
          int k = 0;
          for (PartitionRef p : a.partitionsOf(id)) {
            k += id.equals(win.get(p)) ? 1 : 0;
          }
          check(k == a.keptCountOf(id), id + ": keptCountOf " + a.keptCountOf(id) + ", expected " + k);
        }
      });
    });
    Fuzz.log("eager failures by category over " + n[0] + " cases: " + counts);
    first.forEach((k, v) -> Fuzz.log("  first " + k + " at seed " + v));
    check(counts.isEmpty(), "failures: " + counts + " first: " + first);
  }

  @Test
  void hostileEagerIsAFixpoint() {
    fuzz("eager fixpoint (result fed back moves nothing)", 600, seed -> {
      Hostile h = hostile(seed);
      RebalanceResult a = AssignmentPolicy.assign(h.members(), h.topics(), RebalanceMode.EAGER);
      Hostile next = after(h, a, 7);
      RebalanceResult b = AssignmentPolicy.assign(next.members(), next.topics(), RebalanceMode.EAGER);
      check(a.equals(b), "re-assigning the result moved partitions:\n" + a + "\n" + b);
    });
  }

  /** Cooperative rounds until nothing is pending; returns the rounds after the first and the end state. */
  static Object[] followUps(Hostile h, RebalanceResult first) {
    Hostile cur = after(h, first, 8);
    RebalanceResult b = first;
    int rounds = 0;
    while (!b.pendingRevocation().isEmpty()) {
      check(rounds < 10, "cooperative rebalances do not converge after 10 rounds: " + b);
      b = AssignmentPolicy.assign(cur.members(), cur.topics(), RebalanceMode.COOPERATIVE);
      valid(cur, b);
      cur = after(cur, b, 9 + rounds);
      rounds++;
    }
    return new Object[] {rounds, b};
  }

  @Test
  void hostileCooperativeIsSafeAndConverges() {
    int[] histogram = new int[11];
    fuzz("cooperative safe+converges", 200, seed -> {
      Hostile h = hostile(seed);
      RebalanceResult a = AssignmentPolicy.assign(h.members(), h.topics(), RebalanceMode.COOPERATIVE);
      valid(h, a);
      Map<PartitionRef, String> win = winners(h);
      Set<PartitionRef> claimed = claimedAtAll(h);
      for (String id : a.memberIds()) {
        for (PartitionRef p : a.partitionsOf(id)) {
          check(!claimed.contains(p) || id.equals(win.get(p)),
              p + " claimed but given to " + id + ", winner " + win.get(p));
        }
      }
      histogram[(int) followUps(h, a)[0]]++;
    });
    Fuzz.log("cooperative follow-up rounds histogram " + java.util.Arrays.toString(histogram));
  }

  /** {state after a change, equal weights?, kind of change}: see realisticCooperativeChangeNeedsOneFollowUp. */
  static Object[] realisticChange(long seed) {
      Random r = new Random(seed);
      Hostile h0 = hostile(seed);
      // clean it: no claims, sane generations, weights equal in half the cases
      boolean equalWeights = r.nextBoolean();
      List<GroupMember> clean = new ArrayList<>();
      for (GroupMember m : h0.members()) {
        clean.add(new GroupMember(m.memberId(), m.groupInstanceId(), m.rackId(),
            equalWeights ? 1 : 1 + r.nextInt(4), m.topics(), List.of(), 1));
      }
      Hostile g = new Hostile(clean, h0.topics());
      RebalanceResult before = AssignmentPolicy.assign(g.members(), g.topics(), RebalanceMode.EAGER);
      Hostile owned = after(g, before, 5);
      // the change
      List<GroupMember> changed = new ArrayList<>(owned.members());
      List<String> names = new ArrayList<>();
      g.topics().forEach(t -> names.add(t.name()));
      int change = r.nextInt(3);
      if (change == 0 || changed.size() < 2) { // joiners
        for (int k = 1 + r.nextInt(3); k > 0; k--) {
          Set<String> subs = new HashSet<>();
          for (String nm : names) {
            if (r.nextBoolean()) {
              subs.add(nm);
            }
          }
          changed.add(new GroupMember("joiner-" + k + "-" + r.nextInt(1000), null, null,
              equalWeights ? 1 : 1 + r.nextInt(4), subs.isEmpty() ? Set.copyOf(names) : subs, List.of(), -1));
        }
      } else if (change == 1) { // leavers
        for (int k = 1 + r.nextInt(Math.min(3, changed.size() - 1)); k > 0; k--) {
          changed.remove(r.nextInt(changed.size()));
        }
      } else { // a member changes its subscription
        int i = r.nextInt(changed.size());
        GroupMember m = changed.get(i);
        Set<String> subs = new HashSet<>();
        for (String nm : names) {
          if (r.nextBoolean()) {
            subs.add(nm);
          }
        }
        changed.set(i, new GroupMember(m.memberId(), m.groupInstanceId(), m.rackId(), m.weight(), subs,
            m.ownedPartitions(), m.generation()));
      }
      Hostile h = new Hostile(changed, g.topics());
      return new Object[] {h, equalWeights, change};
  }

  /**
   * Realistic cooperative groups: clean, disjoint ownership from an earlier assignment, then a
   * membership or subscription change (members join, leave, change topics). Counts the follow-up
   * rebalances until nothing is pending: usually one; with racks or non-equal subscriptions
   * sometimes more, as AssignmentPolicy documents (followUps fails past 10).
   */
  /**
   * The same realistic changes with every member subscribed to every topic, every topic of weight
   * 1 (the quota path; member weights equal in half the cases) and no racks: one follow-up
   * rebalance at most, as AssignmentPolicy documents. (With racks, re-alignment sees the new
   * ownership and about 1 % of these changes take two.)
   */
  @Test
  void realisticEqualSubscriptionChangeNeedsOneFollowUp() {
    int[] histogram = new int[12];
    fuzz("realistic cooperative change, equal subscriptions: one follow-up", 250, seed -> {
      Hostile rc = (Hostile) realisticChange(seed)[0];
      Set<String> all = new HashSet<>();
      rc.topics().forEach(t -> all.add(t.name()));
      List<GroupMember> equal = new ArrayList<>();
      for (GroupMember m : rc.members()) {
        equal.add(new GroupMember(m.memberId(), m.groupInstanceId(), null, m.weight(), all,
            m.ownedPartitions(), m.generation()));
      }
      List<AssignableTopic> unweighted = new ArrayList<>();
      rc.topics().forEach(t -> unweighted.add(AssignableTopic.of(t.name(), t.partitions())));
      Hostile h = new Hostile(equal, unweighted);
      RebalanceResult a = AssignmentPolicy.assign(h.members(), h.topics(), RebalanceMode.COOPERATIVE);
      valid(h, a);
      int rounds = (int) followUps(h, a)[0];
      histogram[rounds]++;
      check(rounds <= 1, "equal subscriptions took " + rounds + " follow-up rebalances");
    });
    Fuzz.log("realistic cooperative follow-ups, all subscribed to all "
        + java.util.Arrays.toString(histogram));
  }

  @Test
  void realisticCooperativeChangeFollowUps() {
    int[][] histogram = new int[3][12];
    String[] firstMulti = new String[3];
    fuzz("realistic cooperative change: follow-ups", 400, seed -> {
      Object[] rc = realisticChange(seed);
      Hostile h = (Hostile) rc[0];
      boolean equalWeights = (boolean) rc[1];
      int change = (int) rc[2];
      RebalanceResult a = AssignmentPolicy.assign(h.members(), h.topics(), RebalanceMode.COOPERATIVE);
      valid(h, a);
      int rounds = (int) followUps(h, a)[0];
      boolean equalSubs = h.members().stream().allMatch(m -> m.topics().equals(h.members().get(0).topics()));
      int w = equalSubs ? 2 : equalWeights ? 0 : 1;
      histogram[w][rounds]++;
      if (rounds > 1 && firstMulti[w] == null) {
        firstMulti[w] = "seed " + seed + " change " + change + " rounds " + rounds;
      }
    });
    Fuzz.log("realistic cooperative follow-ups, mixed subscriptions, equal weights " + java.util.Arrays.toString(histogram[0])
        + " first >1: " + firstMulti[0]);
    Fuzz.log("realistic cooperative follow-ups, mixed subscriptions, weighted " + java.util.Arrays.toString(histogram[1])
        + " first >1: " + firstMulti[1]);
    Fuzz.log("realistic cooperative follow-ups, equal subscriptions " + java.util.Arrays.toString(histogram[2])
        + " first >1: " + firstMulti[2]);
    // every case converged within 10 rounds (followUps checks it); more than one follow-up is
    // documented for racks and non-equal subscriptions, so the histograms are information
  }

  @Test
  void ownedPartitionsFormMatchesRefsFormUnderHostileClaims() {
    fuzz("OwnedPartitions form == PartitionRef form", 500, seed -> {
      Hostile h = hostile(seed);
      Random r = new Random(seed * 31 + 7);
      List<AssignableTopic> topics = new ArrayList<>(h.topics());
      Collections.shuffle(topics, r);
      Map<String, Integer> pos = new HashMap<>();
      for (int t = 0; t < topics.size(); t++) {
        pos.put(topics.get(t).name(), t);
      }
      List<GroupMember> bare = new ArrayList<>();
      List<List<int[]>> calls = new ArrayList<>(); // per member: {topic, p...}
      for (GroupMember m : h.members()) {
        bare.add(m.withOwned(List.of(), m.generation()));
        List<int[]> cs = new ArrayList<>();
        for (PartitionRef p : m.ownedPartitions()) {
          Integer t = pos.get(p.topic());
          cs.add(new int[] {t == null ? (r.nextBoolean() ? -1 - r.nextInt(3) : topics.size() + r.nextInt(3)) : t,
              p.partition()});
        }
        for (int k = r.nextInt(3); k > 0; k--) { // negative numbers, only this form can say them
          cs.add(new int[] {r.nextInt(topics.size()), -1 - r.nextInt(Integer.MAX_VALUE)});
        }
        calls.add(cs);
      }
      int[] buf = new int[4];
      int[] calls0 = new int[bare.size()];
      OwnedPartitions owned = (member, sink) -> {
        calls0[member]++;
        for (int[] c : calls.get(member)) {
          buf[0] = c[1];
          buf[1] = 12345; // beyond count: must not be read
          sink.accept(c[0], buf, 1);
        }
        sink.accept(0, buf, 0);
      };
      RebalanceResult a = AssignmentPolicy.assign(h.members(), h.topics(), RebalanceMode.COOPERATIVE);
      RebalanceResult b = AssignmentPolicy.assign(bare, topics, owned, RebalanceMode.COOPERATIVE);
      check(a.equals(b), "forms differ:\n" + a + "\n" + b);
      for (int i = 0; i < calls0.length; i++) {
        check(calls0[i] == 1, "forEachOwned called " + calls0[i] + " times for member " + i);
      }
      for (int i = 0; i < bare.size(); i++) {
        check(bare.get(i).memberId().equals(h.members().get(i).memberId()), "caller's member list reordered");
      }
      for (String id : a.memberIds()) {
        check(a.keptCountOf(id) == b.keptCountOf(id), "kept differs for " + id);
      }
      // the caller's lists are not reordered
      check(topics.get(0).name().equals(topics.get(0).name()), "");
    });
  }
}
