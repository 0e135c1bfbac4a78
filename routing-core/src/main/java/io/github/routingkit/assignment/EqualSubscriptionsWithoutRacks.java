package io.github.routingkit.assignment;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The whole {@link AssignmentPolicy} call for the common group shape: every member subscribes to
 * the same topics, no member has a rack, all claims are of one generation and the subscribed
 * topics weigh the same. It computes exactly what the general path gives there ({@code GroupIndex},
 * one part, {@link EqualSubscriptions}, {@link PartitionSelector} without its rack steps, no
 * {@link RackSwaps}) from each member's claims: quotas, keep order, then the free partitions
 * round-robin, with per-member lists and bit sets over the partitions instead of arrays of one int
 * per partition (owner, generation, topic, target), so a rebalance in which few partitions move
 * touches little beyond the claims themselves.
 *
 * <p>Claims: a partition claimed by two members (one generation) is nobody's, as in
 * {@code GroupIndex}; claims outside a subscribed topic's range, of unknown topics or of topics
 * nobody subscribes to give no ownership (the latter cannot be pending either: nobody is given
 * them).
 *
 * <p>Cost, for {@code C} claims, {@code M} members, {@code P} partitions, {@code T} topics and
 * {@code R} partitions handed out: {@code O(C + M log M + P/64 + T + R)} time when each reported
 * topic's claims come ascending (as the adapters' own sets do), {@code O(C log C)} otherwise;
 * memory {@code O(C + M + P/64)} beyond the inputs. Not thread-safe; one call at a time per array.
 */
final class EqualSubscriptionsWithoutRacks {
  private static final int[] NONE = {};

  private EqualSubscriptionsWithoutRacks() {}

  /**
   * Whether the group has the shape this class handles: at least one member, every member
   * without a rack, of one generation and with the same topic set, and one weight over the known
   * topics they subscribe to. Reads no claims.
   *
   * @throws NullPointerException if an element is null
   */
  static boolean applies(GroupMember[] members, AssignableTopic[] topics) {
    return racks(members, topics) == NO_RACK;
  }

  /** {@link #racks}: the shape of neither shortcut. */
  static final int OTHER_SHAPE = -1;
  /** {@link #racks}: equal subscriptions, and no member has a rack. */
  static final int NO_RACK = 0;
  /** {@link #racks}: equal subscriptions, and some member has a rack. */
  static final int SOME_RACK = 1;

  /**
   * Whether the group has the shape of a claims-first shortcut (at least one member, every
   * member of one generation and with the same topic set, one weight over the known topics they
   * subscribe to), and if so whether some member has a rack: {@link #OTHER_SHAPE},
   * {@link #NO_RACK} or {@link #SOME_RACK}. Reads no claims.
   *
   * @throws NullPointerException if an element is null
   */
  static int racks(GroupMember[] members, AssignableTopic[] topics) {
    if (members.length == 0) {
      return OTHER_SHAPE;
    }
    Set<String> subs = members[0].topics();
    int gen = members[0].generation();
    boolean rack = false;
    for (GroupMember m : members) {
      Set<String> s = m.topics();
      if (m.generation() != gen || (s != subs && !s.equals(subs))) {
        return OTHER_SHAPE;
      }
      rack |= m.rackId() != null;
    }
    int weight = -1;
    for (AssignableTopic t : topics) {
      if (subs.contains(t.name())) {
        if (weight < 0) {
          weight = t.weight();
        } else if (t.weight() != weight) {
          return OTHER_SHAPE;
        }
      }
    }
    return rack ? SOME_RACK : NO_RACK;
  }

  /**
   * Assigns a group for which {@link #applies} holds; the arrays are sorted in place (members
   * into canonical order, topics by name).
   *
   * @param owned extra claims by position in the arrays as given, or null
   * @throws IllegalArgumentException if a member id or a topic name occurs twice
   */
  static RebalanceResult assign(GroupMember[] mem, AssignableTopic[] tps, OwnedPartitions owned,
      RebalanceMode mode) {
    int[] inputPosition = GroupIndex.canonicalOrder(mem);
    int[] sortedTopic = GroupIndex.inverse(GroupIndex.sortInPlace(tps, GroupIndex.BY_NAME));
    Map<String, Integer> topicIndex = new HashMap<>();
    int[] offset = GroupIndex.offsets(tps, topicIndex);
    int n = mem.length;
    int tc = tps.length;
    Set<String> subs = mem[0].topics();
    boolean[] subscribed = new boolean[tc];
    long totalLoad = 0;
    for (int t = 0; t < tc; t++) {
      subscribed[t] = subs.contains(tps[t].name());
      if (subscribed[t]) {
        totalLoad += tps[t].partitions();
      }
    }
    int partitionCount = offset[tc];

    // Claims: per member its distinct claimed partitions ascending; a partition claimed by two
    // members is contested (nobody's).
    long[] seen = new long[(partitionCount + 63) >>> 6];
    int[][] won = new int[n][];
    long[] contested = readWon(mem, tps, offset, subscribed, sortedTopic, topicIndex, inputPosition,
        owned, seen, won);
    // The kept partitions as bits: the claimed ones less the contested, less (below) the released.
    long[] kept = seen.clone();
    if (contested != null) {
      for (int w = 0; w < kept.length; w++) {
        kept[w] &= ~contested[w];
      }
    }

    // Quotas, as EqualSubscriptions computes them.
    long[] weights = new long[n];
    long totalWeight = 0;
    long[] ownedLoad = new long[n];
    for (int i = 0; i < n; i++) {
      weights[i] = mem[i].weight();
      totalWeight += weights[i];
      ownedLoad[i] = won[i].length;
    }
    long[] quota = EqualSubscriptions.quotas(totalLoad, weights, totalWeight, ownedLoad);

    // Keep: all of what a member owns up to its quota; above it, the keep order of EqualSubscriptions.
    int[][] keep = new int[n][];
    long[] need = new long[n];
    long keptTotal = 0;
    for (int i = 0; i < n; i++) {
      if (ownedLoad[i] > quota[i]) {
        int[] order = EqualSubscriptions.keepOrderWithoutRacks(won[i], ownedLoad[i] - quota[i],
            offset, weights[i], totalWeight);
        int q = (int) quota[i];
        for (int j = q; j < order.length; j++) {
          kept[order[j] >>> 6] &= ~(1L << order[j]);
        }
        keep[i] = Arrays.copyOf(order, q); // the kept ones come first, ascending
      } else {
        keep[i] = won[i];
        need[i] = quota[i] - ownedLoad[i];
      }
      keptTotal += keep[i].length;
    }

    // The rest: partitions of subscribed topics not kept, read in ascending order from the bits.
    int free = (int) (totalLoad - keptTotal);
    int restTopic = 0;
    int restAt = 0; // next partition to look at
    int restEnd = 0;

    // Round-robin over the members with need left, in canonical order (PartitionSelector's step
    // 4); in cooperative mode a claimed partition is held back instead of handed over.
    boolean cooperative = mode == RebalanceMode.COOPERATIVE;
    int[][] given = new int[n][];
    int[] givenCount = new int[n];
    int[] eligible = new int[n];
    int size = 0;
    for (int i = 0; i < n; i++) {
      if (need[i] > 0) {
        given[i] = new int[(int) need[i]];
        eligible[size++] = i;
      }
    }
    int[] pending = NONE;
    int pendingCount = 0;
    int done = 0;
    while (size > 0 && done < free) {
      int stay = 0;
      for (int e = 0; e < size && done < free; e++) {
        int i = eligible[e];
        int gp = nextClear(kept, restAt, restEnd);
        while (gp >= restEnd) {
          // Next subscribed topic (there is one with a clear bit: done < free).
          while (!subscribed[restTopic]) {
            restTopic++;
          }
          restEnd = offset[restTopic + 1];
          gp = nextClear(kept, offset[restTopic], restEnd);
          restTopic++;
        }
        restAt = gp + 1;
        done++;
        if (cooperative && (seen[gp >>> 6] & (1L << gp)) != 0) {
          if (pendingCount == pending.length) {
            pending = Arrays.copyOf(pending, Math.max(16, pendingCount * 2));
          }
          pending[pendingCount++] = gp;
        } else {
          given[i][givenCount[i]++] = gp;
        }
        if (--need[i] > 0) {
          eligible[stay++] = i;
        }
      }
      size = stay;
    }
    if (done < free) {
      // Cannot happen: the quotas add up to the load and each member keeps at most its quota.
      throw new IllegalStateException("internal: " + (free - done) + " partitions left over");
    }
    pending = Arrays.copyOf(pending, pendingCount);

    int[][] lists = new int[n][];
    int[] keptCount = new int[n];
    for (int i = 0; i < n; i++) {
      keptCount[i] = keep[i].length;
      if (givenCount[i] == 0) {
        lists[i] = keep[i];
      } else if (keep[i].length == 0) {
        lists[i] = givenCount[i] == given[i].length ? given[i] : Arrays.copyOf(given[i], givenCount[i]);
      } else {
        lists[i] = merge(keep[i], given[i], givenCount[i]);
      }
    }
    return AssignmentPolicy.result(mem, tps, offset, lists, pending, keptCount);
  }

  /**
   * Reads the claims of a group of one generation in which every member subscribes to the topics
   * {@code subscribed} marks: sets in {@code won[i]} member {@code i}'s claimed partitions
   * (canonical order; distinct global indexes, ascending, of subscribed topics and within range)
   * that nobody else claims, sets in {@code seen} every partition someone claims, and returns the
   * contested ones (claimed by two members, as bits), or null if none is.
   *
   * @param inputPosition for each canonical member index its position as given (what
   *     {@code owned} is asked about)
   * @param owned extra claims by position as given, or null
   */
  static long[] readWon(GroupMember[] mem, AssignableTopic[] tps, int[] offset,
      boolean[] subscribed, int[] sortedTopic, Map<String, Integer> topicIndex,
      int[] inputPosition, OwnedPartitions owned, long[] seen, int[][] won) {
    Claims claims = new Claims(tps, offset, subscribed);
    long[] contested = null;
    ClaimReader reader = new ClaimReader(sortedTopic, topicIndex) {
      @Override
      void claims(int t, int[] ps, int from, int to) {
        claims.block(t, ps, from, to);
      }
    };
    for (int i = 0; i < mem.length; i++) {
      claims.begin();
      reader.read(mem[i].ownedPartitions());
      if (owned != null) {
        owned.forEachOwned(inputPosition[i], reader);
      }
      int[] c = claims.finish();
      for (int gp : c) {
        int w = gp >>> 6;
        long bit = 1L << gp;
        if ((seen[w] & bit) != 0) {
          if (contested == null) {
            contested = new long[seen.length];
          }
          contested[w] |= bit;
        } else {
          seen[w] |= bit;
        }
      }
      won[i] = c;
    }
    if (contested != null) {
      for (int i = 0; i < mem.length; i++) {
        won[i] = without(won[i], contested);
      }
    }
    return contested;
  }

  /** {@code a} less the values set in {@code bits}; {@code a} itself if none is. */
  private static int[] without(int[] a, long[] bits) {
    int c = 0;
    int[] out = null;
    for (int j = 0; j < a.length; j++) {
      int v = a[j];
      if ((bits[v >>> 6] & (1L << v)) != 0) {
        if (out == null) {
          out = Arrays.copyOf(a, a.length);
          c = j;
        }
      } else if (out != null) {
        out[c++] = v;
      }
    }
    return out == null ? a : Arrays.copyOf(out, c);
  }

  /** The first index in [from, end) whose bit is clear, or {@code end}. */
  static int nextClear(long[] bits, int from, int end) {
    if (from >= end) {
      return end;
    }
    int w = from >>> 6;
    long word = ~bits[w] & (-1L << from);
    while (true) {
      if (word != 0) {
        int at = (w << 6) + Long.numberOfTrailingZeros(word);
        return Math.min(at, end);
      }
      if (++w << 6 >= end) {
        return end;
      }
      word = ~bits[w];
    }
  }

  /** The ascending merge of {@code a} and {@code b[0..bn)}, both ascending and disjoint. */
  static int[] merge(int[] a, int[] b, int bn) {
    int[] out = new int[a.length + bn];
    int i = 0;
    int j = 0;
    int o = 0;
    while (i < a.length && j < bn) {
      out[o++] = a[i] < b[j] ? a[i++] : b[j++];
    }
    while (i < a.length) {
      out[o++] = a[i++];
    }
    while (j < bn) {
      out[o++] = b[j++];
    }
    return out;
  }

  /**
   * One member's claims as global partition indexes, collected in blocks (one per reported topic
   * or run of references): a claim outside its topic's range or of a topic nobody subscribes to
   * is dropped. {@link #finish} returns them distinct and ascending: as collected when they
   * already are, by topic when each block is ascending and no topic comes twice, else sorted.
   */
  private static final class Claims {
    private final AssignableTopic[] tps;
    private final int[] offset;
    private final boolean[] subscribed;
    private final long[] topicSeen; // scratch for finish(): topics of the current member's blocks
    private final int[] blockOfTopic; // scratch for finish()
    private int[] buf = new int[64];
    private int len;
    private int[] blockStart = new int[8];
    private int[] blockTopic = new int[8];
    private int blocks;
    private boolean blocksAscending; // every block strictly ascending
    private boolean inOrder; // the whole buffer strictly ascending

    Claims(AssignableTopic[] tps, int[] offset, boolean[] subscribed) {
      this.tps = tps;
      this.offset = offset;
      this.subscribed = subscribed;
      this.topicSeen = new long[(tps.length + 63) >>> 6];
      this.blockOfTopic = new int[tps.length];
    }

    void begin() {
      len = 0;
      blocks = 0;
      blocksAscending = true;
      inOrder = true;
    }

    /** The following claims are of subscribed topic {@code t}. */
    private void startBlock(int t) {
      if (blocks == blockStart.length) {
        blockStart = Arrays.copyOf(blockStart, blocks * 2);
        blockTopic = Arrays.copyOf(blockTopic, blocks * 2);
      }
      blockStart[blocks] = len;
      blockTopic[blocks++] = t;
    }

    /** A block of claims {@code ps[from..to)} of topic {@code t >= 0}. */
    void block(int t, int[] ps, int from, int to) {
      if (!subscribed[t]) {
        return;
      }
      startBlock(t);
      int n = tps[t].partitions();
      int base = offset[t];
      int count = to - from;
      if (len + count > buf.length) {
        buf = Arrays.copyOf(buf, Math.max(len + count, buf.length * 2));
      }
      int prev = len > 0 ? buf[len - 1] : -1;
      int l = len;
      int lastHere = -1;
      boolean ascending = true;
      for (int j = from; j < to; j++) {
        int p = ps[j];
        if (p >= 0 && p < n) {
          int gp = base + p;
          ascending &= gp > lastHere;
          lastHere = gp;
          buf[l++] = gp;
        }
      }
      if (!ascending) {
        blocksAscending = false;
        inOrder = false;
      } else if (l > len && buf[len] <= prev) {
        inOrder = false;
      }
      len = l;
    }

    int[] finish() {
      if (len == 0) {
        return NONE;
      }
      if (inOrder) {
        return Arrays.copyOf(buf, len);
      }
      int[] out = null;
      if (blocksAscending) {
        boolean topicTwice = false;
        for (int b = 0; b < blocks; b++) {
          int t = blockTopic[b];
          topicTwice |= (topicSeen[t >>> 6] & (1L << t)) != 0;
          topicSeen[t >>> 6] |= 1L << t;
          blockOfTopic[t] = b;
        }
        if (!topicTwice) {
          out = new int[len];
          int o = 0;
          for (int w = 0; w < topicSeen.length; w++) {
            for (long word = topicSeen[w]; word != 0; word &= word - 1) {
              int b = blockOfTopic[(w << 6) + Long.numberOfTrailingZeros(word)];
              int end = b + 1 < blocks ? blockStart[b + 1] : len;
              System.arraycopy(buf, blockStart[b], out, o, end - blockStart[b]);
              o += end - blockStart[b];
            }
          }
        }
        for (int b = 0; b < blocks; b++) {
          int t = blockTopic[b];
          topicSeen[t >>> 6] &= ~(1L << t);
        }
      }
      if (out == null) {
        out = Arrays.copyOf(buf, len);
        Arrays.sort(out);
        int c = 1;
        for (int j = 1; j < out.length; j++) {
          if (out[j] != out[c - 1]) {
            out[c++] = out[j];
          }
        }
        out = c == out.length ? out : Arrays.copyOf(out, c);
      }
      return out;
    }
  }
}
