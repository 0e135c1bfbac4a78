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
   *       that were unowned, so a partition moves only when balance needs it.</li>
   *   <li>Per topic, {@link PartitionSelector} with need = the member's count: owned partitions
   *       are kept up to it, with rack-local placement and rack re-alignment.</li>
   * </ol>
   * Step 3 ends because every move lowers {@code sum(L^2/w)}.
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

    // 4. Partitions, topic by topic.
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

  /** Moving a partition of cost {@code c} from {@code kg} to {@code kr} lowers sum(L^2/w). */
  private static boolean improves(long[] load, long[] w, long c, int kr, int kg) {
    return (2 * load[kr] + c) * w[kg] < (2 * load[kg] - c) * w[kr];
  }
}
