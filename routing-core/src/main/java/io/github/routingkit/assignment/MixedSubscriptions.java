package io.github.routingkit.assignment;

import java.util.Arrays;
import java.util.BitSet;

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
    int n = cm.length;
    int tcount = ct.length;
    int[] localT = new int[g.tps.length];
    Arrays.fill(localT, -1);
    for (int j = 0; j < tcount; j++) {
      localT[ct[j]] = j;
    }
    long[] w = new long[n];
    int[] subCount = new int[tcount];
    for (int k = 0; k < n; k++) {
      w[k] = g.mem[cm[k]].weight();
      BitSet s = g.subscribed[cm[k]];
      for (int t = s.nextSetBit(0); t >= 0; t = s.nextSetBit(t + 1)) {
        subCount[localT[t]]++;
      }
    }
    int[] slotStart = new int[tcount + 1];
    for (int j = 0; j < tcount; j++) {
      slotStart[j + 1] = slotStart[j] + subCount[j];
    }
    int slots = slotStart[tcount];
    int[] slotMember = new int[slots];
    int[] cursor = Arrays.copyOf(slotStart, tcount);
    for (int k = 0; k < n; k++) {
      BitSet s = g.subscribed[cm[k]];
      for (int t = s.nextSetBit(0); t >= 0; t = s.nextSetBit(t + 1)) {
        slotMember[cursor[localT[t]]++] = k;
      }
    }
    int[] cnt = new int[slots];
    int[] own = new int[slots];
    long[] load = new long[n];
    int[] free = new int[tcount];
    int[] slotOfMember = new int[n];
    Arrays.fill(slotOfMember, -1);
    int[] localM = new int[g.mem.length];
    for (int k = 0; k < n; k++) {
      localM[cm[k]] = k;
    }

    // 1. Keep.
    for (int j = 0; j < tcount; j++) {
      int t = ct[j];
      for (int s = slotStart[j]; s < slotStart[j + 1]; s++) {
        slotOfMember[slotMember[s]] = s;
      }
      for (int gp = g.offset[t]; gp < g.offset[t + 1]; gp++) {
        int o = g.owner[gp];
        if (o >= 0) {
          int s = slotOfMember[localM[o]];
          cnt[s]++;
          own[s]++;
          load[localM[o]] += g.topicWeight[t];
        } else {
          free[j]++;
        }
      }
      for (int s = slotStart[j]; s < slotStart[j + 1]; s++) {
        slotOfMember[slotMember[s]] = -1;
      }
    }

    // 2. Fill, most constrained topics first.
    Integer[] order = new Integer[tcount];
    for (int j = 0; j < tcount; j++) {
      order[j] = j;
    }
    Arrays.sort(order, (a, b) -> subCount[a] != subCount[b] ? Integer.compare(subCount[a], subCount[b])
        : g.topicWeight[ct[a]] != g.topicWeight[ct[b]]
            ? Integer.compare(g.topicWeight[ct[b]], g.topicWeight[ct[a]]) : Integer.compare(a, b));
    for (int j : order) {
      if (free[j] == 0) {
        continue;
      }
      long c = g.topicWeight[ct[j]];
      int base = slotStart[j];
      int size = subCount[j];
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
        cnt[base + a]++;
        load[k] += c;
        h.update(a);
      }
    }

    // 3. Balance.
    int[] slotTopic = new int[slots];
    for (int j = 0; j < tcount; j++) {
      Arrays.fill(slotTopic, slotStart[j], slotStart[j + 1], j);
    }
    int[] memberSlotStart = new int[n + 1];
    for (int s = 0; s < slots; s++) {
      memberSlotStart[slotMember[s] + 1]++;
    }
    for (int k = 0; k < n; k++) {
      memberSlotStart[k + 1] += memberSlotStart[k];
    }
    int[] memberSlots = new int[slots];
    int[] mcursor = Arrays.copyOf(memberSlotStart, n);
    for (int s = 0; s < slots; s++) {
      memberSlots[mcursor[slotMember[s]]++] = s;
    }
    Chain chain = new Chain(n, tcount);
    chain.budget = 4L * slots + 1024;
    boolean changed = true;
    while (changed) {
      changed = false;
      for (int j = 0; j < tcount; j++) {
        long c = g.topicWeight[ct[j]];
        while (true) {
          int recv = -1;
          int give = -1;
          int recv2 = -1;
          int give2 = -1;
          for (int s = slotStart[j]; s < slotStart[j + 1]; s++) {
            int k = slotMember[s];
            if (recv < 0 || before(load, w, c, k, slotMember[recv])) {
              recv2 = recv;
              recv = s;
            } else if (recv2 < 0 || before(load, w, c, k, slotMember[recv2])) {
              recv2 = s;
            }
            if (cnt[s] > 0) {
              if (give < 0 || givesFirst(load, w, c, cnt, own, s, give, slotMember)) {
                give2 = give;
                give = s;
              } else if (give2 < 0 || givesFirst(load, w, c, cnt, own, s, give2, slotMember)) {
                give2 = s;
              }
            }
          }
          if (recv < 0 || give < 0 || recv == give) {
            break;
          }
          int kr = slotMember[recv];
          int kg = slotMember[give];
          if (!improves(load, w, c, kr, kg)) {
            break;
          }
          if (cnt[give] <= own[give] && cnt[recv] >= own[recv]
              && (chain.find(kr, c, g, ct, cnt, own, load, w, slotMember, slotTopic, slotStart,
                  memberSlotStart, memberSlots)
                  || chain.findFrom(kg, c, g, ct, cnt, own, load, w, slotMember, slotTopic, slotStart,
                  memberSlotStart, memberSlots))) {
            // The direct move would take an owned partition; a chain of moves that take only
            // partitions nobody owned (or hand one back to its owner) balances as well, for free.
            // The rescan of this topic that follows is charged to the searches' budget too.
            chain.budget -= slotStart[j + 1] - slotStart[j];
            changed = true;
            continue;
          }
          int units = 1;
          if (w[kr] == w[kg]) {
            // Equal weights: move a batch, but no further than the next giver's and the next
            // receiver's level, so no member overshoots and has to take partitions back later.
            long gap = (load[kg] - load[kr]) / (2 * c);
            if (give2 >= 0 && w[slotMember[give2]] == w[kg]) {
              gap = Math.min(gap, (load[kg] - load[slotMember[give2]]) / c + 1);
            }
            if (recv2 >= 0 && w[slotMember[recv2]] == w[kr]) {
              gap = Math.min(gap, (load[slotMember[recv2]] - load[kr]) / c + 1);
            }
            int freeUnits = cnt[give] - own[give];
            gap = Math.min(gap, freeUnits > 0 ? freeUnits : cnt[give]);
            units = (int) Math.max(1, Math.min(gap, cnt[give]));
          }
          cnt[give] -= units;
          cnt[recv] += units;
          load[kg] -= units * c;
          load[kr] += units * c;
          changed = true;
        }
      }
    }

    // 4. Hand back: where balance took an owned partition although a chain of unowned ones
    // could have gone instead (ties between equally balanced outcomes), take the cheaper one.
    // Each success moves one owned partition fewer, so this ends; the work is capped at a few
    // passes over the slots.
    chain.budget = 4L * slots + 1024;
    boolean handed = true;
    while (handed && chain.budget > 0) {
      handed = false;
      chain.budget -= slots;
      for (int s = 0; s < slots && chain.budget > 0; s++) {
        if (cnt[s] < own[s]) {
          handed |= chain.handBack(slotMember[s], g.topicWeight[ct[slotTopic[s]]], g, ct, cnt, own, load, w,
              slotMember, slotTopic, slotStart, memberSlotStart, memberSlots);
        }
      }
    }

    // 5. Partitions, topic by topic.
    for (int j = 0; j < tcount; j++) {
      int t = ct[j];
      int size = subCount[j];
      int base = slotStart[j];
      int[] members = new int[size];
      long[] need = new long[size];
      int[] ownedCount = new int[size];
      for (int a = 0; a < size; a++) {
        members[a] = cm[slotMember[base + a]];
        need[a] = cnt[base + a];
        slotOfMember[slotMember[base + a]] = a;
      }
      int pcount = g.offset[t + 1] - g.offset[t];
      int[] parts = new int[pcount];
      for (int gp = g.offset[t]; gp < g.offset[t + 1]; gp++) {
        parts[gp - g.offset[t]] = gp;
        if (g.owner[gp] >= 0) {
          ownedCount[slotOfMember[localM[g.owner[gp]]]]++;
        }
      }
      int[][] keep = new int[size][];
      for (int a = 0; a < size; a++) {
        keep[a] = new int[ownedCount[a]];
        ownedCount[a] = 0;
      }
      for (int gp = g.offset[t]; gp < g.offset[t + 1]; gp++) {
        if (g.owner[gp] >= 0) {
          int a = slotOfMember[localM[g.owner[gp]]];
          keep[a][ownedCount[a]++] = gp;
        }
      }
      for (int a = 0; a < size; a++) {
        slotOfMember[slotMember[base + a]] = -1;
      }
      new PartitionSelector(g, members, need, null, true).select(parts, keep);
    }
  }

  /**
   * Breadth-first search for a chain of moves {@code g_1 -> g_0 = kr, g_2 -> g_1, ...} of
   * partitions of one topic weight, each taking a partition its giver did not own before (its
   * count of that topic is above its owned count) or handing one back to a receiver that owned
   * more of that topic, ending at a member {@code g} from which one partition to {@code kr} would
   * bring their loads per weight closer (or, checked by Kafka's criterion around the chain, swap
   * them), and the same from a giver's side ({@code findFrom}). Applying it changes only the
   * loads of {@code g} and {@code kr} and moves no owned partition. Members in canonical order
   * and topics ascending, so the chain found is deterministic. All searches of one step share
   * {@code budget}.
   */
  private static final class Chain {
    private final int[] seenMember;
    private final int[] seenTopic;
    private final int[] parent;
    private final int[] giveSlot;
    private final int[] recvSlot;
    private final int[] queue;
    private int stamp;

    Chain(int members, int topics) {
      seenMember = new int[members];
      seenTopic = new int[topics];
      parent = new int[members];
      giveSlot = new int[members];
      recvSlot = new int[members];
      queue = new int[members];
    }

    boolean find(int kr, long c, GroupIndex g, int[] ct, int[] cnt, int[] own, long[] load, long[] w,
        int[] slotMember, int[] slotTopic, int[] slotStart, int[] memberSlotStart, int[] memberSlots) {
      int r = search(kr, c, false, g, ct, cnt, own, load, w, slotMember, slotTopic, slotStart,
          memberSlotStart, memberSlots);
      return r >= 0;
    }

    /**
     * Hand-back: a chain into {@code kx} whose first move hands {@code kx} back a partition of a
     * topic it owned more of, all other moves taking partitions their givers did not own, from a
     * member {@code m} whose load per weight is at least {@code kx}'s after the move (so
     * {@code sum(L^2/w)} does not rise). Applied only if Kafka's criterion still holds for every
     * member on the chain; one owned partition fewer moves.
     */
    boolean handBack(int kx, long c, GroupIndex g, int[] ct, int[] cnt, int[] own, long[] load, long[] w,
        int[] slotMember, int[] slotTopic, int[] slotStart, int[] memberSlotStart, int[] memberSlots) {
      return search(kx, c, true, g, ct, cnt, own, load, w, slotMember, slotTopic, slotStart,
          memberSlotStart, memberSlots) >= 0;
    }

    /**
     * The same search from the giver's side: a chain {@code kg -> y_1 -> ... -> r} in which each
     * member passes on a partition it did not own (or hands one back to a member that owned more
     * of that topic), ending at a member {@code r} that may take one from {@code kg}. Lowering
     * {@code kg}'s load this way moves no owned partition.
     */
    boolean findFrom(int kg, long c, GroupIndex g, int[] ct, int[] cnt, int[] own, long[] load, long[] w,
        int[] slotMember, int[] slotTopic, int[] slotStart, int[] memberSlotStart, int[] memberSlots) {
      if (!start(kg)) {
        return false;
      }
      int head = 0;
      int tail = 1;
      while (head < tail) {
        int x = queue[head++];
        for (int i = memberSlotStart[x]; i < memberSlotStart[x + 1]; i++) {
          int sx = memberSlots[i];
          int tj = slotTopic[sx];
          if (g.topicWeight[ct[tj]] != c || cnt[sx] == 0) {
            continue;
          }
          boolean spare = cnt[sx] > own[sx];
          if (spare) {
            if (seenTopic[tj] == stamp) {
              continue;
            }
            seenTopic[tj] = stamp;
          }
          budget -= slotStart[tj + 1] - slotStart[tj];
          if (budget < 0) {
            return false;
          }
          for (int sy = slotStart[tj]; sy < slotStart[tj + 1]; sy++) {
            int y = slotMember[sy];
            if (seenMember[y] == stamp || (!spare && cnt[sy] >= own[sy])) {
              continue;
            }
            seenMember[y] = stamp;
            parent[y] = x;
            giveSlot[y] = sx;
            recvSlot[y] = sy;
            if (notWorse(load, w, c, y, kg)) {
              boolean lowers = improves(load, w, c, y, kg);
              for (int z = y; z != kg; z = parent[z]) {
                cnt[giveSlot[z]]--;
                cnt[recvSlot[z]]++;
              }
              load[kg] -= c;
              load[y] += c;
              if (lowers || chainBalanced(y, kg, g, ct, cnt, load, w, slotMember, slotTopic, slotStart,
                  memberSlotStart, memberSlots)) {
                return true;
              }
              for (int z = y; z != kg; z = parent[z]) {
                cnt[giveSlot[z]]++;
                cnt[recvSlot[z]]--;
              }
              load[kg] += c;
              load[y] -= c;
            }
            queue[tail++] = y;
          }
        }
      }
      return false;
    }

    /** Kafka's criterion holds around every member of the chain applied from {@code m} to {@code kr}. */
    private boolean chainBalanced(int m, int kr, GroupIndex g, int[] ct, int[] cnt, long[] load, long[] w,
        int[] slotMember, int[] slotTopic, int[] slotStart, int[] memberSlotStart, int[] memberSlots) {
      for (int y = m; ; y = parent[y]) {
        if (!balancedAround(y, g, ct, cnt, load, w, slotMember, slotTopic, slotStart, memberSlotStart,
            memberSlots)) {
          return false;
        }
        if (y == kr) {
          return true;
        }
      }
    }

    private void undo(int m, int kx, long c, int[] cnt, long[] load) {
      for (int y = m; y != kx; y = parent[y]) {
        cnt[giveSlot[y]]++;
        cnt[recvSlot[y]]--;
      }
      load[m] += c;
      load[kx] -= c;
    }

    /** No partition could move to or from member {@code k} bringing loads per weight closer. */
    private boolean balancedAround(int k, GroupIndex g, int[] ct, int[] cnt, long[] load, long[] w,
        int[] slotMember, int[] slotTopic, int[] slotStart, int[] memberSlotStart, int[] memberSlots) {
      for (int i = memberSlotStart[k]; i < memberSlotStart[k + 1]; i++) {
        int sk = memberSlots[i];
        int tj = slotTopic[sk];
        budget -= slotStart[tj + 1] - slotStart[tj];
        long c = g.topicWeight[ct[tj]];
        for (int so = slotStart[tj]; so < slotStart[tj + 1]; so++) {
          int o = slotMember[so];
          if ((cnt[sk] > 0 && improves(load, w, c, o, k)) || (cnt[so] > 0 && improves(load, w, c, k, o))) {
            return false;
          }
        }
      }
      return true;
    }

    /**
     * Slots the searches may still visit: each search charges what it visits, a search that would
     * overrun stops unsuccessful, and none starts once it is spent. Keeps the searches within
     * {@code O(S)} in all per {@link MixedSubscriptions#assign} phase, whatever the group.
     */
    long budget;

    /**
     * Starts a breadth-first search at member {@code from}, spending one unit of the budget: a new
     * stamp, {@code from} alone in the queue and seen. Returns false, changing nothing, when the
     * budget is spent.
     */
    private boolean start(int from) {
      if (budget <= 0) {
        return false;
      }
      budget--;
      stamp++;
      queue[0] = from;
      seenMember[from] = stamp;
      return true;
    }

    private int search(int kr, long c, boolean handBack, GroupIndex g, int[] ct, int[] cnt, int[] own,
        long[] load, long[] w, int[] slotMember, int[] slotTopic, int[] slotStart, int[] memberSlotStart,
        int[] memberSlots) {
      if (!start(kr)) {
        return -1;
      }
      int head = 0;
      int tail = 1;
      while (head < tail) {
        int x = queue[head++];
        for (int i = memberSlotStart[x]; i < memberSlotStart[x + 1]; i++) {
          int sx = memberSlots[i];
          int tj = slotTopic[sx];
          if (g.topicWeight[ct[tj]] != c) {
            continue;
          }
          boolean regain = cnt[sx] < own[sx];
          if (handBack) {
            // Only the first move hands back; the others take partitions their givers did not own.
            if (x == kr && !regain) {
              continue;
            }
            regain = false;
          }
          if (!regain) {
            if (seenTopic[tj] == stamp) {
              continue;
            }
            seenTopic[tj] = stamp;
          }
          budget -= slotStart[tj + 1] - slotStart[tj];
          if (budget < 0) {
            return -1;
          }
          for (int sm = slotStart[tj]; sm < slotStart[tj + 1]; sm++) {
            int m = slotMember[sm];
            if (seenMember[m] == stamp || cnt[sm] == 0 || (!regain && cnt[sm] <= own[sm])) {
              continue;
            }
            seenMember[m] = stamp;
            parent[m] = x;
            giveSlot[m] = sm;
            recvSlot[m] = sx;
            if (notWorse(load, w, c, kr, m)) {
              // A chain that lowers sum(L^2/w) is taken during balance (what it unbalances is
              // balanced later); one that keeps it (loads swap) only if it unbalances nothing.
              boolean lowers = !handBack && improves(load, w, c, kr, m);
              for (int y = m; y != kr; y = parent[y]) {
                cnt[giveSlot[y]]--;
                cnt[recvSlot[y]]++;
              }
              load[m] -= c;
              load[kr] += c;
              if (lowers || chainBalanced(m, kr, g, ct, cnt, load, w, slotMember, slotTopic, slotStart,
                  memberSlotStart, memberSlots)) {
                return m;
              }
              undo(m, kr, c, cnt, load);
            }
            queue[tail++] = m;
          }
        }
      }
      return -1;
    }
  }

  /** Member {@code a} is a better receiver of a partition of cost {@code c} than {@code b}. */
  private static boolean before(long[] load, long[] w, long c, int a, int b) {
    int cmp = Long.compare((2 * load[a] + c) * w[b], (2 * load[b] + c) * w[a]);
    return cmp < 0 || (cmp == 0 && a < b);
  }

  /** Slot {@code s} should give before slot {@code t}: higher load per weight, then unowned units. */
  private static boolean givesFirst(long[] load, long[] w, long c, int[] cnt, int[] own, int s, int t,
      int[] slotMember) {
    int a = slotMember[s];
    int b = slotMember[t];
    int cmp = Long.compare((2 * load[a] - c) * w[b], (2 * load[b] - c) * w[a]);
    if (cmp != 0) {
      return cmp > 0;
    }
    boolean fa = cnt[s] > own[s];
    boolean fb = cnt[t] > own[t];
    if (fa != fb) {
      return fa;
    }
    return a < b;
  }

  /** Moving a partition of cost {@code c} from {@code kg} to {@code kr} does not raise sum(L^2/w). */
  private static boolean notWorse(long[] load, long[] w, long c, int kr, int kg) {
    return (2 * load[kr] + c) * w[kg] <= (2 * load[kg] - c) * w[kr];
  }

  /** Moving a partition of cost {@code c} from {@code kg} to {@code kr} lowers sum(L^2/w). */
  private static boolean improves(long[] load, long[] w, long c, int kr, int kg) {
    return (2 * load[kr] + c) * w[kg] < (2 * load[kg] - c) * w[kr];
  }
}
