package io.github.routingkit.assignment;

import java.util.Arrays;
import java.util.BitSet;

/**
 * The counts {@link MixedSubscriptions} works on: one slot per (member, subscribed topic) pair,
 * grouped by topic ({@code slotStart}, {@code slotMember}) and indexed by member
 * ({@code memberSlotStart}, {@code memberSlots}), each holding the member's count of that topic
 * ({@code cnt}) and how many of them it owned ({@code own}); {@code load} is each member's sum of
 * counts times topic weights, {@code w} its weight. Members are local indices into {@code cm}
 * (canonical order), topics local indices into {@code ct} (ascending). Not thread-safe: one
 * instance per assign call.
 */
final class SubscriptionSlots {
  final GroupIndex g;
  final int[] cm;
  final int[] ct;
  final int members;
  final int topics;
  final int slots;
  final long[] w;
  /** Subscribers of each local topic. */
  final int[] subCount;
  final int[] slotStart;
  final int[] slotMember;
  final int[] slotTopic;
  final int[] memberSlotStart;
  final int[] memberSlots;
  final int[] cnt;
  final int[] own;
  final long[] load;
  /** Local index of each member of the group index ({@code localM[cm[k]] == k}). */
  final int[] localM;

  SubscriptionSlots(GroupIndex g, int[] cm, int[] ct) {
    this.g = g;
    this.cm = cm;
    this.ct = ct;
    members = cm.length;
    topics = ct.length;
    int[] localT = new int[g.tps.length];
    Arrays.fill(localT, -1);
    for (int j = 0; j < topics; j++) {
      localT[ct[j]] = j;
    }
    w = new long[members];
    subCount = new int[topics];
    for (int k = 0; k < members; k++) {
      w[k] = g.mem[cm[k]].weight();
      BitSet s = g.subscribed[cm[k]];
      for (int t = s.nextSetBit(0); t >= 0; t = s.nextSetBit(t + 1)) {
        subCount[localT[t]]++;
      }
    }
    slotStart = new int[topics + 1];
    for (int j = 0; j < topics; j++) {
      slotStart[j + 1] = slotStart[j] + subCount[j];
    }
    slots = slotStart[topics];
    slotMember = new int[slots];
    int[] cursor = Arrays.copyOf(slotStart, topics);
    for (int k = 0; k < members; k++) {
      BitSet s = g.subscribed[cm[k]];
      for (int t = s.nextSetBit(0); t >= 0; t = s.nextSetBit(t + 1)) {
        slotMember[cursor[localT[t]]++] = k;
      }
    }
    slotTopic = new int[slots];
    for (int j = 0; j < topics; j++) {
      Arrays.fill(slotTopic, slotStart[j], slotStart[j + 1], j);
    }
    memberSlotStart = new int[members + 1];
    for (int s = 0; s < slots; s++) {
      memberSlotStart[slotMember[s] + 1]++;
    }
    for (int k = 0; k < members; k++) {
      memberSlotStart[k + 1] += memberSlotStart[k];
    }
    memberSlots = new int[slots];
    int[] mcursor = Arrays.copyOf(memberSlotStart, members);
    for (int s = 0; s < slots; s++) {
      memberSlots[mcursor[slotMember[s]]++] = s;
    }
    cnt = new int[slots];
    own = new int[slots];
    load = new long[members];
    localM = new int[g.mem.length];
    for (int k = 0; k < members; k++) {
      localM[cm[k]] = k;
    }
  }

  /** Weight (cost per partition) of local topic {@code j}. */
  long cost(int j) {
    return g.topicWeight[ct[j]];
  }

  /** Member {@code a} is a better receiver of a partition of cost {@code c} than {@code b}. */
  boolean before(long c, int a, int b) {
    int cmp = Long.compare((2 * load[a] + c) * w[b], (2 * load[b] + c) * w[a]);
    return cmp < 0 || (cmp == 0 && a < b);
  }

  /** Slot {@code s} should give before slot {@code t}: higher load per weight, then unowned units. */
  boolean givesFirst(long c, int s, int t) {
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
  boolean notWorse(long c, int kr, int kg) {
    return (2 * load[kr] + c) * w[kg] <= (2 * load[kg] - c) * w[kr];
  }

  /** Moving a partition of cost {@code c} from {@code kg} to {@code kr} lowers sum(L^2/w). */
  boolean improves(long c, int kr, int kg) {
    return (2 * load[kr] + c) * w[kg] < (2 * load[kg] - c) * w[kr];
  }
}
