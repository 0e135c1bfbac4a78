package io.github.routingkit.assignment;

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
final class BalanceChains {
  private final int[] seenMember;
  private final int[] seenTopic;
  private final int[] parent;
  private final int[] giveSlot;
  private final int[] recvSlot;
  private final int[] queue;
  private int stamp;

  private final SubscriptionSlots s;
  private final GroupIndex g;
  private final int[] ct;
  private final int[] cnt;
  private final int[] own;
  private final long[] load;
  private final int[] slotMember;
  private final int[] slotTopic;
  private final int[] slotStart;
  private final int[] memberSlotStart;
  private final int[] memberSlots;

  BalanceChains(SubscriptionSlots s) {
    this.s = s;
    g = s.g;
    ct = s.ct;
    cnt = s.cnt;
    own = s.own;
    load = s.load;
    slotMember = s.slotMember;
    slotTopic = s.slotTopic;
    slotStart = s.slotStart;
    memberSlotStart = s.memberSlotStart;
    memberSlots = s.memberSlots;
    seenMember = new int[s.members];
    seenTopic = new int[s.topics];
    parent = new int[s.members];
    giveSlot = new int[s.members];
    recvSlot = new int[s.members];
    queue = new int[s.members];
  }

  boolean find(int kr, long c) {
    int r = search(kr, c, false);
    return r >= 0;
  }

  /**
   * Hand-back: a chain into {@code kx} whose first move hands {@code kx} back a partition of a
   * topic it owned more of, all other moves taking partitions their givers did not own, from a
   * member {@code m} whose load per weight is at least {@code kx}'s after the move (so
   * {@code sum(L^2/w)} does not rise). Applied only if Kafka's criterion still holds for every
   * member on the chain; one owned partition fewer moves.
   */
  boolean handBack(int kx, long c) {
    return search(kx, c, true) >= 0;
  }

  /**
   * The same search from the giver's side: a chain {@code kg -> y_1 -> ... -> r} in which each
   * member passes on a partition it did not own (or hands one back to a member that owned more
   * of that topic), ending at a member {@code r} that may take one from {@code kg}. Lowering
   * {@code kg}'s load this way moves no owned partition.
   */
  boolean findFrom(int kg, long c) {
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
          if (s.notWorse(c, y, kg)) {
            boolean lowers = s.improves(c, y, kg);
            shift(y, kg, 1, -c);
            if (lowers || chainBalanced(y, kg)) {
              return true;
            }
            shift(y, kg, -1, c);
          }
          queue[tail++] = y;
        }
      }
    }
    return false;
  }

  /** Kafka's criterion holds around every member of the chain applied from {@code m} to {@code kr}. */
  private boolean chainBalanced(int m, int kr) {
    for (int y = m; ; y = parent[y]) {
      if (!balancedAround(y)) {
        return false;
      }
      if (y == kr) {
        return true;
      }
    }
  }

  /**
   * Applies ({@code dir} 1) or reverts ({@code dir} -1) the chain from {@code m} back to
   * {@code kx} along {@code parent}: each step's give slot loses {@code dir} partitions and its
   * receive slot gains them; {@code m}'s load falls by {@code loadDelta}, {@code kx}'s rises by it.
   */
  private void shift(int m, int kx, int dir, long loadDelta) {
    for (int y = m; y != kx; y = parent[y]) {
      cnt[giveSlot[y]] -= dir;
      cnt[recvSlot[y]] += dir;
    }
    load[m] -= loadDelta;
    load[kx] += loadDelta;
  }

  /** No partition could move to or from member {@code k} bringing loads per weight closer. */
  private boolean balancedAround(int k) {
    for (int i = memberSlotStart[k]; i < memberSlotStart[k + 1]; i++) {
      int sk = memberSlots[i];
      int tj = slotTopic[sk];
      budget -= slotStart[tj + 1] - slotStart[tj];
      long c = g.topicWeight[ct[tj]];
      for (int so = slotStart[tj]; so < slotStart[tj + 1]; so++) {
        int o = slotMember[so];
        if ((cnt[sk] > 0 && s.improves(c, o, k)) || (cnt[so] > 0 && s.improves(c, k, o))) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * Slots the searches may still visit: each search charges what it visits, a search that would
   * overrun stops unsuccessful, and none starts once it is spent. Keeps the searches within
   * {@code O(S)} in all per {@link MixedSubscriptions} phase, whatever the group.
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

  private int search(int kr, long c, boolean handBack) {
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
          if (s.notWorse(c, kr, m)) {
            // A chain that lowers sum(L^2/w) is taken during balance (what it unbalances is
            // balanced later); one that keeps it (loads swap) only if it unbalances nothing.
            boolean lowers = !handBack && s.improves(c, kr, m);
            shift(m, kr, 1, c);
            if (lowers || chainBalanced(m, kr)) {
              return m;
            }
            shift(m, kr, -1, -c);
          }
          queue[tail++] = m;
        }
      }
    }
    return -1;
  }
}
