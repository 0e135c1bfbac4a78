package io.github.routingkit.assignment;

/**
 * The steps the two builders for groups of equal subscriptions ({@link
 * EqualSubscriptionsWithoutRacks}, {@link EqualSubscriptionsWithRacks}) share: they compute what
 * the general path gives for their shape from the members' claims, without arrays of one entry
 * per partition of the group. Each subclass's {@code build()} reads its claims, sets the quotas as
 * {@link EqualSubscriptions} does, then places what the members do not keep in its own way, and
 * ends in {@link #result}. Not thread-safe; one per call.
 */
abstract class EqualSubscriptionsFromClaims {
  static final int[] NONE = {};

  final SortedGroup group;
  final GroupMember[] mem;
  final int[] offset;
  final boolean cooperative;
  private final GroupShape shape;
  /** The topics (by index) every member subscribes to. */
  boolean[] subscribed;
  /** The number of partitions of the subscribed topics. */
  long totalLoad;
  EqualSubscriptionClaims claims;
  long[] weights;
  long totalWeight;
  /** Per member how many partitions it owns (its uncontested claims). */
  long[] ownedLoad;
  long[] quota;
  // The cursor of nextNotKept().
  private int restTopic;
  private int restAt;
  private int restEnd;

  EqualSubscriptionsFromClaims(SortedGroup group, RebalanceMode mode, GroupShape shape) {
    this.group = group;
    this.mem = group.members;
    this.offset = group.offset;
    this.cooperative = mode == RebalanceMode.COOPERATIVE;
    this.shape = shape;
  }

  /** Computes the assignment. */
  abstract RebalanceResult build();

  /** The subscribed topics, their load, and every member's claims. */
  final void readClaims() {
    subscribed = group.subscribedTopics(mem[0].topics());
    totalLoad = group.partitionsOf(subscribed);
    claims = new EqualSubscriptionClaims(group, subscribed);
  }

  /** Quotas as {@link EqualSubscriptions} computes them ({@link Quotas}). */
  final void setQuotas() {
    int n = mem.length;
    weights = new long[n];
    ownedLoad = new long[n];
    for (int i = 0; i < n; i++) {
      weights[i] = mem[i].weight();
      totalWeight += weights[i];
      ownedLoad[i] = claims.won[i].length;
    }
    quota = Quotas.of(totalLoad, weights, totalWeight, ownedLoad);
  }

  /**
   * The next partition of a subscribed topic that nobody keeps, in ascending order from the
   * last one returned; only while there is one.
   */
  final int nextNotKept() {
    int gp = claims.nextNotKept(restAt, restEnd);
    while (gp >= restEnd) {
      while (!subscribed[restTopic]) {
        restTopic++;
      }
      restEnd = offset[restTopic + 1];
      gp = claims.nextNotKept(offset[restTopic], restEnd);
      restTopic++;
    }
    restAt = gp + 1;
    return gp;
  }

  /**
   * The result: member {@code i} gets {@code keep[i]} and {@code given[i][0..givenCount[i])}
   * (each ascending, disjoint), of which it owned {@code kept[i]}.
   */
  final RebalanceResult result(int[][] keep, int[][] given, int[] givenCount, int[] pending,
      int[] kept) {
    return RebalanceResult.ofKeptAndGiven(shape, group, keep, given, givenCount, pending, kept);
  }
}
