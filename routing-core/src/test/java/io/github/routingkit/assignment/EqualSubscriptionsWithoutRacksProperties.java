package io.github.routingkit.assignment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.LongFunction;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * The shortcut for groups of equal subscriptions without racks ({@link EqualSubscriptionsWithoutRacks})
 * gives exactly the general path's result (so every guarantee of {@link AssignmentPolicy} the
 * general path's tests check holds for it too): the same partitions per member, the same pending
 * revocations and kept counts, in both modes, over seeded random groups of that shape with member
 * weights, static members, one generation, double claims, claims out of range, of unknown and of
 * unsubscribed topics, claims reported unsorted, twice or split over calls, and sticky histories.
 * A failure names its seed and a counterexample shrunk by dropping members and claims.
 */
class EqualSubscriptionsWithoutRacksProperties {

  /** A group: topics as given, members (with {@link PartitionRef} claims) and per-member reports. */
  record Case(List<AssignableTopic> topics, List<GroupMember> members, List<List<int[]>> reports) {
    OwnedPartitions owned() {
      int[] buffer = new int[512];
      return (member, sink) -> {
        for (int[] r : reports.get(member)) {
          int c = r.length - 1;
          System.arraycopy(r, 1, buffer, 0, c);
          sink.accept(r[0], buffer, c);
          Arrays.fill(buffer, 0, Math.max(c, 1), -7); // read before returning
        }
      };
    }

    RebalanceResult assign(RebalanceMode mode, boolean shortcut) {
      return AssignmentPolicy.assign(members.toArray(new GroupMember[0]),
          topics.toArray(new AssignableTopic[0]), owned(), mode, shortcut);
    }

    @Override
    public String toString() {
      StringBuilder b = new StringBuilder("topics ").append(topics).append('\n');
      for (int i = 0; i < members.size(); i++) {
        GroupMember m = members.get(i);
        b.append("  ").append(m.memberId()).append(" instance=").append(m.groupInstanceId())
            .append(" weight=").append(m.weight()).append(" gen=").append(m.generation())
            .append(" topics=").append(new TreeSet<>(m.topics())).append(" refs=")
            .append(m.ownedPartitions()).append(" reports=");
        for (int[] r : reports.get(i)) {
          b.append(Arrays.toString(r));
        }
        b.append('\n');
      }
      return b.toString();
    }
  }

  static Case random(long seed) {
    Random r = new Random(seed);
    int topicCount = 1 + r.nextInt(4);
    int weight = r.nextInt(4) == 0 ? 1 + r.nextInt(3) : 1;
    List<AssignableTopic> topics = new ArrayList<>();
    for (int t = 0; t < topicCount; t++) {
      topics.add(new AssignableTopic("topic-" + t, r.nextInt(8) == 0 ? 0 : r.nextInt(60), List.of(),
          weight));
    }
    Set<String> subs = subscription(r, topics);
    if (r.nextInt(3) == 0) {
      // A topic nobody subscribes to, of another weight: claims of it give nothing.
      topics.add(new AssignableTopic("unsubscribed", 1 + r.nextInt(20), List.of(), weight + 1));
    }
    Collections.shuffle(topics, r);
    int memberCount = 1 + r.nextInt(25);
    int generation = r.nextInt(3) - 1;
    boolean weighted = r.nextBoolean();
    List<GroupMember> members = new ArrayList<>();
    for (int i = 0; i < memberCount; i++) {
      GroupMember m = new GroupMember("member-" + Long.toHexString(r.nextLong()),
          r.nextInt(3) == 0 ? "instance-" + r.nextInt(1000) : null, null,
          weighted ? 1 + r.nextInt(5) : 1, r.nextBoolean() ? subs : new HashSet<>(subs), List.of(),
          generation);
      members.add(m);
    }
    // Disjoint ownership of a random share, from a previous assignment of this shape (a sticky
    // history) or drawn at random; then some noise.
    List<List<PartitionRef>> owned = new ArrayList<>();
    if (r.nextBoolean()) {
      Case before = new Case(topics, members, emptyReports(memberCount));
      RebalanceResult prev = before.assign(RebalanceMode.EAGER, false);
      for (GroupMember m : members) {
        owned.add(new ArrayList<>(prev.partitionsOf(m.memberId())));
      }
      // Someone leaves and someone joins.
      if (memberCount > 1 && r.nextBoolean()) {
        owned.set(r.nextInt(memberCount), new ArrayList<>());
      }
    } else {
      for (int i = 0; i < memberCount; i++) {
        owned.add(new ArrayList<>());
      }
      int share = r.nextInt(5);
      for (AssignableTopic t : topics) {
        for (int p = 0; p < t.partitions(); p++) {
          if (r.nextInt(5) < share) {
            owned.get(r.nextInt(memberCount)).add(new PartitionRef(t.name(), p));
          }
        }
      }
    }
    return withClaims(r, topics, members, owned, generation);
  }

  /** The members' one subscription: most of {@code topics}, sometimes a topic not in them. */
  static Set<String> subscription(Random r, List<AssignableTopic> topics) {
    Set<String> subs = new HashSet<>();
    for (AssignableTopic t : topics) {
      if (r.nextInt(5) != 0) {
        subs.add(t.name());
      }
    }
    if (r.nextInt(4) == 0) {
      subs.add("not-in-metadata");
    }
    return subs;
  }

  /**
   * The case in which each member claims {@code owned} (its list is extended), plus doubles, claims
   * out of range and of an unknown topic; each claim is given as a {@code PartitionRef} or in a
   * report by topic position (unsorted, twice or split over reports, some empty).
   */
  static Case withClaims(Random r, List<AssignableTopic> topics, List<GroupMember> members,
      List<List<PartitionRef>> owned, int generation) {
    int memberCount = members.size();
    List<List<int[]>> reports = new ArrayList<>();
    List<List<PartitionRef>> refs = new ArrayList<>();
    for (int i = 0; i < memberCount; i++) {
      reports.add(new ArrayList<>());
      refs.add(new ArrayList<>());
    }
    for (int i = 0; i < memberCount; i++) {
      List<PartitionRef> claims = owned.get(i);
      for (int k = r.nextInt(3) == 0 ? r.nextInt(4) : 0; k > 0; k--) {
        AssignableTopic t = topics.get(r.nextInt(topics.size()));
        claims.add(new PartitionRef(t.name(), r.nextInt(t.partitions() + 3))); // double or out of range
      }
      if (r.nextInt(8) == 0) {
        claims.add(new PartitionRef("no-such-topic", 0));
      }
      // Each claim as a PartitionRef or in a report, by topic position.
      List<List<Integer>> byTopic = new ArrayList<>();
      for (int t = 0; t <= topics.size() + 1; t++) {
        byTopic.add(new ArrayList<>());
      }
      for (PartitionRef p : claims) {
        int at = -1;
        for (int t = 0; t < topics.size(); t++) {
          at = topics.get(t).name().equals(p.topic()) ? t : at;
        }
        if (at >= 0 && r.nextInt(4) == 0) {
          refs.get(i).add(p);
        } else {
          byTopic.get(at < 0 ? topics.size() + r.nextInt(2) : at).add(p.partition());
        }
      }
      List<int[]> rep = reports.get(i);
      for (int t = 0; t < byTopic.size(); t++) {
        List<Integer> ps = byTopic.get(t);
        if (ps.isEmpty() && r.nextInt(6) != 0) {
          continue;
        }
        if (r.nextInt(3) == 0) {
          Collections.shuffle(ps, r);
        } else {
          Collections.sort(ps);
        }
        if (r.nextInt(6) == 0 && !ps.isEmpty()) {
          ps.add(ps.get(r.nextInt(ps.size()))); // the same claim twice
        }
        if (ps.size() > 1 && r.nextInt(5) == 0) {
          int cut = ps.size() / 2;
          rep.add(report(t, ps.subList(0, cut)));
          rep.add(report(t, ps.subList(cut, ps.size())));
        } else {
          rep.add(report(t, ps));
        }
      }
      Collections.shuffle(rep, r);
      List<PartitionRef> rs = refs.get(i);
      if (r.nextBoolean()) {
        Collections.shuffle(rs, r);
      }
      members.set(i, members.get(i).withOwned(rs, generation));
    }
    return new Case(topics, members, reports);
  }

  static List<List<int[]>> emptyReports(int n) {
    List<List<int[]>> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(List.of());
    }
    return out;
  }

  static int[] report(int topic, List<Integer> ps) {
    int[] r = new int[ps.size() + 1];
    r[0] = topic;
    for (int j = 0; j < ps.size(); j++) {
      r[j + 1] = ps.get(j);
    }
    return r;
  }

  private static final String NOT_APPLICABLE = "the shortcut does not apply";

  /** Null if the shortcut agrees with the general path on {@code c}, else what differs. */
  static String disagreement(Case c) {
    return disagreement(c, GroupShape.EQUAL_SUBSCRIPTIONS_WITHOUT_RACKS, "shortcut", NOT_APPLICABLE);
  }

  /**
   * Null if the builder of {@code shape} (through {@code AssignmentPolicy}'s shortcuts) agrees
   * with the general path on {@code c} in both modes (partitions, pending revocations, kept
   * counts), {@code notApplicable} if {@code c} is not of that shape, else what differs.
   */
  static String disagreement(Case c, GroupShape shape, String path, String notApplicable) {
    if (GroupShape.of(c.members().toArray(new GroupMember[0]),
        c.topics().toArray(new AssignableTopic[0])) != shape) {
      return notApplicable;
    }
    for (RebalanceMode mode : RebalanceMode.values()) {
      RebalanceResult general = c.assign(mode, false);
      RebalanceResult other;
      try {
        other = c.assign(mode, true);
      } catch (RuntimeException e) {
        return mode + ": the " + path + " threw " + e;
      }
      if (other.shape() != shape || general.shape() != GroupShape.GENERAL) {
        return mode + ": the " + path + " reports shape " + other.shape() + ", the general path "
            + general.shape();
      }
      if (!other.equals(general)) {
        return mode + ": " + path + " " + other + "\n  general  " + general;
      }
      for (GroupMember m : c.members()) {
        if (other.keptCountOf(m.memberId()) != general.keptCountOf(m.memberId())) {
          return mode + ": kept count of " + m.memberId() + " " + other.keptCountOf(m.memberId())
              + ", general path " + general.keptCountOf(m.memberId());
        }
      }
    }
    return null;
  }

  /**
   * Fails on the first of 3,000 seeds (from {@code -Droutingkit.seed}, default 0) whose case
   * disagrees, with the seed and a counterexample shrunk by dropping members and claims.
   */
  static void agreesOnSeeds(LongFunction<Case> random, Function<Case, String> disagreement,
      String notApplicable) {
    long base = Long.getLong("routingkit.seed", 0L);
    for (long seed = base; seed < base + 3000; seed++) {
      Case c = random.apply(seed);
      String d = disagreement.apply(c);
      if (d != null) {
        Case small = shrink(c, x -> {
          String e = disagreement.apply(x);
          return e != null && !notApplicable.equals(e);
        });
        throw new AssertionError("seed " + seed + " (replay with -Droutingkit.seed=" + seed + "): "
            + d + "\nshrunk counterexample:\n" + small + "  " + disagreement.apply(small)
            + "\noriginal:\n" + c);
      }
    }
  }

  @Test
  void shortcutGivesTheGeneralPathsResult() {
    agreesOnSeeds(EqualSubscriptionsWithoutRacksProperties::random,
        EqualSubscriptionsWithoutRacksProperties::disagreement, NOT_APPLICABLE);
  }

  @Test
  void shortcutAppliesOnlyToItsShape() {
    Case c = random(7);
    GroupMember[] ms = c.members().toArray(new GroupMember[0]);
    AssignableTopic[] ts = c.topics().toArray(new AssignableTopic[0]);
    assertThat(GroupShape.of(ms, ts)).isEqualTo(GroupShape.EQUAL_SUBSCRIPTIONS_WITHOUT_RACKS);
    GroupMember[] racked = ms.clone();
    racked[0] = racked[0].withRack("rack-a");
    assertThat(GroupShape.of(racked, ts)).isNotEqualTo(GroupShape.EQUAL_SUBSCRIPTIONS_WITHOUT_RACKS);
    if (ms.length > 1) {
      GroupMember[] otherGen = ms.clone();
      otherGen[1] = otherGen[1].withOwned(otherGen[1].ownedPartitions(), otherGen[1].generation() + 1);
      assertThat(GroupShape.of(otherGen, ts)).isNotEqualTo(GroupShape.EQUAL_SUBSCRIPTIONS_WITHOUT_RACKS);
      GroupMember[] otherSubs = ms.clone();
      Set<String> fewer = new HashSet<>(ms[1].topics());
      fewer.add("another");
      otherSubs[1] = new GroupMember(ms[1].memberId(), null, null, 1, fewer, List.of(), ms[1].generation());
      assertThat(GroupShape.of(otherSubs, ts)).isNotEqualTo(GroupShape.EQUAL_SUBSCRIPTIONS_WITHOUT_RACKS);
    }
    assertThat(GroupShape.of(new GroupMember[0], ts)).isNotEqualTo(GroupShape.EQUAL_SUBSCRIPTIONS_WITHOUT_RACKS);
    AssignableTopic[] weighted = {AssignableTopic.of("a", 3), AssignableTopic.of("b", 3).withWeight(2)};
    GroupMember[] both = {GroupMember.of("m", Set.of("a", "b"))};
    assertThat(GroupShape.of(both, weighted)).isNotEqualTo(GroupShape.EQUAL_SUBSCRIPTIONS_WITHOUT_RACKS);
  }

  /** Greedy: drop members, then single claims and reports, then topics, while {@code fails} holds. */
  static Case shrink(Case c, Predicate<Case> fails) {
    boolean progress = true;
    while (progress) {
      progress = false;
      for (int i = 0; i < c.members().size() && c.members().size() > 1; i++) {
        List<GroupMember> ms = new ArrayList<>(c.members());
        List<List<int[]>> rs = new ArrayList<>(c.reports());
        ms.remove(i);
        rs.remove(i);
        Case x = new Case(c.topics(), ms, rs);
        if (fails.test(x)) {
          c = x;
          progress = true;
          i--;
        }
      }
      for (int i = 0; i < c.members().size(); i++) {
        List<PartitionRef> own = c.members().get(i).ownedPartitions();
        for (int j = 0; j < own.size(); j++) {
          List<PartitionRef> fewer = new ArrayList<>(own);
          fewer.remove(j);
          List<GroupMember> ms = new ArrayList<>(c.members());
          ms.set(i, ms.get(i).withOwned(fewer, ms.get(i).generation()));
          Case x = new Case(c.topics(), ms, c.reports());
          if (fails.test(x)) {
            c = x;
            own = fewer;
            progress = true;
            j--;
          }
        }
        List<int[]> rep = c.reports().get(i);
        for (int j = 0; j < rep.size(); j++) {
          for (int k = rep.get(j).length - 1; k >= 0; k--) {
            List<int[]> fewer = new ArrayList<>(rep);
            if (k == 0) {
              fewer.remove(j);
            } else {
              int[] a = rep.get(j);
              int[] b = new int[a.length - 1];
              System.arraycopy(a, 0, b, 0, k);
              System.arraycopy(a, k + 1, b, k, a.length - k - 1);
              fewer.set(j, b);
            }
            List<List<int[]>> rs = new ArrayList<>(c.reports());
            rs.set(i, fewer);
            Case x = new Case(c.topics(), c.members(), rs);
            if (fails.test(x)) {
              c = x;
              rep = fewer;
              progress = true;
              break;
            }
          }
        }
      }
    }
    return c;
  }
}
