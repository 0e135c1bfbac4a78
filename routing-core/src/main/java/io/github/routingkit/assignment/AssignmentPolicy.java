package io.github.routingkit.assignment;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The consumer-group assignment policy behind RoutingKit's Kafka assignors: a pure function from
 * the group state (members, their subscriptions, weights, racks and owned partitions; topics, their
 * partition counts, replica racks and weights) to the partitions each member reads.
 *
 * <h2>Guarantees</h2>
 * For members with identical subscriptions (more precisely: within each connected group of members
 * and the topics they subscribe to, when every member of it subscribes to every topic of it):
 * <ul>
 *   <li><b>Deterministic:</b> the result depends only on the group state, not on the order of
 *       {@code members} or {@code topics}, nor on hash-map or JVM iteration order. Members are put in
 *       a canonical order: by {@code groupInstanceId} (static members first), then by
 *       {@code memberId}.</li>
 *   <li><b>Balanced and weighted:</b> all subscribed topics are flattened into one list; a partition
 *       of topic {@code t} counts as load {@code t.weight()}. Total load {@code L} is shared in
 *       proportion to member weights: member {@code i} gets a quota of {@code floor(L*w_i/W)} or
 *       that plus one (largest-remainder apportionment), so its quota is within one of its share
 *       {@code L*w_i/W}; with equal weights quotas differ by at most one. With topic weights all 1,
 *       every member's partition count equals its quota. With larger topic weights, a member's load
 *       may miss its quota by less than the largest topic weight.</li>
 *   <li><b>Sticky, minimal movement:</b> every member keeps its owned partitions up to its quota
 *       (giving up first partitions that a member of a replica rack has room for, then partitions remote
 *       to the member, then the last in partition order); the +1 quotas go first to members that
 *       own more than their floor, so the number of partitions that change owner is the minimum any
 *       assignment with these quotas needs. When two members claim one partition, the claim with
 *       the higher {@code generation} wins (ties: the earlier member in canonical order).</li>
 *   <li><b>Static membership:</b> a static member that rejoins under a new {@code memberId} with
 *       the same {@code groupInstanceId} keeps its place in the canonical order; since the others
 *       keep their partitions, the partitions it left behind are the ones free for it.</li>
 *   <li><b>Rack-aware without breaking balance:</b> free partitions go first to a member with
 *       spare quota whose {@code rackId} holds a replica (most constrained partitions first), then to
 *       the member with the most spare quota. Quotas are never exceeded for locality.</li>
 *   <li><b>Cooperative safety:</b> in {@link RebalanceMode#COOPERATIVE}, a partition that any member
 *       claims is given only to the winning claimant; if the policy wants it elsewhere, it is given
 *       to nobody in this rebalance and listed in {@link GroupAssignment#pendingRevocation()}.
 *       The next rebalance (which Kafka triggers after a revocation) hands it over, because by then
 *       nobody claims it and the same quotas are computed.</li>
 * </ul>
 * Members whose subscriptions only partly overlap fall back to a greedy policy: partitions of the
 * topics with the fewest subscribers first, each to the eligible member with the lowest
 * load-to-weight ratio after taking it, the current owner kept when that does not make it the most
 * loaded choice. It is deterministic and sticky, but balance is best effort (no bound).
 *
 * <p>Cost: {@code O(P log P + M log M)} time and {@code O(P + M)} memory for {@code P} partitions and
 * {@code M} members with identical subscriptions (plus the size of the inputs); the partial-overlap
 * fallback costs {@code O(P * M)}. Partitions of topics nobody subscribes to, owned partitions of
 * unknown topics or beyond the partition count, and owned partitions of topics the member no longer
 * subscribes to are not assigned to anyone on their account (the latter still count as owned for
 * cooperative safety).
 *
 * <p>Thread-safe (stateless).
 */
public final class AssignmentPolicy {
  /** Canonical member order: static members by instance id, then everyone by member id. */
  static final Comparator<GroupMember> CANONICAL =
      Comparator.comparing(GroupMember::groupInstanceId, Comparator.nullsLast(Comparator.naturalOrder()))
          .thenComparing(GroupMember::memberId);

  private AssignmentPolicy() {}

  /**
   * Computes the assignment.
   *
   * @param members the group members, each {@code memberId} at most once
   * @param topics the topics known to the group, each name at most once
   * @param mode how partitions are handed over
   * @return the assignment of every member (see the class comment for its guarantees)
   * @throws NullPointerException if an argument or an element is null
   * @throws IllegalArgumentException if a member id or a topic name occurs twice
   */
  public static GroupAssignment assign(
      Collection<GroupMember> members, Collection<AssignableTopic> topics, RebalanceMode mode) {
    if (mode == null) {
      throw new NullPointerException("mode");
    }
    GroupMember[] mem = members.toArray(new GroupMember[0]);
    Arrays.sort(mem, CANONICAL);
    int m = mem.length;
    Set<String> ids = new HashSet<>();
    for (GroupMember g : mem) {
      if (!ids.add(g.memberId())) {
        throw new IllegalArgumentException("member id " + g.memberId() + " occurs twice");
      }
    }
    AssignableTopic[] tps = topics.toArray(new AssignableTopic[0]);
    Arrays.sort(tps, Comparator.comparing(AssignableTopic::name));
    int tc = tps.length;
    Map<String, Integer> topicIndex = new HashMap<>();
    int[] offset = new int[tc + 1];
    for (int t = 0; t < tc; t++) {
      if (topicIndex.put(tps[t].name(), t) != null) {
        throw new IllegalArgumentException("topic " + tps[t].name() + " occurs twice");
      }
      offset[t + 1] = Math.addExact(offset[t], tps[t].partitions());
    }
    int pc = offset[tc];

    // Subscriptions (existing topics only) and claims.
    BitSet[] subscribed = new BitSet[m];
    int[] owner = new int[pc];
    int[] ownerGen = new int[pc];
    boolean[] claimed = new boolean[pc];
    Arrays.fill(owner, -1);
    for (int i = 0; i < m; i++) {
      subscribed[i] = new BitSet(tc);
      for (String name : mem[i].topics()) {
        Integer t = topicIndex.get(name);
        if (t != null) {
          subscribed[i].set(t);
        }
      }
      for (PartitionRef ref : mem[i].ownedPartitions()) {
        Integer t = topicIndex.get(ref.topic());
        if (t == null || ref.partition() >= tps[t].partitions()) {
          continue;
        }
        int gp = offset[t] + ref.partition();
        claimed[gp] = true;
        if (!subscribed[i].get(t) || owner[gp] == i) {
          continue;
        }
        if (owner[gp] < 0 || mem[i].generation() > ownerGen[gp]) {
          owner[gp] = i;
          ownerGen[gp] = mem[i].generation();
        }
      }
    }

    // Connected components of the member-topic subscription graph.
    int[] parent = new int[m + tc];
    for (int i = 0; i < parent.length; i++) {
      parent[i] = i;
    }
    for (int i = 0; i < m; i++) {
      for (int t = subscribed[i].nextSetBit(0); t >= 0; t = subscribed[i].nextSetBit(t + 1)) {
        union(parent, i, m + t);
      }
    }
    Map<Integer, List<Integer>> compMembers = new HashMap<>();
    Map<Integer, List<Integer>> compTopics = new HashMap<>();
    for (int i = 0; i < m; i++) {
      compMembers.computeIfAbsent(find(parent, i), k -> new ArrayList<>()).add(i);
    }
    for (int t = 0; t < tc; t++) {
      compTopics.computeIfAbsent(find(parent, m + t), k -> new ArrayList<>()).add(t);
    }

    int[] target = new int[pc];
    Arrays.fill(target, -1);
    Ctx ctx = new Ctx(mem, tps, offset, subscribed, owner, target);
    for (Map.Entry<Integer, List<Integer>> e : compMembers.entrySet()) {
      List<Integer> ts = compTopics.get(e.getKey());
      if (ts == null) {
        continue; // members without any existing topic
      }
      int[] cm = e.getValue().stream().mapToInt(Integer::intValue).toArray(); // ascending = canonical
      int[] ct = ts.stream().mapToInt(Integer::intValue).toArray(); // ascending = by name
      boolean uniform = true;
      for (int i : cm) {
        uniform &= subscribed[i].cardinality() == ct.length;
      }
      if (uniform) {
        ctx.assignUniform(cm, ct);
      } else {
        ctx.assignGreedy(cm, ct);
      }
    }

    // Output, holding back transfers of still-owned partitions in cooperative mode.
    List<List<PartitionRef>> lists = new ArrayList<>(m);
    for (int i = 0; i < m; i++) {
      lists.add(new ArrayList<>());
    }
    Set<PartitionRef> pending = new HashSet<>();
    for (int t = 0; t < tc; t++) {
      for (int p = 0; p < tps[t].partitions(); p++) {
        int gp = offset[t] + p;
        int to = target[gp];
        if (to < 0) {
          continue;
        }
        if (mode == RebalanceMode.COOPERATIVE && claimed[gp] && owner[gp] != to) {
          pending.add(new PartitionRef(tps[t].name(), p));
        } else {
          lists.get(to).add(new PartitionRef(tps[t].name(), p));
        }
      }
    }
    Map<String, List<PartitionRef>> out = new HashMap<>();
    for (int i = 0; i < m; i++) {
      out.put(mem[i].memberId(), List.copyOf(lists.get(i)));
    }
    return new GroupAssignment(out, pending);
  }

  private static int find(int[] parent, int x) {
    while (parent[x] != x) {
      parent[x] = parent[parent[x]];
      x = parent[x];
    }
    return x;
  }

  private static void union(int[] parent, int a, int b) {
    int ra = find(parent, a);
    int rb = find(parent, b);
    if (ra != rb) {
      parent[Math.max(ra, rb)] = Math.min(ra, rb);
    }
  }

  /** Shared arrays of one {@link #assign} call. */
  private static final class Ctx {
    final GroupMember[] mem;
    final AssignableTopic[] tps;
    final int[] offset;
    final BitSet[] subscribed;
    final int[] owner;
    final int[] target;
    final int[] topicOf;

    Ctx(GroupMember[] mem, AssignableTopic[] tps, int[] offset, BitSet[] subscribed, int[] owner,
        int[] target) {
      this.mem = mem;
      this.tps = tps;
      this.offset = offset;
      this.subscribed = subscribed;
      this.owner = owner;
      this.target = target;
      this.topicOf = new int[owner.length];
      for (int t = 0; t < tps.length; t++) {
        Arrays.fill(topicOf, offset[t], offset[t + 1], t);
      }
    }

    int weightOf(int gp) {
      return tps[topicOf[gp]].weight();
    }

    boolean isLocal(int i, int gp) {
      String rack = mem[i].rackId();
      int t = topicOf[gp];
      return rack != null && tps[t].racksOf(gp - offset[t]).contains(rack);
    }

    /** Member {@code i} has a rack and partition {@code gp} has known racks, none of them that. */
    boolean isRemote(int i, int gp) {
      String rack = mem[i].rackId();
      int t = topicOf[gp];
      Set<String> racks = tps[t].racksOf(gp - offset[t]);
      return rack != null && !racks.isEmpty() && !racks.contains(rack);
    }

    /** Members {@code cm} (canonical order) all subscribe to all topics {@code ct}. */
    void assignUniform(int[] cm, int[] ct) {
      int n = cm.length;
      int[] local = new int[mem.length];
      long totalWeight = 0;
      for (int k = 0; k < n; k++) {
        local[cm[k]] = k;
        totalWeight += mem[cm[k]].weight();
      }
      long totalLoad = 0;
      long[] ownedLoad = new long[n];
      int[] ownedCount = new int[n];
      for (int t : ct) {
        for (int gp = offset[t]; gp < offset[t + 1]; gp++) {
          totalLoad += tps[t].weight();
          if (owner[gp] >= 0) {
            int k = local[owner[gp]];
            ownedLoad[k] += tps[t].weight();
            ownedCount[k]++;
          }
        }
      }

      // Quotas: largest-remainder apportionment of totalLoad by weight; the +1s go to members that
      // own more than their floor first (fewest moves), then to the largest remainders.
      long[] quota = new long[n];
      long[] rem = new long[n];
      long sumFloor = 0;
      List<Integer> candidates = new ArrayList<>();
      for (int k = 0; k < n; k++) {
        long num = Math.multiplyExact(totalLoad, (long) mem[cm[k]].weight());
        quota[k] = num / totalWeight;
        rem[k] = num % totalWeight;
        sumFloor += quota[k];
        if (rem[k] > 0) {
          candidates.add(k);
        }
      }
      long extra = totalLoad - sumFloor;
      candidates.sort(
          Comparator.<Integer>comparingInt(k -> ownedLoad[k] > quota[k] ? 0 : 1)
              .thenComparing(k -> -rem[k])
              .thenComparingInt(k -> k));
      for (int j = 0; j < extra; j++) {
        quota[candidates.get(j)]++;
      }

      // Keep owned partitions up to the quota: rack-local first, then in partition order.
      int[][] won = new int[n][];
      for (int k = 0; k < n; k++) {
        won[k] = new int[ownedCount[k]];
      }
      int[] fill = new int[n];
      for (int t : ct) {
        for (int gp = offset[t]; gp < offset[t + 1]; gp++) {
          if (owner[gp] >= 0) {
            int k = local[owner[gp]];
            won[k][fill[k]++] = gp;
          }
        }
      }
      // Spare quota per rack among members that own less than their quota: a member that must
      // give partitions up prefers ones another rack-mate of theirs can take locally.
      Map<String, long[]> rackDemand = new HashMap<>();
      for (int k = 0; k < n; k++) {
        String rack = mem[cm[k]].rackId();
        if (rack != null && ownedLoad[k] < quota[k]) {
          rackDemand.computeIfAbsent(rack, r -> new long[1])[0] += quota[k] - ownedLoad[k];
        }
      }
      long[] deficit = new long[n];
      for (int k = 0; k < n; k++) {
        int i = cm[k];
        long load = 0;
        for (int gp : keepOrder(i, won[k], ownedLoad[k] - quota[k], rackDemand)) {
          if (load + weightOf(gp) <= quota[k]) {
            load += weightOf(gp);
            target[gp] = i;
          }
        }
        deficit[k] = quota[k] - load;
      }

      // Free partitions: rack-local members with spare quota first.
      List<Integer> free = new ArrayList<>();
      for (int t : ct) {
        for (int gp = offset[t]; gp < offset[t + 1]; gp++) {
          if (target[gp] < 0) {
            free.add(gp);
          }
        }
      }
      Comparator<Integer> byDeficit =
          Comparator.<Integer>comparingLong(k -> -deficit[k]).thenComparingInt(k -> k);
      Map<String, TreeSet<Integer>> byRack = new HashMap<>();
      for (int k = 0; k < n; k++) {
        String rack = mem[cm[k]].rackId();
        if (rack != null) {
          byRack.computeIfAbsent(rack, r -> new TreeSet<>(byDeficit)).add(k);
        }
      }
      if (!byRack.isEmpty()) {
        List<int[]> rackFree = new ArrayList<>(); // {gp, number of racks with members}
        for (int gp : free) {
          int t = topicOf[gp];
          int racks = 0;
          for (String r : tps[t].racksOf(gp - offset[t])) {
            racks += byRack.containsKey(r) ? 1 : 0;
          }
          if (racks > 0) {
            rackFree.add(new int[] {gp, racks});
          }
        }
        rackFree.sort(Comparator.<int[]>comparingInt(a -> a[1])
            .thenComparingInt(a -> -weightOf(a[0]))
            .thenComparingInt(a -> a[0]));
        for (int[] a : rackFree) {
          int gp = a[0];
          int t = topicOf[gp];
          int w = weightOf(gp);
          Integer best = null;
          for (String r : tps[t].racksOf(gp - offset[t])) {
            TreeSet<Integer> set = byRack.get(r);
            if (set != null && !set.isEmpty()) {
              Integer top = set.first();
              if (deficit[top] >= w && (best == null || byDeficit.compare(top, best) < 0)) {
                best = top;
              }
            }
          }
          if (best != null) {
            TreeSet<Integer> set = byRack.get(mem[cm[best]].rackId());
            set.remove(best);
            deficit[best] -= w;
            set.add(best);
            target[gp] = cm[best];
          }
        }
      }

      // The rest: to the member with the most spare quota, heaviest partitions first.
      TreeSet<Integer> all = new TreeSet<>(byDeficit);
      for (int k = 0; k < n; k++) {
        all.add(k);
      }
      List<Integer> rest = new ArrayList<>();
      for (int gp : free) {
        if (target[gp] < 0) {
          rest.add(gp);
        }
      }
      rest.sort(Comparator.<Integer>comparingInt(gp -> -weightOf(gp)).thenComparingInt(gp -> gp));
      for (int gp : rest) {
        Integer k = all.pollFirst();
        deficit[k] -= weightOf(gp);
        all.add(k);
        target[gp] = cm[k];
      }
    }

    /**
     * The order in which member {@code i} keeps its won partitions {@code won} (in partition order)
     * when it owns {@code excess} more load than its quota. Releases, in this order: partitions
     * remote to {@code i} that a rack with spare quota holds (the move gains locality), other
     * remote ones, other ones that a rack with spare quota holds (locality unchanged), then the
     * last in partition order; it keeps the reverse. Consumes {@code rackDemand} for the releases it counts on.
     */
    int[] keepOrder(int i, int[] won, long excess, Map<String, long[]> rackDemand) {
      if (excess <= 0) {
        return won;
      }
      int[] release = new int[won.length];
      boolean[] released = new boolean[won.length];
      int r = 0;
      long releasedLoad = 0;
      for (int category = 0; category < 3 && releasedLoad < excess; category++) {
        boolean remote = category != 2;
        boolean demanded = category != 1;
        for (int j = 0; j < won.length && releasedLoad < excess; j++) {
          int gp = won[j];
          if (released[j] || isRemote(i, gp) != remote) {
            continue;
          }
          if (demanded) {
            long[] d = demandFor(gp, rackDemand);
            if (d == null) {
              continue;
            }
            d[0] -= weightOf(gp);
          }
          released[j] = true;
          release[r++] = gp;
          releasedLoad += weightOf(gp);
        }
      }
      int[] keep = new int[won.length];
      int c = 0;
      for (int j = 0; j < won.length; j++) {
        if (!released[j]) {
          keep[c++] = won[j];
        }
      }
      while (r > 0) {
        keep[c++] = release[--r];
      }
      return keep;
    }

    /** A rack holding a replica of {@code gp} with spare quota left, or null. */
    long[] demandFor(int gp, Map<String, long[]> rackDemand) {
      if (rackDemand.isEmpty()) {
        return null;
      }
      int t = topicOf[gp];
      long[] best = null;
      String bestRack = null;
      for (String rack : tps[t].racksOf(gp - offset[t])) {
        long[] d = rackDemand.get(rack);
        if (d != null && d[0] >= weightOf(gp) && (bestRack == null || rack.compareTo(bestRack) < 0)) {
          best = d;
          bestRack = rack;
        }
      }
      return best;
    }

    /** Members {@code cm} subscribe to different subsets of topics {@code ct}: greedy. */
    void assignGreedy(int[] cm, int[] ct) {
      long[] load = new long[mem.length];
      Integer[] order = Arrays.stream(ct).boxed().toArray(Integer[]::new);
      int[] subscribers = new int[tps.length];
      Map<Integer, int[]> eligible = new HashMap<>();
      for (int t : ct) {
        int[] e = Arrays.stream(cm).filter(i -> subscribed[i].get(t)).toArray();
        eligible.put(t, e);
        subscribers[t] = e.length;
      }
      Arrays.sort(order, Comparator.<Integer>comparingInt(t -> subscribers[t])
          .thenComparingInt(t -> -tps[t].weight())
          .thenComparingInt(t -> t));
      for (int t : order) {
        long w = tps[t].weight();
        int[] e = eligible.get(t);
        for (int gp = offset[t]; gp < offset[t + 1]; gp++) {
          int best = -1;
          for (int i : e) {
            if (best < 0) {
              best = i;
              continue;
            }
            // (load_i + w) / weight_i vs (load_best + w) / weight_best, exactly.
            long lhs = (load[i] + w) * mem[best].weight();
            long rhs = (load[best] + w) * mem[i].weight();
            if (lhs < rhs || (lhs == rhs && isLocal(i, gp) && !isLocal(best, gp))) {
              best = i;
            }
          }
          int o = owner[gp];
          if (o >= 0 && o != best
              && load[o] * mem[best].weight() <= (load[best] + w) * mem[o].weight()) {
            best = o;
          }
          load[best] += w;
          target[gp] = best;
        }
      }
    }
  }
}
