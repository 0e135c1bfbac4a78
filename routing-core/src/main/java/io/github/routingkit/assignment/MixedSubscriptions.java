package io.github.routingkit.assignment;

import java.util.Arrays;

/**
 * The builder for members whose subscriptions differ (Kafka's "general" case). It works on counts
 * first, member by topic, and picks concrete partitions last, one topic at a time.
 */
final class MixedSubscriptions {
  private MixedSubscriptions() {}

  /**
   * Assigns the partitions of topics {@code ct} (ascending) to members {@code cm} (canonical
   * order); each member subscribes to some of them, each topic has a subscriber.
   *
   * <ol>
   *   <li>Keep: every member keeps the count of each topic it owns (its winning claims).</li>
   *   <li>Fill: unowned partitions, topic by topic from the fewest subscribers, each to the
   *       subscriber whose load per weight would be lowest after taking it.</li>
   *   <li>Balance: while some topic has a subscriber {@code i} and a holder {@code j} such that
   *       moving one partition from {@code j} to {@code i} brings their loads per weight closer
   *       ({@code (2*L_i + c) * w_j < (2*L_j - c) * w_i}; with equal weights: {@code j} holds at
   *       least two more than {@code i}, Kafka's criterion), move it, taking first partitions
   *       that were unowned, so a partition moves only when balance needs it. Where that move
   *       would take a partition {@code j} owned, a breadth-first search looks for a chain of
   *       moves of unowned partitions (or of partitions handed back to a member that owned them)
   *       that gives {@code i} one partition from some member that may give one to it, through
   *       members whose loads stay the same, and then for one from {@code j}'s side that takes
   *       one partition from {@code j} to some member that may take one; if there is one, it is
   *       taken instead. A chain that only swaps two loads (no closer) is taken only if Kafka's
   *       criterion then holds around every member on it.</li>
   *   <li>Hand back: for a member that lost a partition of a topic it still subscribes to, a
   *       chain that hands it one back, from a member whose load per weight is at least as high
   *       after the move, moving only unowned partitions otherwise; kept only if Kafka's
   *       criterion still holds around every member on the chain (ties between equally balanced
   *       outcomes go to the one that moves fewer owned partitions).</li>
   *   <li>Fewest moves: without racks, {@link MoveMinimizer} replaces the counts by balanced ones
   *       that keep more owned partitions, if its bounded search finds any.</li>
   *   <li>Per topic, {@link PartitionSelector} with need = the member's count: owned partitions
   *       are kept up to it, with rack-local placement and rack re-alignment.</li>
   * </ol>
   * Step 3 ends because every move and every chain but a load swap lowers {@code sum(L^2/w)},
   * and every search spends budget; step 4 because every chain moves one owned partition fewer.
   * The searches of each step share a budget
   * of {@code 4*S + 1024} visited (member, topic) slots for {@code S} slots (a search that would
   * overrun it stops unsuccessful, and the direct move is made), so they add {@code O(S)}.
   */
  static void assign(GroupIndex g, int[] cm, int[] ct) {
    SubscriptionSlots s = new SubscriptionSlots(g, cm, ct);
    int[] free = keep(s);
    fill(s, free);
    BalanceChains chain = new BalanceChains(s);
    balance(s, chain);
    handBack(s, chain);
    MoveMinimizer.apply(s);
    selectPartitions(s);
  }

  /** 1. Keep: each member's count of each topic starts at what it owns; returns the unowned per topic. */
  private static int[] keep(SubscriptionSlots s) {
    GroupIndex g = s.g;
    int[] slotOfMember = new int[s.members];
    Arrays.fill(slotOfMember, -1);
    int[] free = new int[s.topics];
    for (int j = 0; j < s.topics; j++) {
      int t = s.ct[j];
      for (int q = s.slotStart[j]; q < s.slotStart[j + 1]; q++) {
        slotOfMember[s.slotMember[q]] = q;
      }
      for (int gp = g.offset[t]; gp < g.offset[t + 1]; gp++) {
        int o = g.owner[gp];
        if (o >= 0) {
          int q = slotOfMember[s.localM[o]];
          s.cnt[q]++;
          s.own[q]++;
          s.load[s.localM[o]] += g.topicWeight[t];
        } else {
          free[j]++;
        }
      }
      for (int q = s.slotStart[j]; q < s.slotStart[j + 1]; q++) {
        slotOfMember[s.slotMember[q]] = -1;
      }
    }
    return free;
  }

  /**
   * 2. Fill: unowned partitions, most constrained topics first (fewest subscribers, then heaviest),
   * each to the subscriber whose load per weight is lowest after taking it.
   */
  private static void fill(SubscriptionSlots s, int[] free) {
    int tcount = s.topics;
    int[] subCount = s.subCount;
    GroupIndex g = s.g;
    int[] ct = s.ct;
    Integer[] order = new Integer[tcount];
    for (int j = 0; j < tcount; j++) {
      order[j] = j;
    }
    Arrays.sort(order, (a, b) -> subCount[a] != subCount[b] ? Integer.compare(subCount[a], subCount[b])
        : g.topicWeight[ct[a]] != g.topicWeight[ct[b]]
            ? Integer.compare(g.topicWeight[ct[b]], g.topicWeight[ct[a]]) : Integer.compare(a, b));
    long[] load = s.load;
    long[] w = s.w;
    int[] slotMember = s.slotMember;
    for (int j : order) {
      if (free[j] == 0) {
        continue;
      }
      long c = s.cost(j);
      int base = s.slotStart[j];
      int size = subCount[j];
      if (fillLevel(load, w, slotMember, s.cnt, base, size, c, free[j])) {
        continue;
      }
      IntHeap h = new IntHeap(size, (a, b) -> {
        int ka = slotMember[base + a];
        int kb = slotMember[base + b];
        int cmp = Long.compare((load[ka] + c) * w[kb], (load[kb] + c) * w[ka]);
        return cmp != 0 ? cmp : Integer.compare(a, b);
      });
      for (int a = 0; a < size; a++) {
        h.add(a);
      }
      for (int u = 0; u < free[j]; u++) {
        int a = h.peek();
        int k = slotMember[base + a];
        s.cnt[base + a]++;
        load[k] += c;
        h.update(a);
      }
    }
  }

  /**
   * The heap's picks in {@link #fill} in closed form where the topic's subscribers all have one
   * weight: the heap then always takes the subscriber with the least load (ties: the first slot),
   * and a subscriber's {@code u}-th take comes at load {@code load + u * c}, so the {@code f} takes
   * are the {@code f} smallest pairs {@code (load + u * c, slot)}: every subscriber takes what it
   * can below the level where they run out, and the first subscribers (in slot order) that reach
   * that level exactly take the rest. {@code O(size * log(f))} instead of {@code O(f * log(size))};
   * the same counts and loads. Returns false (nothing done) where the weights differ or the
   * products the heap compares could come near overflow.
   */
  static boolean fillLevel(long[] load, long[] w, int[] slotMember, int[] cnt, int base, int size,
      long c, int f) {
    if (size == 0 || c < 1) {
      return false;
    }
    long w0 = w[slotMember[base]];
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (int a = 0; a < size; a++) {
      int k = slotMember[base + a];
      if (w[k] != w0) {
        return false;
      }
      min = Math.min(min, load[k]);
      max = Math.max(max, load[k]);
    }
    long limit = 1L << 40;
    if (w0 < 1 || w0 > (1L << 20) || min < 0 || c > limit || max > limit || (long) f * c > limit) {
      return false;
    }
    // The smallest level t with at least f takes at or below it (t <= min + (f - 1) * c).
    long lo = min;
    long hi = min + (long) (f - 1) * c;
    while (lo < hi) {
      long mid = lo + (hi - lo) / 2;
      if (takesUpTo(load, slotMember, base, size, c, mid, f) >= f) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    long t = lo;
    long rest = f - takesUpTo(load, slotMember, base, size, c, t - 1, f);
    for (int a = 0; a < size; a++) {
      int k = slotMember[base + a];
      long l = load[k];
      long u = l <= t - 1 ? (t - 1 - l) / c + 1 : 0;
      if (rest > 0 && l <= t && (t - l) % c == 0) {
        u++;
        rest--;
      }
      cnt[base + a] += (int) u;
      load[k] = l + u * c;
    }
    return true;
  }

  /** How many takes come at a load of at most {@code t} (counted up to {@code cap}). */
  private static long takesUpTo(long[] load, int[] slotMember, int base, int size, long c, long t,
      long cap) {
    long n = 0;
    for (int a = 0; a < size && n < cap; a++) {
      long l = load[slotMember[base + a]];
      if (l <= t) {
        n += (t - l) / c + 1;
      }
    }
    return n;
  }

  /** 3. Balance: direct moves (in batches where weights are equal) or chains, until none helps. */
  private static void balance(SubscriptionSlots s, BalanceChains chain) {
    chain.budget = 4L * s.slots + 1024;
    MovePick pick = new MovePick(s);
    boolean changed = true;
    while (changed) {
      changed = false;
      for (int j = 0; j < s.topics; j++) {
        while (balanceStep(s, chain, pick, j)) {
          changed = true;
        }
      }
    }
  }

  /**
   * One move (or batch, or chain) for local topic {@code j} if one brings two members' loads per
   * weight closer; false if none does.
   */
  private static boolean balanceStep(SubscriptionSlots s, BalanceChains chain, MovePick pick,
      int j) {
    long c = s.cost(j);
    pick.scan(j, c);
    int recv = pick.recv;
    int give = pick.give;
    if (recv < 0 || give < 0 || recv == give) {
      return false;
    }
    int kr = s.slotMember[recv];
    int kg = s.slotMember[give];
    if (!s.improves(c, kr, kg)) {
      return false;
    }
    if (s.cnt[give] <= s.own[give] && s.cnt[recv] >= s.own[recv]
        && (chain.find(kr, c) || chain.findFrom(kg, c))) {
      // The direct move would take an owned partition; a chain of moves that take only
      // partitions nobody owned (or hand one back to its owner) balances as well, for free.
      // The rescan of this topic that follows is charged to the searches' budget too.
      chain.budget -= s.slotStart[j + 1] - s.slotStart[j];
      return true;
    }
    int units = s.w[kr] == s.w[kg] ? batch(s, pick, c) : 1;
    s.cnt[give] -= units;
    s.cnt[recv] += units;
    s.load[kg] -= units * c;
    s.load[kr] += units * c;
    return true;
  }

  /**
   * Equal weights: how many partitions to move at once, no further than the next giver's and the
   * next receiver's level, so no member overshoots and has to take partitions back later.
   */
  private static int batch(SubscriptionSlots s, MovePick pick, long c) {
    int kr = s.slotMember[pick.recv];
    int kg = s.slotMember[pick.give];
    long[] load = s.load;
    long[] w = s.w;
    long gap = (load[kg] - load[kr]) / (2 * c);
    if (pick.give2 >= 0 && w[s.slotMember[pick.give2]] == w[kg]) {
      gap = Math.min(gap, (load[kg] - load[s.slotMember[pick.give2]]) / c + 1);
    }
    if (pick.recv2 >= 0 && w[s.slotMember[pick.recv2]] == w[kr]) {
      gap = Math.min(gap, (load[s.slotMember[pick.recv2]] - load[kr]) / c + 1);
    }
    int freeUnits = s.cnt[pick.give] - s.own[pick.give];
    gap = Math.min(gap, freeUnits > 0 ? freeUnits : s.cnt[pick.give]);
    return (int) Math.max(1, Math.min(gap, s.cnt[pick.give]));
  }

  /** The best and second-best receiving and giving slots of one topic (-1 if none). */
  private static final class MovePick {
    private final SubscriptionSlots s;
    int recv;
    int give;
    int recv2;
    int give2;

    MovePick(SubscriptionSlots s) {
      this.s = s;
    }

    void scan(int j, long c) {
      recv = -1;
      give = -1;
      recv2 = -1;
      give2 = -1;
      for (int q = s.slotStart[j]; q < s.slotStart[j + 1]; q++) {
        int k = s.slotMember[q];
        if (recv < 0 || s.before(c, k, s.slotMember[recv])) {
          recv2 = recv;
          recv = q;
        } else if (recv2 < 0 || s.before(c, k, s.slotMember[recv2])) {
          recv2 = q;
        }
        if (s.cnt[q] > 0) {
          if (give < 0 || s.givesFirst(c, q, give)) {
            give2 = give;
            give = q;
          } else if (give2 < 0 || s.givesFirst(c, q, give2)) {
            give2 = q;
          }
        }
      }
    }
  }

  /**
   * 4. Hand back: where balance took an owned partition although a chain of unowned ones could
   * have gone instead (ties between equally balanced outcomes), take the cheaper one. Each success
   * moves one owned partition fewer, so this ends; the work is capped at a few passes over the
   * slots.
   */
  private static void handBack(SubscriptionSlots s, BalanceChains chain) {
    chain.budget = 4L * s.slots + 1024;
    boolean handed = true;
    while (handed && chain.budget > 0) {
      handed = false;
      chain.budget -= s.slots;
      for (int q = 0; q < s.slots && chain.budget > 0; q++) {
        if (s.cnt[q] < s.own[q]) {
          handed |= chain.handBack(s.slotMember[q], s.cost(s.slotTopic[q]));
        }
      }
    }
  }

  /** 5. Partitions, topic by topic: {@link PartitionSelector} with need = the member's count. */
  private static void selectPartitions(SubscriptionSlots s) {
    GroupIndex g = s.g;
    int[] slotOfMember = new int[s.members];
    for (int j = 0; j < s.topics; j++) {
      int t = s.ct[j];
      int size = s.subCount[j];
      int base = s.slotStart[j];
      int[] members = new int[size];
      long[] need = new long[size];
      int[] ownedCount = new int[size];
      for (int a = 0; a < size; a++) {
        members[a] = s.cm[s.slotMember[base + a]];
        need[a] = s.cnt[base + a];
        slotOfMember[s.slotMember[base + a]] = a;
      }
      int pcount = g.offset[t + 1] - g.offset[t];
      int[] parts = new int[pcount];
      for (int gp = g.offset[t]; gp < g.offset[t + 1]; gp++) {
        parts[gp - g.offset[t]] = gp;
        if (g.owner[gp] >= 0) {
          ownedCount[slotOfMember[s.localM[g.owner[gp]]]]++;
        }
      }
      int[][] keep = new int[size][];
      for (int a = 0; a < size; a++) {
        keep[a] = new int[ownedCount[a]];
        ownedCount[a] = 0;
      }
      for (int gp = g.offset[t]; gp < g.offset[t + 1]; gp++) {
        if (g.owner[gp] >= 0) {
          int a = slotOfMember[s.localM[g.owner[gp]]];
          keep[a][ownedCount[a]++] = gp;
        }
      }
      new PartitionSelector(g, members, need, null, true).select(parts, keep);
    }
  }
}
