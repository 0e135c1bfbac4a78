package io.github.routingkit.assignment;

/**
 * The last count step of {@link MixedSubscriptions}: the (member, topic) counts that keep the
 * most owned partitions among those balanced by Kafka's criterion, found exactly for fixed
 * member totals and by a bounded local search over the totals.
 *
 * <p>For member totals {@code L} (partitions per member), a member {@code j} may hold a partition
 * of topic {@code t} in a balanced assignment iff no subscriber {@code i} of {@code t} could take
 * it bringing their loads per weight closer ({@link SubscriptionSlots#improves}); that fixes the
 * allowed (member, topic) pairs. Choosing counts {@code x_it} on them with {@code sum_t x_it =
 * L_i}, {@code sum_i x_it = P_t} that maximise the kept partitions {@code sum min(x_it, own_it)}
 * is a min-cost flow on the member-by-topic graph, solved by successive shortest paths: per
 * allowed pair an arc of capacity {@code own_it} at cost {@code -K}, one up to the count the
 * earlier phases chose at cost 0 and an unbounded one at cost 1, with {@code K} above the number
 * of partitions, so the flow keeps the most owned partitions and among those stays nearest the
 * earlier counts (which carry the fill's order: most constrained topics first). The
 * local search then moves one unit of total from one member to another ({@code L_a + 1},
 * {@code L_b - 1}, pairs in canonical order) and keeps the new totals when their flow is
 * feasible (still balanced) and keeps strictly more; it repeats until no pair helps.
 *
 * <p>Exact only where every topic of the part has the same weight (counts are then loads divided
 * by that weight), so it runs only there. Member weights are respected through the criterion.
 * It does not run where members have racks: there the placement inside each topic that follows
 * the counts is rack-local and re-aligns owned partitions, and counts chosen for stickiness
 * alone can leave it fewer rack-local choices (docs/kafka.md, "Sticky").
 * Cheap paths: when every owned partition is already kept nothing runs, and totals whose bound
 * {@code sum_k min(L_k, owned_k)} cannot beat the best found are not solved. All work (arc
 * relaxations, arc building) is charged to a budget of {@code 64*S + 2^20} for {@code S} slots;
 * a solve that would overrun it is dropped and the best complete solution found so far stands,
 * and where one solve alone (about members x arcs relaxations) would overrun it the step does
 * not start, so it adds {@code O(S + 2^20)} and is deterministic. It therefore runs for groups
 * up to roughly {@code members^2 * topics per member = 170,000} (about 135 members with 10
 * topics each, 360 with one); larger ones keep the result of the chain searches. Not
 * thread-safe: one per assign call.
 */
final class MoveMinimizer {
  private final SubscriptionSlots s;
  private final long c;
  private final int n;
  private final int topics;
  private final int nodes;
  private final int sink;
  private final int[] partitions;
  private final long[] load;
  // Arcs (forward at even index, residual partner at index ^ 1).
  private final int[] head;
  private final int[] next;
  private final int[] to;
  private final int[] cap;
  private final int[] cost;
  private int arcs;
  private final int[] keptArc;
  /** Per topic, the subscriber with the lowest {@code (2L + c) / w} under the totals solved. */
  private final int[] lowest;
  private final int[] stayArc;
  private final int[] freeArc;
  /** The counts the earlier phases chose; among assignments that keep as many, the flow stays near them. */
  private final int[] before;
  // Shortest paths.
  private final long[] dist;
  private final int[] prevArc;
  private final boolean[] inQueue;
  private final int[] queue;
  private long budget;
  /** Counts per slot of the last successful {@link #solve}. */
  private final int[] x;

  private MoveMinimizer(SubscriptionSlots s, long c) {
    this.s = s;
    this.c = c;
    n = s.members;
    topics = s.topics;
    nodes = n + topics + 2;
    sink = n + topics + 1;
    partitions = new int[topics];
    for (int q = 0; q < s.slots; q++) {
      partitions[s.slotTopic[q]] += s.cnt[q];
    }
    load = new long[n];
    int maxArcs = 2 * (n + topics + 3 * s.slots);
    head = new int[nodes];
    next = new int[maxArcs];
    to = new int[maxArcs];
    cap = new int[maxArcs];
    cost = new int[maxArcs];
    keptArc = new int[s.slots];
    lowest = new int[topics];
    stayArc = new int[s.slots];
    freeArc = new int[s.slots];
    before = s.cnt.clone();
    dist = new long[nodes];
    prevArc = new int[nodes];
    inQueue = new boolean[nodes];
    queue = new int[nodes + 1];
    x = new int[s.slots];
    budget = budgetFor(s);
  }

  /** Replaces {@code s.cnt} and {@code s.load} by counts that keep more owned partitions, if any. */
  static void apply(SubscriptionSlots s) {
    if (s.g.rackCount > 0) {
      // Counts that keep more owned partitions can leave fewer rack-local choices to the
      // placement that follows, and re-alignment then moves partitions in a later rebalance.
      return;
    }
    long c = s.cost(0);
    for (int j = 1; j < s.topics; j++) {
      if (s.cost(j) != c) {
        return; // counts are not loads: the flow below would not be exact
      }
    }
    int owned = 0;
    int kept = 0;
    for (int q = 0; q < s.slots; q++) {
      owned += s.own[q];
      kept += Math.min(s.cnt[q], s.own[q]);
    }
    if (kept == owned) {
      return; // nothing owned moves: minimal
    }
    // One solve augments about once per member, each over the arcs; where that alone would overrun
    // the budget the search could not finish one solve, so it does not start.
    long arcs = 2L * (s.members + s.topics + 3L * s.slots);
    if ((long) s.members * arcs > budgetFor(s)) {
      return;
    }
    new MoveMinimizer(s, c).run(kept, owned);
  }

  private static long budgetFor(SubscriptionSlots s) {
    return 64L * s.slots + (1 << 20);
  }

  private void run(int kept, int owned) {
    int[] total = new int[n];
    int[] ownedBy = new int[n];
    for (int q = 0; q < s.slots; q++) {
      total[s.slotMember[q]] += s.cnt[q];
      ownedBy[s.slotMember[q]] += s.own[q];
    }
    // No assignment with totals L keeps more than bound(L) = sum_k min(L_k, owned_k).
    int bound = 0;
    for (int k = 0; k < n; k++) {
      bound += Math.min(total[k], ownedBy[k]);
    }
    int[] best = null;
    int[] bestTotal = null;
    int bestKept = kept;
    // The totals found first: only worth a solve if their bound leaves room.
    int r = bound > kept ? solve(total) : kept;
    if (r > bestKept) {
      bestKept = r;
      best = x.clone();
      bestTotal = total.clone();
    }
    boolean improved = r != OUT_OF_BUDGET;
    search:
    while (improved && bestKept < owned) {
      improved = false;
      for (int a = 0; a < n; a++) {
        for (int b = 0; b < n; b++) {
          if (a == b || total[b] == 0) {
            continue;
          }
          int moved = bound + (total[a] < ownedBy[a] ? 1 : 0) - (total[b] <= ownedBy[b] ? 1 : 0);
          if (moved <= bestKept) {
            continue; // these totals cannot keep more
          }
          total[a]++;
          total[b]--;
          r = solve(total);
          if (r == OUT_OF_BUDGET) {
            total[a]--;
            total[b]++;
            break search;
          }
          if (r > bestKept) {
            bestKept = r;
            best = x.clone();
            bestTotal = total.clone();
            bound = moved;
            improved = true;
            continue search;
          }
          total[a]--;
          total[b]++;
        }
      }
    }
    if (best != null) {
      System.arraycopy(best, 0, s.cnt, 0, s.slots);
      for (int k = 0; k < n; k++) {
        s.load[k] = bestTotal[k] * c;
      }
    }
  }

  private static final int OUT_OF_BUDGET = -2;
  private static final int INFEASIBLE = -1;

  /**
   * Min-cost flow for member totals {@code total}: the most owned partitions any balanced
   * assignment with those totals keeps (counts in {@link #x}), {@link #INFEASIBLE} when no
   * assignment with them is balanced, {@link #OUT_OF_BUDGET} when the budget ran out.
   */
  private int solve(int[] total) {
    budget -= s.slots + nodes;
    if (budget < 0) {
      return OUT_OF_BUDGET;
    }
    for (int k = 0; k < n; k++) {
      load[k] = total[k] * c;
    }
    java.util.Arrays.fill(head, -1);
    arcs = 0;
    int demand = 0;
    for (int k = 0; k < n; k++) {
      addArc(0, 1 + k, total[k], 0);
      demand += total[k];
    }
    // A kept partition outweighs any number of units beyond the earlier counts (at most demand).
    int keepCost = demand + 1;
    for (int j = 0; j < topics; j++) {
      addArc(1 + n + j, sink, partitions[j], 0);
      // The subscriber of j that would gain most from one more partition (lowest (2L + c) / w).
      budget -= s.slotStart[j + 1] - s.slotStart[j];
      int low = -1;
      for (int q = s.slotStart[j]; q < s.slotStart[j + 1]; q++) {
        int k = s.slotMember[q];
        if (low < 0 || (2 * load[k] + c) * s.w[low] < (2 * load[low] + c) * s.w[k]) {
          low = k;
        }
      }
      lowest[j] = low;
      for (int q = s.slotStart[j]; q < s.slotStart[j + 1]; q++) {
        keptArc[q] = -1;
        stayArc[q] = -1;
        freeArc[q] = -1;
      }
    }
    for (int k = 0; k < n; k++) {
      for (int i = s.memberSlotStart[k]; i < s.memberSlotStart[k + 1]; i++) {
        int q = s.memberSlots[i];
        int j = s.slotTopic[q];
        if (!allowed(k, j)) {
          continue;
        }
        if (s.own[q] > 0) {
          keptArc[q] = arcs;
          addArc(1 + k, 1 + n + j, s.own[q], -keepCost);
        }
        if (before[q] > s.own[q]) {
          stayArc[q] = arcs;
          addArc(1 + k, 1 + n + j, before[q] - s.own[q], 0);
        }
        freeArc[q] = arcs;
        addArc(1 + k, 1 + n + j, demand, 1);
      }
    }
    int flow = 0;
    while (flow < demand) {
      if (!shortestPath()) {
        return budget < 0 ? OUT_OF_BUDGET : INFEASIBLE;
      }
      int push = Integer.MAX_VALUE;
      for (int v = sink; v != 0; v = to[prevArc[v] ^ 1]) {
        push = Math.min(push, cap[prevArc[v]]);
      }
      for (int v = sink; v != 0; v = to[prevArc[v] ^ 1]) {
        cap[prevArc[v]] -= push;
        cap[prevArc[v] ^ 1] += push;
      }
      flow += push;
    }
    int kept = 0;
    for (int q = 0; q < s.slots; q++) {
      int k = keptArc[q] >= 0 ? cap[keptArc[q] ^ 1] : 0;
      kept += k;
      x[q] = k + (stayArc[q] >= 0 ? cap[stayArc[q] ^ 1] : 0) + (freeArc[q] >= 0 ? cap[freeArc[q] ^ 1] : 0);
    }
    return kept;
  }

  /** Member {@code k} may hold a partition of topic {@code j}: no subscriber could take it closer. */
  private boolean allowed(int k, int j) {
    int i = lowest[j];
    return (2 * load[i] + c) * s.w[k] >= (2 * load[k] - c) * s.w[i];
  }

  private void addArc(int u, int v, int capacity, int unitCost) {
    to[arcs] = v;
    cap[arcs] = capacity;
    cost[arcs] = unitCost;
    next[arcs] = head[u];
    head[u] = arcs++;
    to[arcs] = u;
    cap[arcs] = 0;
    cost[arcs] = -unitCost;
    next[arcs] = head[v];
    head[v] = arcs++;
  }

  /** Bellman-Ford with a queue from the source; false if the sink is unreachable or out of budget. */
  private boolean shortestPath() {
    java.util.Arrays.fill(dist, Long.MAX_VALUE);
    dist[0] = 0;
    int qh = 0;
    int qt = 0;
    queue[qt++] = 0;
    inQueue[0] = true;
    while (qh != qt) {
      int u = queue[qh];
      qh = qh + 1 == queue.length ? 0 : qh + 1;
      inQueue[u] = false;
      for (int e = head[u]; e >= 0; e = next[e]) {
        if (--budget < 0) {
          return false;
        }
        if (cap[e] > 0 && dist[u] + cost[e] < dist[to[e]]) {
          int v = to[e];
          dist[v] = dist[u] + cost[e];
          prevArc[v] = e;
          if (!inQueue[v]) {
            inQueue[v] = true;
            queue[qt] = v;
            qt = qt + 1 == queue.length ? 0 : qt + 1;
          }
        }
      }
    }
    if (budget < 0) {
      return false;
    }
    return dist[sink] != Long.MAX_VALUE;
  }
}
