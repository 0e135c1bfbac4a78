package io.github.routingkit.assignment;

/**
 * The general path's builder for a part of the group in which every member subscribes to every
 * topic of the part, all of one weight (Kafka's "constrained" case): quotas in partitions, then
 * {@link PartitionSelector} over all the part's partitions at once. Not thread-safe; one per part.
 */
final class EqualSubscriptions {
  private final GroupIndex g;
  private final int[] cm;
  private final int[] ct;
  /** Local index of each member of the group ({@code local[cm[k]] == k}). */
  private final int[] local;
  private final long[] weights;
  private long totalWeight;
  private long totalLoad;
  private final long[] ownedLoad;
  private long[] quota;
  /** Per local member its owned partitions of the part, then (above its quota) in keep order. */
  private final int[][] won;
  private int[] parts;

  private EqualSubscriptions(GroupIndex g, int[] cm, int[] ct) {
    this.g = g;
    this.cm = cm;
    this.ct = ct;
    int n = cm.length;
    local = new int[g.mem.length];
    weights = new long[n];
    ownedLoad = new long[n];
    won = new int[n][];
  }

  /**
   * Assigns the partitions of topics {@code ct} (ascending) to members {@code cm} (canonical
   * order), each of which subscribes to all of them, by writing {@code g.target}.
   *
   * <ol>
   *   <li>Quotas: the {@code L} partitions are shared by member weight, {@code floor(L*w/W)}
   *       or one more ({@link Quotas}).</li>
   *   <li>Keep orders: a member over its quota gives up first partitions a member of a replica
   *       rack has room for, then partitions of the topics it holds most above its per-topic
   *       share, and keeps the others ({@link KeepOrder}).</li>
   *   <li>{@link PartitionSelector} with need = quota.</li>
   * </ol>
   */
  static void assign(GroupIndex g, int[] cm, int[] ct) {
    EqualSubscriptions part = new EqualSubscriptions(g, cm, ct);
    part.countOwned();
    part.setQuotas();
    part.orderWhatMembersKeep();
    part.selectPartitions();
  }

  /** Each member's weight and owned load, the part's partitions, and each member's owned ones. */
  private void countOwned() {
    int n = cm.length;
    for (int k = 0; k < n; k++) {
      local[cm[k]] = k;
      weights[k] = g.mem[cm[k]].weight();
      totalWeight += weights[k];
    }
    int[] ownedCount = new int[n];
    int partCount = 0;
    for (int t : ct) {
      partCount += g.offset[t + 1] - g.offset[t];
      for (int gp = g.offset[t]; gp < g.offset[t + 1]; gp++) {
        int o = g.owner[gp];
        if (o >= 0) {
          ownedCount[local[o]]++;
        }
      }
    }
    totalLoad = partCount;
    for (int k = 0; k < n; k++) {
      ownedLoad[k] = ownedCount[k];
      won[k] = new int[ownedCount[k]];
    }
    int[] fill = new int[n];
    parts = new int[partCount];
    int pc = 0;
    for (int t : ct) {
      for (int gp = g.offset[t]; gp < g.offset[t + 1]; gp++) {
        parts[pc++] = gp;
        int o = g.owner[gp];
        if (o >= 0) {
          int k = local[o];
          won[k][fill[k]++] = gp;
        }
      }
    }
  }

  private void setQuotas() {
    quota = Quotas.of(totalLoad, weights, totalWeight, ownedLoad);
  }

  /** The keep order of every member above its quota; the rest keep what they own as it is. */
  private void orderWhatMembersKeep() {
    int n = cm.length;
    long[] rackDemand = new long[g.rackCount];
    for (int k = 0; k < n; k++) {
      int r = g.memberRack[cm[k]];
      if (r >= 0 && ownedLoad[k] < quota[k]) {
        rackDemand[r] += quota[k] - ownedLoad[k];
      }
    }
    for (int k = 0; k < n; k++) {
      if (ownedLoad[k] > quota[k]) {
        won[k] = KeepOrder.of(g, cm[k], won[k], ownedLoad[k] - quota[k], rackDemand, totalWeight);
      }
    }
  }

  private void selectPartitions() {
    new PartitionSelector(g, cm, quota.clone(), null, true).select(parts, won);
  }
}
