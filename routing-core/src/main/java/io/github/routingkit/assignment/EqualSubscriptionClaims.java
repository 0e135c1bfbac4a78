package io.github.routingkit.assignment;

import java.util.Arrays;

/**
 * The claims of a group in which every member subscribes to the same topics and all claims are of
 * one generation, as the two equal-subscription builders read them: per member its claimed
 * partitions (global indexes, distinct, ascending) that nobody else claims, and as bits over all
 * the group's partitions which ones someone claims and which ones their owner still keeps. A
 * partition two members claim is nobody's, as in {@link GroupIndex}; a claim outside a subscribed
 * topic's range, of an unknown topic or of a topic nobody subscribes to gives no ownership (nobody
 * is given such partitions, so they cannot be pending either).
 *
 * <p>Cost {@code O(C + P/64)} for {@code C} claims and {@code P} partitions when each reported
 * topic's claims come ascending (as the adapters' own sets do), {@code O(C log C)} otherwise.
 * Not thread-safe; one per call.
 */
final class EqualSubscriptionClaims {
  private static final int[] NONE = {};

  /** Per member (canonical order) its uncontested claims, ascending. */
  final int[][] won;
  /** Bits: someone claims the partition (contested or not). */
  private final long[] claimed;
  /** Bits: the partition's owner keeps it (claimed, uncontested, not released). */
  private final long[] kept;

  /**
   * Reads every member's claims.
   *
   * @param subscribed the topics (by index) every member subscribes to
   */
  EqualSubscriptionClaims(SortedGroup group, boolean[] subscribed) {
    int n = group.members.length;
    won = new int[n][];
    claimed = new long[(group.partitionCount + 63) >>> 6];
    long[] contested = null;
    MemberClaims claims = new MemberClaims(group, subscribed);
    ClaimReader reader = new ClaimReader(group) {
      @Override
      void claims(int t, int[] ps, int from, int to) {
        claims.block(t, ps, from, to);
      }
    };
    for (int i = 0; i < n; i++) {
      claims.begin();
      group.readClaims(i, reader);
      int[] c = claims.finish();
      for (int gp : c) {
        int w = gp >>> 6;
        long bit = 1L << gp;
        if ((claimed[w] & bit) != 0) {
          if (contested == null) {
            contested = new long[claimed.length];
          }
          contested[w] |= bit;
        } else {
          claimed[w] |= bit;
        }
      }
      won[i] = c;
    }
    kept = claimed.clone();
    if (contested != null) {
      for (int i = 0; i < n; i++) {
        won[i] = without(won[i], contested);
      }
      for (int w = 0; w < kept.length; w++) {
        kept[w] &= ~contested[w];
      }
    }
  }

  /** Someone claims {@code gp}. */
  boolean isClaimed(int gp) {
    return (claimed[gp >>> 6] & (1L << gp)) != 0;
  }

  /** {@code gp}'s owner does not keep it: it is free for the builder to place. */
  void release(int gp) {
    kept[gp >>> 6] &= ~(1L << gp);
  }

  /** The first partition in {@code [from, end)} that nobody keeps, or {@code end}. */
  int nextNotKept(int from, int end) {
    if (from >= end) {
      return end;
    }
    int w = from >>> 6;
    long word = ~kept[w] & (-1L << from);
    while (true) {
      if (word != 0) {
        int at = (w << 6) + Long.numberOfTrailingZeros(word);
        return Math.min(at, end);
      }
      if (++w << 6 >= end) {
        return end;
      }
      word = ~kept[w];
    }
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

  /**
   * One member's claims as global partition indexes, collected in blocks (one per reported topic
   * or run of references): a claim outside its topic's range or of a topic nobody subscribes to
   * is dropped. {@link #finish} returns them distinct and ascending: as collected when they
   * already are, by topic when each block is ascending and no topic comes twice, else sorted.
   */
  private static final class MemberClaims {
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

    MemberClaims(SortedGroup group, boolean[] subscribed) {
      this.tps = group.topics;
      this.offset = group.offset;
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
      int[] out = blocksAscending ? byTopic() : null;
      return out != null ? out : sortedDistinct();
    }

    /** The blocks concatenated in topic order, or null if a topic came twice. */
    private int[] byTopic() {
      int[] out = null;
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
      return out;
    }

    private int[] sortedDistinct() {
      int[] out = Arrays.copyOf(buf, len);
      Arrays.sort(out);
      int c = 1;
      for (int j = 1; j < out.length; j++) {
        if (out[j] != out[c - 1]) {
          out[c++] = out[j];
        }
      }
      return c == out.length ? out : Arrays.copyOf(out, c);
    }
  }
}
