package io.github.routingkit.assignment;

import java.util.Arrays;
import java.util.BitSet;

/**
 * The last rack pass over the builders' targets: exchanges partitions between two members so that
 * a partition off its member's rack comes onto a rack holding a replica, without changing any
 * member's load.
 *
 * <p>Member {@code i} (rack {@code A}) holds {@code p}, off rack {@code A} but with a replica on
 * rack {@code B}; member {@code j} (rack {@code B}) holds {@code q}, which has a replica on rack
 * {@code A}. Swapping them puts {@code p} on its rack and keeps {@code q} on one (it was off rack
 * {@code B}, or it was local there too): one or two fewer partitions off-rack, the same loads.
 * Conditions:
 * <ul>
 *   <li>{@code q} is off {@code j}'s rack, or {@code j} does not own it (it moves in this
 *       rebalance anyway): a partition on its owner's rack never moves for this pass, so moves
 *       beyond the minimum stay off-rack ones.</li>
 *   <li>Same topic: always allowed (no member's count of any topic changes). Different topics, in a
 *       part with non-equal subscriptions only (an equal part keeps its per-topic spread): both
 *       topics weigh the same, each member subscribes to the topic it receives, and no subscriber
 *       of that topic could then take it from the receiver by Kafka's criterion
 *       ({@code (2*L_k + c) * w_r >= (2*L_r - c) * w_k}), which holds when it holds for the
 *       subscriber with the least {@code (2*L_k + c) / w_k} because loads do not change.</li>
 * </ul>
 * Off-rack partitions are taken in ascending order; candidates are indexed by (rack of holder,
 * rack wanted, topic) and checked lazily, at most {@value #SCAN} per off-rack partition for the
 * cross-topic search. A swap only removes candidates and loads never change, so one pass is final,
 * and assigning the result again finds nothing more to swap.
 *
 * <p>Cost {@code O(P * r log(P * r))} for {@code P} partitions with {@code r} replica racks, only
 * when some partition is off-rack; nothing is allocated otherwise.
 */
final class RackSwaps {
  private static final int SCAN = 256;

  private final GroupIndex g;
  private final BitSet mixedTopic;
  private final int racks;
  private final int tc;
  /** The partitions off their target's rack, ascending. */
  private int[] off;
  private int offCount;
  /** Candidate entries, sorted: {@code ((holderRack * racks + wantRack) * tc + topic) << 32 | gp}. */
  private long[] key;
  /** Loads, read by cross-topic swaps only (null without parts of non-equal subscriptions). */
  private long[] load;
  /** Per topic the subscriber that could most easily take a partition of it (cross-topic only). */
  private int[] easiest;

  private RackSwaps(GroupIndex g, BitSet mixedTopic) {
    this.g = g;
    this.mixedTopic = mixedTopic;
    this.racks = g.rackCount;
    this.tc = g.tps.length;
  }

  /**
   * Swaps partitions between members of {@code g} where that brings an off-rack one onto its
   * member's rack, by changing {@code g.target}.
   *
   * @param mixedTopic topics of parts with non-equal subscriptions (cross-topic swaps allowed)
   */
  static void apply(GroupIndex g, BitSet mixedTopic) {
    if (!g.hasRacks() || g.rackCount < 2) {
      return;
    }
    RackSwaps swaps = new RackSwaps(g, mixedTopic);
    if (!swaps.findOffRack()) {
      return;
    }
    if ((long) swaps.racks * swaps.racks * swaps.tc >= 1L << 30) {
      return; // the candidate key would not fit; never with realistic rack and topic counts
    }
    swaps.indexCandidates();
    if (!mixedTopic.isEmpty()) {
      swaps.loadsForCrossTopicSwaps();
    }
    swaps.swapOffRackPartitions();
  }

  /** Notes the partitions off their target's rack; false if there is none. */
  private boolean findOffRack() {
    off = new int[16];
    for (int gp = 0; gp < g.partitionCount; gp++) {
      int i = g.target[gp];
      if (i >= 0 && g.racksOf(gp) != null && g.isRemote(i, gp)) {
        if (offCount == off.length) {
          off = Arrays.copyOf(off, offCount * 2);
        }
        off[offCount++] = gp;
      }
    }
    return offCount > 0;
  }

  /** Every eligible partition once per replica rack other than its holder's, sorted. */
  private void indexCandidates() {
    int pc = g.partitionCount;
    int entries = 0;
    for (int gp = 0; gp < pc; gp++) {
      if (eligible(g, gp)) {
        entries += g.racksOf(gp).length;
      }
    }
    long[] k = new long[entries];
    int e = 0;
    for (int gp = 0; gp < pc; gp++) {
      if (eligible(g, gp)) {
        int b = g.memberRack[g.target[gp]];
        for (int a : g.racksOf(gp)) {
          if (a != b) {
            k[e++] = ((((long) b * racks + a) * tc + g.topicOf[gp]) << 32) | gp;
          }
        }
      }
    }
    key = sortByBucket(k, e, (long) racks * racks * tc);
  }

  /** Loads and, per topic of a mixed part, the subscriber that could most easily take one. */
  private void loadsForCrossTopicSwaps() {
    int m = g.mem.length;
    load = new long[m];
    for (int gp = 0; gp < g.partitionCount; gp++) {
      if (g.target[gp] >= 0) {
        load[g.target[gp]] += g.topicWeight[g.topicOf[gp]];
      }
    }
    easiest = new int[tc];
    Arrays.fill(easiest, -1);
    for (int k = 0; k < m; k++) {
      BitSet s = g.subscribed[k];
      for (int t = s.nextSetBit(0); t >= 0; t = s.nextSetBit(t + 1)) {
        if (!mixedTopic.get(t)) {
          continue;
        }
        long c = g.topicWeight[t];
        int b = easiest[t];
        if (b < 0 || (2 * load[k] + c) * g.mem[b].weight() < (2 * load[b] + c) * g.mem[k].weight()) {
          easiest[t] = k;
        }
      }
    }
  }

  /**
   * Each off-rack partition in ascending order, if still off-rack, swapped with a partition held
   * on one of its replica racks that is local to its holder's rack: the same topic first, then
   * (mixed parts only) another topic.
   */
  private void swapOffRackPartitions() {
    for (int x = 0; x < offCount; x++) {
      int p = off[x];
      int i = g.target[p];
      if (!g.isRemote(i, p)) {
        continue;
      }
      int a = g.memberRack[i];
      int tp = g.topicOf[p];
      int q = -1;
      for (int b : g.racksOf(p)) {
        // Same topic first: no per-topic count changes.
        long base = (((long) b * racks + a) * tc + tp) << 32;
        q = find(g, key, base, base + (1L << 32), b, a, p, i, SCAN * 4, null, easiest, load);
        if (q >= 0) {
          break;
        }
      }
      if (q < 0 && mixedTopic.get(tp)) {
        for (int b : g.racksOf(p)) {
          long base = (((long) b * racks + a) * tc) << 32;
          q = find(g, key, base, base + ((long) tc << 32), b, a, p, i, SCAN, mixedTopic, easiest, load);
          if (q >= 0) {
            break;
          }
        }
      }
      if (q >= 0) {
        int j = g.target[q];
        g.target[q] = i;
        g.target[p] = j;
      }
    }
  }

  /**
   * {@code key[0..e)} sorted. The entries were written by ascending partition (the low 32 bits),
   * so a stable counting sort by the high bits (one of {@code buckets} values) sorts them in
   * {@code O(e + buckets)}; a plain sort when there are many more buckets than entries.
   */
  private static long[] sortByBucket(long[] key, int e, long buckets) {
    if (buckets > Math.max(1024, 4L * e)) {
      long[] out = Arrays.copyOf(key, e);
      Arrays.sort(out);
      return out;
    }
    int[] start = new int[(int) buckets + 1];
    for (int j = 0; j < e; j++) {
      start[(int) (key[j] >>> 32) + 1]++;
    }
    for (int b = 1; b < start.length; b++) {
      start[b] += start[b - 1];
    }
    long[] out = new long[e];
    for (int j = 0; j < e; j++) {
      out[start[(int) (key[j] >>> 32)]++] = key[j];
    }
    return out;
  }

  /** {@code gp} may move to another member for locality: off its target's rack, or moving anyway. */
  private static boolean eligible(GroupIndex g, int gp) {
    int j = g.target[gp];
    if (j < 0 || g.memberRack[j] < 0 || g.racksOf(gp) == null) {
      return false;
    }
    return g.owner[gp] != j || !g.isLocal(j, gp);
  }

  /**
   * A partition in key range [from, to) still held on rack {@code b}, eligible, local to rack
   * {@code a}, that member {@code i} can take in exchange for {@code p}; -1 if none in the first
   * {@code limit} entries.
   */
  private static int find(GroupIndex g, long[] key, long from, long to, int b, int a, int p, int i,
      int limit, BitSet mixedTopic, int[] easiest, long[] load) {
    int at = Arrays.binarySearch(key, from);
    if (at < 0) {
      at = -at - 1;
    }
    int tp = g.topicOf[p];
    for (int n = 0; at < key.length && key[at] < to && n < limit; at++, n++) {
      int q = (int) key[at];
      int j = g.target[q];
      if (j < 0 || j == i || g.memberRack[j] != b || !eligible(g, q) || !g.isLocal(i, q)) {
        continue;
      }
      int tq = g.topicOf[q];
      if (tq != tp) {
        if (!mixedTopic.get(tq) || g.topicWeight[tq] != g.topicWeight[tp]
            || !g.subscribed[i].get(tq) || !g.subscribed[j].get(tp)
            || !stays(g, easiest[tq], i, tq, load) || !stays(g, easiest[tp], j, tp, load)) {
          continue;
        }
      }
      return q;
    }
    return -1;
  }

  /** No subscriber of {@code t} could take a partition of it from {@code r} by Kafka's criterion. */
  private static boolean stays(GroupIndex g, int k, int r, int t, long[] load) {
    if (k < 0 || k == r) {
      return true;
    }
    long c = g.topicWeight[t];
    return (2 * load[k] + c) * g.mem[r].weight() >= (2 * load[r] - c) * g.mem[k].weight();
  }
}
