package io.github.routingkit.kafka;

import io.github.routingkit.assignment.AssignmentPolicy;
import io.github.routingkit.assignment.OwnedPartitions;
import io.github.routingkit.assignment.RebalanceMode;
import io.github.routingkit.assignment.RebalanceResult;
import java.util.Collection;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;
import org.apache.kafka.common.Configurable;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.coordinator.group.api.assignor.ConsumerGroupPartitionAssignor;
import org.apache.kafka.coordinator.group.api.assignor.GroupAssignment;
import org.apache.kafka.coordinator.group.api.assignor.GroupSpec;
import org.apache.kafka.coordinator.group.api.assignor.MemberAssignment;
import org.apache.kafka.coordinator.group.api.assignor.MemberSubscription;
import org.apache.kafka.coordinator.group.api.assignor.SubscribedTopicDescriber;

/**
 * The broker-side (KIP-848, {@code group.protocol=consumer}) form of {@link RoutingAssignor}: the
 * same {@link AssignmentPolicy} as a {@link ConsumerGroupPartitionAssignor} (kafka-group-coordinator-api
 * 4.1). Register it on the brokers with {@code group.consumer.assignors} (for example
 * {@code uniform,range,io.github.routingkit.kafka.RoutingGroupAssignor}) and select it in consumers
 * with {@code group.remote.assignor=}{@value #NAME}.
 *
 * <p>What differs from the classic assignor, because of what the broker API provides:
 * <ul>
 *   <li>The coordinator keeps the current assignment of each member and reconciles revocations
 *       itself (a partition goes to its new owner only after the old one has revoked it), so this
 *       assignor computes the target assignment directly (the policy's EAGER mode) with the current
 *       assignment as ownership; stickiness, determinism, balance and rack locality are the same.</li>
 *   <li>There is no userData: member weights come from the broker config
 *       {@value RoutingAssignorConfig#INSTANCE_WEIGHTS} by {@code group.instance.id} (others weigh
 *       1). Topics are known only by id, so per-topic weights are not supported here.</li>
 *   <li>A subscribed topic the describer does not know ({@code numPartitions == -1}) is skipped;
 *       partitions the group spec marks not assignable are left out of the result. In a member's
 *       current assignment, a topic the group does not know, a partition beyond the topic's count
 *       and a null set (which no coordinator sends) claim nothing.</li>
 * </ul>
 *
 * <p>Thread-safe: immutable after {@link #configure}; the coordinator may call {@link #assign} from
 * several threads.
 */
public final class RoutingGroupAssignor implements ConsumerGroupPartitionAssignor, Configurable {
  /** The name consumers give in {@code group.remote.assignor}. */
  public static final String NAME = "routing";

  private volatile RoutingAssignorConfig config = RoutingAssignorConfig.defaults();

  /**
   * Reads {@value RoutingAssignorConfig#INSTANCE_WEIGHTS} from the broker configs (the broker
   * passes its whole config; keys outside {@code routing.assignor.*} are ignored).
   *
   * @throws org.apache.kafka.common.config.ConfigException naming the property, the value and the
   *     rule, for a bad value, an unknown {@code routing.assignor.*} key, or a key only the classic
   *     {@link RoutingAssignor} reads ({@value RoutingAssignorConfig#WEIGHT},
   *     {@value RoutingAssignorConfig#TOPIC_WEIGHTS},
   *     {@value RoutingAssignorConfig#REBALANCE_PROTOCOL}), which would do nothing here
   */
  @Override
  public void configure(Map<String, ?> configs) {
    this.config = RoutingAssignorConfig.parseForBroker(configs);
  }

  @Override
  public String name() {
    return NAME;
  }

  /**
   * Computes the target assignment.
   *
   * @return an assignment for every member of {@code spec}; each assignable partition of a
   *     subscribed, known topic goes to exactly one subscribed member. The maps and sets are
   *     immutable; a member that keeps exactly its current assignment gets the coordinator's own
   *     map back
   */
  @Override
  public GroupAssignment assign(GroupSpec spec, SubscribedTopicDescriber topics) {
    Map<String, Integer> weights = config.instanceWeights();
    GroupStateTranslation state = new GroupStateTranslation();
    // Each topic id becomes a name once, and each distinct subscription one shared name set (the
    // policy then indexes it once), instead of once per member and partition.
    Map<Uuid, String> nameOf = new HashMap<>();
    Map<String, Uuid> idOf = new HashMap<>();
    Map<Set<Uuid>, Set<String>> sameInstance = new IdentityHashMap<>();
    Map<Set<Uuid>, Set<String>> equal = new HashMap<>();
    Set<Uuid> described = new LinkedHashSet<>();
    Collection<String> memberIds = spec.memberIds();
    String[] byPosition = new String[memberIds.size()];
    int position = 0;
    boolean anyRack = false;
    for (String id : memberIds) {
      byPosition[position++] = id;
      MemberSubscription sub = spec.memberSubscription(id);
      anyRack |= sub.rackId().isPresent();
      Set<Uuid> subscribed = sub.subscribedTopicIds();
      Set<String> names = sameInstance.get(subscribed);
      if (names == null) {
        names = equal.get(subscribed);
        if (names == null) {
          Set<String> n = new HashSet<>();
          for (Uuid t : subscribed) {
            n.add(name(t, nameOf, idOf));
            described.add(t);
          }
          names = Set.copyOf(n);
          equal.put(Set.copyOf(subscribed), names);
        }
        sameInstance.put(subscribed, names);
      }
      String instance = sub.instanceId().orElse(null);
      int weight = instance == null ? 1 : weights.getOrDefault(instance, 1);
      // The coordinator reconciles revocations itself, so all current owners are of one generation.
      // What a member owns is read by the policy below, per topic, without a PartitionRef each.
      state.member(id, instance, sub.rackId().orElse(null), weight, names, List.of(), 0);
    }
    Map<Uuid, Integer> topicPosition = new HashMap<>();
    for (Uuid t : described) {
      // Without a member rack the policy reads no replica racks: none are asked for.
      int at = state.topic(nameOf.get(t), topics.numPartitions(t),
          anyRack ? p -> topics.racksForPartition(t, p) : null, 1);
      if (at >= 0) {
        topicPosition.put(t, at);
      }
    }
    // Per member: how many partitions it owns now, and whether all of them are assignable; a member
    // that keeps exactly these gets the coordinator's own assignment object back.
    OwnedReader reader = new OwnedReader(spec, topicPosition, byPosition.length);
    RebalanceResult result = state.assign(RebalanceMode.EAGER, (member, sink) ->
        reader.read(member, spec.memberAssignment(byPosition[member]).partitions(), sink));
    int[] ownedCount = reader.total;
    boolean[] allAssignable = reader.allAssignable;
    Map<String, Integer> positionOf = new HashMap<>((int) (byPosition.length / 0.75f) + 1);
    for (int j = 0; j < byPosition.length; j++) {
      positionOf.put(byPosition[j], j);
    }
    List<String> resultTopics = result.topicNames();
    Uuid[] byIndex = new Uuid[resultTopics.size()];
    Map<Uuid, Integer> indexOf = new HashMap<>((int) (byIndex.length / 0.75f) + 1);
    for (int t = 0; t < byIndex.length; t++) {
      byIndex[t] = idOf.get(resultTopics.get(t));
      indexOf.put(byIndex[t], t);
    }
    TargetBuilder target = new TargetBuilder(spec, new TopicPartitionMap.Topics(byIndex, indexOf));
    List<String> ids = result.memberIds();
    Map<String, MemberAssignment> out = new HashMap<>((int) (ids.size() / 0.75f) + 1);
    for (int r = 0; r < ids.size(); r++) {
      String id = ids.get(r);
      Integer j = positionOf.get(id);
      Map<Uuid, Set<Integer>> current = j != null && reader.current[j] != null ? reader.current[j]
          : spec.memberAssignment(id).partitions();
      int count = result.countAt(r);
      if (j != null && allAssignable[j] && ownedCount[j] == count && result.keptCountAt(r) == count) {
        // It keeps exactly what it owns (most members, in a rebalance): nothing to build.
        out.put(id, new Partitions(current));
        continue;
      }
      out.put(id, new Partitions(target.build(result, r, current)));
    }
    return new GroupAssignment(out);
  }

  /**
   * Builds the target map of a member whose partitions change: per topic a {@link SortedIntSet}
   * over a range of one array for the member's new sets (its assignable partitions), or the
   * coordinator's own set where a topic's partitions stay as they are, in a
   * {@link TopicPartitionMap}.
   *
   * <p>Memory stays proportional to what the member holds: the new sets share one array only
   * when they use at least half of it (otherwise their values are copied into an array of just
   * them), and a set kept from an earlier assignment whose array this member now uses less than
   * half of is copied into an array of its own, so no generation leaves a mostly dead array
   * behind in the coordinator's state.
   */
  private static final class TargetBuilder implements RebalanceResult.TopicRanges {
    private final GroupSpec spec;
    private final TopicPartitionMap.Topics topics;
    private final int[] at;
    private final Set<Integer>[] sets;
    private final int[] from;
    private final int[] to;
    private int count;
    private int fresh; // values of the new sets
    private int[] values;
    private Map<Uuid, Set<Integer>> current;

    TargetBuilder(GroupSpec spec, TopicPartitionMap.Topics topics) {
      this.spec = spec;
      this.topics = topics;
      this.at = new int[topics.ids.length];
      this.sets = newSetArray(topics.ids.length);
      this.from = new int[topics.ids.length];
      this.to = new int[topics.ids.length];
    }

    Map<Uuid, Set<Integer>> build(RebalanceResult result, int member, Map<Uuid, Set<Integer>> current) {
      this.current = current;
      count = 0;
      fresh = 0;
      values = null;
      result.forEachTopicAt(member, this);
      int[] backing = values;
      boolean compact = fresh * 2 < (values == null ? 0 : values.length);
      if (compact) {
        backing = new int[fresh];
      }
      int o = 0;
      boolean kept = false;
      for (int j = 0; j < count; j++) {
        if (sets[j] != null) {
          kept = true;
          continue;
        }
        if (compact) {
          System.arraycopy(values, from[j], backing, o, to[j] - from[j]);
          sets[j] = new SortedIntSet(backing, o, o + to[j] - from[j]);
          o += to[j] - from[j];
        } else {
          sets[j] = new SortedIntSet(backing, from[j], to[j]);
        }
      }
      if (kept) {
        rehomeMostlyDead();
      }
      this.current = null;
      this.values = null;
      return new TopicPartitionMap(topics, Arrays.copyOf(at, count), Arrays.copyOf(sets, count));
    }

    /** Kept sets over arrays this member now uses less than half of get arrays of their own. */
    private void rehomeMostlyDead() {
      // Usually all kept sets share one array (the member's previous one): counted without a map.
      int[] first = null;
      int firstLive = 0;
      Map<int[], Integer> others = null;
      for (int j = 0; j < count; j++) {
        SortedIntSet s = sets[j] instanceof SortedIntSet ? (SortedIntSet) sets[j] : null;
        if (s != null && s.array() != values) {
          if (first == null || s.array() == first) {
            first = s.array();
            firstLive += s.size();
          } else {
            if (others == null) {
              others = new IdentityHashMap<>();
            }
            others.merge(s.array(), s.size(), Integer::sum);
          }
        }
      }
      if (first == null || (others == null && firstLive * 2 >= first.length)) {
        return;
      }
      for (int j = 0; j < count; j++) {
        SortedIntSet s = sets[j] instanceof SortedIntSet ? (SortedIntSet) sets[j] : null;
        if (s != null && s.array() != values) {
          int live = s.array() == first ? firstLive : others.get(s.array());
          if (live * 2 < s.array().length) {
            sets[j] = new SortedIntSet(Arrays.copyOfRange(s.array(), s.from(), s.to()));
          }
        }
      }
    }

    @Override
    public void accept(int t, int[] ps, int start, int stop) {
      values = ps;
      Uuid u = topics.ids[t];
      int end = start;
      for (int q = start; q < stop; q++) {
        int p = ps[q];
        if (spec.isPartitionAssignable(u, p)) {
          ps[end++] = p; // the array is this member's own: compact the range in place
        }
      }
      if (end > start) {
        Set<Integer> cur = current.get(u);
        at[count] = t;
        if (sameAs(cur, ps, start, end)) {
          sets[count++] = cur;
        } else {
          sets[count] = null; // made in build(), once it is known how many values are new
          from[count] = start;
          to[count++] = end;
          fresh += end - start;
        }
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static Set<Integer>[] newSetArray(int n) {
    return (Set<Integer>[]) new Set<?>[n];
  }

  /** {@code cur} holds exactly the values {@code ps[from..to)} (distinct). */
  private static boolean sameAs(Set<Integer> cur, int[] ps, int from, int to) {
    if (cur == null || cur.size() != to - from) {
      return false;
    }
    for (int j = from; j < to; j++) {
      if (!cur.contains(ps[j])) {
        return false;
      }
    }
    return true;
  }

  private static String name(Uuid t, Map<Uuid, String> nameOf, Map<String, Uuid> idOf) {
    String n = nameOf.get(t);
    if (n == null) {
      n = t.toString();
      nameOf.put(t, n);
      idOf.put(n, t);
    }
    return n;
  }

  /**
   * Hands one member's current assignment to the policy, topic by topic, through one reused
   * buffer; notes per member how many partitions it owns and whether all are assignable (and no
   * topic set is empty). {@code Map.forEach}, not an entry iterator: no wrapper per entry.
   */
  private static final class OwnedReader implements BiConsumer<Uuid, Set<Integer>> {
    private final GroupSpec spec;
    private final Map<Uuid, Integer> topicPosition;
    final int[] total;
    final boolean[] allAssignable;
    /** Each member's current assignment as the coordinator gave it, by position. */
    final Map<Uuid, Set<Integer>>[] current;
    private int[] buf = new int[64];
    private final Uuid[] seenIds;
    private final Integer[] seenPositions;
    private int index;
    private int member;
    private OwnedPartitions.Sink sink;

    OwnedReader(GroupSpec spec, Map<Uuid, Integer> topicPosition, int members) {
      this.spec = spec;
      this.topicPosition = topicPosition;
      this.total = new int[members];
      this.allAssignable = new boolean[members];
      this.seenIds = new Uuid[Math.min(topicPosition.size() + 8, 1 << 16)];
      this.seenPositions = new Integer[seenIds.length];
      @SuppressWarnings("unchecked")
      Map<Uuid, Set<Integer>>[] c = (Map<Uuid, Set<Integer>>[]) new Map<?, ?>[members];
      this.current = c;
    }

    /**
     * The topic position of {@code u}, or null: members' maps usually list their topics in the
     * same order (the coordinator's and this assignor's maps alike), so the id at the same place
     * in the previous member's map, compared by identity, is tried before the hash lookup.
     */
    private Integer position(Uuid u) {
      int k = index++;
      if (k < seenIds.length && seenIds[k] == u) {
        return seenPositions[k];
      }
      Integer t = topicPosition.get(u);
      if (k < seenIds.length) {
        seenIds[k] = u;
        seenPositions[k] = t;
      }
      return t;
    }

    void read(int member, Map<Uuid, Set<Integer>> current, OwnedPartitions.Sink sink) {
      this.index = 0;
      this.member = member;
      this.sink = sink;
      this.current[member] = current;
      allAssignable[member] = true;
      current.forEach(this);
    }

    @Override
    public void accept(Uuid u, Set<Integer> ps) {
      if (ps == null) {
        // not what a coordinator sends: read as no partition of that topic, and the member's map
        // is rebuilt rather than handed back with the null in it
        allAssignable[member] = false;
        return;
      }
      int size = ps.size();
      total[member] += size;
      boolean assignable = allAssignable[member] && size > 0; // an empty set is left out of a rebuilt one
      Integer t = position(u);
      if (t == null) {
        allAssignable[member] = assignable;
        return; // a topic nobody subscribes to, or unknown: claims nothing
      }
      if (ps instanceof SortedIntSet) {
        SortedIntSet own = (SortedIntSet) ps;
        // What this assignor gave last time, handed back as it was: read the array, no boxing.
        int[] values = own.array();
        int from = own.from();
        int to = own.to();
        for (int j = from; j < to && assignable; j++) {
          assignable = spec.isPartitionAssignable(u, values[j]);
        }
        allAssignable[member] = assignable;
        sink.accept(t, values, from, to);
        return;
      }
      if (buf.length < size) {
        buf = new int[Math.max(size, buf.length * 2)];
      }
      int c = 0;
      for (int p : ps) {
        buf[c++] = p;
        assignable = assignable && spec.isPartitionAssignable(u, p);
      }
      allAssignable[member] = assignable;
      sink.accept(t, buf, c);
    }
  }

  /** One member's target partitions by topic id. */
  private static final class Partitions implements MemberAssignment {
    private final Map<Uuid, Set<Integer>> partitions;

    private Partitions(Map<Uuid, Set<Integer>> partitions) {
      this.partitions = partitions;
    }

    public Map<Uuid, Set<Integer>> partitions() {
      return partitions;
    }

    @Override
    public boolean equals(Object o) {
      if (this == o) {
        return true;
      }
      if (!(o instanceof Partitions)) {
        return false;
      }
      Partitions other = (Partitions) o;
      return Objects.equals(partitions, other.partitions);
    }

    @Override
    public int hashCode() {
      return Objects.hashCode(partitions);
    }

    @Override
    public String toString() {
      return "Partitions[partitions=" + partitions + "]";
    }
  }
}
